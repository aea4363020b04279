/**
 * The query planner's statistics of the asset tables (sqlite-assets.ts): the request thread's
 * connection refreshes them as the table grows; a run's writer connection only when told, at the
 * run's end, so that no ANALYZE (a whole pass over the assets) runs inside its transactions.
 */
import Database from 'better-sqlite3';
import { SqliteStore } from '../../../backend-emulator/store/sqlite-store';
import type { AssetRow } from '../../../backend-emulator/store/asset-store';
import { tempDir } from '../../../support/temp-dir';

const PARENT = 'projects/p/locations/l';
const rows = (n: number): AssetRow[] => Array.from({ length: n }, (_, i) => ({ id: `asset-${i}`, vmName: `vm-${i}`, labels: {}, body: '{}' }));

/** The assets' row counts recorded in sqlite_stat1, read on a connection of its own. */
function recordedCounts(file: string): number[] {
  const db = new Database(file, { readonly: true });
  try {
    const hasTable = db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat1'").get() !== undefined;
    if (!hasTable) return [];
    return (db.prepare("SELECT stat FROM sqlite_stat1 WHERE tbl = 'assets'").pluck().all() as string[]).map((s) => Number.parseInt(s, 10));
  } finally {
    db.close();
  }
}

test('the first connection refreshes them as the table grows', () => {
  const store = new SqliteStore({ dataDir: tempDir() });
  try {
    store.transaction(() => store.assets.upsert(PARENT, `${PARENT}/sources/s`, Date.now(), rows(1500)));
    const counts = recordedCounts(store.location);
    expect(counts.length).toBeGreaterThan(0);
    expect(new Set(counts)).toEqual(new Set([1500]));
  } finally {
    store.close();
  }
});

test('a second connection (a run writer) does not refresh them as it writes, only when told, with the exact count', () => {
  const first = new SqliteStore({ dataDir: tempDir() });
  const lent = first.lendSecondConnection()!;
  const writer = new SqliteStore({ secondConnection: lent.database });
  try {
    writer.transaction(() => writer.assets.upsert(PARENT, `${PARENT}/sources/s`, Date.now(), rows(1500)));
    writer.transaction(() => writer.assets.upsert(PARENT, `${PARENT}/sources/s`, Date.now(), rows(2500)));
    expect(recordedCounts(first.location)).toEqual([]);
    writer.assets.refreshStatistics();
    expect(new Set(recordedCounts(first.location))).toEqual(new Set([2500]));
    // The first connection reads them without analyzing anything itself.
    first.transaction(() => first.assets.reloadStatistics());
    expect(first.assets.count()).toBe(2500);
  } finally {
    writer.close();
    lent.giveBack();
    first.close();
  }
});
