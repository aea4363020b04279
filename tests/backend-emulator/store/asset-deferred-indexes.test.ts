/**
 * The four low-cardinality indexes a large run builds at its end instead of row by row
 * (sqlite-assets.ts, LOW_CARDINALITY_INDEXES; run-writer.ts decides when): without them the
 * filters and orderings on those fields give the same pages (they scan), and a store opened on a
 * database left without them (a run killed before it built them) builds them again.
 */
import * as fs from 'fs';
import * as path from 'path';
import Database from 'better-sqlite3';
import { DATABASE_FILE_NAME, SqliteStore } from '../../../backend-emulator/store/sqlite-store';
import { parseFilter } from '../../../backend-emulator/query/list-query';
import { parseAssetOrder } from '../../../backend-emulator/store/asset-sql';
import type { AssetRow } from '../../../backend-emulator/store/asset-store';
import { tempDir } from '../../../support/temp-dir';
import { ASSET_TABLE_INDEXES, LOW_CARDINALITY_INDEXES } from '../../support/asset-indexes';

const PARENT = 'projects/p/locations/l';
const SOURCE = `${PARENT}/sources/s`;

const FOUR = LOW_CARDINALITY_INDEXES;
const ALL = ASSET_TABLE_INDEXES;

/** The asset table's indexes as the database file holds them, read on a connection of its own. */
function indexesIn(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'assets' ORDER BY name").pluck().all() as string[];
  } finally {
    db.close();
  }
}

const OS = ['OS_FAMILY_LINUX', 'OS_FAMILY_WINDOWS', 'OS_FAMILY_UNKNOWN'];
const rows = (n: number): AssetRow[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `a-${String(i).padStart(4, '0')}`,
    coreCount: 1 << (i % 6),
    memoryMb: 1024 << (i % 5),
    osFamily: OS[i % 3],
    powerState: i % 7 === 0 ? 'poweredOff' : 'poweredOn',
    labels: {},
    body: '{}',
  }));

let dataDir: string;
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

test('a store opened on a database left without the four indexes builds them again', () => {
  dataDir = tempDir('mc-deferred-indexes-');
  const first = new SqliteStore({ dataDir });
  first.transaction(() => first.assets.upsert(PARENT, SOURCE, Date.now(), rows(50)));
  first.close();
  const file = path.join(dataDir, DATABASE_FILE_NAME);
  // As a run's writer leaves them when the process is killed before its end.
  const db = new Database(file);
  for (const name of FOUR) db.exec(`DROP INDEX ${name}`);
  db.close();
  expect(indexesIn(file)).toEqual(ALL.filter((n) => !FOUR.includes(n)));
  const reopened = new SqliteStore({ dataDir });
  try {
    expect(indexesIn(file)).toEqual(ALL);
    expect(reopened.assets.count()).toBe(50);
  } finally {
    reopened.close();
  }
});

test('without the four indexes, filters and orderings on their fields give the same pages (a scan), and the indexes come back whole', () => {
  dataDir = tempDir('mc-deferred-indexes-');
  const store = new SqliteStore({ dataDir });
  try {
    store.transaction(() => store.assets.upsert(PARENT, SOURCE, Date.now(), rows(300)));
    const queries: Array<[string | undefined, string]> = [
      ['virtualMachineDetails.coreCount > 8', ''],
      ['virtualMachineDetails.osFamily = OS_FAMILY_WINDOWS AND virtualMachineDetails.powerState = poweredOff', ''],
      [undefined, 'virtualMachineDetails.memoryMb desc'],
      [undefined, 'virtualMachineDetails.coreCount'],
      ['virtualMachineDetails.memoryMb <= 2048', 'virtualMachineDetails.osFamily desc'],
    ];
    const pages = () =>
      queries.map(([filter, orderBy]) =>
        store.assets
          .page({ parent: PARENT, filter: filter === undefined ? undefined : parseFilter(filter), order: parseAssetOrder(orderBy), limit: 20 })
          .items.map((p) => p.asset.name),
      );
    const indexed = pages();
    // Each page holds assets (the queries are not trivially empty).
    for (const page of indexed) expect(page.length).toBeGreaterThan(0);
    expect(store.assets.explain({ parent: PARENT, order: parseAssetOrder('virtualMachineDetails.memoryMb desc'), limit: 20 }).join('\n')).toContain(
      'assets_by_memory_mb',
    );

    store.transaction(() => store.assets.dropIndexes(FOUR));
    expect(indexesIn(store.location)).toEqual(ALL.filter((n) => !FOUR.includes(n)));
    expect(store.assets.missingDeferrableIndexes()).toEqual(FOUR);
    expect(pages()).toEqual(indexed);
    const plan = store.assets.explain({ parent: PARENT, order: parseAssetOrder('virtualMachineDetails.memoryMb desc'), limit: 20 }).join('\n');
    expect(plan).not.toContain('assets_by_memory_mb');
    expect(plan).toContain('TEMP B-TREE');

    for (const name of store.assets.missingDeferrableIndexes()) store.transaction(() => store.assets.buildIndex(name));
    expect(indexesIn(store.location)).toEqual(ALL);
    expect(store.assets.missingDeferrableIndexes()).toEqual([]);
    expect(pages()).toEqual(indexed);
  } finally {
    store.close();
  }
});

test('only an index of the asset table can be built by name', () => {
  dataDir = tempDir('mc-deferred-indexes-');
  const store = new SqliteStore({ dataDir });
  try {
    expect(() => store.assets.buildIndex('documents_by_anything')).toThrow('documents_by_anything');
    // Nor can the unique index of the asset ids be dropped: a run's upserts need it.
    expect(() => store.transaction(() => store.assets.dropIndexes(['assets_by_id']))).toThrow('assets_by_id');
  } finally {
    store.close();
  }
});
