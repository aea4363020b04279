/**
 * The run's writer thread commits the batches that queued up together (run-writer-worker.ts):
 * RunWriter.writeBatches writes whole batches in one transaction, with the progress record
 * counting them all, and a refused group writes none of its batches.
 */
import Database from 'better-sqlite3';
import * as fs from 'fs';
import { parseFilter } from '../../../backend-emulator/query/list-query';
import { RUN_PROGRESS } from '../../../backend-emulator/migrationcenter/import-jobs/import-job-model';
import { RunRefused, RunWriter } from '../../../backend-emulator/migrationcenter/import-jobs/run-writer';
import type { AssetRow } from '../../../backend-emulator/store/asset-store';
import { SqliteStore } from '../../../backend-emulator/store/sqlite-store';
import { tempDir } from '../../support/migrationcenter';

const PARENT = 'projects/p/locations/us-central1';
const rows = (prefix: string, n: number): AssetRow[] => Array.from({ length: n }, (_, i) => ({ id: `${prefix}-${i}`, labels: {}, body: '{"a":{},"d":{}}' }));

let dataDir: string;
let store: SqliteStore;
let writer: RunWriter;
beforeEach(() => {
  dataDir = tempDir('mc-run-writer-batches-');
  store = new SqliteStore({ dataDir });
  store.put(RUN_PROGRESS, 'job', { operation: 'op', framesWritten: 0 });
  writer = new RunWriter({ database: store.lendSecondConnection()!.database, job: 'job', operation: 'op', parent: PARENT, reporter: 'job' });
});
afterEach(() => {
  writer.close();
  store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('batches written together: the frames after each batch, every asset stored, the progress record counting all', () => {
  expect(writer.write(rows('a', 3))).toBe(3);
  expect(writer.writeBatches([rows('b', 2), rows('c', 4)])).toEqual([5, 9]);
  expect(store.assets.count()).toBe(9);
  expect(store.get(RUN_PROGRESS, 'job')).toEqual({ operation: 'op', framesWritten: 9 });
});

test('a group refused (the run lost its job) writes none of its batches', () => {
  writer.write(rows('a', 2));
  store.put(RUN_PROGRESS, 'job', { operation: 'another', framesWritten: 0 });
  expect(() => writer.writeBatches([rows('b', 2), rows('c', 2)])).toThrow(RunRefused);
  expect(store.assets.count()).toBe(2);
});

describe('the four low-cardinality indexes, built at the end of a large run (run-writer.ts, DEFER_INDEXES_AFTER_ROWS)', () => {
  const FOUR = ['assets_by_core_count', 'assets_by_memory_mb', 'assets_by_os_family', 'assets_by_power_state'];
  /** Which of the four the database file holds, read on a connection of its own. */
  const fourIn = (): string[] => {
    const db = new Database(store.location, { readonly: true });
    try {
      return (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' ORDER BY name").pluck().all() as string[]).filter((n) => FOUR.includes(n));
    } finally {
      db.close();
    }
  };
  /** 4 batches of 2,500: one group of 10,000 assets. */
  const group = (prefix: string) => [0, 1, 2, 3].map((k) => rows(`${prefix}${k}`, 2_500));

  test('a run into an empty table drops them in the group that reaches 20,000 assets, and builds them again at its end', () => {
    writer.writeBatches(group('a'));
    expect(fourIn()).toEqual(FOUR);
    writer.writeBatches(group('b'));
    expect(fourIn()).toEqual([]);
    expect(store.assets.count()).toBe(20_000);
    writer.writeBatches(group('c'));
    writer.buildMissingIndexes();
    expect(fourIn()).toEqual(FOUR);
    expect(store.assets.count()).toBe(30_000);
    // Built once: a second call finds nothing to build.
    writer.buildMissingIndexes();
    expect(fourIn()).toEqual(FOUR);
  });

  test('a table that held more than half of what the run has written keeps them until the run has written twice as many', () => {
    // 15,000 assets before the run: the run drops them once it has written 30,000 (2 x 15,000).
    store.transaction(() => store.assets.upsert(PARENT, 'other', Date.now(), rows('before', 15_000)));
    writer.close();
    writer = new RunWriter({ database: store.lendSecondConnection()!.database, job: 'job', operation: 'op', parent: PARENT, reporter: 'job' });
    writer.writeBatches(group('a'));
    writer.writeBatches(group('b'));
    expect(fourIn()).toEqual(FOUR);
    writer.writeBatches(group('c'));
    expect(fourIn()).toEqual([]);
    writer.buildMissingIndexes();
    expect(fourIn()).toEqual(FOUR);
  });

  test('a group that fails rolls its drop back with its rows', () => {
    writer.writeBatches(group('a'));
    const db = new Database(store.location);
    db.exec(`CREATE TRIGGER refuse_b3 BEFORE INSERT ON assets WHEN NEW.aid = 'b3-7' BEGIN SELECT RAISE(ABORT, 'b3-7 cannot be written'); END`);
    db.close();
    expect(() => writer.writeBatches(group('b'))).toThrow('b3-7 cannot be written');
    expect(fourIn()).toEqual(FOUR);
    expect(store.assets.count()).toBe(10_000);
    // Nothing to build: nothing was dropped.
    writer.buildMissingIndexes();
    expect(fourIn()).toEqual(FOUR);
  });
});

describe('the VM name and UUID indexes, built at the end of a large run whose keys come in no order (run-writer.ts, KEYS_IN_ORDER)', () => {
  const KEYED = ['assets_by_vm_name', 'assets_by_vm_uuid'];
  const keyedIn = (): string[] => {
    const db = new Database(store.location, { readonly: true });
    try {
      return (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' ORDER BY name").pluck().all() as string[]).filter((n) => KEYED.includes(n));
    } finally {
      db.close();
    }
  };
  /** A scrambled but repeatable 8-digit hex key of `i` (Knuth's multiplicative hash): no order. */
  const scrambled = (i: number) => (Math.imul(i + 1, 2654435761) >>> 0).toString(16).padStart(8, '0');
  const ordered = (i: number) => String(i).padStart(8, '0');
  /** 4 batches of 2,500 machines, from machine `from` on: one group of 10,000 assets. */
  const machines = (from: number, name: (i: number) => string, uuid: (i: number) => string): AssetRow[][] =>
    [0, 1, 2, 3].map((k) =>
      Array.from({ length: 2_500 }, (_, j) => {
        const i = from + k * 2_500 + j;
        return { id: `m-${i}`, labels: {}, body: '{"a":{},"d":{}}', vmName: `web-${name(i)}`, vmUuid: `42${uuid(i)}-0000-4000-8000-000000000000` };
      }),
    );

  test('random names and UUIDs: both dropped with the four, built again at the end, and found by them then', () => {
    writer.writeBatches(machines(0, scrambled, scrambled));
    expect(keyedIn()).toEqual(KEYED);
    writer.writeBatches(machines(10_000, scrambled, scrambled));
    expect(keyedIn()).toEqual([]);
    expect(writer.indexesToBuild).toBe(true);
    writer.buildMissingIndexes();
    expect(keyedIn()).toEqual(KEYED);
    expect(store.assets.missingDeferrableIndexes()).toEqual([]);
    const uuid = `42${scrambled(12_345)}-0000-4000-8000-000000000000`;
    const page = store.assets.page({ parent: PARENT, filter: parseFilter(`virtualMachineDetails.vmUuid = "${uuid}"`), order: [], limit: 10 }).items;
    expect(page.map((p) => p.asset.name)).toEqual([`${PARENT}/assets/m-12345`]);
  });

  test('names and UUIDs in order: both kept while the four are dropped', () => {
    writer.writeBatches(machines(0, ordered, ordered));
    writer.writeBatches(machines(10_000, ordered, ordered));
    expect(keyedIn()).toEqual(KEYED);
    expect(store.assets.missingDeferrableIndexes()).toEqual(['assets_by_core_count', 'assets_by_memory_mb', 'assets_by_os_family', 'assets_by_power_state']);
    writer.buildMissingIndexes();
    expect(store.assets.missingDeferrableIndexes()).toEqual([]);
  });

  test('random names, UUIDs in order: only the names index dropped', () => {
    writer.writeBatches(machines(0, scrambled, ordered));
    writer.writeBatches(machines(10_000, scrambled, ordered));
    expect(keyedIn()).toEqual(['assets_by_vm_uuid']);
    writer.buildMissingIndexes();
    expect(keyedIn()).toEqual(KEYED);
  });
});
