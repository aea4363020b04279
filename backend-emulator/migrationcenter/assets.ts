/**
 * Assets stored by executed import jobs (collection `assets`, key `{parent}/assets/{id}`), in the
 * v1alpha1 wire shape (`virtualMachineDetails`, `performanceData`, `sources`).
 *
 * An asset's id is derived from the machine id the payload gives it (`MachineId`, the VM UUID, ...),
 * so importing the same machine again updates the one asset: its details are replaced, its
 * `createTime` kept and the reporting source added to `sources`.
 */
import { createHash } from 'crypto';
import type { Store } from '../store/store';
import { invalidArgument, notFound } from '../errors';
import type { Asset } from '../import-engine/asset';
import { COLLECTIONS, RESOURCE_TYPES } from './names';
import type { AssetWire } from './types';
import { listStorePage, type ListFields, type ListRequest } from './list-query';
import { encodePageToken, listPage, type Page, type PageRequest } from '../http/paging';

export type AssetView = 'ASSET_VIEW_BASIC' | 'ASSET_VIEW_FULL';

export const ASSET_LIST_FIELDS: ListFields<AssetWire> = {
  scalars: {
    name: (a) => a.name,
    title: (a) => a.title,
    createTime: (a) => a.createTime,
    updateTime: (a) => a.updateTime,
    'virtualMachineDetails.vmName': (a) => a.virtualMachineDetails.vmName as string | undefined,
    'virtualMachineDetails.vmUuid': (a) => a.virtualMachineDetails.vmUuid as string | undefined,
    'virtualMachineDetails.coreCount': (a) => a.virtualMachineDetails.coreCount as number | undefined,
    'virtualMachineDetails.memoryMb': (a) => a.virtualMachineDetails.memoryMb as number | undefined,
    'virtualMachineDetails.osFamily': (a) => a.virtualMachineDetails.osFamily as string | undefined,
  },
  maps: { labels: (a) => a.labels, attributes: (a) => a.attributes },
  name: (a) => a.name,
};

/** The asset id for a machine id: stable, and a valid resource id whatever the machine id holds. */
export function assetId(machineId: string): string {
  return `asset-${createHash('sha256').update(machineId).digest('hex').slice(0, 32)}`;
}

export function checkAssetView(value: string | undefined): AssetView {
  if (value === undefined || value === '' || value === 'ASSET_VIEW_UNSPECIFIED' || value === 'ASSET_VIEW_BASIC' || value === 'BASIC') return 'ASSET_VIEW_BASIC';
  if (value === 'ASSET_VIEW_FULL' || value === 'FULL') return 'ASSET_VIEW_FULL';
  throw invalidArgument([{ field: 'view', description: 'must be ASSET_VIEW_BASIC or ASSET_VIEW_FULL' }]);
}

/** BASIC leaves out the performance data; FULL returns everything. */
export function assetInView(asset: AssetWire, view: AssetView): AssetWire {
  if (view === 'ASSET_VIEW_FULL') return asset;
  const { performanceData: _omit, ...basic } = asset;
  return basic;
}

/** How many assets one scan step of `listReportedBy` reads. */
const ASSET_SCAN_CHUNK = 500;

export class Assets {
  constructor(
    private readonly store: Store,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  /**
   * Writes one batch (call inside a transaction). `reporter` is the source (or, without one, the
   * import job) added to each asset's `sources`. Returns how many assets were written.
   */
  upsert(parent: string, reporter: string, batch: Asset[]): number {
    const time = this.now();
    for (const asset of batch) {
      const name = `${parent}/assets/${assetId(asset.machineId)}`;
      const previous = this.store.get<AssetWire>(COLLECTIONS.assets, name);
      const attributes: Record<string, string> = { ...(asset.attributes ?? {}) };
      if (attributes.MachineId === undefined) attributes.MachineId = asset.machineId;
      const title = asset.virtualMachineDetails?.vmName;
      const wire: AssetWire = {
        name,
        createTime: previous?.createTime ?? time,
        updateTime: time,
        ...(title !== undefined ? { title } : {}),
        labels: { ...(asset.labels ?? {}) },
        attributes,
        sources: previous ? [...new Set([...previous.sources, reporter])] : [reporter],
        // The engine writes Google's v1alpha1 shape (import-engine/asset.ts): stored as it is.
        virtualMachineDetails: asset.virtualMachineDetails as unknown as Record<string, unknown>,
        ...(asset.performanceData ? { performanceData: asset.performanceData as unknown as Record<string, unknown> } : {}),
      };
      this.store.put(COLLECTIONS.assets, name, wire);
    }
    return batch.length;
  }

  /** GetAsset in the requested `view` (default BASIC). */
  get(name: string, view?: string): AssetWire {
    const asset = this.store.get<AssetWire>(COLLECTIONS.assets, name);
    if (!asset) throw notFound(RESOURCE_TYPES.asset, name);
    return assetInView(asset, checkAssetView(view));
  }

  /** ListAssets in the requested `view` (default BASIC), in the wire shape. */
  list(parent: string, request: ListRequest, view?: string): { assets: AssetWire[]; nextPageToken?: string } {
    const checked = checkAssetView(view);
    const page = listStorePage(this.store, COLLECTIONS.assets, `${parent}/assets/`, request, ASSET_LIST_FIELDS, `assets:${parent}`);
    return { assets: page.items.map((a) => assetInView(a, checked)), ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
  }

  /** Every asset of every project, in BASIC view, by name (the console's list). */
  listAll(page: PageRequest): Page<AssetWire> {
    const result = listPage<AssetWire>(this.store, COLLECTIONS.assets, '', page);
    return { items: result.items.map((e) => assetInView(e.value, 'ASSET_VIEW_BASIC')), nextPageToken: result.nextPageToken };
  }

  /**
   * The assets of `parent` that `reporter` (a source, or an import job without one) reported, in
   * BASIC view: a keyset scan of the parent's assets in chunks, so a page costs O(assets scanned).
   */
  listReportedBy(parent: string, reporter: string, page: PageRequest): Page<AssetWire> {
    const prefix = `${parent}/assets/`;
    const found: Array<{ key: string; value: AssetWire }> = [];
    let after = page.after;
    for (;;) {
      const chunk = this.store.list<AssetWire>(COLLECTIONS.assets, { prefix, after, limit: ASSET_SCAN_CHUNK });
      for (const entry of chunk) {
        if (Array.isArray(entry.value.sources) && entry.value.sources.includes(reporter)) found.push(entry);
        if (found.length > page.pageSize) break;
      }
      if (found.length > page.pageSize || chunk.length < ASSET_SCAN_CHUNK) break;
      after = chunk[chunk.length - 1].key;
    }
    const items = found.slice(0, page.pageSize);
    return {
      items: items.map((e) => assetInView(e.value, 'ASSET_VIEW_BASIC')),
      ...(found.length > page.pageSize ? { nextPageToken: encodePageToken(items[items.length - 1].key, page.scope) } : {}),
    };
  }

  count(): number {
    return this.store.count(COLLECTIONS.assets);
  }
}
