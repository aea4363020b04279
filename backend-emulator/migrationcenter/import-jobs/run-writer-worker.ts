/**
 * The run's writer thread: a worker thread, started by the import worker for each run on a
 * file-backed store (run-writer-thread.ts), that writes the run's batches on its own connection
 * (run-writer.ts) while the import worker reads, checks and builds the next ones. A run's time is
 * then that of the slower of the two stages, not their sum.
 *
 * Batches arrive in order and are written in order, whole, a few to a transaction when they queue
 * up (GROUP_BATCHES). After a refusal or a failure nothing more is written (a failing group is
 * written again batch by batch first: `writeGroup`). Batches not yet written
 * once the stop cell is set (the run was stopped) are dropped: the cell is read before each
 * transaction, so a stop waits for at most the transaction under way, never for the batches queued
 * behind it. `close` ends the thread, once it has built the indexes the run dropped
 * (run-writer.ts, DEFER_INDEXES_AFTER_ROWS), whatever ended the run: a stopped run's included.
 */
import { parentPort, workerData } from 'worker_threads';
import { unpackRows, type AssetRowBatch } from './asset-row-batch';
import type { FromRunWriter, RunWriterData, ToRunWriter } from './import-worker-protocol';
import { RunRefused, RunWriter } from './run-writer';

const port = parentPort;
if (!port) throw new Error('run-writer-worker.ts runs in a worker thread (run-writer-thread.ts starts it)');

/**
 * The most batches one transaction writes. A run's commits wait for the disk (synchronous = FULL):
 * when the writer falls behind, the batches queued meanwhile share one commit instead of waiting
 * for one each; few enough that a request's write, or a cancel, waits for a short transaction
 * (sqlite-store.ts `priority`). Each is whole, so a kill still leaves whole batches. 8, all the
 * import worker may have in flight (import-thread.ts, MAX_BATCHES_IN_FLIGHT): a writer falls
 * behind on random machine ids, whose every commit rewrites a random leaf of the id index per
 * asset, and a group of 8 rewrites fewer leaves per asset than two of 4 (p99 of a group 164 to
 * 170 ms there, against 97 to 236 ms for 4; docs/benchmarks.md, 2026-11-27 uuid14).
 */
const GROUP_BATCHES = 8;

const { target, stop } = workerData as RunWriterData;
const stopped = new Int32Array(stop);
const writer = new RunWriter(target);
let ended = false;

const send = (message: FromRunWriter) => port.postMessage(message);

/** The batches received and not yet written. */
let queued: AssetRowBatch[] = [];
let scheduled = false;

/**
 * Writes the batches received so far, at most GROUP_BATCHES in one transaction. Node delivers the
 * messages already queued on the port one after the other before an immediate runs, so the batches
 * that arrived while the last transaction committed are all here.
 */
function writeQueued(): void {
  scheduled = false;
  if (ended || Atomics.load(stopped, 0) !== 0) {
    queued = [];
    return;
  }
  const group = queued.splice(0, GROUP_BATCHES);
  try {
    writeGroup(group);
  } catch (err) {
    ended = true;
    queued = [];
    if (err instanceof RunRefused) send({ type: 'refused', reason: err.reason });
    else send({ type: 'failed', message: (err as Error)?.message ?? String(err) });
    return;
  }
  schedule();
}

/**
 * Writes a group in one transaction. A group that fails (not a refusal, which refuses every batch
 * alike) is written again one batch per transaction: the batches before the one that fails are
 * stored, whichever way timing grouped them, and a failed run keeps exactly the batches sent
 * before its failing one (the progress record counts them).
 */
function writeGroup(group: AssetRowBatch[]): void {
  try {
    report(writer.writeBatches(group.map(unpackRows)));
  } catch (err) {
    if (group.length === 1 || err instanceof RunRefused) throw err;
    for (const batch of group) {
      if (Atomics.load(stopped, 0) !== 0) return;
      report(writer.writeBatches([unpackRows(batch)]));
    }
  }
}

/**
 * The indexes the run dropped, built at its end. Told first (`building`): a stopped run's import
 * worker then waits for it rather than being terminated (import-thread.ts, STOP_GRACE_MS). A build
 * that fails leaves the index to the store's next open; nothing written is lost.
 */
function buildMissingIndexes(): void {
  try {
    if (writer.indexesToBuild) send({ type: 'building' });
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
  if (scheduled || queued.length === 0) return;
  scheduled = true;
  setImmediate(writeQueued);
}

port.on('message', (message: ToRunWriter) => {
  if (message.type === 'close') {
    ended = true;
    queued = [];
    buildMissingIndexes();
    if (message.refreshStatistics) refreshStatistics();
    writer.close();
    port.close();
    return;
  }
  if (ended || Atomics.load(stopped, 0) !== 0) return;
  queued.push(message.rows);
  schedule();
});
