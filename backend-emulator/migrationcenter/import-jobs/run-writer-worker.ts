/**
 * The run's writer thread: a worker thread, started by the import worker for each run on a
 * file-backed store (run-writer-thread.ts), that writes the run's batches on its own connection
 * (run-writer.ts) while the import worker reads, checks and builds the next ones. A run's time is
 * then that of the slower of the two stages, not their sum.
 *
 * Batches arrive in order and are written in order, whole, one a turn, into one transaction held
 * open across them (sqlite-store.ts, beginHeldTransaction), which commits when:
 *   - a request's write waits (its wait is then the batch under way and the commit), checked after
 *     each batch and, while the writer waits for its next batch, as soon as the write is counted;
 *   - another run's writer waits for its turn (sqlite-store.ts, writer-turn.ts) and this one has no
 *     batch queued: at once if it is idle, else once the batches queued are written or at its limits.
 *     The commit hands the turn to the waiting writer, and this one's next transaction waits for
 *     that one's commit: two runs take turns of at most a hold each, rather than the second waiting
 *     for SQLite's lock until the first's end (and failing SQLITE_BUSY after 60 s);
 *   - it is HOLD_MS old, or holds HOLD_ROWS assets (a background write, an Operation's progress,
 *     waits for that: nobody waits for it);
 *   - the import worker asks (`flush`: its reading ended, or failed) and every batch sent is written.
 * Only then are its batches `stored` (the progress record counts them); each batch written is told
 * at once (`written`), so the import worker's flow control counts batches still to write, not to
 * commit. A stop (the stop cell set) rolls the open transaction back, and drops the batches queued:
 * the cell is read before each batch, and while idle. A kill leaves the last commit: whole batches.
 * After a refusal or a failure nothing more is written (a batch that fails rolls its transaction
 * back, and the batches before it in that transaction are written again, one a transaction). `close` ends the thread, once it has
 * built the indexes the run dropped (run-writer.ts, DEFER_INDEXES_AFTER_ROWS), whatever ended the
 * run: a stopped run's included.
 */
import * as v8 from 'v8';
import { parentPort, workerData } from 'worker_threads';
import { freeNow } from '../../garbage-collection';
import { unpackRows, type AssetRowBatch } from './asset-row-batch';
import type { FromRunWriter, RunWriterData, ToRunWriter } from './import-worker-protocol';
import { RunRefused, RunWriter } from './run-writer';

const port = parentPort;
if (!port) throw new Error('run-writer-worker.ts runs in a worker thread (run-writer-thread.ts starts it)');

/**
 * HOLD_ROWS, HOLD_MS: how many assets, and how long, one transaction holds at most. A commit
 * rewrites every page its transaction dirtied; random machine ids (real exports' UUIDs) put each
 * asset on a random leaf of the id index, and a longer transaction gives a leaf several of its
 * assets before its one rewrite. The writer alone on 600,000 random-id rows: transactions of 4,000
 * assets (the earlier groups of 8 batches) wrote 4.9 GB for 10.5 CPU-s, of 20,000 1.9 GB for 7.4
 * to 8.2 s, of 50,000 1.4 GB for 7.3 to 8.2 s (docs/benchmarks.md, 2026-11-27 fifteenth session):
 * past 20,000 the saving stops, and the batches kept for a failure (`uncommitted`) grow. The time
 * bounds what a background write (an Operation's progress) waits for (sqlite-store.ts,
 * WHEN_FREE_WAIT_MS is twice it) and what a stop rolls back: 20,000 assets are about 250 ms of
 * the writer's CPU (7.5 CPU-s for 600,000), so on a loaded machine the time ends the transaction
 * first (at load 10, 500 ms held 4,500 to 18,500 assets).
 */
const HOLD_ROWS = 20_000;
const HOLD_MS = 1_000;

const { target, stop, hold } = workerData as RunWriterData;
const holdMs = hold?.ms ?? HOLD_MS;
const holdRows = hold?.rows ?? HOLD_ROWS;
const stopped = new Int32Array(stop);
const writer = new RunWriter(target);
let ended = false;

const send = (message: FromRunWriter) => port.postMessage(message);
const stopSet = () => Atomics.load(stopped, 0) !== 0;

/**
 * Frees `batches`' memory now (garbage-collection.ts, freeNow). This thread makes few objects
 * beside them, so it collects seldom: left to the collector, the batches written and committed
 * stayed resident, 40 to 50 MB of them at the peak of a 530,000-row run (issue 27).
 */
function release(batches: Uint8Array[]): void {
  for (const batch of batches) freeNow(batch);
}

/** The batches received and not yet written. */
let queued: Uint8Array[] = [];
/**
 * The batches written in the open transaction, kept until it commits: a failure rolls it back
 * whole, and they are written again one a transaction (`fail`). At most HOLD_ROWS assets, kept as
 * the bytes they came in, outside the writer's heap: kept as objects, they outlived its young
 * generation, and its collections cost more (the emulator's CPU through a 600,000-row run, quiet
 * machine: 25.4 and 22.9 s as objects, 20.9 and 21.8 s as bytes; docs/benchmarks.md, 2026-11-27
 * fifteenth session).
 */
let uncommitted: Uint8Array[] = [];

/** A batch as it came from the import worker, its rows. */
const rowsOf = (bytes: Uint8Array) => unpackRows(v8.deserialize(bytes) as AssetRowBatch);
let scheduled = false;
/** The import worker asked for a commit once every batch it sent is written (`flush`), and none was made since with nothing queued. */
let flushAsked = false;
/** Counts the idle waits: a wait that ends after the writer went back to work does nothing. */
let idleWaits = 0;

/** Writes the next batch queued into the open transaction, then commits if it should. */
function writeNext(): void {
  scheduled = false;
  if (ended) return;
  if (stopSet()) {
    dropWriting();
    return;
  }
  const batch = queued.shift();
  if (batch) {
    try {
      writer.writeInTransaction(rowsOf(batch));
    } catch (err) {
      fail(err);
      return;
    }
    uncommitted.push(batch);
    send({ type: 'written' });
  }
  if (commitDue() && !commit()) return;
  if (queued.length > 0) schedule();
  else if (writer.openTransaction) waitIdle();
}

function commitDue(): boolean {
  const open = writer.openTransaction;
  if (!open) return false;
  const idle = queued.length === 0;
  return writer.requestWriteWaiting || open.ageMs >= holdMs || open.rows >= holdRows || (idle && (flushAsked || writer.anotherWriterWaiting));
}

/** Commits the open transaction and reports its batches stored; false (and the run failed) when the commit failed. */
function commit(): boolean {
  try {
    report(writer.commit());
    announceBuild();
    release(uncommitted);
    uncommitted = [];
    // Every batch sent before the flush is committed now: the batches sent after it wait for a limit again.
    if (queued.length === 0) flushAsked = false;
    return true;
  } catch (err) {
    fail(err);
    return false;
  }
}

/**
 * Idle with a transaction open: it commits as soon as a request's write waits or another run's
 * writer waits for its turn, or at HOLD_MS, unless
 * a batch arrived meanwhile (then its turn decides). A stop set meanwhile is seen then too.
 */
function waitIdle(): void {
  const wait = ++idleWaits;
  const left = Math.max(0, holdMs - (writer.openTransaction?.ageMs ?? holdMs));
  void writer.whenAskedToCommit(left).then(() => {
    if (wait !== idleWaits || scheduled || ended || queued.length > 0 || !writer.openTransaction) return;
    if (stopSet()) dropWriting();
    else if (commitDue()) commit();
    else waitIdle();
  });
}

/** The run was stopped: the open transaction rolled back, the batches queued dropped. */
function dropWriting(): void {
  release(queued);
  release(uncommitted);
  queued = [];
  uncommitted = [];
  try {
    writer.rollback();
  } catch {
    // A rollback that fails leaves nothing committed: the connection's close rolls back.
  }
}

/**
 * Ends the writing on a refusal or a failure. A batch (or a commit) that failed rolled its
 * transaction back: the batches before it in that transaction are written again, one a
 * transaction, so a failed run keeps exactly the batches sent before its failing one (the progress
 * record counts them), however they were grouped.
 */
function fail(err: unknown): void {
  ended = true;
  release(queued);
  queued = [];
  const again = uncommitted;
  uncommitted = [];
  try {
    writer.rollback();
    for (const batch of again) {
      if (stopSet()) break;
      report(writer.writeBatches([rowsOf(batch)]));
    }
  } catch {
    // The batches after the one that fails again are not written: the progress record counts those before.
  }
  release(again);
  if (err instanceof RunRefused) send({ type: 'refused', reason: err.reason });
  else send({ type: 'failed', message: (err as Error)?.message ?? String(err) });
}

let buildAnnounced = false;

/**
 * Tells the import worker, once, that this run's end includes the build of the indexes it dropped
 * (`building`), as soon as their drop is committed: a stop then waits for the build rather than
 * terminating the worker at its grace, whose notice at the stop itself came too late on a loaded
 * machine (import-thread.ts).
 */
function announceBuild(): void {
  if (buildAnnounced || !writer.indexesToBuild) return;
  buildAnnounced = true;
  send({ type: 'building' });
}

/**
 * The indexes the run dropped, built at its end. Told first (`building`): a stopped run's import
 * worker then waits for it rather than being terminated (import-thread.ts, STOP_GRACE_MS). A build
 * that fails leaves the index to the store's next open; nothing written is lost.
 */
function buildMissingIndexes(): void {
  try {
    announceBuild();
    writer.buildMissingIndexes();
  } catch {
    // The filters and orderings on the index's field scan until then.
  }
}

/** The statistics at the run's end; a failure to refresh them loses nothing written (the next refresh makes them). */
function refreshStatistics(): void {
  try {
    writer.refreshStatistics();
  } catch {
    // The planner keeps the statistics it had.
  }
}

function report(framesAfterEach: number[]): void {
  for (const framesWritten of framesAfterEach) send({ type: 'stored', framesWritten });
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(writeNext);
}

port.on('message', (message: ToRunWriter) => {
  if (message.type === 'close') {
    // A run that ends well has flushed: nothing is open. A stopped one's open transaction is rolled back.
    if (!ended && !stopSet()) commit();
    ended = true;
    release(queued);
    release(uncommitted);
    queued = [];
    uncommitted = [];
    writer.rollback();
    buildMissingIndexes();
    if (message.refreshStatistics) refreshStatistics();
    writer.close();
    port.close();
    return;
  }
  if (ended || stopSet()) return;
  if (message.type === 'flush') flushAsked = true;
  else queued.push(message.rows);
  schedule();
});
