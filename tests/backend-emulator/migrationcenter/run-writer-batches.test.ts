/**
 * The run's writer thread commits the batches that queued up together (run-writer-worker.ts):
 * RunWriter.writeBatches writes whole batches in one transaction, with the progress record
 * counting them all, and a refused group writes none of its batches.
 */
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
