/**
 * The run's writer thread as the import worker drives it (run-writer-thread.ts): what a failed run
 * leaves does not depend on how timing grouped its batches, and a refusal is told at once, not at
 * the import worker's next write.
 */
import Database from 'better-sqlite3';
import * as fs from 'fs';
import { RUN_PROGRESS } from '../../../backend-emulator/migrationcenter/import-jobs/import-job-model';
import { RunRefused, type RunTarget } from '../../../backend-emulator/migrationcenter/import-jobs/run-writer';
import { RunWriterThread } from '../../../backend-emulator/migrationcenter/import-jobs/run-writer-thread';
import { COLLECTIONS } from '../../../backend-emulator/migrationcenter/names';
import type { AssetRow } from '../../../backend-emulator/store/asset-store';
import { SqliteStore } from '../../../backend-emulator/store/sqlite-store';
import { tempDir } from '../../support/migrationcenter';
import { aWriterHoldsTheLock } from '../../support/sqlite-lock';

// A worker thread starts (and may transpile its sources) in each test: a loaded machine is slow.
jest.setTimeout(60_000);

const PARENT = 'projects/p/locations/us-central1';
const SOURCE = `${PARENT}/sources/s`;
const BATCH = 3;
const batch = (k: number): AssetRow[] => Array.from({ length: BATCH }, (_, i) => ({ id: `b${k}-${i}`, labels: {}, body: '{"a":{},"d":{}}' }));

let dataDir: string;
let store: SqliteStore;
let target: RunTarget;
beforeEach(() => {
  dataDir = tempDir('mc-run-writer-thread-');
  store = new SqliteStore({ dataDir });
  store.put(COLLECTIONS.sources, SOURCE, {});
  store.put(RUN_PROGRESS, 'job', { operation: 'op', framesWritten: 0 });
  target = { database: store.lendSecondConnection()!.database, job: 'job', operation: 'op', parent: PARENT, reporter: SOURCE, assetSource: SOURCE };
});
afterEach(() => {
  store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a batch that fails: every batch sent before it is stored and counted, none after it, however the batches were grouped', async () => {
  // The seventh batch cannot be written (a trigger refuses one of its rows, as a full disk would fail it).
  const db = new Database(store.location);
  db.exec(`CREATE TRIGGER refuse_b6 BEFORE INSERT ON assets WHEN NEW.aid = 'b6-1' BEGIN SELECT RAISE(ABORT, 'b6-1 cannot be written'); END`);
  db.close();
  const writer = new RunWriterThread(target, 16, new AbortController().signal, () => undefined);
  // Eight batches sent before the writer thread has started: they queue up, and the writer groups them.
  for (let k = 0; k < 8; k++) await writer.write(batch(k));
  await expect(writer.drain()).rejects.toThrow('b6-1 cannot be written');
  await writer.close();
  expect(store.assets.count()).toBe(6 * BATCH);
  expect(store.get(RUN_PROGRESS, 'job')).toEqual({ operation: 'op', framesWritten: 6 * BATCH });
  expect(store.assets.get(`${PARENT}/assets/b5-2`)).toBeDefined();
  expect(store.assets.get(`${PARENT}/assets/b7-0`)).toBeUndefined();
});

test('a refusal (the source deleted) fires `stopped` at once, with no further write or drain', async () => {
  const writer = new RunWriterThread(target, 16, new AbortController().signal, () => undefined);
  try {
    await writer.write(batch(0));
    await writer.drain();
    store.delete(COLLECTIONS.sources, SOURCE);
    await writer.write(batch(1));
    // The import worker, reading, waits on nothing from the writer: only the signal can stop it.
    const reason = await new Promise<unknown>((resolve) => writer.stopped.addEventListener('abort', () => resolve(writer.stopped.reason), { once: true }));
    expect(reason).toBeInstanceOf(RunRefused);
    expect((reason as RunRefused).reason).toBe('source');
    expect(store.assets.count()).toBe(BATCH);
  } finally {
    await writer.close();
  }
});

test('a close (the run stopped or ended) does not fire `stopped`', async () => {
  const writer = new RunWriterThread(target, 16, new AbortController().signal, () => undefined);
  await writer.write(batch(0));
  await writer.drain();
  await writer.close();
  expect(writer.stopped.aborted).toBe(false);
  expect(store.assets.count()).toBe(BATCH);
});

/** The assets' row count recorded in sqlite_stat1 (undefined: never analyzed), read on a connection of its own. */
function recordedCount(file: string): number | undefined {
  const db = new Database(file, { readonly: true });
  try {
    if (db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat1'").get() === undefined) return undefined;
    const stat = db.prepare("SELECT stat FROM sqlite_stat1 WHERE tbl = 'assets' LIMIT 1").pluck().get() as string | undefined;
    return stat === undefined ? undefined : Number.parseInt(stat, 10);
  } finally {
    db.close();
  }
}

test("a run that ends well has the planner's statistics refreshed by the writer at its close; a stopped one does not", async () => {
  const big = (k: number): AssetRow[] => Array.from({ length: 700 }, (_, i) => ({ id: `s${k}-${i}`, labels: {}, body: '{"a":{},"d":{}}' }));
  const stopped = new RunWriterThread(target, 16, new AbortController().signal, () => undefined);
  for (let k = 0; k < 3; k++) await stopped.write(big(k));
  await stopped.drain();
  await stopped.close();
  // 2,100 assets written, and none analyzed as they were (the writer leaves that to the end).
  expect(recordedCount(store.location)).toBeUndefined();
  const ended = new RunWriterThread(target, 16, new AbortController().signal, () => undefined);
  await ended.write(big(3));
  await ended.drain();
  await ended.close(true);
  expect(recordedCount(store.location)).toBe(2_800);
});

describe('the transaction the writer holds open across batches (run-writer-worker.ts)', () => {
  /** A hold far longer than any test: what ends the transaction is what the test does. */
  const HOLD = { ms: 600_000, rows: 1_000_000 };

  test("a request's write while the writer holds its transaction open goes through once the batches written so far are committed, and the run goes on", async () => {
    const stored: number[] = [];
    const writer = new RunWriterThread(target, 16, new AbortController().signal, (n) => stored.push(n), undefined, HOLD);
    try {
      await writer.write(batch(0));
      await aWriterHoldsTheLock(store.location);
      // Written, not committed: a reader sees none of it.
      expect(store.assets.count()).toBe(0);
      // A request's write (the first connection's): it waits for the writer's commit, not for its hold of ten minutes.
      store.put(COLLECTIONS.sources, `${PARENT}/sources/other`, {});
      expect(store.assets.count()).toBe(BATCH);
      expect(store.get(RUN_PROGRESS, 'job')).toEqual({ operation: 'op', framesWritten: BATCH });
      await writer.write(batch(1));
      await writer.drain();
      expect(stored).toEqual([BATCH, 2 * BATCH]);
      expect(store.assets.count()).toBe(2 * BATCH);
      expect(store.get(RUN_PROGRESS, 'job')).toEqual({ operation: 'op', framesWritten: 2 * BATCH });
    } finally {
      await writer.close();
    }
  });

  test('a stop rolls back the open transaction, and nothing committed before it', async () => {
    const controller = new AbortController();
    const stored: number[] = [];
    const writer = new RunWriterThread(target, 16, controller.signal, (n) => stored.push(n), undefined, HOLD);
    try {
      await writer.write(batch(0));
      await writer.drain();
      await writer.write(batch(1));
      await writer.write(batch(2));
      await aWriterHoldsTheLock(store.location);
      controller.abort();
    } finally {
      await writer.close();
    }
    expect(stored).toEqual([BATCH]);
    expect(store.assets.count()).toBe(BATCH);
    expect(store.get(RUN_PROGRESS, 'job')).toEqual({ operation: 'op', framesWritten: BATCH });
    expect(store.assets.get(`${PARENT}/assets/b0-2`)).toBeDefined();
    expect(store.assets.get(`${PARENT}/assets/b1-0`)).toBeUndefined();
  });

  test('a batch that fails in the open transaction: the batches before it in the transaction are committed, none after it', async () => {
    const db = new Database(store.location);
    db.exec(`CREATE TRIGGER refuse_b2 BEFORE INSERT ON assets WHEN NEW.aid = 'b2-0' BEGIN SELECT RAISE(ABORT, 'b2-0 cannot be written'); END`);
    db.close();
    const stored: number[] = [];
    const writer = new RunWriterThread(target, 16, new AbortController().signal, (n) => stored.push(n), undefined, HOLD);
    for (let k = 0; k < 4; k++) await writer.write(batch(k)).catch(() => undefined);
    await expect(writer.drain()).rejects.toThrow('b2-0 cannot be written');
    await writer.close();
    expect(stored).toEqual([BATCH, 2 * BATCH]);
    expect(store.assets.count()).toBe(2 * BATCH);
    expect(store.get(RUN_PROGRESS, 'job')).toEqual({ operation: 'op', framesWritten: 2 * BATCH });
  });
});
