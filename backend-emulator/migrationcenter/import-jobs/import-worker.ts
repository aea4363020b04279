/**
 * The import worker: a worker thread that reads, validates and builds an import job's assets, off
 * the thread that answers requests (import-thread.ts starts it).
 *
 * It takes one job at a time (the protocol: import-worker-protocol.ts). A run turns each asset into
 * its stored row here (assetRow). On a file-backed store each batch goes to the run's writer thread
 * (run-writer-thread.ts), which writes it on a connection of its own (run-writer.ts) while this
 * worker builds the next: the request thread does no part of the run; on an
 * in-memory store (which no second connection can open) it sends the rows and the request thread
 * writes them, the two stages overlapping. `abort` stops the job at the engine's next check
 * (between chunks of rows, between batches, or while waiting for a batch to be written); the
 * engine's own cleanup (temp databases of a join) runs as on any other stop. It also computes a
 * report's summary (`report`: reports/report-snapshot.ts), on a second connection of its own.
 */
import * as v8 from 'v8';
import { parentPort, workerData } from 'worker_threads';
import { fullCollection } from '../../garbage-collection';
import * as engine from '../../import-engine';
import type { ImportJobFormat } from '../../import-engine/types';
import { fromPortable } from '../../payloads';
import type { AssetRow } from '../../store/asset-store';
import { assetRow } from '../assets/assets';
import type { FromWorker, ImportWorkerData, ToWorker } from './import-worker-protocol';
import { RunRefused } from './run-writer';
import { summaryInSnapshot } from '../reports/report-snapshot';
import { RunWriterThread } from './run-writer-thread';
import { warmUp } from './worker-warm-up';

/** How often the worker tells the rows read (the Operation's message is throttled again there). */
const PROGRESS_EVERY_MS = 100;

const port = parentPort;
if (!port) throw new Error('import-worker.ts runs in a worker thread (import-thread.ts starts it)');

let job: { controller: AbortController; inFlight: number; wake?: () => void } | undefined;

/** The warm-up of a worker started ready (ImportWorkerData), stopped by the first job. */
let warming: AbortController | undefined;
if ((workerData as ImportWorkerData | undefined)?.warmUp) {
  const controller = new AbortController();
  warming = controller;
  void warmUp(controller.signal).finally(() => {
    if (warming === controller) warming = undefined;
  });
}

const send = (message: FromWorker) => port.postMessage(message);

/** Tells the rows read at most every PROGRESS_EVERY_MS; `flush` tells the last one held back (before the report). */
function progress(): { tick(p: { rowsRead: number; file: string }): void; flush(): void } {
  let last = 0;
  let held: { rowsRead: number; file: string } | undefined;
  return {
    tick(p) {
      const t = Date.now();
      if (t - last < PROGRESS_EVERY_MS) {
        held = p;
        return;
      }
      last = t;
      held = undefined;
      send({ type: 'progress', ...p });
    },
    flush() {
      if (held) send({ type: 'progress', ...held });
      held = undefined;
    },
  };
}

async function runJob(message: Extract<ToWorker, { type: 'validate' | 'execute' }>): Promise<void> {
  const controller = new AbortController();
  const current: NonNullable<typeof job> = { controller, inFlight: 0 };
  job = current;
  const signal = controller.signal;
  const files = message.files.map(fromPortable);
  const format = message.format as ImportJobFormat;
  const rowsRead = progress();
  const onProgress = (p: { rowsRead: number; file: string }) => rowsRead.tick(p);
  let writer: RunWriterThread | undefined;
  /**
   * The writer thread's end, before the job's end is told: nothing of a run is written after it.
   * A run that was not stopped has the planner's statistics refreshed first, on the writer's
   * connection (its pages are in that cache; the request thread then only reloads them).
   */
  const closeWriter = async () => {
    const closing = writer;
    writer = undefined;
    await closing?.close(!signal.aborted);
  };
  try {
    if (message.type === 'validate') {
      const report = await engine.validateImport(format, files, { signal, onProgress });
      rowsRead.flush();
      send({ type: 'validated', report });
    } else if (message.target) {
      const target = new RunWriterThread(
        message.target,
        message.maxInFlight,
        signal,
        (framesWritten) => send({ type: 'stored', framesWritten }),
        () => send({ type: 'building' }),
      );
      writer = target;
      const sink: engine.AssetSink<AssetRow> = {
        prepare: assetRow,
        write: (rows) => target.write(rows),
      };
      // The reading stops on a cancel, and as soon as the writer stops (a refusal, a failure):
      // nothing it reads after that could be written.
      const reading = AbortSignal.any([signal, target.stopped]);
      const report = await engine.executeImport(format, files, sink, { signal: reading, sinkBatchSize: message.sinkBatchSize, onProgress });
      // The report only once every batch is stored: the run ends with its last batch in the store.
      await target.drain();
      await closeWriter();
      rowsRead.flush();
      send({ type: 'executed', report });
    } else {
      const { maxInFlight } = message;
      const sink: engine.AssetSink<AssetRow> = {
        prepare: assetRow,
        write: async (rows) => {
          signal.throwIfAborted();
          send({ type: 'rows', rows });
          current.inFlight++;
          while (current.inFlight >= maxInFlight && !signal.aborted) await new Promise<void>((resolve) => (current.wake = resolve));
          signal.throwIfAborted();
        },
      };
      const report = await engine.executeImport(format, files, sink, { signal, sinkBatchSize: message.sinkBatchSize, onProgress });
      // The report only once every batch is written: the run ends with its last batch in the store.
      while (current.inFlight > 0 && !signal.aborted) await new Promise<void>((resolve) => (current.wake = resolve));
      signal.throwIfAborted();
      rowsRead.flush();
      send({ type: 'executed', report });
    }
  } catch (err) {
    const running = writer;
    // A run that fails in its reading (not a cancel, not the writer's own end) keeps every batch
    // it built before the failure: those sent are written before the writer closes (a close drops
    // the ones queued), so what a failed run leaves does not depend on how far the writer lagged.
    if (running && !signal.aborted && !running.stopped.aborted) await running.drain().catch(() => undefined);
    // The writer's end, when it stopped the reading, is why the run ended.
    const cause: unknown = running?.stopped.aborted ? running.stopped.reason : err;
    await closeWriter();
    if (signal.aborted) send({ type: 'stopped' });
    else if (cause instanceof RunRefused) send({ type: 'refused', reason: cause.reason });
    else send({ type: 'failed', message: (cause as Error)?.message ?? String(cause) });
  } finally {
    await closeWriter();
    job = undefined;
    // Idle now, maybe for seconds (import-thread.ts keeps it): a large job's garbage goes at once.
    collectIfJobLeftMuch();
  }
}

/**
 * COLLECT_AFTER_GROWTH_BYTES: a job that left the worker's heap this much above where the last
 * collection left it is collected at once (a large file's rows and batches: V8 would keep them for
 * a long idle time). A small job's few megabytes wait for V8's own collections: a full collection of
 * the worker's heap costs tens of milliseconds whatever the garbage (two test files' jobs: 15
 * collections of 10 to 115 ms, after jobs that had each grown the heap by at most 1.9 MB).
 */
const COLLECT_AFTER_GROWTH_BYTES = 32 * 1024 * 1024;
let heapAfterCollection = v8.getHeapStatistics().used_heap_size;

function collectIfJobLeftMuch(): void {
  if (v8.getHeapStatistics().used_heap_size - heapAfterCollection < COLLECT_AFTER_GROWTH_BYTES) return;
  fullCollection()?.();
  heapAfterCollection = v8.getHeapStatistics().used_heap_size;
}

/** A report's summary: synchronous (SQL aggregates), so an `abort` is seen only once it is done. */
function runReport(message: Extract<ToWorker, { type: 'report' }>): void {
  try {
    send({ type: 'summarized', summary: summaryInSnapshot(message.job) });
  } catch (err) {
    send({ type: 'failed', message: (err as Error)?.message ?? String(err) });
  }
}

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'report':
      warming?.abort();
      warming = undefined;
      runReport(message);
      return;
    case 'validate':
    case 'execute':
      warming?.abort();
      warming = undefined;
      void runJob(message);
      return;
    case 'written':
      if (job) {
        job.inFlight--;
        job.wake?.();
        job.wake = undefined;
      }
      return;
    case 'abort':
      if (job) {
        job.controller.abort('stopped');
        job.wake?.();
        job.wake = undefined;
      }
      return;
  }
});
