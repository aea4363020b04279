/**
 * Report export jobs: a report's summary as a CSV file behind a signed URL.
 *
 *   POST   {report}/reportExportJobs?reportExportJobId=&requestId=  -> Operation (done; response ReportExportJob)
 *   GET    {report}/reportExportJobs?pageSize=&pageToken=
 *   GET    {report}/reportExportJobs/{id}
 *   DELETE {report}/reportExportJobs/{id}?requestId=                -> Operation (done; response Empty)
 *   POST   {report}/reportExportJobs/{id}:run {requestId}          -> Operation (not done; response RunReportExportJobResponse)
 *   GET    /downloads/{job}/executions/{execution}/{file}?expires=&signature=  (the signed URL; not a Google API path)
 * where {report} is {location}/reportConfigs/{id}/reports/{id}.
 */
import type { Family } from '../family';
import { verbBodyRequestId } from '../request-id-rule';
import { collectionRoutes } from '../collection-routes';
import { DownloadUrls } from '../exports/download-urls';
import { ExportFiles } from '../exports/export-files';
import { registerDownloadRoute } from '../exports/download-route';
import { ReportExportJobs } from './report-export-jobs';
import { reportReader } from './exportable-report';

export const reportExportJobsFamily: Family<'reportExportJobs'> = {
  key: 'reportExportJobs',
  build(scope) {
    const { ctx, app } = scope;
    const files = new ExportFiles(ctx.config.dataDir, 'reportExportJobs');
    app.addHook('onClose', async () => files.close());
    const reports = scope.domain('reports');
    const jobs = new ReportExportJobs({
      store: scope.store,
      ops: scope.ops,
      reports: reportReader(reports),
      files,
      urls: new DownloadUrls(ctx.config.dataDir),
    });
    // A report's export jobs go with it, in its delete's transaction; their runs stop and their
    // files go once that delete committed (the report no longer in the store says it did).
    reports.onRemove((report) => {
      const removed = jobs.removeAllOf(report.name);
      if (removed.length === 0) return;
      setImmediate(() => {
        if (!reports.find(report.name)) jobs.afterReportDelete(removed);
      });
    });
    scope.ops.onRestart(jobs.runs.recovery);
    const swept = jobs.runs.sweep();
    if (swept > 0) ctx.log.warn({ executions: swept }, 'removed report export files no job lists any more');
    ctx.onReset(() => files.clear());
    return jobs;
  },
  routes(scope, jobs) {
    collectionRoutes(scope, jobs, {
      under: ['reportConfigs', 'reports'],
      methods: ['create', 'list', 'get', 'delete'],
      verbs: {
        run: (name, location, body, request) => {
          return jobs.run(name, location, verbBodyRequestId(body), `${request.protocol}://${request.host}`);
        },
      },
    });
    registerDownloadRoute(scope.app, 'reportConfigs', jobs);
  },
};
