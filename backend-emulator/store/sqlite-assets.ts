/**
 * The SQLite asset table (AssetStore), in the store's database, so that asset writes join the
 * store's transactions (a run's batch and its progress record commit together).
 *
 *   asset_parents(id, name)     parents, interned: an asset row holds a small integer
 *   asset_reporters(id, name)   sources (or import jobs) that reported assets, interned
 *   assets(id, parent, aid, create_ms, update_ms, vm_name, vm_uuid, core_count, memory_mb,
 *          os_family, power_state, body, disk_bytes)   one row per asset, unique on (parent, aid);
 *                                      an index (parent, field) per field, which ends with the row
 *                                      id (the tie-break)
 *                                      (but disk_bytes: see DISK_BYTES_HAS_NO_INDEX)
 *   asset_sources(asset, reporter)         an asset's `sources`, both ways indexed
 *   asset_labels(asset, key, value)        for `labels` filters, indexed by (key, value)
 *   asset_groups(id, name)                 groups that have members, interned
 *   asset_members(grp, asset)              group membership (an asset's `assignedGroups`), both ways
 *                                          indexed: a group's assets for reports and `assignedGroups:`
 *                                          filters, an asset's groups for its wire shape
 *
 * New assets are inserted many to a statement (INSERT OR IGNORE on (parent, aid)); an asset stored
 * already is then updated by its row id, its createTime kept. No read of the previous row in the
 * common case; each asset's reporter is added to asset_sources.
 *
 * A database made before a column existed gets it on open (`ALTER TABLE ... ADD COLUMN`, before
 * the indexes): its rows hold NULL there until imported again (disk_bytes: the wire value stays
 * in their body, so they read as they were written).
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { FilterNode } from '../query/list-query';
import type {
  AssetAggregateResult,
  AssetAggregation,
  AssetBodyChange,
  AssetPage,
  AssetQuery,
  AssetRow,
  AssetShape,
  AssetStore,
  GroupStats,
  GroupStatsRequest,
  StoredAsset,
} from './asset-store';
import { ASSET_COLUMNS, AssetSqlCompiler, assetName, orderSql, wireValue, type SqlPart, type SqlValue } from './asset-sql';

const TABLES = `
CREATE TABLE IF NOT EXISTS asset_parents (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS asset_reporters (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS assets (
  id INTEGER PRIMARY KEY,
  parent INTEGER NOT NULL,
  aid TEXT NOT NULL,
  create_ms INTEGER NOT NULL,
  update_ms INTEGER NOT NULL,
  vm_name TEXT, vm_uuid TEXT, core_count INTEGER, memory_mb INTEGER, os_family TEXT, power_state TEXT,
  body TEXT NOT NULL,
  disk_bytes INTEGER
);
CREATE TABLE IF NOT EXISTS asset_sources (asset INTEGER NOT NULL, reporter INTEGER NOT NULL, PRIMARY KEY (asset, reporter)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS asset_labels (asset INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (asset, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS asset_groups (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS asset_members (grp INTEGER NOT NULL, asset INTEGER NOT NULL, PRIMARY KEY (grp, asset)) WITHOUT ROWID;
`;

/**
 * Every table whose `asset` column holds an `assets.id`: deleting an asset deletes its rows from
 * each, in the same transaction (`deleteByIds`), so that nothing names an asset that is gone.
 * A table added later with rows keyed by asset (group memberships, ...) joins this list.
 */
export const ASSET_KEYED_TABLES: readonly string[] = ['asset_labels', 'asset_sources', 'asset_members'];

/**
 * DISK_BYTES_HAS_NO_INDEX: the disk capacity is a column (filters, orderings and aggregations read
 * it) without an index. Byte counts are many distinct values: each batch of a run dirtied one leaf
 * page of such an index per distinct value, all written to the WAL at the batch's commit, and
 * `:run` of 600,000 machines went from 1.40-1.51x to 1.92-1.96x the bare import floor. A filter or
 * ordering on it scans the parent's assets instead (about a second at 600,000).
 */

/** Columns added after the table's first version: added on open to a table made without them. */
const ADDED_COLUMNS: ReadonlyArray<[name: string, type: string]> = [['disk_bytes', 'INTEGER']];

/**
 * LOW_CARDINALITY_INDEXES: the indexes of the four fields with few distinct values, [name, column].
 * A new asset goes to the end of its value's run, in the middle of each of these trees, where every
 * page split is SQLite's full rebalance: they were about 28% of a run's SQL (docs/benchmarks.md).
 * A large run drops them and builds them at its end (run-writer.ts, DEFER_INDEXES_AFTER_ROWS): a
 * build sorts the whole table once, for about half of what the row-by-row inserts cost. Every
 * open of the store's first connection makes any that is missing (a run killed before its end).
 */
export const LOW_CARDINALITY_INDEXES: ReadonlyArray<readonly [name: string, column: string]> = [
  ['assets_by_core_count', 'core_count'],
  ['assets_by_memory_mb', 'memory_mb'],
  ['assets_by_os_family', 'os_family'],
  ['assets_by_power_state', 'power_state'],
];

/**
 * MACHINE_KEY_INDEXES: the indexes of the VM's name and UUID, [name, column, the AssetRow field].
 * Real exports list machines in no order of either (random UUIDs): each new asset then lands on a
 * random leaf of both trees, and once they outgrow the writer's page cache every batch re-reads
 * and rewrites most of their leaves (600,000 assets: the writer's CPU 31 s with them against 13 s
 * without, docs/benchmarks.md). A large run whose keys come out of order drops them too and builds
 * them at its end (run-writer.ts); keys in order only append, and keep their index.
 */
export const MACHINE_KEY_INDEXES: ReadonlyArray<readonly [name: string, column: string, field: 'vmName' | 'vmUuid']> = [
  ['assets_by_vm_name', 'vm_name', 'vmName'],
  ['assets_by_vm_uuid', 'vm_uuid', 'vmUuid'],
];

/** The indexes a run may drop and build at its end: every open of the first connection makes any that is missing. */
export const DEFERRABLE_INDEXES: ReadonlyArray<readonly [name: string, column: string]> = [
  ...MACHINE_KEY_INDEXES.map(([name, column]) => [name, column] as const),
  ...LOW_CARDINALITY_INDEXES,
];

function indexSql([name, column]: readonly [string, string]): string {
  return `CREATE INDEX IF NOT EXISTS ${name} ON assets (parent, ${column});`;
}

const INDEXES = `
CREATE UNIQUE INDEX IF NOT EXISTS assets_by_id ON assets (parent, aid);
${DEFERRABLE_INDEXES.map(indexSql).join('\n')}
CREATE INDEX IF NOT EXISTS assets_by_create_time ON assets (parent, create_ms);
CREATE INDEX IF NOT EXISTS assets_by_update_time ON assets (parent, update_ms);
CREATE INDEX IF NOT EXISTS asset_sources_by_reporter ON asset_sources (reporter, asset);
CREATE INDEX IF NOT EXISTS asset_labels_by_key ON asset_labels (key, value, asset);
CREATE INDEX IF NOT EXISTS asset_members_by_asset ON asset_members (asset, grp);
`;

const SELECT =
  'SELECT a.id, p.name AS parent, a.aid, a.create_ms, a.update_ms, a.vm_name, a.vm_uuid, a.core_count, a.memory_mb, a.os_family, a.power_state, a.disk_bytes, a.body FROM assets a JOIN asset_parents p ON p.id = a.parent';

interface Row {
  id: number;
  parent: string;
  aid: string;
  create_ms: number;
  update_ms: number;
  vm_name: string | null;
  vm_uuid: string | null;
  core_count: number | null;
  memory_mb: number | null;
  os_family: string | null;
  power_state: string | null;
  disk_bytes: number | null;
  body: string;
  [column: string]: unknown;
}

/** Splits `{parent}/assets/{id}`; undefined for any other name. */
function splitName(name: string): { parent: string; id: string } | undefined {
  const at = name.lastIndexOf('/assets/');
  if (at <= 0) return undefined;
  return { parent: name.slice(0, at), id: name.slice(at + '/assets/'.length) };
}

/** The asset tables and their indexes as this store makes them (the asset-batches bench's bare transaction uses the same). */
export const ASSET_TABLES_SQL = `${TABLES}\n${INDEXES}`;

/** The columns of an asset row an insert binds. */
const INSERT_COLUMNS = 12;

/**
 * INSERT_ROWS_PER_STATEMENT: the most assets one insert statement writes. A statement call per
 * asset (and its 12 binds, each a crossing from JavaScript into SQLite) was a large part of a run's
 * writer thread: a probe of 200,000 full-shape rows, 8 MB cache, took 1.90 to 2.19 CPU-s one row a
 * statement, 1.66 to 1.69 s at 32 rows, 1.68 to 1.73 s at 16, and 1.86 to 2.00 s at 64 (a larger
 * statement's program is longer to prepare and to step through than the calls it saves). The
 * writer thread's work for 200,000 such rows (deserialize, unpack, upsert, 4 batches a commit) went
 * from 2.67 to 2.76 CPU-s to 2.25 to 2.41 s.
 */
const INSERT_ROWS_PER_STATEMENT = 32;

function hasKeys(o: Record<string, string>): boolean {
  for (const _ in o) return true;
  return false;
}

/** The most prepared statements a store keeps (each SQL shape of filters and orderings is one). */
const MAX_CACHED_STATEMENTS = 200;

export class SqliteAssetStore implements AssetStore {
  /** The insert of `n` rows in one statement, by n (INSERT_ROWS_PER_STATEMENT and the batches' remainders), prepared once each. */
  private readonly insertRows = new Map<number, BetterSqlite3.Statement>();
  /** The arguments of a many-row insert, reused (INSERT_COLUMNS per row). */
  private readonly insertArgs: SqlValue[] = [];
  private readonly updateRow: BetterSqlite3.Statement;
  private readonly addSources: BetterSqlite3.Statement;
  private readonly dropLabels: BetterSqlite3.Statement;
  private readonly addLabel: BetterSqlite3.Statement;
  /** Prepared statements by their SQL (see `statement`). */
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  /** Assets written since the planner's statistics were last refreshed (a hint: kept across rollbacks). */
  private writtenSinceAnalyze = 0;
  private analyzedCount = 0;
  private readonly analyzeAsItGrows: boolean;

  /**
   * `cacheKiB`: the connection's page cache (see below); a run's writer connection takes less.
   * `analyzeAsItGrows` (the default): the planner's statistics are refreshed as the table grows
   * (`upsert`). A run's writer connection leaves that to the run's end (`refreshStatistics`): each
   * ANALYZE reads the whole table, and inside the writer's transactions it held the write lock.
   * `makeIndexes` (the default): the indexes are made if missing. A second connection leaves that to
   * the first, which made them when it opened: one opened while a run has dropped the four
   * low-cardinality ones (a report's, another run's) would otherwise build them in the middle of it.
   */
  constructor(
    private readonly db: BetterSqlite3.Database,
    { cacheKiB = 32_768, analyzeAsItGrows = true, makeIndexes = true }: { cacheKiB?: number; analyzeAsItGrows?: boolean; makeIndexes?: boolean } = {},
  ) {
    this.analyzeAsItGrows = analyzeAsItGrows;
    db.exec(TABLES);
    const columns = new Set((db.pragma('table_info(assets)') as Array<{ name: string }>).map((c) => c.name));
    for (const [name, type] of ADDED_COLUMNS) if (!columns.has(name)) db.exec(`ALTER TABLE assets ADD COLUMN ${name} ${type}`);
    if (makeIndexes) db.exec(INDEXES);
    // Ten indexes take random inserts during a run: a larger page cache keeps their hot pages.
    db.pragma(`cache_size = -${cacheKiB}`);
    // A new asset is a plain insert (the common case: an upsert with RETURNING costs twice as
    // much in SQLite; `insertOf`); an asset imported again is an update of its row.
    this.updateRow = db.prepare(
      `UPDATE assets SET update_ms = ?, vm_name = ?, vm_uuid = ?, core_count = ?, memory_mb = ?, os_family = ?, power_state = ?, disk_bytes = ?, body = ?
       WHERE id = ?`,
    );
    // One statement per batch for the sources (the asset ids as a JSON array): the same rows as one
    // insert per asset, without a statement call per asset (measured: 8% of a batch's writes).
    this.addSources = db.prepare('INSERT OR IGNORE INTO asset_sources (asset, reporter) SELECT value, ? FROM json_each(?)');
    this.dropLabels = db.prepare('DELETE FROM asset_labels WHERE asset = ?');
    this.addLabel = db.prepare('INSERT OR REPLACE INTO asset_labels (asset, key, value) VALUES (?, ?, ?)');
  }

  /**
   * The prepared statement of `sql`, prepared once: SQLite compiles a statement each time it is
   * prepared, and the reads and writes of a request (a page, a batch) prepare several. Filters
   * and orderings make SQL of their own shape, so the cache is bounded (emptied when full).
   */
  private statement(sql: string): BetterSqlite3.Statement {
    let prepared = this.statements.get(sql);
    if (prepared === undefined) {
      if (this.statements.size >= MAX_CACHED_STATEMENTS) this.statements.clear();
      prepared = this.db.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  /**
   * The id of an interned name, created on first use when `create`. Looked up every time (one
   * indexed read per batch or query): a cache could outlive a rolled-back transaction.
   */
  private intern(table: 'asset_parents' | 'asset_reporters' | 'asset_groups', name: string, create: boolean): number | undefined {
    const found = this.statement(`SELECT id FROM ${table} WHERE name = ?`).get(name) as { id: number } | undefined;
    if (found) return found.id;
    if (!create) return undefined;
    return Number(this.statement(`INSERT INTO ${table} (name) VALUES (?)`).run(name).lastInsertRowid);
  }

  /** The insert of `n` new rows in one statement (INSERT OR IGNORE: an asset stored already is left to `settle`). */
  private insertOf(n: number): BetterSqlite3.Statement {
    let prepared = this.insertRows.get(n);
    if (prepared === undefined) {
      const values = new Array<string>(n).fill(`(${new Array<string>(INSERT_COLUMNS).fill('?').join(', ')})`).join(', ');
      prepared = this.db.prepare(
        `INSERT OR IGNORE INTO assets (parent, aid, create_ms, update_ms, vm_name, vm_uuid, core_count, memory_mb, os_family, power_state, disk_bytes, body) VALUES ${values}`,
      );
      this.insertRows.set(n, prepared);
    }
    return prepared;
  }

  /**
   * Writes the rows in statements of INSERT_ROWS_PER_STATEMENT rows each (see there).
   * A statement that inserts all its rows gave them consecutive row ids (SQLite gives a new row
   * the largest row id plus one), the last of which it reports; one that did not (assets stored
   * already, or an id twice in it) has its rows settled one by one by `settle`.
   */
  upsert(parent: string, reporter: string, time: number, rows: AssetRow[]): void {
    const parentId = this.intern('asset_parents', parent, true)!;
    const reporterId = this.intern('asset_reporters', reporter, true)!;
    const ids: number[] = new Array(rows.length);
    const args = this.insertArgs;
    for (let start = 0; start < rows.length; start += INSERT_ROWS_PER_STATEMENT) {
      const end = Math.min(start + INSERT_ROWS_PER_STATEMENT, rows.length);
      const n = end - start;
      args.length = n * INSERT_COLUMNS;
      let a = 0;
      for (let i = start; i < end; i++) {
        const r = rows[i];
        args[a++] = parentId;
        args[a++] = r.id;
        args[a++] = time;
        args[a++] = time;
        args[a++] = r.vmName ?? null;
        args[a++] = r.vmUuid ?? null;
        args[a++] = r.coreCount ?? null;
        args[a++] = r.memoryMb ?? null;
        args[a++] = r.osFamily ?? null;
        args[a++] = r.powerState ?? null;
        args[a++] = r.diskBytes ?? null;
        args[a++] = r.body;
      }
      const inserted = this.insertOf(n).run(args);
      const firstNew = Number(inserted.lastInsertRowid) - inserted.changes + 1;
      if (inserted.changes === n) {
        for (let i = start; i < end; i++) ids[i] = firstNew + (i - start);
        for (let i = start; i < end; i++) if (hasKeys(rows[i].labels)) this.addLabels(ids[i], rows[i].labels);
      } else {
        this.settle(parentId, time, rows, start, end, inserted.changes === 0 ? Infinity : firstNew, ids);
      }
    }
    args.length = 0; // the batch's bodies are not kept until the next one
    this.addSources.run(reporterId, JSON.stringify(ids));
    this.writtenSinceAnalyze += rows.length;
    if (this.analyzeAsItGrows && this.writtenSinceAnalyze > Math.max(1000, this.analyzedCount)) this.analyze();
  }

  /**
   * The rows `start` to `end` after an insert of them that left some out: each is found by its
   * id; one the insert made (a row id from `firstNew` on, the first time its id comes) is new, and
   * any other is an asset imported again, updated in its turn, as if written one after the other.
   */
  private settle(parentId: number, time: number, rows: AssetRow[], start: number, end: number, firstNew: number, ids: number[]): void {
    const aids = new Array<string>(end - start);
    for (let i = start; i < end; i++) aids[i - start] = rows[i].id;
    const found = this.statement('SELECT j.key AS at, a.id FROM json_each(?) j CROSS JOIN assets a ON a.parent = ? AND a.aid = j.value').all(
      JSON.stringify(aids),
      parentId,
    ) as Array<{ at: number; id: number }>;
    const rowIdAt = new Array<number>(end - start);
    for (const f of found) rowIdAt[f.at] = f.id;
    const made = new Set<number>();
    for (let i = start; i < end; i++) {
      const r = rows[i];
      const id = rowIdAt[i - start];
      ids[i] = id;
      if (id >= firstNew && !made.has(id)) {
        made.add(id);
      } else {
        const vmName = r.vmName ?? null;
        this.updateRow.run(
          time,
          vmName,
          r.vmUuid ?? null,
          r.coreCount ?? null,
          r.memoryMb ?? null,
          r.osFamily ?? null,
          r.powerState ?? null,
          r.diskBytes ?? null,
          r.body,
          id,
        );
        this.dropLabels.run(id);
      }
      if (hasKeys(r.labels)) this.addLabels(id, r.labels);
    }
  }

  private addLabels(id: number, labels: Record<string, string>): void {
    for (const key of Object.keys(labels)) this.addLabel.run(id, key, labels[key]);
  }

  /**
   * Refreshes the query planner's statistics of the asset indexes, once the table has grown
   * noticeably: with them, SQLite walks the index of a selective filter (`vmName = x`) and the
   * name index for a filter most assets pass (`osFamily = ...`). Each index is sampled, but the
   * table's row count is exact: a whole pass over it (about 90 to 160 ms at 300,000 assets on a
   * loaded machine, 800 ms on a connection whose cache holds none of it).
   */
  refreshStatistics(): void {
    this.analyze();
  }

  dropIndexes(names: readonly string[]): void {
    for (const name of names) {
      if (!DEFERRABLE_INDEXES.some(([n]) => n === name)) throw new Error(`${name} is not an index a run may drop`);
      this.db.exec(`DROP INDEX IF EXISTS ${name}`);
    }
  }

  missingDeferrableIndexes(): string[] {
    const present = new Set(this.statement("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'assets'").pluck().all() as string[]);
    return DEFERRABLE_INDEXES.map(([name]) => name).filter((name) => !present.has(name));
  }

  buildIndex(name: string): void {
    const index = DEFERRABLE_INDEXES.find(([n]) => n === name);
    if (index === undefined) throw new Error(`${name} is not an index a run builds at its end`);
    this.db.exec(indexSql(index));
  }

  reloadStatistics(): void {
    // ANALYZE of the schema table analyzes nothing: it makes the connection read the statistics
    // tables again (a write: the caller's transaction).
    this.db.exec('ANALYZE sqlite_schema');
    this.writtenSinceAnalyze = 0;
    this.analyzedCount = this.analyzedRowCount();
  }

  private analyze(): void {
    this.db.pragma('analysis_limit = 1000');
    this.db.exec('ANALYZE assets; ANALYZE asset_labels; ANALYZE asset_sources');
    this.writtenSinceAnalyze = 0;
    this.analyzedCount = this.analyzedRowCount();
  }

  /** The assets' row count as the last ANALYZE recorded it (the first number of each index's stat), without counting them again. */
  private analyzedRowCount(): number {
    const stat = this.statement("SELECT stat FROM sqlite_stat1 WHERE tbl = 'assets' LIMIT 1").pluck().get() as string | undefined;
    return stat === undefined ? 0 : Number.parseInt(stat, 10);
  }

  /** The sources of each asset of `ids` (row ids, distinct; as a JSON list), by reporter, in the order of `ids`. */
  private sourcesOf(ids: string, count: number): Array<string[] | undefined> {
    return this.namesByAsset(
      'SELECT j.key AS at, r.name FROM json_each(?) j CROSS JOIN asset_sources s ON s.asset = j.value JOIN asset_reporters r ON r.id = s.reporter ORDER BY j.key, s.reporter',
      ids,
      count,
    );
  }

  /** The groups of each asset of `ids` (as `sourcesOf`), by group name. */
  private groupsOf(ids: string, count: number): Array<string[] | undefined> {
    return this.namesByAsset(
      'SELECT j.key AS at, g.name FROM json_each(?) j CROSS JOIN asset_members m ON m.asset = j.value JOIN asset_groups g ON g.id = m.grp ORDER BY j.key, g.name',
      ids,
      count,
    );
  }

  /**
   * The names `sql` (`SELECT at, name ... json_each(?) j CROSS JOIN ...`, `at` the place in `ids`,
   * in order; CROSS JOIN keeps the list as the outer loop, each id then found by its index)
   * gives each asset of `ids`, placed by index: an asset without any is undefined. (A map by row
   * id, and an iterator over the rows, were a tenth of a 1,000-asset read's garbage.)
   */
  private namesByAsset(sql: string, ids: string, count: number): Array<string[] | undefined> {
    const out = new Array<string[] | undefined>(count);
    if (count === 0) return out;
    const rows = this.statement(sql).all(ids) as Array<{ at: number; name: string }>;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const list = out[row.at];
      if (list) list.push(row.name);
      else out[row.at] = [row.name];
    }
    return out;
  }

  /** The assets of `rows`; `parent` when the rows were read without their parent's name (it is the same for all). */
  private read(rows: Row[], parent?: string): StoredAsset[] {
    const ids = new Array<number>(rows.length);
    for (let i = 0; i < rows.length; i++) ids[i] = rows[i].id;
    const idList = JSON.stringify(ids);
    const sources = this.sourcesOf(idList, rows.length);
    const groups = this.groupsOf(idList, rows.length);
    return rows.map((r, i) => {
      // Fields assigned one by one (not spread from temporary objects): this runs once per asset read.
      const asset = { name: assetName(parent ?? r.parent, r.aid), createTime: r.create_ms, updateTime: r.update_ms } as StoredAsset;
      if (r.vm_name !== null) asset.vmName = r.vm_name;
      if (r.vm_uuid !== null) asset.vmUuid = r.vm_uuid;
      if (r.core_count !== null) asset.coreCount = r.core_count;
      if (r.memory_mb !== null) asset.memoryMb = r.memory_mb;
      if (r.os_family !== null) asset.osFamily = r.os_family;
      if (r.power_state !== null) asset.powerState = r.power_state;
      if (r.disk_bytes !== null) asset.diskBytes = r.disk_bytes;
      asset.sources = sources[i] ?? [];
      asset.groups = groups[i] ?? [];
      asset.body = JSON.parse(r.body) as Record<string, unknown>;
      return asset;
    });
  }

  get(name: string): StoredAsset | undefined {
    const split = splitName(name);
    if (!split) return undefined;
    const row = this.statement(`${SELECT} WHERE p.name = ? AND a.aid = ?`).get(split.parent, split.id) as Row | undefined;
    return row ? this.read([row])[0] : undefined;
  }

  private where(parent: string, filter: FilterNode | undefined, extra: SqlPart[] = []): SqlPart {
    const parts: SqlPart[] = [{ sql: 'a.parent = ?', params: [this.intern('asset_parents', parent, false) ?? -1] }];
    if (filter) parts.push(new AssetSqlCompiler(parent).filter(filter));
    parts.push(...extra);
    return { sql: parts.map((p) => p.sql).join(' AND '), params: parts.flatMap((p) => p.params) };
  }

  private pageSql(query: AssetQuery): SqlPart {
    const order = orderSql(query.order, query.after);
    const where = this.where(query.parent, query.filter, order.after ? [order.after] : []);
    const keyCols = query.order.map((o, i) => `, ${ASSET_COLUMNS[o.field]} AS k${i}`).join('');
    // (SELECT already reads a.id: the tie-break of ordered lists.)
    return {
      sql: `${SELECT.replace(' FROM', `${keyCols} FROM`)} WHERE ${where.sql} ORDER BY ${order.orderBy} LIMIT ?`,
      params: [...where.params, query.limit],
    };
  }

  /**
   * Reads one row past the page (LIMIT limit + 1) to tell whether more follow; rows are read one by
   * one, so a page that reaches `maxBodyBytes` stops there: a page of large assets never holds
   * more than the budget and one asset in memory.
   */
  page(query: AssetQuery): AssetPage {
    const { sql, params } = this.pageSql({ ...query, limit: query.limit + 1 });
    const budget = query.maxBodyBytes ?? Infinity;
    const rows: Row[] = [];
    let bytes = 0;
    let more = false;
    for (const row of this.statement(sql).iterate(...params) as IterableIterator<Row>) {
      if (rows.length === query.limit || bytes >= budget) {
        more = true;
        break; // (leaving the loop resets the statement)
      }
      rows.push(row);
      bytes += row.body.length;
    }
    const assets = this.read(rows);
    const tie = (r: Row) => (query.order.length > 0 ? r.id : r.aid);
    return { items: rows.map((r, i) => ({ asset: assets[i], key: [...query.order.map((_, k) => r[`k${k}`] as SqlValue), tie(r)] })), more };
  }

  explain(query: AssetQuery): string[] {
    const { sql, params } = this.pageSql(query);
    return (this.statement(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail);
  }

  pageAll(afterName: string | undefined, limit: number): StoredAsset[] {
    const split = afterName === undefined ? undefined : splitName(afterName);
    const rows = (
      split
        ? this.statement(`${SELECT} WHERE p.name > ? OR (p.name = ? AND a.aid > ?) ORDER BY p.name, a.aid LIMIT ?`).all(
            split.parent,
            split.parent,
            split.id,
            limit,
          )
        : this.statement(`${SELECT} ORDER BY p.name, a.aid LIMIT ?`).all(limit)
    ) as Row[];
    return this.read(rows);
  }

  pageReportedBy(parent: string, reporter: string, afterName: string | undefined, limit: number): StoredAsset[] {
    const reporterId = this.intern('asset_reporters', reporter, false);
    if (reporterId === undefined) return [];
    const after = afterName === undefined ? undefined : splitName(afterName)?.id;
    const where = this.where(parent, undefined, [
      { sql: 'EXISTS (SELECT 1 FROM asset_sources s WHERE s.asset = a.id AND s.reporter = ?)', params: [reporterId] },
      ...(after !== undefined ? [{ sql: 'a.aid > ?', params: [after] }] : []),
    ]);
    const rows = this.statement(`${SELECT} WHERE ${where.sql} ORDER BY a.aid LIMIT ?`).all(...where.params, limit) as Row[];
    return this.read(rows);
  }

  aggregate(parent: string, filter: FilterNode | undefined, aggregations: AssetAggregation[]): AssetAggregateResult[] {
    const where = this.where(parent, filter);
    const from = `FROM assets a WHERE ${where.sql}`;
    return aggregations.map((agg): AssetAggregateResult => {
      const col = ASSET_COLUMNS[agg.field];
      switch (agg.kind) {
        case 'count': {
          const row = this.statement(`SELECT count(${col}) AS n ${from}`).get(...where.params) as { n: number };
          return { kind: 'count', value: row.n };
        }
        case 'sum': {
          const row = this.statement(`SELECT total(${col}) AS n ${from}`).get(...where.params) as { n: number };
          return { kind: 'sum', value: row.n };
        }
        case 'histogram': {
          const bounds = agg.lowerBounds ?? [];
          const buckets = [`sum(${col} < ?)`, ...bounds.map((_, i) => (i + 1 < bounds.length ? `sum(${col} >= ? AND ${col} < ?)` : `sum(${col} >= ?)`))];
          const params: SqlValue[] = [bounds[0] ?? Infinity, ...bounds.flatMap((b, i) => (i + 1 < bounds.length ? [b, bounds[i + 1]] : [b]))];
          if (bounds.length === 0) {
            buckets[0] = `count(${col})`;
            params.length = 0;
          }
          const row = this.statement(`SELECT ${buckets.map((b, i) => `${b} AS b${i}`).join(', ')} ${from}`).get(...params, ...where.params) as Record<
            string,
            number | null
          >;
          return { kind: 'histogram', counts: buckets.map((_, i) => row[`b${i}`] ?? 0) };
        }
        case 'frequency': {
          const rows = this.statement(`SELECT ${col} AS v, count(*) AS n ${from} AND ${col} IS NOT NULL GROUP BY ${col} ORDER BY ${col}`).all(
            ...where.params,
          ) as Array<{
            v: string | number;
            n: number;
          }>;
          return { kind: 'frequency', values: rows.map((r) => [wireValue(agg.field, parent, r.v), r.n]) };
        }
      }
    });
  }

  /**
   * One bulk read finds the rows (the whole assets, for `changesOf`, with their row ids); then
   * each row is written by its id. The rows are found once: reading them for the change and again
   * for the write cost a second lookup of 1,000 (parent, aid) keys. The parent is known, so the
   * rows are read without its name. Each row comes with its place in `ids` (`json_each`'s key; a
   * CROSS JOIN keeps the list as the outer loop, each id found by the (parent, aid) index), so the
   * assets and their changes are matched by index: two maps of 1,000 keys were most of the read's
   * garbage after the rows themselves. Only the labels that changed are written (a key dropped is
   * deleted, a key added or given a new value replaced), against the labels the change says the
   * asset had (its body's, which asset_labels mirrors: both are written together, here and in
   * `upsert`), so an update that keeps the labels writes none and no label is read.
   */
  updateBodies(parent: string, ids: string[], time: number, changesOf: (found: ReadonlyArray<StoredAsset | undefined>) => AssetBodyChange[]): void {
    const parentId = this.intern('asset_parents', parent, false);
    const rows =
      parentId === undefined || ids.length === 0
        ? []
        : (this.statement(
            'SELECT j.key AS at, a.id, a.aid, a.create_ms, a.update_ms, a.vm_name, a.vm_uuid, a.core_count, a.memory_mb, a.os_family, a.power_state, a.disk_bytes, a.body FROM json_each(?) j CROSS JOIN assets a ON a.parent = ? AND a.aid = j.value',
          ).all(JSON.stringify(ids), parentId) as Array<Row & { at: number }>);
    const assets = this.read(rows, parent);
    const found = new Array<StoredAsset | undefined>(ids.length);
    const rowIds = new Array<number | undefined>(ids.length);
    for (let i = 0; i < rows.length; i++) {
      found[rows[i].at] = assets[i];
      rowIds[rows[i].at] = rows[i].id;
    }
    const changes = changesOf(found);
    if (rows.length === 0) return;
    const update = this.statement('UPDATE assets SET update_ms = ?, body = ? WHERE id = ?');
    const dropLabel = this.statement('DELETE FROM asset_labels WHERE asset = ? AND key = ?');
    const hasOwn = Object.prototype.hasOwnProperty;
    // The labels added or changed, [row id, key, value] each: written by one statement at the end
    // (a statement call per label was most of the label writes' time).
    const setLabels: Array<[number, string, string]> = [];
    for (let i = 0; i < changes.length; i++) {
      const change = changes[i];
      const id = rowIds[i];
      if (id === undefined) continue;
      update.run(time, change.body, id);
      const before = change.previousLabels;
      const after = change.labels;
      for (const key in before) if (!hasOwn.call(after, key)) dropLabel.run(id, key);
      for (const key in after) if (!hasOwn.call(before, key) || before[key] !== after[key]) setLabels.push([id, key, after[key]]);
    }
    if (setLabels.length > 0)
      this.statement('INSERT OR REPLACE INTO asset_labels (asset, key, value) SELECT l.value ->> 0, l.value ->> 1, l.value ->> 2 FROM json_each(?) l').run(
        JSON.stringify(setLabels),
      );
  }

  deleteByIds(parent: string, ids: string[]): string[] {
    const parentId = this.intern('asset_parents', parent, false);
    if (parentId === undefined || ids.length === 0) return [];
    // The rows' ids, found once through the (parent, aid) index; every keyed table then by them.
    const found = this.statement('SELECT a.id, a.aid FROM assets a WHERE a.parent = ? AND a.aid IN (SELECT value FROM json_each(?))').all(
      parentId,
      JSON.stringify(ids),
    ) as Array<{ id: number; aid: string }>;
    if (found.length === 0) return [];
    const rowIds = JSON.stringify(found.map((r) => r.id));
    for (const table of ASSET_KEYED_TABLES) this.statement(`DELETE FROM ${table} WHERE asset IN (SELECT value FROM json_each(?))`).run(rowIds);
    this.statement('DELETE FROM assets WHERE id IN (SELECT value FROM json_each(?))').run(rowIds);
    return found.map((r) => r.aid);
  }

  removeReporter(reporter: string): number {
    const id = this.intern('asset_reporters', reporter, false);
    if (id === undefined) return 0;
    const n = this.statement('DELETE FROM asset_sources WHERE reporter = ?').run(id).changes;
    this.statement('DELETE FROM asset_reporters WHERE id = ?').run(id);
    return n;
  }

  count(): number {
    return (this.statement('SELECT count(*) AS n FROM assets').get() as { n: number }).n;
  }

  // ------------------------------------------------------------------ group membership

  /** The row ids of the named assets of `parent` (ids under it), by asset id; an unknown id is absent. */
  private rowIds(parent: string, aids: string[]): Map<string, number> {
    const parentId = this.intern('asset_parents', parent, false);
    const out = new Map<string, number>();
    if (parentId === undefined || aids.length === 0) return out;
    const rows = this.statement('SELECT a.aid, a.id FROM assets a WHERE a.parent = ? AND a.aid IN (SELECT value FROM json_each(?))').all(
      parentId,
      JSON.stringify(aids),
    ) as Array<{ aid: string; id: number }>;
    for (const r of rows) out.set(r.aid, r.id);
    return out;
  }

  membership(group: string, parent: string, aids: string[]): { unknown: string[]; members: string[] } {
    const ids = this.rowIds(parent, aids);
    const groupId = this.intern('asset_groups', group, false);
    const memberIds = new Set<number>();
    if (groupId !== undefined && ids.size > 0) {
      const rows = this.statement('SELECT asset FROM asset_members WHERE grp = ? AND asset IN (SELECT value FROM json_each(?))').all(
        groupId,
        JSON.stringify([...ids.values()]),
      ) as Array<{ asset: number }>;
      for (const r of rows) memberIds.add(r.asset);
    }
    return {
      unknown: aids.filter((aid) => !ids.has(aid)),
      members: aids.filter((aid) => ids.has(aid) && memberIds.has(ids.get(aid)!)),
    };
  }

  addMembers(group: string, parent: string, aids: string[]): number {
    const ids = [...this.rowIds(parent, aids).values()];
    if (ids.length === 0) return 0;
    const groupId = this.intern('asset_groups', group, true)!;
    return this.statement('INSERT OR IGNORE INTO asset_members (grp, asset) SELECT ?, value FROM json_each(?)').run(groupId, JSON.stringify(ids)).changes;
  }

  removeMembers(group: string, parent: string, aids: string[]): number {
    const groupId = this.intern('asset_groups', group, false);
    if (groupId === undefined) return 0;
    const ids = [...this.rowIds(parent, aids).values()];
    return this.statement('DELETE FROM asset_members WHERE grp = ? AND asset IN (SELECT value FROM json_each(?))').run(groupId, JSON.stringify(ids)).changes;
  }

  dropGroup(group: string): number {
    const groupId = this.intern('asset_groups', group, false);
    if (groupId === undefined) return 0;
    const n = this.statement('DELETE FROM asset_members WHERE grp = ?').run(groupId).changes;
    this.statement('DELETE FROM asset_groups WHERE id = ?').run(groupId);
    return n;
  }

  leaveGroups(parent: string, aids: string[]): number {
    const ids = [...this.rowIds(parent, aids).values()];
    if (ids.length === 0) return 0;
    return this.statement('DELETE FROM asset_members WHERE asset IN (SELECT value FROM json_each(?))').run(JSON.stringify(ids)).changes;
  }

  memberCount(group: string): number {
    const groupId = this.intern('asset_groups', group, false);
    if (groupId === undefined) return 0;
    return (this.statement('SELECT count(*) AS n FROM asset_members WHERE grp = ?').get(groupId) as { n: number }).n;
  }

  // ------------------------------------------------------------------ reports

  /** The assets of `groups`, each once: `a.id IN (members)`, read from the (grp, asset) index. */
  private static readonly MEMBERS_OF =
    'a.id IN (SELECT m.asset FROM asset_members m WHERE m.grp IN (SELECT g.id FROM asset_groups g WHERE g.name IN (SELECT value FROM json_each(?))))';

  /**
   * One pass over the members for the totals and the three histograms (a `sum(col >= bound)` per
   * bound: bucket i is the difference of two of them), one more for the OS families.
   */
  groupStats(request: GroupStatsRequest): GroupStats {
    const groups = JSON.stringify(request.groups);
    const from = `FROM assets a WHERE ${SqliteAssetStore.MEMBERS_OF}`;
    const atLeast = (col: string, bounds: number[], key: string) => bounds.map((b, i) => `sum(${col} >= ${Number(b)}) AS ${key}${i}`);
    // An asset's memory use: the mean of its daily average utilisations (NULL without performance data).
    const memoryUse =
      "(SELECT avg(json_extract(d.value, '$.memory.utilizationPercentage.average')) FROM json_each(a.body, '$.p.dailyResourceUsageAggregations') d)";
    const columns = [
      'count(*) AS assets',
      'total(a.core_count) AS cores',
      'total(a.memory_mb) AS memoryMb',
      'total(a.disk_bytes) AS diskBytes',
      "total(CAST(json_extract(a.body, '$.d.vmDisks.hddTotalFreeBytes') AS INTEGER)) AS diskFree",
      `total(a.memory_mb * coalesce(${memoryUse}, 100) / 100.0) AS memoryUsed`,
      'count(a.core_count) AS coreKnown',
      'count(a.memory_mb) AS memoryKnown',
      'count(a.disk_bytes) AS diskKnown',
      ...atLeast('a.core_count', request.coreBounds, 'c'),
      ...atLeast('a.memory_mb', request.memoryMbBounds, 'm'),
      ...atLeast('a.disk_bytes', request.diskBytesBounds, 'd'),
    ];
    const row = this.statement(`SELECT ${columns.join(', ')} ${from}`).get(groups) as Record<string, number | null>;
    /** n+1 bucket counts from the counts at or above each bound. */
    const buckets = (known: number, key: string, n: number): number[] => {
      const atOrAbove = [known, ...Array.from({ length: n }, (_, i) => row[`${key}${i}`] ?? 0), 0];
      return Array.from({ length: n + 1 }, (_, i) => atOrAbove[i] - atOrAbove[i + 1]);
    };
    const os = this.statement(`SELECT a.os_family AS os, count(*) AS n ${from} GROUP BY a.os_family ORDER BY n DESC, a.os_family`).all(groups) as Array<{
      os: string | null;
      n: number;
    }>;
    return {
      assets: row.assets ?? 0,
      cores: row.cores ?? 0,
      memoryMb: row.memoryMb ?? 0,
      diskBytes: row.diskBytes ?? 0,
      diskFreeBytes: row.diskFree ?? 0,
      memoryUsedMb: row.memoryUsed ?? 0,
      coreBuckets: buckets(row.coreKnown ?? 0, 'c', request.coreBounds.length),
      memoryBuckets: buckets(row.memoryKnown ?? 0, 'm', request.memoryMbBounds.length),
      diskBuckets: buckets(row.diskKnown ?? 0, 'd', request.diskBytesBounds.length),
      osFamilies: os.map((r) => [r.os, r.n]),
    };
  }

  groupShapes(groups: string[]): AssetShape[] {
    return this.statement(
      `SELECT a.core_count AS cores, a.memory_mb AS memoryMb, count(*) AS assets FROM assets a WHERE ${SqliteAssetStore.MEMBERS_OF} GROUP BY a.core_count, a.memory_mb ORDER BY a.core_count, a.memory_mb`,
    ).all(JSON.stringify(groups)) as AssetShape[];
  }

  clear(): void {
    for (const table of ASSET_KEYED_TABLES) this.db.exec(`DELETE FROM ${table}`);
    this.db.exec('DELETE FROM asset_groups; DELETE FROM assets; DELETE FROM asset_reporters; DELETE FROM asset_parents;');
  }
}
