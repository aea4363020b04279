/**
 * Deleting an asset deletes every row keyed by it (store/sqlite-assets.ts ASSET_KEYED_TABLES): a
 * table whose `asset` column holds asset row ids and is not in that list would keep rows naming a
 * deleted asset (and, as row ids are reused, later name another one). This test reads the
 * database's own tables, so a new table keyed by asset fails it until it joins the list.
 */
import * as path from 'path';
import Database from 'better-sqlite3';
import { DATABASE_FILE_NAME, SqliteStore } from '../../../backend-emulator/store/sqlite-store';
import { ASSET_KEYED_TABLES } from '../../../backend-emulator/store/sqlite-assets';
import { Assets } from '../../../backend-emulator/migrationcenter/assets/assets';
import { tempDir } from '../../../support/temp-dir';

const PARENT = 'projects/p/locations/l';
const SOURCE = `${PARENT}/sources/s`;

function machine(id: string): Parameters<Assets['upsert']>[2][number] {
  return { machineId: id, attributes: {}, labels: { env: 'prod' }, virtualMachineDetails: { vmUuid: id, vmName: id } };
}

/** Reads the closed store's database file (the store holds it exclusively while open). */
function inspect<R>(dir: string, read: (db: Database.Database) => R): R {
  const db = new Database(path.join(dir, DATABASE_FILE_NAME), { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

function keyedTables(db: Database.Database): string[] {
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((t) => t.name);
  return tables.filter((t) => (db.pragma(`table_info(${t})`) as Array<{ name: string }>).some((c) => c.name === 'asset')).sort();
}

function rowCounts(db: Database.Database, tables: string[]): number[] {
  return tables.map((t) => (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n);
}

test('every table with an asset column is in ASSET_KEYED_TABLES, and deleteByIds empties each of the deleted assets', () => {
  const dir = tempDir();
  let store = new SqliteStore({ dataDir: dir });
  store.transaction(() => new Assets(store).upsert(PARENT, SOURCE, [machine('m1'), machine('m2')]));
  // Each asset in one group, so that the membership table holds a row of each as well.
  store.transaction(() => store.assets.addMembers(`${PARENT}/groups/g`, PARENT, ['vm-m1', 'vm-m2']));
  store.close();
  const keyed = inspect(dir, keyedTables);
  expect(keyed).toEqual([...ASSET_KEYED_TABLES].sort());
  expect(inspect(dir, (db) => rowCounts(db, ['assets', ...keyed]))).toEqual([2, ...keyed.map(() => 2)]);

  store = new SqliteStore({ dataDir: dir });
  try {
    expect(store.transaction(() => store.assets.deleteByIds(PARENT, ['vm-m1', 'vm-nope']))).toEqual(['vm-m1']);
  } finally {
    store.close();
  }
  expect(inspect(dir, (db) => rowCounts(db, ['assets', ...keyed]))).toEqual([1, ...keyed.map(() => 1)]);
});
