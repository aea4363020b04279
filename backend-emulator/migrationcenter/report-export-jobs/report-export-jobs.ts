/**
 * Report export jobs: a report's summary as a CSV file behind a signed download URL.
 *
 *   create  -> the job under an existing report (done Operation; NOT_FOUND for a missing report)
 *   get, list (pageSize, pageToken), delete (requestId)
 *   :run    -> a background execution writing `report-summary.csv` (exports/export-runs.ts);
 *              FAILED_PRECONDITION when the report is gone or has no summary yet
 * (the shared parts of export jobs: exports/export-job-collection.ts).
 */
import { failedPrecondition, invalidArgument, notFound, type FieldViolation } from '../../errors';
import type { ServiceOperations } from '../../operations/operations';
import type { Store } from '../../store/store';
import { schemaViolations } from '../../http/validation';
import { COLLECTIONS, RESOURCE_TYPES, TYPES } from '../names';
import type { CollectionSpec } from '../resource-collection';
import type { ExportExecution } from '../exports/export-runs';
import { ExportJobCollection } from '../exports/export-job-collection';
import type { ExportFiles } from '../exports/export-files';
import type { DownloadUrls } from '../exports/download-urls';
import type { ReportReader } from './exportable-report';
import { SUMMARY_COLUMNS, SUMMARY_FILE, summaryRows } from './summary-table';

export interface ReportExportJobWire {
  name: string;
  signedUriDestination?: { fileFormat: string };
  recentExecutions?: ExportExecution[];
}

/** Checks a create body (schema, the destination, the format the emulator writes); returns the job's fields. */
export function checkReportExportJobBody(body: Record<string, unknown>): Record<string, unknown> {
  const violations: FieldViolation[] = schemaViolations('ReportExportJob', body);
  if (body.signedUriDestination === undefined || body.signedUriDestination === null) {
    violations.push({ field: 'signedUriDestination', description: 'is required (the destination of the exported file)' });
  }
  if ((body.signedUriDestination as { fileFormat?: unknown } | undefined)?.fileFormat === 'XLSX') {
    violations.push({ field: 'signedUriDestination.fileFormat', description: 'XLSX is not emulated: the emulator writes CSV' });
  }
  if (violations.length > 0) throw invalidArgument(violations);
  return { signedUriDestination: body.signedUriDestination };
}

/** `{report}/reportExportJobs/{id}` -> `{report}`. */
export function reportOf(name: string): string {
  return name.slice(0, name.lastIndexOf('/reportExportJobs/'));
}

function spec(reports: ReportReader): CollectionSpec<ReportExportJobWire> {
  return {
    segment: 'reportExportJobs',
    idField: 'reportExportJobId',
    storeCollection: COLLECTIONS.reportExportJobs,
    resourceType: RESOURCE_TYPES.reportExportJob,
    wireType: TYPES.reportExportJob,
    methodNames: { create: 'createReportExportJob', update: 'updateReportExportJob', delete: 'deleteReportExportJob' },
    check: checkReportExportJobBody,
    updatable: [],
    listFields: { scalars: { name: (j) => j.name }, name: (j) => j.name },
    create: (name, input) => ({ name, ...input }) as ReportExportJobWire,
    beforeWrite: (job) => {
      const report = reportOf(job.name);
      if (!reports.report(report)) throw notFound(RESOURCE_TYPES.report, report);
    },
  };
}

export interface ReportExportJobsDeps {
  store: Store;
  ops: ServiceOperations;
  reports: ReportReader;
  files: ExportFiles;
  urls: DownloadUrls;
}

export class ReportExportJobs extends ExportJobCollection<ReportExportJobWire> {
  constructor(deps: ReportExportJobsDeps) {
    const readSummary = (job: ReportExportJobWire): Record<string, unknown> => {
      const name = reportOf(job.name);
      const report = deps.reports.report(name);
      if (!report) throw failedPrecondition(`Report ${name} of export job ${job.name} no longer exists.`);
      if (!report.summary) throw failedPrecondition(`Report ${name} has no summary yet: export it once it is generated.`);
      return report.summary;
    };
    super(spec(deps.reports), deps.store, deps.ops, deps.files, deps.urls, {
      responseType: TYPES.runReportExportJobResponse,
      responseField: 'reportExportExecution',
      checkRunnable: (job) => void readSummary(job),
      phaseFields: (phase) => (phase === 'succeeded' ? { progressPercentage: 100 } : {}),
      produce: async (job, output) => {
        const writer = output.csv(SUMMARY_FILE, SUMMARY_COLUMNS);
        await writer.writeRows(summaryRows(readSummary(job)));
        return { files: [await writer.close()] };
      },
    });
  }

  /**
   * Inside the delete of a report (the reports family's transaction): its export jobs go with it.
   * Returns their names, for `afterReportDelete` once the delete committed.
   */
  removeAllOf(report: string): string[] {
    const names = this.all(report).map((j) => j.name);
    for (const name of names) this.remove(name);
    return names;
  }

  /** After a report's delete committed: its export jobs' runs stop and their files go. */
  afterReportDelete(names: readonly string[]): void {
    for (const name of names) this.runs.afterDelete(name, true);
  }
}
