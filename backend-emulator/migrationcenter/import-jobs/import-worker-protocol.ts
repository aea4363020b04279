/**
 * The messages between the request thread and an import worker (import-worker.ts), one job at a
 * time per worker. The request thread sends the job; the worker reads, validates and, for a run,
 * builds each asset's stored row. A run with a `target` (a file-backed store) is written by the
 * worker itself (run-writer.ts), which tells each batch stored (`stored`) and ends with `refused`
 * when a batch's checks fail. Without one (an in-memory store), the worker sends the rows in
 * batches; the request thread writes each batch in its transaction and says so (`written`), and
 * the worker keeps at most `maxInFlight` batches unwritten: the pipeline's memory stays bounded
 * however fast the worker parses. The worker also computes reports' summaries (`report`), the
 * other long work that must not hold the request thread.
 */
import type { PortableFile } from '../../payloads';
import type { AssetRow } from '../../store/asset-store';
import type { ExecutionReport, ValidationReport } from '../../import-engine/report';
import type { RunTarget } from './run-writer';
import type { ReportSummaryJob } from '../reports/report-snapshot';

/** The import worker's workerData. */
export interface ImportWorkerData {
  /** Started ready, ahead of any job: the worker warms its code up first (worker-warm-up.ts). */
  warmUp: boolean;
}

export type ToWorker =
  | { type: 'validate'; format: string; files: PortableFile[] }
  | { type: 'execute'; format: string; files: PortableFile[]; sinkBatchSize: number; maxInFlight: number; target?: RunTarget }
  /** A report's summary, read on a second connection (reports/report-snapshot.ts): not an import, but long work of the same kind. */
  | { type: 'report'; job: ReportSummaryJob }
  /** The oldest batch sent is written: the worker may send another. */
  | { type: 'written' }
  /** Stop the job (cancel, shutdown, a failed write): the worker ends it with `stopped`. */
  | { type: 'abort' };

export type FromWorker =
  | { type: 'progress'; rowsRead: number; file: string }
  | { type: 'rows'; rows: AssetRow[] }
  /** A run with a target: a batch committed, with the frames written so far. */
  | { type: 'stored'; framesWritten: number }
  /** A run with a target ended: a batch's checks failed (the run lost its job, or its source is gone). */
  | { type: 'refused'; reason: 'job' | 'source' }
  | { type: 'validated'; report: ValidationReport }
  | { type: 'executed'; report: ExecutionReport }
  | { type: 'summarized'; summary: Record<string, unknown> }
  /**
   * A run's writer dropped indexes (run-writer.ts), committed, and builds them before the worker
   * ends the job: a stopped job's worker is then waited for, not terminated at STOP_GRACE_MS
   * (import-thread.ts). Sent when the drop is committed, and again at the close.
   */
  | { type: 'building' }
  | { type: 'stopped' }
  | { type: 'failed'; message: string };

/**
 * The run's writer thread (run-writer-worker.ts), started by the import worker with this as its
 * workerData: where to write, and a cell (one Int32) the import worker sets to stop the writing.
 */
export interface RunWriterData {
  target: RunTarget;
  stop: SharedArrayBuffer;
  /** How long, and how many assets, a transaction of the writer holds at most; the defaults unless told (tests hold longer). */
  hold?: RunWriterHold;
}

/** The limits of a transaction the run's writer holds open (run-writer-worker.ts, HOLD_MS and HOLD_ROWS). */
export interface RunWriterHold {
  ms?: number;
  rows?: number;
}

export type ToRunWriter =
  /**
   * The run's next batch, in order: its AssetRowBatch (asset-row-batch.ts) serialized
   * (`v8.serialize`), so that the writer keeps the batches of its open transaction as bytes, outside
   * its heap (run-writer-worker.ts, `uncommitted`). The bytes are moved (a transfer), and the writer
   * frees them once their transaction commits (`release`).
   */
  | { type: 'batch'; rows: Uint8Array }
  /** No batch follows for now (the reading ended, or failed): the writer commits once every batch sent is written. */
  | { type: 'flush' }
  /**
   * No more batches: the writer closes its connection and its thread ends; first, unless the run
   * was stopped, it refreshes the planner's statistics of what it wrote (`refreshStatistics`).
   */
  | { type: 'close'; refreshStatistics: boolean };

export type FromRunWriter =
  /** A batch written in the writer's open transaction (run-writer-worker.ts): the import worker may send another. */
  | { type: 'written' }
  /** A batch committed, with the frames written so far. */
  | { type: 'stored'; framesWritten: number }
  /** A batch's checks failed (the run lost its job, or its source is gone): nothing more is written. */
  | { type: 'refused'; reason: 'job' | 'source' }
  /** The run's dropped indexes are committed gone: the writer builds them at its close, then ends. */
  | { type: 'building' }
  | { type: 'failed'; message: string };
