/**
 * The bridge to the import engine (backend-emulator/import-engine): loaded on first use, so that an
 * emulator that never validates an import does not load the readers (papaparse, the XLSX reader).
 */
import type { PayloadFile } from '../payloads';
import type { AssetSink } from '../import-engine/asset';
import type { ExecutionReport, ValidationReport } from '../import-engine/report';

export interface EngineCallOptions {
  /** Fires when the work must stop (cancel, shutdown, job deleted). */
  signal?: AbortSignal;
}

interface EngineModule {
  validateImport(format: string, files: PayloadFile[], options?: Record<string, unknown>): Promise<ValidationReport>;
  executeImport(format: string, files: PayloadFile[], sink: AssetSink, options?: Record<string, unknown>): Promise<ExecutionReport>;
}

let engine: EngineModule | undefined;

function load(): EngineModule {
  if (!engine) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    engine = require('../import-engine') as EngineModule;
  }
  return engine;
}

export function validateImport(format: string, files: PayloadFile[], options: EngineCallOptions): Promise<ValidationReport> {
  return load().validateImport(format, files, { ...options });
}

export function executeImport(format: string, files: PayloadFile[], sink: AssetSink, options: EngineCallOptions): Promise<ExecutionReport> {
  return load().executeImport(format, files, sink, { ...options });
}
