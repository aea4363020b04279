/**
 * The store's table of Migration Center assets, apart from the generic documents: assets come by
 * the hundred thousand, and lists filter, order and aggregate them, so the fields they filter and
 * order on are typed, indexed columns and the rest of each asset is one compact JSON body.
 *
 * Filters arrive parsed (list-query.ts `parseFilter`) and orderings as field names of
 * `ASSET_FIELDS`; the store translates them to SQL and refuses, with INVALID_ARGUMENT, what it
 * cannot serve from an index.
 */
import type { FilterNode } from '../query/list-query';

/** How a filterable field compares: as text, as a number, or as an instant. */
export type AssetFieldType = 'text' | 'int' | 'time';

/** The scalar fields of an asset that filters, orderings and aggregations may name. */
export const ASSET_FIELDS: Readonly<Record<string, AssetFieldType>> = {
  name: 'text',
  title: 'text',
  createTime: 'time',
  updateTime: 'time',
  'virtualMachineDetails.vmName': 'text',
  'virtualMachineDetails.vmUuid': 'text',
  'virtualMachineDetails.coreCount': 'int',
  'virtualMachineDetails.memoryMb': 'int',
  'virtualMachineDetails.osFamily': 'text',
  'virtualMachineDetails.powerState': 'text',
  'virtualMachineDetails.vmDisks.hddTotalCapacityBytes': 'int',
};

/** One asset to write: its id under the parent, its indexed fields, and its JSON body. */
export interface AssetRow {
  id: string;
  vmName?: string;
  vmUuid?: string;
  coreCount?: number;
  memoryMb?: number;
  osFamily?: string;
  powerState?: string;
  /** `virtualMachineDetails.vmDisks.hddTotalCapacityBytes` (an int64 string on the wire). */
  diskBytes?: number;
  labels: Record<string, string>;
  /** The rest of the asset (labels, attributes, the other details, performance data) as JSON text. */
  body: string;
}

/** A patch of one asset: its new labels and the body that holds them (AssetRow's `body` format). */
export interface AssetBodyChange {
  labels: Record<string, string>;
  /** The labels the asset had (its body's, as read): only the labels that differ are written. */
  previousLabels: Record<string, string>;
  body: string;
}

/** One stored asset as read back. */
export interface StoredAsset {
  name: string;
  /** Milliseconds since the epoch. */
  createTime: number;
  updateTime: number;
  vmName?: string;
  vmUuid?: string;
  coreCount?: number;
  memoryMb?: number;
  osFamily?: string;
  powerState?: string;
  diskBytes?: number;
  sources: string[];
  /** The groups the asset is a member of (its `assignedGroups`), by name. */
  groups: string[];
  body: Record<string, unknown>;
}

export interface AssetOrder {
  field: string;
  desc: boolean;
}

export type AssetKey = Array<string | number | null>;

export interface AssetQuery {
  parent: string;
  filter?: FilterNode;
  order: AssetOrder[];
  /** The key (order values, then the asset id) of the last item of the previous page. */
  after?: AssetKey;
  /** The most assets of the page. */
  limit: number;
  /**
   * The page also ends once its assets' stored bodies reach this many bytes (at least one asset a
   * page): a page's memory and answer are bounded by bytes, not only by count (AIP-158 lets a page
   * hold fewer items than asked; its `more` then says the list goes on).
   */
  maxBodyBytes?: number;
}

/** One page of assets with each item's page key, and whether assets follow it. */
export interface AssetPage {
  items: Array<{ asset: StoredAsset; key: AssetKey }>;
  more: boolean;
}

export interface AssetAggregation {
  field: string;
  kind: 'count' | 'sum' | 'histogram' | 'frequency';
  lowerBounds?: number[];
}

export type AssetAggregateResult =
  | { kind: 'count'; value: number }
  | { kind: 'sum'; value: number }
  | { kind: 'histogram'; counts: number[] }
  | { kind: 'frequency'; values: Array<[string, number]> };

/** What a report needs of the assets of some groups (each asset once, whatever its groups). */
export interface GroupStatsRequest {
  groups: string[];
  /** Histogram lower bounds (rising), per field: n bounds count n+1 buckets, the first from 0. */
  coreBounds: number[];
  memoryMbBounds: number[];
  diskBytesBounds: number[];
}

export interface GroupStats {
  assets: number;
  cores: number;
  memoryMb: number;
  diskBytes: number;
  /** The free bytes the assets' disks report (`vmDisks.hddTotalFreeBytes`), over the assets that report them. */
  diskFreeBytes: number;
  /** Memory in use: each asset's memory times its mean daily average utilisation (100% without performance data). */
  memoryUsedMb: number;
  coreBuckets: number[];
  memoryBuckets: number[];
  diskBuckets: number[];
  /** Assets by `osFamily` (null: not known), most first. */
  osFamilies: Array<[string | null, number]>;
}

/** Assets of the same size: a report sizes each shape once. */
export interface AssetShape {
  cores: number | null;
  memoryMb: number | null;
  assets: number;
}

export interface AssetStore {
  /** Inserts or updates each asset of `parent` by id, adding `reporter` to its sources (call inside a transaction). */
  upsert(parent: string, reporter: string, time: number, rows: AssetRow[]): void;
  get(name: string): StoredAsset | undefined;
  /** One page of `query` with each item's page key. */
  page(query: AssetQuery): AssetPage;
  /** Every asset of every parent in name order, after `afterName`. */
  pageAll(afterName: string | undefined, limit: number): StoredAsset[];
  /** The assets of `parent` that `reporter` reported, in name order, after `afterName`. */
  pageReportedBy(parent: string, reporter: string, afterName: string | undefined, limit: number): StoredAsset[];
  aggregate(parent: string, filter: FilterNode | undefined, aggregations: AssetAggregation[]): AssetAggregateResult[];
  /**
   * A user's change of existing assets of `parent` (call inside a transaction): reads the assets
   * with these ids (distinct; one query, whatever their number), asks `changesOf` for their new
   * labels and bodies (it may throw: nothing is written then), and writes them with updateTime
   * `time`. The typed columns, the sources and createTime stay. `found[i]` is the asset of
   * `ids[i]` (undefined when there is none), and the change at `i` is that asset's.
   */
  updateBodies(parent: string, ids: string[], time: number, changesOf: (found: ReadonlyArray<StoredAsset | undefined>) => AssetBodyChange[]): void;
  /**
   * Deletes assets of `parent` by id, and every row keyed by them in the other asset tables
   * (ASSET_KEYED_TABLES of sqlite-assets.ts), in the caller's transaction. Returns the ids that existed.
   */
  deleteByIds(parent: string, ids: string[]): string[];
  /** Takes `reporter` out of every asset's sources; returns how many assets it left. */
  removeReporter(reporter: string): number;
  count(): number;
  /**
   * Refreshes the query planner's statistics of the asset tables (ANALYZE: a whole pass over the
   * assets). A run's writer does it at the run's end, on its own connection.
   */
  refreshStatistics(): void;
  /**
   * Loads the statistics another connection of this process refreshed (a run the import worker
   * wrote), which this connection would not read until its next schema change (call inside a
   * transaction: it is a small write). Cheap: nothing is analyzed.
   */
  reloadStatistics(): void;
  /**
   * Drops the named indexes, each one a run may drop (DEFERRABLE_INDEXES of sqlite-assets.ts: the
   * four low-cardinality fields', the VM name's and UUID's), in the caller's transaction: a large
   * run writes without them and builds them at its end (run-writer.ts). Their filters and
   * orderings scan meanwhile. Throws for any other name.
   */
  dropIndexes(names: readonly string[]): void;
  /** Which of those indexes the database lacks, by name (none: []). */
  missingDeferrableIndexes(): string[];
  /** Builds one of those indexes if the database lacks it (call inside a transaction). */
  buildIndex(name: string): void;

  // Group membership (groups/): `aids` are asset ids under `parent`, the group's location.
  /** Of `aids`: those that are no asset of `parent`, and those already members of `group`. */
  membership(group: string, parent: string, aids: string[]): { unknown: string[]; members: string[] };
  /** Makes the existing assets of `aids` members of `group` (members already stay); returns how many joined. */
  addMembers(group: string, parent: string, aids: string[]): number;
  /** Takes the assets of `aids` out of `group`; returns how many left. */
  removeMembers(group: string, parent: string, aids: string[]): number;
  /** Ends every membership of `group` (the group is deleted); returns how many there were. */
  dropGroup(group: string): number;
  /**
   * Takes the assets of `aids` out of every group: call it, in the same transaction, BEFORE deleting
   * those assets' rows (asset delete and batchDelete), so that no membership outlives its asset.
   */
  leaveGroups(parent: string, aids: string[]): number;
  /** How many assets `group` has. */
  memberCount(group: string): number;
  /** Totals, histograms and OS counts over the assets of `groups` (SQL over the membership index). */
  groupStats(request: GroupStatsRequest): GroupStats;
  /** The assets of `groups` counted by (cores, memory). */
  groupShapes(groups: string[]): AssetShape[];
  /** `EXPLAIN QUERY PLAN` of the page query (for the tests that keep the indexes used). */
  explain(query: AssetQuery): string[];
  clear(): void;
}
