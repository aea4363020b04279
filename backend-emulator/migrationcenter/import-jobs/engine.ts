/**
 * The bridge to the import engine (backend-emulator/import-engine): loaded on first use, so that an
 * emulator that never validates an import does not load the readers (papaparse, the XLSX reader).
 */
import type { PayloadFile } from '../../payloads';
import type { Asset, AssetSink } from '../../import-engine/asset';
import type { ExecutionReport, ValidationReport } from '../../import-engine/report';
import type { ImportJobFormat } from '../../import-engine/types';
import type { RowCells, RowLocation } from '../../import-engine/row-cells';
import type { AssetRow } from '../../store/asset-store';
import { assetRow } from '../assets/assets';
import { executeInWorker, executeWritingInWorker, portablePayload, validateInWorker } from './import-thread';
import type { RunTarget } from './run-writer';

export interface EngineCallOptions {
  /** Fires when the work must stop (cancel, shutdown, job deleted). */
  signal?: AbortSignal;
  /** How many assets each sink write receives (the engine's default otherwise). */
  sinkBatchSize?: number;
  /** After each chunk of rows read: how many so far (the Operation's status message). */
  onProgress?: (p: { rowsRead: number; file: string }) => void;
}

/** Typed from the module itself: a type-only import is erased, so the engine still loads lazily. */
type EngineModule = typeof import('../../import-engine');

let engine: EngineModule | undefined;

function load(): EngineModule {
  if (!engine) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    engine = require('../../import-engine') as EngineModule;
  }
  return engine;
}

/**
 * Validation of a payload: in an import worker (import-thread.ts) when every file can be opened
 * there, here otherwise (a file only this thread can open).
 */
export function validateImport(format: string, files: PayloadFile[], options: EngineCallOptions): Promise<ValidationReport> {
  const portable = portablePayload(files);
  if (portable) return validateInWorker(format, portable, options);
  // The format was checked against the schema's enum on create: the engine refuses any other.
  return load().validateImport(format as ImportJobFormat, files, { ...options });
}

/**
 * A run of a payload: every valid machine becomes its stored row (assetRow), handed to `write` in
 * batches of `sinkBatchSize`, in order; `write` runs on this thread, and a throw stops the run with
 * that error. The reading, checking and building happen in an import worker when every file can be
 * opened there (this thread then only writes), here otherwise.
 */
export function executeImportRows(
  format: string,
  files: PayloadFile[],
  write: (rows: AssetRow[]) => void,
  options: EngineCallOptions & { sinkBatchSize: number },
): Promise<ExecutionReport> {
  const portable = portablePayload(files);
  if (portable) return executeInWorker(format, portable, options.sinkBatchSize, { ...options, onRows: write });
  return executeImport<AssetRow>(format, files, { prepare: assetRow, write }, options);
}

/**
 * A run of a payload written by an import worker into the store's database file (`target`,
 * run-writer.ts), when every file can be opened there; undefined otherwise (the caller then
 * writes on this thread, `executeImportRows`).
 */
export function executeImportWriting(
  format: string,
  files: PayloadFile[],
  target: RunTarget,
  options: EngineCallOptions & {
    sinkBatchSize: number;
    onStored: (framesWritten: number) => void;
    refusal: (reason: 'job' | 'source') => Error;
    /** Once the worker no longer writes (import-thread.ts); at once when there is no worker. */
    onWorkerDone: () => void;
  },
): Promise<ExecutionReport> | undefined {
  const portable = portablePayload(files);
  if (portable) return executeWritingInWorker(format, portable, options.sinkBatchSize, target, options);
  options.onWorkerDone();
  return undefined;
}

export function executeImport<T = Asset>(format: string, files: PayloadFile[], sink: AssetSink<T>, options: EngineCallOptions): Promise<ExecutionReport> {
  return load().executeImport(format as ImportJobFormat, files, sink, { ...options });
}

/** One row of a payload read back (the console's opened row error). */
export function readRowCells(format: string, files: PayloadFile[], where: RowLocation, signal?: AbortSignal): Promise<RowCells | undefined> {
  return load().readRowCells(format, files, where, signal);
}
