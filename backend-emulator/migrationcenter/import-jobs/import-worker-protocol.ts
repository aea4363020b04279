/**
 * The messages between the request thread and an import worker (import-worker.ts), one job at a
 * time per worker. The request thread sends the job; the worker reads, validates and, for a run,
 * builds each asset's stored row, sending them in batches; the request thread writes each batch in
 * its transaction and says so (`written`), and the worker keeps at most `maxInFlight` batches
 * unwritten: the pipeline's memory stays bounded however fast the worker parses.
 */
import type { PortableFile } from '../../payloads';
import type { AssetRow } from '../../store/asset-store';
import type { ExecutionReport, ValidationReport } from '../../import-engine/report';

export type ToWorker =
  | { type: 'validate'; format: string; files: PortableFile[] }
  | { type: 'execute'; format: string; files: PortableFile[]; sinkBatchSize: number; maxInFlight: number }
  /** The oldest batch sent is written: the worker may send another. */
  | { type: 'written' }
  /** Stop the job (cancel, shutdown, a failed write): the worker ends it with `stopped`. */
  | { type: 'abort' };

export type FromWorker =
  | { type: 'progress'; rowsRead: number; file: string }
  | { type: 'rows'; rows: AssetRow[] }
  | { type: 'validated'; report: ValidationReport }
  | { type: 'executed'; report: ExecutionReport }
  | { type: 'stopped' }
  | { type: 'failed'; message: string };
