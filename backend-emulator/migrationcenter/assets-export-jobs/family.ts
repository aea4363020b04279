/**
 * Assets export jobs: export the assets a filter selects, as CSV files behind signed URLs.
 *
 *   POST   {location}/assetsExportJobs?assetsExportJobId=&requestId=  -> Operation (done; response AssetsExportJob)
 *   GET    {location}/assetsExportJobs?pageSize=&pageToken=
 *   GET    {location}/assetsExportJobs/{id}
 *   DELETE {location}/assetsExportJobs/{id}                          -> Operation (done; response Empty)
 *   POST   {location}/assetsExportJobs/{id}:run {requestId}          -> Operation (not done; response RunAssetsExportJobResponse)
 *   GET    /downloads/{job}/executions/{execution}/{file}?expires=&signature=  (the signed URL; not a Google API path)
 */
import type { Family } from '../family';
import { verbBodyRequestId } from '../request-id-rule';
import { collectionRoutes } from '../collection-routes';
import { DownloadUrls } from '../exports/download-urls';
import { ExportFiles } from '../exports/export-files';
import { registerDownloadRoute } from '../exports/download-route';
import { AssetsExportJobs } from './assets-export-jobs';

export const assetsExportJobsFamily: Family<'assetsExportJobs'> = {
  key: 'assetsExportJobs',
  build(scope) {
    const { ctx, app } = scope;
    const files = new ExportFiles(ctx.config.dataDir, 'assetsExportJobs');
    app.addHook('onClose', async () => files.close());
    const jobs = new AssetsExportJobs({
      store: scope.store,
      ops: scope.ops,
      assets: scope.domain('assets'),
      files,
      urls: new DownloadUrls(ctx.config.dataDir),
    });
    scope.ops.onRestart(jobs.runs.recovery);
    const swept = jobs.runs.sweep();
    if (swept > 0) ctx.log.warn({ executions: swept }, 'removed assets export files no job lists any more');
    ctx.onReset(() => files.clear());
    return jobs;
  },
  routes(scope, jobs) {
    collectionRoutes(scope, jobs, {
      methods: ['create', 'list', 'get', 'delete'],
      verbs: {
        run: (name, location, body, request) => {
          return jobs.run(name, location, verbBodyRequestId(body), `${request.protocol}://${request.host}`);
        },
      },
    });
    registerDownloadRoute(scope.app, 'assetsExportJobs', jobs);
  },
};
