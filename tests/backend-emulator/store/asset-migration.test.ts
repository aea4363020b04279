/**
 * A data dir whose asset table was made before the disk capacity column: opening it adds the
 * column (it has no index, on purpose: sqlite-assets.ts); its old rows read as they were written and hold NULL in the column (not
 * filterable, not aggregated) until imported again.
 */
import * as path from 'path';
import Database from 'better-sqlite3';
import { DATABASE_FILE_NAME, SqliteStore } from '../../../backend-emulator/store/sqlite-store';
import { Assets } from '../../../backend-emulator/migrationcenter/assets/assets';
import { parseAssetOrder } from '../../../backend-emulator/store/asset-sql';
import type { Asset } from '../../../backend-emulator/import-engine/asset';
import { tempDir } from '../../../support/temp-dir';

const PARENT = 'projects/p/locations/l';
const SOURCE = `${PARENT}/sources/s`;
const DISK = 'virtualMachineDetails.vmDisks.hddTotalCapacityBytes';

/** The asset tables as the version before the disk column made them, with one asset in them. */
function oldDatabase(dir: string): void {
  const db = new Database(path.join(dir, DATABASE_FILE_NAME));
  db.exec(`
    CREATE TABLE asset_parents (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE asset_reporters (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
    CREATE TABLE assets (
      id INTEGER PRIMARY KEY,
      parent INTEGER NOT NULL,
      aid TEXT NOT NULL,
      create_ms INTEGER NOT NULL,
      update_ms INTEGER NOT NULL,
      vm_name TEXT, vm_uuid TEXT, core_count INTEGER, memory_mb INTEGER, os_family TEXT, power_state TEXT,
      body TEXT NOT NULL
    );
    CREATE UNIQUE INDEX assets_by_id ON assets (parent, aid);
    CREATE INDEX assets_by_vm_name ON assets (parent, vm_name);
    CREATE INDEX assets_by_core_count ON assets (parent, core_count);
    CREATE TABLE asset_sources (asset INTEGER NOT NULL, reporter INTEGER NOT NULL, PRIMARY KEY (asset, reporter)) WITHOUT ROWID;
    CREATE TABLE asset_labels (asset INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (asset, key)) WITHOUT ROWID;
    INSERT INTO asset_parents (id, name) VALUES (1, '${PARENT}');
    INSERT INTO asset_reporters (id, name) VALUES (1, '${SOURCE}');
    INSERT INTO assets (id, parent, aid, create_ms, update_ms, vm_name, vm_uuid, core_count, body)
      VALUES (1, 1, 'vm-old', 0, 0, 'old', 'old', 2, '{"a":{},"d":{"vmDisks":{"hddTotalCapacityBytes":"1000","hddTotalFreeBytes":"10"}}}');
    INSERT INTO asset_sources (asset, reporter) VALUES (1, 1);
  `);
  db.close();
}

function machine(id: string, capacity: string): Asset {
  return { machineId: id, attributes: {}, labels: {}, virtualMachineDetails: { vmUuid: id, vmName: id, vmDisks: { hddTotalCapacityBytes: capacity } } };
}

test('an asset table without the disk column gets it on open; old rows hold NULL there until imported again', () => {
  const dir = tempDir();
  oldDatabase(dir);
  let store = new SqliteStore({ dataDir: dir });
  try {
    const assets = new Assets(store);
    const titles = (filter: string) => (assets.list(PARENT, { filter }).assets ?? []).map((a) => a.title).sort();
    // The old row reads as it was written (its capacity is in its body)...
    expect(assets.get(`${PARENT}/assets/vm-old`).virtualMachineDetails.vmDisks).toEqual({ hddTotalCapacityBytes: '1000', hddTotalFreeBytes: '10' });
    // ... but its column is NULL: not filterable, not counted.
    expect(titles(`${DISK}:*`)).toEqual([]);
    expect(assets.aggregateValues(PARENT, { aggregations: [{ field: DISK, count: {} }] }).results).toEqual([{ field: DISK, count: {} }]);
    // The new column is there (read by the ordering's plan).
    expect(store.assets.explain({ parent: PARENT, order: parseAssetOrder(DISK), limit: 51 }).join('\n')).toContain('TEMP B-TREE');

    store.transaction(() => assets.upsert(PARENT, SOURCE, [machine('old', '3000'), machine('new', '2000')]));
    expect(titles(`${DISK} >= 2000`)).toEqual(['new', 'old']);
    store.close();

    // Opened again, the column is not added twice.
    store = new SqliteStore({ dataDir: dir });
    expect((new Assets(store).list(PARENT, { orderBy: `${DISK} desc` }).assets ?? []).map((a) => a.title)).toEqual(['old', 'new']);
  } finally {
    store.close();
  }
});
