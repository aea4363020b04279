/**
 * Two runs' writer threads on one data dir (run-writer-worker.ts, sqlite-store.ts, writer-turn.ts):
 * each holds a transaction across batches, and they take turns. A writer that waits for the other's
 * transaction is given the turn when the other is idle or at its hold's limit, rather than waiting
 * for SQLite's lock until the other run's end (and failing SQLITE_BUSY past its busy timeout).
 */
import * as fs from 'fs';
import { RUN_PROGRESS } from '../../../backend-emulator/migrationcenter/import-jobs/import-job-model';
import type { RunTarget } from '../../../backend-emulator/migrationcenter/import-jobs/run-writer';
import { RunWriterThread } from '../../../backend-emulator/migrationcenter/import-jobs/run-writer-thread';
import { COLLECTIONS } from '../../../backend-emulator/migrationcenter/names';
import type { AssetRow } from '../../../backend-emulator/store/asset-store';
import type { LentDatabase } from '../../../backend-emulator/store/store';
import { SqliteStore } from '../../../backend-emulator/store/sqlite-store';
import { tempDir } from '../../support/migrationcenter';
import { aWriterHoldsTheLock } from '../../support/sqlite-lock';

// Worker threads start (and may transpile their sources) in each test, and write tens of thousands of rows: a loaded machine is slow.
jest.setTimeout(120_000);

const PARENT = 'projects/p/locations/us-central1';
const SOURCE = `${PARENT}/sources/s`;
/** A hold far longer than any test: only a request's write, another writer or the flush ends a transaction. */
const LONG_HOLD = { ms: 600_000, rows: 1_000_000 };

const rows = (run: string, k: number, n: number): AssetRow[] =>
  Array.from({ length: n }, (_, i) => ({ id: `${run}${k}-${i}`, labels: {}, body: '{"a":{},"d":{}}' }));

let dataDir: string;
let store: SqliteStore;
const lent: LentDatabase[] = [];
beforeEach(() => {
  dataDir = tempDir('mc-run-writers-');
  store = new SqliteStore({ dataDir });
  store.put(COLLECTIONS.sources, SOURCE, {});
});
afterEach(() => {
  for (const connection of lent.splice(0)) connection.giveBack();
  store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A run's target: its progress record, and a connection lent as the import job's work lends it. */
function run(job: string): RunTarget {
  store.put(RUN_PROGRESS, job, { operation: `op-${job}`, framesWritten: 0 });
  const connection = store.lendSecondConnection()!;
  lent.push(connection);
  return { database: connection.database, job, operation: `op-${job}`, parent: PARENT, reporter: SOURCE, assetSource: SOURCE };
}

/** Rejects with `what` after `ms`: a wait that would otherwise end only at SQLite's busy timeout (60 s) fails the test sooner. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

test("a writer idle with its transaction open commits it for another run's writer, which writes in its turn", async () => {
  const storedA: number[] = [];
  const storedB: number[] = [];
  const a = new RunWriterThread(run('a'), 16, new AbortController().signal, (n) => storedA.push(n), undefined, LONG_HOLD);
  const b = new RunWriterThread(run('b'), 16, new AbortController().signal, (n) => storedB.push(n), undefined, LONG_HOLD);
  try {
    await a.write(rows('a', 0, 100));
    await aWriterHoldsTheLock(store.location);
    // a's batch is written into a transaction it would hold for ten minutes; b asks for its turn.
    await b.write(rows('b', 0, 100));
    await within(20_000, "b's batch stored while a holds its transaction", b.drain());
    expect(storedB).toEqual([100]);
    // a committed its batch to give b its turn, and goes on after it.
    expect(storedA).toEqual([100]);
    await a.write(rows('a', 1, 100));
    await within(20_000, "a's second batch stored", a.drain());
    expect(storedA).toEqual([100, 200]);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
  expect(store.assets.count()).toBe(300);
  expect(store.get(RUN_PROGRESS, 'a')).toEqual({ operation: 'op-a', framesWritten: 200 });
  expect(store.get(RUN_PROGRESS, 'b')).toEqual({ operation: 'op-b', framesWritten: 100 });
});

test("a writer that always has batches to write commits at its hold's limit and lets another run's writer in before it goes on", async () => {
  // Every batch of a is sent at once (no flow control): a always has more queued, and commits every 5 batches (its limit).
  const BATCHES = 400;
  const SIZE = 100;
  const storedA: number[] = [];
  const a = new RunWriterThread(run('a'), BATCHES + 1, new AbortController().signal, (n) => storedA.push(n), undefined, { ms: 600_000, rows: 5 * SIZE });
  const b = new RunWriterThread(run('b'), 16, new AbortController().signal, () => undefined, undefined, LONG_HOLD);
  let aStoredWhenBWas: number | undefined;
  try {
    for (let k = 0; k < BATCHES; k++) await a.write(rows('a', k, SIZE));
    const draining = a.drain();
    while (storedA.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await b.write(rows('b', 0, SIZE));
    await within(60_000, "b's batch stored while a writes", b.drain());
    aStoredWhenBWas = storedA.length;
    await draining;
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
  // b's batch went in at one of a's commits, long before a's last: a leaves b its turn at its next commit (5 batches).
  expect(aStoredWhenBWas).toBeLessThan(BATCHES / 2);
  expect(store.assets.count()).toBe(BATCHES * SIZE + SIZE);
  expect(store.get(RUN_PROGRESS, 'a')).toEqual({ operation: 'op-a', framesWritten: BATCHES * SIZE });
  expect(store.get(RUN_PROGRESS, 'b')).toEqual({ operation: 'op-b', framesWritten: SIZE });
});

test('three writers holding ten-minute transactions, each idle after a batch: the turn goes round, and each writes every batch', async () => {
  const writers = ['a', 'b', 'c'].map((name) => ({
    name,
    thread: new RunWriterThread(run(name), 16, new AbortController().signal, () => undefined, undefined, LONG_HOLD),
  }));
  try {
    // Two rounds: in each, every writer sends a batch, then each in turn waits for its batch stored while the
    // others hold their transactions open, idle (a drain commits the drained writer's only).
    for (const k of [0, 1]) {
      for (const { name, thread } of writers) await thread.write(rows(name, k, 100));
      for (const { name, thread } of [...writers].reverse()) await within(20_000, `${name}'s batch ${k} stored`, thread.drain());
    }
  } finally {
    await Promise.all(writers.map(({ thread }) => thread.close()));
  }
  for (const { name } of writers) expect(store.get(RUN_PROGRESS, name)).toEqual({ operation: `op-${name}`, framesWritten: 200 });
  expect(store.assets.count()).toBe(600);
});

test('a writer that ended while it held its turn blocks no other writer (its cell given back)', async () => {
  const first = store.lendSecondConnection()!;
  const second = store.lendSecondConnection()!;
  // A connection of the first lent cell begins a transaction (holding the turn), and its thread is gone without ending it: the cell given back.
  const dead = new SqliteStore({ secondConnection: first.database });
  dead.beginHeldTransaction();
  dead.endHeldTransaction(false);
  dead.beginHeldTransaction();
  first.giveBack();
  // SQLite's lock is released with the connection; the turn with the cell given back.
  dead.close();
  const live = new SqliteStore({ secondConnection: second.database });
  try {
    live.beginHeldTransaction();
    live.endHeldTransaction(true);
  } finally {
    live.close();
    second.giveBack();
  }
});
