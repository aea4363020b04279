/**
 * Assets stored by executed import jobs (the store's asset table, store/asset-store.ts; name
 * `{parent}/assets/{id}`), read in the v1alpha1 wire shape (`virtualMachineDetails`,
 * `performanceData`, `sources`). Lists filter, order and aggregate in SQL on the table's indexes.
 *
 * An asset's id is derived from the machine id the payload gives it (`MachineId`, the VM UUID, ...),
 * so importing the same machine again updates the one asset: its details are replaced, its
 * `createTime` kept and the reporting source added to `sources`.
 */
import { createHash } from 'crypto';
import type { Store } from '../../store/store';
import { invalidArgument, notFound } from '../../errors';
import type { Asset } from '../../import-engine/asset';
import { RESOURCE_TYPES } from '../names';
import type { AssetWire } from '../types';
import {
  keysetPage,
  parseFilter,
  parsePageSize,
  queryHash,
  readPageToken,
  writePageToken,
  type FilterNode,
  type KeysetPageRequest,
  type ListPage,
  type ListRequest,
} from '../../query/list-query';
import type { AssetKey, AssetRow, StoredAsset } from '../../store/asset-store';
import { isAssetKey, wireTime } from '../../store/asset-sql';
import { assetFieldPaths, storedFilter, storedOrder, type AssetFieldPaths } from './asset-field-paths';
import type { WireVersion } from '../wire-version';
import { checkAggregations, toAggregationResults, type AggregateRequest, type AggregateResponse } from './asset-aggregations';

export type AssetView = 'ASSET_VIEW_BASIC' | 'ASSET_VIEW_FULL';

/**
 * PAGE_BODY_BYTES: a list page ends early once its assets' stored JSON reaches this length, with a
 * `nextPageToken` (AIP-158: a page may hold fewer items than `pageSize`). An asset's attributes
 * can be large: 100 assets of 1 MiB each made a 103 MB answer, held the request thread 2.9 s and
 * took the emulator from 165 to 708 MB (a page of 1,000 would take gigabytes). Google's own bound,
 * if any, is not published (docs/emulator.md, known differences).
 */
export const PAGE_BODY_BYTES = 8 * 1024 * 1024;

/** Machine ids that are already valid in a resource id after `vm-` (lowercase, digits, '-'; 60 characters at most). */
const PLAIN_MACHINE_ID = /^[a-z0-9]([a-z0-9-]{0,58}[a-z0-9])?$/;

/**
 * The asset id for a machine id: stable, and a valid resource id whatever the machine id holds.
 * A machine id that fits one is kept, readable, as `vm-{machineId}`: assets then sort (and are
 * inserted into the name index) in the payload's order, not at random places, which is most of
 * the cost of a large run. Any other id is hashed: `asset-{32 hex}` (the prefixes never meet).
 */
export function assetId(machineId: string): string {
  if (PLAIN_MACHINE_ID.test(machineId)) return `vm-${machineId}`;
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

/**
 * The details held in typed columns, in Google's field order; the body keeps the others. (The
 * disk capacity, `vmDisks.hddTotalCapacityBytes`, has a column too, put back into `vmDisks`.)
 */
export const DETAIL_COLUMNS = ['vmUuid', 'vmName', 'coreCount', 'memoryMb', 'powerState', 'osFamily'] as const;

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined);
/** An int64 as ProtoJSON writes it (a decimal string) that a column holds exactly; undefined otherwise. */
const int64 = (v: unknown): number | undefined => {
  if (typeof v !== 'string') return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) && String(n) === v ? n : undefined;
};

/** Whether `o` has an own key (without allocating the list of them). */
export function hasKeys(o: object): boolean {
  for (const key in o) if (Object.prototype.hasOwnProperty.call(o, key)) return true;
  return false;
}

/**
 * The stored row of an asset the engine built: the indexed details in typed columns (and not
 * again in the body), the rest as compact JSON.
 *
 * Called once per imported machine (hundreds of thousands in a run), on an asset nothing else
 * holds: it reads the asset's own objects into the body without copying them (the copies, spreads
 * and key lists it used to make cost as much as the JSON text itself). It never modifies them.
 */
export function assetRow(asset: Asset): AssetRow {
  const details = (asset.virtualMachineDetails ?? {}) as unknown as Record<string, unknown>;
  const vmUuid = text(details.vmUuid);
  const vmName = text(details.vmName);
  const coreCount = int(details.coreCount);
  const memoryMb = int(details.memoryMb);
  const powerState = text(details.powerState);
  const osFamily = text(details.osFamily);
  const disks = details.vmDisks as Record<string, unknown> | undefined;
  const diskBytes = disks !== null && typeof disks === 'object' ? int64(disks.hddTotalCapacityBytes) : undefined;
  // The details not held in a column (a column's key whose value does not fit the column stays here).
  const rest: Record<string, unknown> = {};
  for (const key in details) {
    const value = details[key];
    switch (key) {
      case 'vmUuid':
      case 'vmName':
      case 'powerState':
      case 'osFamily':
        if (text(value) !== undefined) continue;
        break;
      case 'coreCount':
      case 'memoryMb':
        if (int(value) !== undefined) continue;
        break;
      case 'vmDisks':
        // The disks without the capacity held in its column (kept, even empty, for the key's place).
        if (diskBytes !== undefined) {
          const others: Record<string, unknown> = {};
          for (const k in disks) if (k !== 'hddTotalCapacityBytes') others[k] = disks[k];
          rest[key] = others;
          continue;
        }
        break;
    }
    rest[key] = value;
  }
  // `MachineId` is usually the VM UUID: then it is left out, and put back from the column on read.
  // In the common case (no MachineId attribute, the machine id is the VM UUID) the attributes are
  // stored as they are; otherwise a copy gets MachineId added (at the end) or removed.
  const given = asset.attributes ?? {};
  let attributes = given;
  if (given.MachineId === undefined) {
    if (asset.machineId !== vmUuid) attributes = { ...given, MachineId: asset.machineId };
  } else if (given.MachineId === vmUuid) {
    attributes = { ...given };
    delete attributes.MachineId;
  }
  const labels = asset.labels ?? {};
  const body: StoredBody = { a: attributes, d: rest };
  if (hasKeys(labels)) body.l = labels;
  // The engine writes Google's v1alpha1 shape (import-engine/asset.ts): stored as it is.
  if (asset.performanceData) body.p = asset.performanceData as unknown as Record<string, unknown>;
  return { id: assetId(asset.machineId), vmUuid, vmName, coreCount, memoryMb, powerState, osFamily, diskBytes, labels, body: JSON.stringify(body) };
}

/**
 * An asset's JSON body, with one-letter keys (hundreds of thousands of rows): `a` attributes
 * (without `MachineId` when it equals the VM UUID), `d` the details not in columns, `l` labels
 * (when any), `p` performance data (when any), `n` set when a user's patch took `MachineId` out of
 * the attributes (it is then not put back from the VM UUID).
 */
export interface StoredBody {
  a: Record<string, string>;
  d: Record<string, unknown>;
  l?: Record<string, string>;
  p?: Record<string, unknown>;
  n?: 1;
}

/** A stored asset's `attributes` on the wire: `MachineId` put back from the VM UUID unless a user took it out. */
export function wireAttributes(stored: StoredAsset): Record<string, string> {
  const body = stored.body as unknown as StoredBody;
  const attributes = { ...body.a };
  if (attributes.MachineId === undefined && stored.vmUuid !== undefined && body.n === undefined) attributes.MachineId = stored.vmUuid;
  return attributes;
}

/** A stored asset's `virtualMachineDetails` on the wire: the typed details put back first, then the body's. */
export function wireDetails(stored: StoredAsset): Record<string, unknown> {
  const body = stored.body as unknown as StoredBody;
  const details: Record<string, unknown> = {};
  // Indexed, not for-of: this runs for each asset of a page or a batch, often before it is optimised.
  for (let i = 0; i < DETAIL_COLUMNS.length; i++) {
    const key = DETAIL_COLUMNS[i];
    if (stored[key] !== undefined) details[key] = stored[key];
  }
  if (stored.diskBytes === undefined && !hasKeys(body.d)) return details;
  const rest =
    stored.diskBytes === undefined
      ? body.d
      : { ...body.d, vmDisks: { hddTotalCapacityBytes: String(stored.diskBytes), ...(body.d.vmDisks as Record<string, unknown> | undefined) } };
  return { ...details, ...rest };
}

/**
 * A stored asset in the wire shape (fields in Google's order). asset-text.ts writes the same
 * asset as ProtoJSON text: a field added here is added there.
 */
export function toWire(stored: StoredAsset): AssetWire {
  const body = stored.body as unknown as StoredBody;
  return {
    name: stored.name,
    createTime: wireTime(stored.createTime),
    updateTime: wireTime(stored.updateTime),
    ...(stored.vmName !== undefined ? { title: stored.vmName } : {}),
    labels: body.l ?? {},
    attributes: wireAttributes(stored),
    sources: stored.sources,
    ...(stored.groups.length > 0 ? { assignedGroups: stored.groups } : {}),
    virtualMachineDetails: wireDetails(stored),
    ...(body.p ? { performanceData: body.p } : {}),
  };
}

function storedFilterOf(paths: AssetFieldPaths, text: string | undefined): FilterNode | undefined {
  const trimmed = (text ?? '').trim();
  const parsed = trimmed ? parseFilter(trimmed) : undefined;
  return parsed && storedFilter(paths, parsed);
}

export class Assets {
  constructor(
    private readonly store: Store,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  /**
   * Writes one batch (call inside a transaction): new assets inserted many to a statement, no read
   * of the previous row. `reporter` is the source (or, without one, the import job) added to each
   * asset's `sources`. Returns how many assets were written.
   */
  upsert(parent: string, reporter: string, batch: Asset[]): number {
    return this.upsertRows(parent, reporter, batch.map(assetRow));
  }

  /** The stored row of an asset (`upsertRows` writes it): what a run keeps of each asset until its batch is written. */
  row(asset: Asset): AssetRow {
    return assetRow(asset);
  }

  /** `upsert` of assets already made rows (`row`). */
  upsertRows(parent: string, reporter: string, rows: AssetRow[]): number {
    this.store.assets.upsert(parent, reporter, Date.parse(this.now()), rows);
    return rows.length;
  }

  /** GetAsset in the requested `view` (default BASIC). */
  get(name: string, view?: string): AssetWire {
    const checked = checkAssetView(view);
    const asset = this.store.assets.get(name);
    if (!asset) throw notFound(RESOURCE_TYPES.asset, name);
    return assetInView(toWire(asset), checked);
  }

  /** An asset in the FULL view, or undefined. */
  find(name: string): AssetWire | undefined {
    const asset = this.store.assets.get(name);
    return asset ? toWire(asset) : undefined;
  }

  /**
   * ListAssets in the requested `view` (default BASIC), in the wire shape: filter and orderBy run
   * as SQL on the asset table's indexes; the page token is the last item's (order key, tie-break).
   */
  list(parent: string, request: ListRequest, view?: string, version?: WireVersion): { assets: AssetWire[]; nextPageToken?: string } {
    const checked = checkAssetView(view);
    const pageSize = parsePageSize(request.pageSize);
    const filterText = (request.filter ?? '').trim();
    const orderText = (request.orderBy ?? '').trim();
    // Field names in the request's version (v1: `machineDetails.coreCount`), or in `version`'s (an
    // export job's, whichever version runs it), read as the stored fields.
    const paths = assetFieldPaths(version);
    const filter = storedFilterOf(paths, filterText);
    const order = storedOrder(paths, orderText);
    const hash = queryHash(filterText, orderText.replace(/\s+/g, ' '), `assets:${parent}`);
    let after: AssetKey | undefined;
    if (request.pageToken) {
      // Every value of the key is checked against its field's type (and the tie-break: the asset
      // id without orderBy, the row id with one): a forged key is INVALID_ARGUMENT, never SQL.
      const body = readPageToken(request.pageToken, hash, (k) => isAssetKey(order, k));
      after = body.k as AssetKey;
    }
    const { items, more } = this.store.assets.page({ parent, filter, order, after, limit: pageSize, maxBodyBytes: PAGE_BODY_BYTES });
    const out: { assets: AssetWire[]; nextPageToken?: string } = { assets: items.map((r) => assetInView(toWire(r.asset), checked)) };
    if (more) out.nextPageToken = writePageToken(hash, items[items.length - 1].key);
    return out;
  }

  /** AggregateAssetsValues: count, sum, histogram and frequency over the assets the filter selects. */
  aggregateValues(parent: string, body: Record<string, unknown>): AggregateResponse {
    const request = body as AggregateRequest;
    if (request.filter !== undefined && request.filter !== null && typeof request.filter !== 'string')
      throw invalidArgument([{ field: 'filter', description: 'must be a string (an AIP-160 filter)' }]);
    if (request.showHidden !== undefined && request.showHidden !== null && typeof request.showHidden !== 'boolean')
      throw invalidArgument([{ field: 'showHidden', description: 'must be true or false' }]);
    const paths = assetFieldPaths();
    const aggregations = checkAggregations(request, paths);
    const filter = storedFilterOf(paths, request.filter ?? undefined);
    return toAggregationResults(aggregations, this.store.assets.aggregate(parent, filter, aggregations), paths);
  }

  /**
   * Takes a deleted source (or import job) out of every asset's `sources` (inside the delete's
   * transaction): the assets stay, as on Google, and never name what no longer exists.
   */
  forgetReporter(reporter: string): number {
    return this.store.assets.removeReporter(reporter);
  }

  /** Every asset of every project, in BASIC view, by name (the console's list). */
  listAll(page: KeysetPageRequest): ListPage<AssetWire> {
    return this.basicPage(
      keysetPage(
        page,
        (after, limit) => this.store.assets.pageAll(after, limit),
        (a) => a.name,
      ),
    );
  }

  /** The assets of `parent` that `reporter` (a source, or an import job without one) reported, in BASIC view, by name. */
  listReportedBy(parent: string, reporter: string, page: KeysetPageRequest): ListPage<AssetWire> {
    return this.basicPage(
      keysetPage(
        page,
        (after, limit) => this.store.assets.pageReportedBy(parent, reporter, after, limit),
        (a) => a.name,
      ),
    );
  }

  private basicPage(page: ListPage<StoredAsset>): ListPage<AssetWire> {
    return {
      items: page.items.map((a) => assetInView(toWire(a), 'ASSET_VIEW_BASIC')),
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
    };
  }

  count(): number {
    return this.store.assets.count();
  }
}
