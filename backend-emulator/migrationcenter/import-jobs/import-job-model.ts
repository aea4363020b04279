/**
 * The import job as stored and the helpers every part of the import job domain shares (the
 * request-time methods in import-jobs.ts, the background work in import-job-work.ts).
 */
import { GoogleApiError } from '../../errors';
import type { ImportError, ValidationReport } from '../../import-engine/report';
import type { ImportJobWire, StoredJob } from '../types';

/** Per-run progress (frames written so far), kept apart from the job so a batch rewrites a tiny document. */
export const RUN_PROGRESS = 'migrationcenter.runProgress';

export interface RunProgress {
  operation: string;
  framesWritten: number;
}

/** The job error of a validation with nothing to read. */
export const NO_DATA_MESSAGE = 'The import job has no data to validate: add data files (importDataFiles) or a payload.';

export function now(): string {
  return new Date().toISOString();
}

export const jobError = (errorDetails: string): ImportError => ({ errorDetails, severity: 'ERROR' });

export function emptyValidationReport(errors: string[] = []): ValidationReport {
  return { fileValidations: [], jobErrors: errors.map(jobError) };
}

export function hasBlockingErrors(report: ValidationReport): boolean {
  if (report.jobErrors.some((e) => e.severity === 'ERROR')) return true;
  return report.fileValidations.some(
    (f) => f.fileErrors.some((e) => e.severity === 'ERROR') || f.rowErrors.some((r) => r.errors.some((e) => e.severity === 'ERROR')),
  );
}

/** Every field of the v1alpha1 ImportJob message (JSON names), in the canonical key order. */
export const IMPORT_JOB_FIELDS: ReadonlyArray<keyof ImportJobWire> = [
  'name',
  'displayName',
  'createTime',
  'updateTime',
  'completeTime',
  'state',
  'labels',
  'assetSource',
  'validationReport',
  'executionReport',
  'gcsPayload',
  'inlinePayload',
];

/** The wire job in a canonical key order (what clients and tests read). */
export function ordered(job: ImportJobWire): ImportJobWire {
  const out: Record<string, unknown> = {};
  for (const k of IMPORT_JOB_FIELDS) if (job[k] !== undefined) out[k] = job[k];
  return out as unknown as ImportJobWire;
}

export function hasPayload(job: Partial<ImportJobWire>): boolean {
  return job.inlinePayload !== undefined || job.gcsPayload !== undefined;
}

export function payloadFormat(job: ImportJobWire): string {
  return job.inlinePayload?.format ?? job.gcsPayload?.format ?? 'IMPORT_JOB_FORMAT_UNSPECIFIED';
}

/** Thrown inside background work when its job was deleted or re-validated meanwhile. */
export class JobGone extends GoogleApiError {
  constructor(name: string, state: string) {
    super('ABORTED', `Import job ${name} was deleted (or started again) while it was ${state}; this operation's result was dropped.`);
  }
}

/** Accepts a bare wire job written into the store by hand as well as the stored form. */
export function normalizeStored(value: StoredJob | ImportJobWire): StoredJob {
  if ((value as StoredJob).job) return value as StoredJob;
  return { job: value as ImportJobWire, attempt: 0 };
}
