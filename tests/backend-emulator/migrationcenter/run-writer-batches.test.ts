/**
 * The run's writer thread commits the batches that queued up together (run-writer-worker.ts):
 * RunWriter.writeBatches writes whole batches in one transaction, with the progress record
 * counting them all, and a refused group writes none of its batches.
 */
import Database from 'better-sqlite3';
import * as fs from 'fs';
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
