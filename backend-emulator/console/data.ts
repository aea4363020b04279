/**
 * The web console's read model: what the console's JSON routes return, read from the store
 * through the services' own domain modules (endpoint policies, IAM policies, import jobs,
 * assets). Nothing here writes.
 *
 * Sizes stay bounded: every list is a page (keyset page tokens, as the Google lists), and a job's
 * row errors are never sent whole: `rowErrorPage` slices the report's index (row-error-index.ts),
 * made once per report object, so that a page costs its own lines, not the report's.
 */
import { invalidArgument, notFound } from '../errors';
import type { KeysetPageRequest, ListPage, PageLimits } from '../query/list-query';
import type { EndpointPolicies, EndpointPolicy } from '../networkservices/endpoint-policies';
import { viewPolicy, type IamPolicies, type Policy } from '../networkservices/iam-policy';
import { RESOURCE_TYPES, lastSegment, parentOf } from '../migrationcenter/names';
import { jobInView, type ImportJobs } from '../migrationcenter/import-jobs/import-jobs';
import type { Assets } from '../migrationcenter/assets/assets';
import type { ImportDataFiles, ImportDataFileWire } from '../migrationcenter/import-data-files/import-data-files';
import type { AssetWire, ImportJobOverview } from '../migrationcenter/types';
import type { ImportError, ValidationReport } from '../import-engine/report';
import { bump, emptyCounts, madeRowErrorIndex, rowErrorIndex, type RowErrorLine, type SeverityCounts } from './row-error-index';

export type { RowErrorLine, SeverityCounts } from './row-error-index';

export const SEVERITIES = ['ERROR', 'WARNING', 'INFO'] as const;
export type ConsoleSeverity = (typeof SEVERITIES)[number];

export const REPORTS = ['validation', 'execution'] as const;
export type ReportKind = (typeof REPORTS)[number];

/** Lines of a row-error page: default and largest page size. */
export const ROW_ERRORS_PAGE: PageLimits = { defaultSize: 50, maxSize: 500 };
/** Job-level and file-level errors sent with a job's details (the rest is counted). */
export const MAX_LISTED_ERRORS = 100;
/** Data files sent with a job's details (the rest is counted). */
export const MAX_LISTED_DATA_FILES = 100;

/**
 * The domains the console reads through (never the store's collections); a service the app
 * does not run is absent, and reads as empty.
 */
export interface ConsoleDomains {
  endpointPolicies?: EndpointPolicies;
  iamPolicies?: IamPolicies;
  importJobs?: ImportJobs;
  importDataFiles?: ImportDataFiles;
  assets?: Assets;
}

// ---------------------------------------------------------------------------------------------
// Endpoint policies with their IAM policies

export interface ConsolePolicy {
  policy: EndpointPolicy;
  /** The IAM policy as `getIamPolicy` with `requestedPolicyVersion=3` returns it. */
  iamPolicy: Policy;
  /** When the IAM policy was last written (absent when it never was). */
  iamUpdateTime?: string;
  iamRevision?: number;
}

export function endpointPolicyPage(domains: ConsoleDomains, page: KeysetPageRequest): ListPage<ConsolePolicy> {
  const { endpointPolicies, iamPolicies } = domains;
  if (!endpointPolicies) return { items: [] };
  const result = endpointPolicies.listAll(page);
  return {
    items: result.items.map((value) => {
      const stored = iamPolicies?.find(value.name);
      return {
        policy: value,
        iamPolicy: viewPolicy(stored, 3),
        ...(stored ? { iamUpdateTime: stored.updateTime, iamRevision: stored.revision } : {}),
      };
    }),
    nextPageToken: result.nextPageToken,
  };
}

// ---------------------------------------------------------------------------------------------
// Import jobs

export function readJob(domains: ConsoleDomains, name: string): ImportJobOverview {
  if (!domains.importJobs) throw notFound(RESOURCE_TYPES.importJob, name);
  return domains.importJobs.read(name);
}

export interface ReportCounts {
  /** Rows with errors (ImportRowError entries), over every file. */
  rowErrors: number;
  /** Entries by severity, job-level, file-level and row-level together. */
  bySeverity: SeverityCounts;
  files: number;
}

export interface PayloadSummary {
  format: string;
  /** Inline payload: its files and their decoded sizes (the data itself is never sent). */
  files?: Array<{ name: string; bytes: number }>;
  /** Storage payload: its gs:// path. */
  path?: string;
  /**
   * Import data files (a job fed through the upload flow, which has no payload of its own): the
   * first MAX_PAYLOAD_DATA_FILES display names (the id when there is none) and how many there are.
   */
  dataFiles?: string[];
  dataFileCount?: number;
}

/** Data file names listed in a job list's payload column (the job's page lists the first 100). */
export const MAX_PAYLOAD_DATA_FILES = 10;

export interface JobSummary {
  name: string;
  displayName?: string;
  state: string;
  createTime: string;
  updateTime: string;
  completeTime?: string;
  labels?: Record<string, string>;
  assetSource?: string;
  payload?: PayloadSummary;
  validation?: ReportCounts;
  execution?: ReportCounts & { framesReported: number; totalRowsCount: number };
}

/**
 * A report's counts, from its index when the console made one (a job's details and pages), else
 * by one walk: the job list reads its jobs afresh each time, and an index made for a list's
 * answer would cost more than the walk and be dropped with it.
 */
function reportCounts(report: ValidationReport): ReportCounts {
  const index = madeRowErrorIndex(report);
  const bySeverity = index ? index.severityCounts(undefined) : emptyCounts();
  let rowErrors = index ? index.rows : 0;
  for (const e of report.jobErrors ?? []) bump(bySeverity, e.severity);
  for (const f of report.fileValidations ?? []) {
    for (const e of f.fileErrors ?? []) bump(bySeverity, e.severity);
    if (index) continue;
    rowErrors += (f.rowErrors ?? []).length;
    for (const r of f.rowErrors ?? []) for (const e of r.errors ?? []) bump(bySeverity, e.severity);
  }
  return { rowErrors, bySeverity, files: (report.fileValidations ?? []).length };
}

function payloadSummary(job: ImportJobOverview): PayloadSummary | undefined {
  if (job.inlinePayload) {
    return { format: job.inlinePayload.format, files: job.inlinePayload.payload.map((f) => ({ name: f.name, bytes: f.size })) };
  }
  if (job.gcsPayload) return { format: job.gcsPayload.format, path: job.gcsPayload.path };
  return undefined;
}

export function jobSummary(job: ImportJobOverview): JobSummary {
  // BASIC leaves the payload out: the overview's own is summed up below.
  const basic = jobInView({ ...job, inlinePayload: undefined }, 'IMPORT_JOB_VIEW_BASIC');
  const payload = payloadSummary(job);
  const execution = job.executionReport;
  return {
    ...basic,
    ...(payload ? { payload } : {}),
    ...(job.validationReport ? { validation: reportCounts(job.validationReport) } : {}),
    ...(execution
      ? {
          execution: {
            ...reportCounts(execution.executionErrors ?? { fileValidations: [], jobErrors: [] }),
            framesReported: execution.framesReported,
            totalRowsCount: execution.totalRowsCount,
          },
        }
      : {}),
  };
}

/**
 * A job's payload as the lists show it: its own payload, or its data files (their format, names
 * and count) when it has none, so that a job fed by uploads does not look empty.
 */
function jobPayloadOrDataFiles(domains: ConsoleDomains, job: ImportJobOverview): JobSummary {
  const summary = jobSummary(job);
  const files = domains.importDataFiles;
  if (summary.payload || !files) return summary;
  const count = files.count(job.name);
  if (count === 0) return summary;
  const listed = files.list(job.name, { pageSize: MAX_PAYLOAD_DATA_FILES }).importDataFiles;
  return {
    ...summary,
    payload: { format: listed[0]?.format ?? '', dataFiles: listed.map((f) => f.displayName ?? lastSegment(f.name)), dataFileCount: count },
  };
}

export function jobPage(domains: ConsoleDomains, page: KeysetPageRequest): ListPage<JobSummary> {
  if (!domains.importJobs) return { items: [] };
  const result = domains.importJobs.listAll(page);
  return { items: result.items.map((job) => jobPayloadOrDataFiles(domains, job)), nextPageToken: result.nextPageToken };
}

export interface FileSummary {
  fileName: string;
  partialReport: boolean;
  /** Rows with errors in this file. */
  rowErrors: number;
  /** Row-level error entries by severity (what the row-error table lists). */
  bySeverity: SeverityCounts;
  fileErrors: ImportError[];
  fileErrorCount: number;
}

export interface ReportDetail {
  jobErrors: ImportError[];
  jobErrorCount: number;
  files: FileSummary[];
  /** Row-level error entries by severity, over every file. */
  rowErrorsBySeverity: SeverityCounts;
}

function reportDetail(report: ValidationReport): ReportDetail {
  const index = rowErrorIndex(report);
  const files = (report.fileValidations ?? []).map((f, i) => {
    const fileErrors = f.fileErrors ?? [];
    return {
      fileName: f.fileName,
      partialReport: f.partialReport === true,
      rowErrors: index.files[i].rows,
      bySeverity: { ...index.files[i].bySeverity },
      fileErrors: fileErrors.slice(0, MAX_LISTED_ERRORS),
      fileErrorCount: fileErrors.length,
    };
  });
  const jobErrors = report.jobErrors ?? [];
  return { jobErrors: jobErrors.slice(0, MAX_LISTED_ERRORS), jobErrorCount: jobErrors.length, files, rowErrorsBySeverity: index.severityCounts(undefined) };
}

/** A data file as the console shows it: no `uploadFileInfo` (its signed URL is a credential). */
export type ConsoleDataFile = Pick<ImportDataFileWire, 'name' | 'displayName' | 'format' | 'state' | 'createTime'>;

export interface JobDetail extends JobSummary {
  validationReport?: ReportDetail;
  executionReport?: ReportDetail & { framesReported: number; totalRowsCount: number };
  /** The job's import data files (the first MAX_LISTED_DATA_FILES, in the list's order), and how many there are. */
  dataFiles: ConsoleDataFile[];
  dataFileCount: number;
}

function jobDataFiles(domains: ConsoleDomains, name: string): Pick<JobDetail, 'dataFiles' | 'dataFileCount'> {
  const files = domains.importDataFiles;
  if (!files) return { dataFiles: [], dataFileCount: 0 };
  const page = files.list(name, { pageSize: MAX_LISTED_DATA_FILES });
  return {
    dataFiles: page.importDataFiles.map(({ name, displayName, format, state, createTime }) => ({ name, displayName, format, state, createTime })),
    dataFileCount: files.count(name),
  };
}

export function jobDetail(domains: ConsoleDomains, name: string): JobDetail {
  const job = readJob(domains, name);
  const execution = job.executionReport;
  // The details first: they index the reports (for the pages to come), which the summary's counts then read.
  const validationReport = job.validationReport ? reportDetail(job.validationReport) : undefined;
  const executionReport = execution ? reportDetail(execution.executionErrors ?? { fileValidations: [], jobErrors: [] }) : undefined;
  return {
    ...jobPayloadOrDataFiles(domains, job),
    ...jobDataFiles(domains, name),
    ...(validationReport ? { validationReport } : {}),
    ...(execution && executionReport
      ? { executionReport: { ...executionReport, framesReported: execution.framesReported, totalRowsCount: execution.totalRowsCount } }
      : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Row errors

export interface RowErrorQuery {
  report: ReportKind;
  /** Only this file (exact file name). */
  file?: string;
  severity?: ConsoleSeverity;
  offset: number;
  pageSize: number;
}

export interface RowErrorPage {
  name: string;
  report: ReportKind;
  /** Whether the job has this report at all (a job not yet validated or run has none). */
  reportPresent: boolean;
  file?: string;
  severity?: string;
  offset: number;
  pageSize: number;
  /** Lines matching file and severity. */
  totalSize: number;
  /** Lines of the file filter by severity (ignoring the severity filter): the filter's choices. */
  severityCounts: SeverityCounts;
  rowErrors: RowErrorLine[];
  /** The offset of the next page, absent on the last one. */
  nextOffset?: number;
  /** The job's updateTime: a new one means the report was replaced since an earlier page. */
  jobUpdateTime: string;
}

export function parseReportKind(raw: string | undefined): ReportKind {
  if (raw === undefined || raw === '') return 'validation';
  if ((REPORTS as readonly string[]).includes(raw)) return raw as ReportKind;
  throw invalidArgument([{ field: 'report', description: `must be validation or execution, not '${raw}'` }]);
}

export function parseSeverity(raw: string | undefined): ConsoleSeverity | undefined {
  if (raw === undefined || raw === '') return undefined;
  const upper = raw.toUpperCase();
  if ((SEVERITIES as readonly string[]).includes(upper)) return upper as ConsoleSeverity;
  throw invalidArgument([{ field: 'severity', description: `must be ERROR, WARNING or INFO, not '${raw}'` }]);
}

/**
 * One page of a report's row errors, one line per error of a row, in report order (file by file,
 * row by row): a slice of the report's index (made at the report's first page, O(row errors)),
 * O(pageSize) after.
 */
export function rowErrorPage(report: ValidationReport | undefined, query: RowErrorQuery): Omit<RowErrorPage, 'name' | 'jobUpdateTime' | 'report'> {
  const { file, severity, offset, pageSize } = query;
  const index = report ? rowErrorIndex(report) : undefined;
  const { lines, total } = index ? index.page({ file, severity }, offset, pageSize) : { lines: [], total: 0 };
  const end = offset + pageSize;
  return {
    reportPresent: report !== undefined,
    ...(file !== undefined ? { file } : {}),
    ...(severity !== undefined ? { severity } : {}),
    offset,
    pageSize,
    totalSize: total,
    severityCounts: index ? index.severityCounts(file) : emptyCounts(),
    rowErrors: lines,
    ...(end < total ? { nextOffset: end } : {}),
  };
}

export function jobRowErrorPage(domains: ConsoleDomains, name: string, query: RowErrorQuery): RowErrorPage {
  const job = readJob(domains, name);
  const report = query.report === 'validation' ? job.validationReport : job.executionReport?.executionErrors;
  return { name, report: query.report, jobUpdateTime: job.updateTime, ...rowErrorPage(report, query) };
}

/** One row of a job's data, for an opened row error: its table's column names and its cells, as text. */
export interface RowCellsView {
  header?: string[];
  cells?: string[];
}

/**
 * The row a row error names, read back from the job's payload or data files (reports hold no cell
 * values). `{}` when the row is not there any more (the file changed, or the row was skipped unread).
 */
/** Whether a report of the job names that row of that file (and sheet) in a row error. */
export function reportsNameRow(job: ImportJobOverview, where: { fileName: string; sheet?: string; rowNumber: number }): boolean {
  const reports = [job.validationReport, job.executionReport?.executionErrors] as Array<ValidationReport | undefined>;
  return reports.some((report) =>
    (report?.fileValidations ?? []).some(
      (file) =>
        file.fileName === where.fileName &&
        (file.rowErrors ?? []).some((row) => row.rowNumber === where.rowNumber && (where.sheet === undefined || row.xlsxError?.sheet === where.sheet)),
    ),
  );
}

/**
 * The cells of a row a report names, read back from the job's files. Only such rows are read:
 * any other row is answered `{}` at once, without reading a file, so that no request can make the
 * emulator scan a large file to a row that is not there. The read stops on `signal` (the client
 * hung up, or the console's time limit).
 */
export async function jobRowCells(
  domains: ConsoleDomains,
  name: string,
  where: { fileName: string; sheet?: string; rowNumber: number },
  signal?: AbortSignal,
): Promise<RowCellsView> {
  if (!domains.importJobs) throw notFound(RESOURCE_TYPES.importJob, name);
  if (!reportsNameRow(domains.importJobs.read(name), where)) return {};
  const row = await domains.importJobs.rowCells(name, where, signal);
  if (!row) return {};
  const text = (v: unknown): string => (v === null || v === undefined ? '' : v instanceof Date ? v.toISOString() : String(v));
  return { header: row.header.map(text), cells: row.cells.map(text) };
}

// ---------------------------------------------------------------------------------------------
// Assets

/** Who an import job's assets name in their `sources`: its asset source, else the job itself. */
export function jobReporter(job: Pick<ImportJobOverview, 'assetSource' | 'name'>): string {
  return job.assetSource ?? job.name;
}

/**
 * A page of assets (BASIC view, as the Migration Center list returns them). With `importJob`:
 * the assets of the job's parent that its reporter (source, or the job) reported, found by a
 * keyset scan of that parent's assets in chunks; none for a job without an execution report (it
 * has not run).
 */
export function assetPage(domains: ConsoleDomains, page: KeysetPageRequest, importJob?: string): ListPage<AssetWire> & { reporter?: string } {
  const { assets } = domains;
  if (importJob === undefined) return assets ? assets.listAll(page) : { items: [] };
  const job = readJob(domains, importJob);
  const reporter = jobReporter(job);
  // A job that never ran produced nothing: the assets its source names came from other jobs.
  if (!job.executionReport) return { reporter, items: [] };
  return { reporter, ...(assets ? assets.listReportedBy(parentOf(job.name), reporter, page) : { items: [] }) };
}

// ---------------------------------------------------------------------------------------------
// Summary

export interface ConsoleSummary {
  endpointPolicies: number;
  importJobs: number;
  assets: number;
}

export function summary(domains: ConsoleDomains): ConsoleSummary {
  return {
    endpointPolicies: domains.endpointPolicies?.count() ?? 0,
    importJobs: domains.importJobs?.count() ?? 0,
    assets: domains.assets?.count() ?? 0,
  };
}
