/**
 * A report's row errors laid out for the console's table: one entry per line (one error of one
 * row), in report order (file by file, row by row), with what the filters ask counted once. A page
 * is then a slice of the lines, O(pageSize), and a filter's lines are found once, at its first page.
 *
 * An index is made once per report object (`rowErrorIndex` keeps it beside the object, weakly):
 * the import jobs domain gives the console the same object while the store's documents are
 * unchanged (ImportJobs.read), so that paging and filtering one job read and walk its record once.
 */
import type { ImportError, ImportRowError, ValidationReport } from '../import-engine/report';

export type SeverityCounts = Record<string, number>;

/** One line of the row-error table: one error of one row. */
export interface RowErrorLine {
  fileName: string;
  rowNumber: number;
  vmName: string;
  vmUuid: string;
  assetTitle?: string;
  /** For workbook rows: the sheet. */
  sheet?: string;
  severity: string;
  errorDetails: string;
}

/** What one of the report's files holds (a report may name a file twice: each entry is its own). */
export interface FileRowErrors {
  /** Rows with errors. */
  rows: number;
  /** Its lines by severity. */
  bySeverity: SeverityCounts;
}

/** Filters whose lines are kept; more empties the set (a file filter per file of a large report). */
const KEPT_FILTERS = 64;

export function emptyCounts(): SeverityCounts {
  return { ERROR: 0, WARNING: 0, INFO: 0 };
}

export function bump(counts: SeverityCounts, severity: unknown): void {
  const key = typeof severity === 'string' ? severity : 'UNSPECIFIED';
  counts[key] = (counts[key] ?? 0) + 1;
}

function addCounts(into: SeverityCounts, from: SeverityCounts): void {
  for (const [key, n] of Object.entries(from)) into[key] = (into[key] ?? 0) + n;
}

export class RowErrorIndex {
  /** Each line's row and error, and the index in `fileNames` of its file's name. */
  private readonly rowOf: ImportRowError[] = [];
  private readonly errorOf: ImportError[] = [];
  private readonly fileOf: Int32Array;
  /** The files' distinct names, and each one's place there. */
  private readonly fileNames: string[] = [];
  private readonly fileIds = new Map<string, number>();
  /** Lines by severity: of each distinct file name, and of the whole report. */
  private readonly countsByName: SeverityCounts[] = [];
  readonly bySeverity: SeverityCounts = emptyCounts();
  /** Each entry of `fileValidations`, in order. */
  readonly files: FileRowErrors[] = [];
  /** Rows with errors, over every file. */
  readonly rows: number = 0;
  /** The lines of each filter asked so far (none for "no filter": every line). */
  private readonly filtered = new Map<string, Int32Array>();

  constructor(report: ValidationReport) {
    const fileIndexOfLine: number[] = [];
    for (const file of report.fileValidations ?? []) {
      let id = this.fileIds.get(file.fileName);
      if (id === undefined) {
        id = this.fileNames.push(file.fileName) - 1;
        this.fileIds.set(file.fileName, id);
        this.countsByName.push(emptyCounts());
      }
      const bySeverity = emptyCounts();
      const rowErrors = file.rowErrors ?? [];
      for (const row of rowErrors) {
        for (const error of row.errors ?? []) {
          this.rowOf.push(row);
          this.errorOf.push(error);
          fileIndexOfLine.push(id);
          bump(bySeverity, error.severity);
        }
      }
      this.files.push({ rows: rowErrors.length, bySeverity });
      addCounts(this.countsByName[id], bySeverity);
      addCounts(this.bySeverity, bySeverity);
      this.rows += rowErrors.length;
    }
    this.fileOf = Int32Array.from(fileIndexOfLine);
  }

  /** Lines by severity of the file named `file` (every file when undefined): the severity filter's choices. */
  severityCounts(file: string | undefined): SeverityCounts {
    if (file === undefined) return { ...this.bySeverity };
    const id = this.fileIds.get(file);
    return id === undefined ? emptyCounts() : { ...this.countsByName[id] };
  }

  /**
   * The lines matching `file` (exact name) and `severity`, from `offset`, at most `pageSize`, and
   * how many match in all.
   */
  page(filter: { file?: string; severity?: string }, offset: number, pageSize: number): { lines: RowErrorLine[]; total: number } {
    const positions = this.positions(filter.file, filter.severity);
    const total = positions ? positions.length : this.rowOf.length;
    const lines: RowErrorLine[] = [];
    for (let i = offset; i < Math.min(total, offset + pageSize); i++) lines.push(this.line(positions ? positions[i] : i));
    return { lines, total };
  }

  private positions(file: string | undefined, severity: string | undefined): Int32Array | undefined {
    if (file === undefined && severity === undefined) return undefined;
    const key = `${severity ?? ''}\n${file ?? ''}`;
    const kept = this.filtered.get(key);
    if (kept) return kept;
    const id = file === undefined ? -1 : (this.fileIds.get(file) ?? -2);
    const matching: number[] = [];
    if (id !== -2) {
      for (let i = 0; i < this.rowOf.length; i++) {
        if (id >= 0 && this.fileOf[i] !== id) continue;
        if (severity !== undefined && this.errorOf[i].severity !== severity) continue;
        matching.push(i);
      }
    }
    const positions = Int32Array.from(matching);
    if (this.filtered.size >= KEPT_FILTERS) this.filtered.clear();
    this.filtered.set(key, positions);
    return positions;
  }

  private line(i: number): RowErrorLine {
    const row = this.rowOf[i];
    const error = this.errorOf[i];
    const line: RowErrorLine = {
      fileName: this.fileNames[this.fileOf[i]],
      rowNumber: row.rowNumber,
      vmName: row.vmName ?? '',
      vmUuid: row.vmUuid ?? '',
      severity: error.severity,
      errorDetails: error.errorDetails,
    };
    if (row.assetTitle !== undefined) line.assetTitle = row.assetTitle;
    if (row.xlsxError?.sheet !== undefined) line.sheet = row.xlsxError.sheet;
    return line;
  }
}

const indexes = new WeakMap<ValidationReport, RowErrorIndex>();

/** The report's index if one was made (a job list's reports are read afresh each time: walked, not indexed). */
export function madeRowErrorIndex(report: ValidationReport): RowErrorIndex | undefined {
  return indexes.get(report);
}

/** The report's index: made at the first ask, kept while the report object lives. */
export function rowErrorIndex(report: ValidationReport): RowErrorIndex {
  let index = indexes.get(report);
  if (!index) {
    index = new RowErrorIndex(report);
    indexes.set(report, index);
  }
  return index;
}
