/**
 * The Migration Center import engine: a pure domain library (no HTTP). Routes and the import job
 * lifecycle call `validateImport` and `executeImport`; `listFormats` feeds docs and templates.
 *
 * One pipeline (pipeline.ts) serves every format; a format is a definition in formats/ (file kinds
 * with column templates and rules, a reader, an asset mapping). See docs/formats/manual-csv.md.
 */
import { toWireFormat } from '../../schemas/aliases';
import type { Asset, AssetSink } from './asset';
import { FORMAT_LABELS, FORMATS, otherFormatOf, unsupportedReason } from './formats';
import { executeWith, validateWith } from './pipeline';
import { error, type ExecutionReport, type ValidationReport } from './report';
import { IMPORT_JOB_FORMATS, type EngineOptions, type FormatDefinition, type ImportJobFormat, type PayloadFile } from './types';

export type * from './asset';
export type * from './report';
export type * from './types';
export { hasBlockingErrors, countBySeverity } from './report';
export { IMPORT_JOB_FORMATS } from './types';
export { DEFAULTS } from './pipeline';
export { templateCsv, columnTable, fileColumns } from './templates';
export { csvReader } from './readers/csv';
export { validateWith, executeWith } from './pipeline';
export { readRowCells, type RowCells, type RowLocation } from './row-cells';

type Resolution = { definition: FormatDefinition; format: ImportJobFormat } | { report: ValidationReport };

function resolve(format: string, files: readonly PayloadFile[]): Resolution {
  const wire = typeof format === 'string' ? toWireFormat(format) : '';
  const noFiles = (jobErrors: ValidationReport['jobErrors']): ValidationReport => ({
    fileValidations: (Array.isArray(files) ? files : []).map((f) => ({
      fileName: typeof f?.name === 'string' ? f.name : '',
      rowErrors: [],
      partialReport: false,
      fileErrors: [],
    })),
    jobErrors,
  });
  if (!(IMPORT_JOB_FORMATS as readonly string[]).includes(wire)) {
    return {
      report: noFiles([error(`unknown import format "${String(format).slice(0, 64)}": expected one of ${IMPORT_JOB_FORMATS.join(', ')}`)]),
    };
  }
  const known = wire as ImportJobFormat;
  const definition = FORMATS[known];
  if (!definition) {
    // A job-level ERROR: validation ends FAILED_VALIDATION, execution imports nothing.
    return {
      report: noFiles([
        error(
          `Format ${known} (${FORMAT_LABELS[known]}) is not supported by the emulator; ${unsupportedReason(known) ?? `supported: ${Object.keys(FORMATS).join(', ')}`}`,
        ),
      ]),
    };
  }
  return { definition, format: wire as ImportJobFormat };
}

/** Validates a payload: job, file and row errors. Never throws for bad input; rejects only when `signal` aborts. */
export async function validateImport(format: ImportJobFormat, files: PayloadFile[], options?: EngineOptions): Promise<ValidationReport> {
  const r = resolve(format, files);
  if ('report' in r) return r.report;
  return validateWith(r.definition, files, options, (base) => otherFormatOf(r.format, base));
}

/**
 * Imports a payload: every valid machine row becomes one asset written to `sink` in batches; rows
 * with errors are skipped and reported in `executionErrors`. Rejects when `signal` aborts or the
 * sink throws (assets written before stay written).
 */
export async function executeImport<T = Asset>(
  format: ImportJobFormat,
  files: PayloadFile[],
  sink: AssetSink<T>,
  options?: EngineOptions,
): Promise<ExecutionReport> {
  const r = resolve(format, files);
  if ('report' in r) return { framesReported: 0, executionErrors: r.report, totalRowsCount: 0 };
  return executeWith(r.definition, files, sink, options, (base) => otherFormatOf(r.format, base));
}

/** The implemented formats' definitions (file kinds, column templates, rules). */
export function listFormats(): FormatDefinition[] {
  return Object.values(FORMATS).filter((d): d is FormatDefinition => d !== undefined);
}
