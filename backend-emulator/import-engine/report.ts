/**
 * The import reports in their wire shape (migrationcenter v1alpha1 `ValidationReport`,
 * `FileValidationReport`, `ImportRowError`, `ImportError`, `ExecutionReport`), plus the small
 * helpers the pipeline uses to fill them. Field names are the real API's JSON names, so a route can
 * serialise these objects as they are.
 */

export type Severity = 'ERROR' | 'WARNING' | 'INFO';

export interface ImportError {
  errorDetails: string;
  severity: Severity;
}

export interface ImportRowError {
  /** 1-based, the header line is row 1: the first data row is 2 (the row a spreadsheet shows). */
  rowNumber: number;
  vmName: string;
  vmUuid: string;
  errors: ImportError[];
  /** Set for rows of CSV files (same row number); not for a CSV inside an archive (`archiveError`). */
  csvError?: { rowNumber: number };
  /** Set for rows of workbook sheets: the sheet, and the row as the sheet numbers it. */
  xlsxError?: { sheet: string; rowNumber: number };
  /**
   * Set, in place of `csvError`, for rows of a CSV file inside a `.zip` payload file: the entry's
   * path in the archive (`output/vm/vmInfo.csv`) and the row (same row number).
   */
  archiveError?: { filePath: string; csvError: { rowNumber: number } };
  /** A human readable name of the asset the row describes, when the row names one. */
  assetTitle?: string;
}

export interface FileValidationReport {
  fileName: string;
  rowErrors: ImportRowError[];
  /** True once the file reached the configured maximum of reported row errors. */
  partialReport: boolean;
  fileErrors: ImportError[];
}

export interface ValidationReport {
  fileValidations: FileValidationReport[];
  jobErrors: ImportError[];
}

export interface ExecutionReport {
  framesReported: number;
  executionErrors: ValidationReport;
  totalRowsCount: number;
}

export const error = (errorDetails: string): ImportError => ({ errorDetails, severity: 'ERROR' });
export const warning = (errorDetails: string): ImportError => ({ errorDetails, severity: 'WARNING' });
export const info = (errorDetails: string): ImportError => ({ errorDetails, severity: 'INFO' });

const RANK: Record<Severity, number> = { ERROR: 3, WARNING: 2, INFO: 1 };

/**
 * One issue per row (reader issues are keyed by row number): several cell issues of one row become
 * one entry with the highest severity, their texts joined.
 */
export function combineIssues(issues: readonly ImportError[]): ImportError {
  if (issues.length === 1) return issues[0];
  let severity = issues[0].severity;
  for (const i of issues) if (RANK[i.severity] > RANK[severity]) severity = i.severity;
  const shown = issues.slice(0, 5).map((i) => i.errorDetails);
  if (issues.length > 5) shown.push(`and ${issues.length - 5} more`);
  return { severity, errorDetails: shown.join('; ') };
}

/** True when the report holds a blocking error (severity ERROR) anywhere. */
export function hasBlockingErrors(report: ValidationReport): boolean {
  if (report.jobErrors.some((e) => e.severity === 'ERROR')) return true;
  return report.fileValidations.some(
    (f) => f.fileErrors.some((e) => e.severity === 'ERROR') || f.rowErrors.some((r) => r.errors.some((e) => e.severity === 'ERROR')),
  );
}

/** Counts the entries of each severity in a report (jobs, files and rows together). */
export function countBySeverity(report: ValidationReport): Record<Severity, number> {
  const counts: Record<Severity, number> = { ERROR: 0, WARNING: 0, INFO: 0 };
  for (const e of report.jobErrors) counts[e.severity]++;
  for (const f of report.fileValidations) {
    for (const e of f.fileErrors) counts[e.severity]++;
    for (const r of f.rowErrors) for (const e of r.errors) counts[e.severity]++;
  }
  return counts;
}
