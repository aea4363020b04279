/** Shared helpers of the web console tests: apps, calls, seed documents, big reports. */
import { csv, vmRow, VM_HEADER } from './manual-csv';
export { call, ok, googleError, type Res } from './inject';
export { VM_HEADER, vmRow, csv, inlinePayload } from './manual-csv';
export { inMemoryApp as newApp } from './app';

export const NS_PARENT = 'projects/p1/locations/global';
export const MC_PARENT = 'projects/p1/locations/us-central1';
export const CONSOLE = '/emulator/v1/console';

export const MATCHER = {
  metadataLabelMatcher: {
    metadataLabelMatchCriteria: 'MATCH_ANY',
    metadataLabels: [{ labelName: 'app', labelValue: 'web' }],
  },
};

export const CONDITION = {
  title: 'expires-end-of-2099',
  description: 'Temporary access for the migration',
  expression: 'request.time < timestamp("2100-01-01T00:00:00Z")',
};

export const SEVERITY_CYCLE = ['ERROR', 'WARNING', 'INFO'] as const;

/**
 * A validation report with `total` row errors (one error each), spread over `files` in order
 * ({name: rows}); row i (0-based over the whole report) has severity SEVERITY_CYCLE[i % 3].
 */
export function bigReport(files: Record<string, number>): Record<string, unknown> {
  let i = 0;
  const fileValidations = Object.entries(files).map(([fileName, rows]) => {
    const rowErrors = [];
    for (let r = 0; r < rows; r++, i++) {
      const severity = SEVERITY_CYCLE[i % 3];
      rowErrors.push({
        rowNumber: r + 2,
        vmName: `vm-${i}`,
        vmUuid: `uuid-${i}`,
        errors: [
          {
            severity,
            errorDetails: `${severity === 'ERROR' ? 'MemoryGiB is not a number' : severity === 'WARNING' ? 'TotalDiskUsedGiB exceeds TotalDiskAllocatedGiB' : 'OsVersion is empty'} (line ${i})`,
          },
        ],
        csvError: { rowNumber: r + 2 },
      });
    }
    return { fileName, rowErrors, partialReport: false, fileErrors: [] };
  });
  return { fileValidations, jobErrors: [] };
}

/** How many lines of bigReport(files) file `name` has of `severity`. */
export function expectedCount(files: Record<string, number>, name: string | undefined, severity: string | undefined): number {
  let i = 0;
  let n = 0;
  for (const [fileName, rows] of Object.entries(files)) {
    for (let r = 0; r < rows; r++, i++) {
      if (name !== undefined && fileName !== name) continue;
      if (severity !== undefined && SEVERITY_CYCLE[i % 3] !== severity) continue;
      n++;
    }
  }
  return n;
}

export const BIG_FILES = { 'vmInfo.csv': 60_000, 'perfInfo.csv': 40_000 };

/** The source the console tests' jobs name (assetSource is required and must exist): seed it first. */
export const MC_SOURCE = `${MC_PARENT}/sources/console`;
export const SOURCE_SEED = { name: MC_SOURCE };

/** A seeded FAILED_VALIDATION job whose validation report has `files` row errors (seed SOURCE_SEED with it). */
export function bigJobSeed(id: string, files: Record<string, number> = BIG_FILES): Record<string, unknown> {
  return {
    name: `${MC_PARENT}/importJobs/${id}`,
    assetSource: MC_SOURCE,
    displayName: 'Big import',
    state: 'IMPORT_JOB_STATE_FAILED_VALIDATION',
    gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://imports/big/' },
    createTime: '2024-05-01T10:00:00.000Z',
    updateTime: '2024-05-01T10:05:00.000Z',
    validationReport: bigReport(files),
  };
}

// ---------------------------------------------------------------- manual CSV

export const MIXED_CSV = csv(
  VM_HEADER,
  vmRow('m-1', 'web-1'),
  vmRow('m-2', 'db-1', { AllocatedProcessorCoreCount: '8', MemoryGiB: '32' }),
  vmRow('m-3', 'bad-1', { AllocatedProcessorCoreCount: 'many' }),
  vmRow('m-4', 'warn-1', { TotalDiskAllocatedGiB: '10', TotalDiskUsedGiB: '20' }),
);

/** Three importable machines, one with a WARNING. */
export const GOOD_CSV = csv(
  VM_HEADER,
  vmRow('g-1', 'app-1'),
  vmRow('g-2', 'app-2', { AllocatedProcessorCoreCount: '4', MemoryGiB: '16' }),
  vmRow('g-3', 'app-3', { TotalDiskAllocatedGiB: '10', TotalDiskUsedGiB: '20' }),
);
