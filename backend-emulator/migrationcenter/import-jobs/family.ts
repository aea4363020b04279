/**
 * Import jobs: load assets from a payload (inline, object storage, or import data files).
 *
 *   POST   {location}/importJobs?importJobId=&requestId=  -> Operation (done; response ImportJob)
 *   GET    {location}/importJobs?pageSize=&pageToken=&filter=&orderBy=&view=
 *   GET    {location}/importJobs/{id}?view=                -> ImportJob (default FULL)
 *   PATCH  {location}/importJobs/{id}?updateMask=&requestId= -> Operation (done; response ImportJob)
 *   DELETE {location}/importJobs/{id}?force=&requestId=   -> Operation (done; response Empty)
 *   POST   {location}/importJobs/{id}:validate {requestId} -> Operation (not done; response Empty)
 *   POST   {location}/importJobs/{id}:run      {requestId} -> Operation (not done; response Empty)
 */
import type { FastifyRequest } from 'fastify';
import type { Family, LocationParams } from '../family';
import { idSegment, parentOf } from '../family';
import { boolQueryParam, objectBody, queryParam } from '../../http/body';
import { listRequest } from '../../http/list-request';
import type { LargeBytesRouteConfig } from '../../http/large-bytes';
import { verbBodyRequestId } from '../request-id-rule';
import { ImportJobs, parseJobView } from './import-jobs';
import { InlinePayloadFiles } from './inline-payload-files';
import { importWorkersOpen } from './import-thread';

/**
 * Body limit of the routes that take an inline payload (create and patch of import jobs): the
 * larger of this and the emulator's `bodyLimit`. Inline payloads are base64 (4/3 of the files).
 */
export const INLINE_BODY_LIMIT = 32 * 1024 * 1024;

/**
 * The large `bytes` fields of the bodies of create and patch: an inline payload's files, read by
 * the body worker and kept in files, never as text on the request thread (http/large-bytes.ts).
 */
const LARGE_BYTES: LargeBytesRouteConfig = { largeBytesFields: ['inlinePayload.payload[].data'] };

type JobParams = LocationParams & { importJob: string };

export const importJobsFamily: Family<'importJobs'> = {
  key: 'importJobs',
  build(scope) {
    const { ctx, app } = scope;
    // Inline payloads' text in the data dir (a temporary folder in memory), apart from the records.
    const inlineFiles = new InlinePayloadFiles(ctx.config.dataDir);
    app.addHook('onClose', async () => inlineFiles.close());
    // The import workers outlive no emulator: the last one to close ends the idle worker.
    const workersClosed = importWorkersOpen();
    app.addHook('onClose', workersClosed);
    const jobs = new ImportJobs({
      store: scope.store,
      ops: scope.ops,
      sources: scope.domain('sources'),
      assets: scope.domain('assets'),
      storage: scope.storage,
      log: ctx.log,
      dataFiles: scope.domain('importDataFiles'),
      inlineFiles,
    });
    // Text no record names (a kill -9 between its write and the commit) never outlives a restart.
    const swept = jobs.sweepPayloads();
    if (swept > 0) ctx.log.warn({ payloads: swept }, 'removed inline payloads left by the previous stop');
    ctx.onReset(() => inlineFiles.clear());
    scope.ops.onRestart(jobs.recovery);
    ctx.seeds.register('importJobs', (value, field) => jobs.seedAll(value, field));
    return jobs;
  },
  routes({ app, prefix, ctx }, jobs) {
    const bodyLimit = Math.max(ctx.config.bodyLimit, INLINE_BODY_LIMIT);
    const jobName = (request: FastifyRequest<{ Params: JobParams }>, verbs?: readonly string[]): { name: string; parent: string; verb?: string } => {
      const parent = parentOf(request, 'name');
      const { id, verb } = idSegment(request, request.params.importJob, verbs);
      return { name: `${parent}/importJobs/${id}`, parent, ...(verb !== undefined ? { verb } : {}) };
    };

    app.post<{ Params: LocationParams }>(`${prefix}/importJobs`, { bodyLimit, config: LARGE_BYTES }, async (request) =>
      jobs.create(parentOf(request), queryParam(request, 'importJobId'), queryParam(request, 'requestId'), objectBody(request)),
    );
    app.get<{ Params: LocationParams }>(`${prefix}/importJobs`, async (request) =>
      jobs.list(parentOf(request), listRequest(request), parseJobView(queryParam(request, 'view'), 'IMPORT_JOB_VIEW_BASIC')),
    );
    app.get<{ Params: JobParams }>(`${prefix}/importJobs/:importJob`, async (request) =>
      jobs.get(jobName(request).name, parseJobView(queryParam(request, 'view'), 'IMPORT_JOB_VIEW_FULL')),
    );
    app.patch<{ Params: JobParams }>(`${prefix}/importJobs/:importJob`, { bodyLimit, config: LARGE_BYTES }, async (request) => {
      const { name, parent } = jobName(request);
      return jobs.patch(name, parent, queryParam(request, 'updateMask'), queryParam(request, 'requestId'), objectBody(request));
    });
    app.delete<{ Params: JobParams }>(`${prefix}/importJobs/:importJob`, async (request) => {
      const { name, parent } = jobName(request);
      return jobs.delete(name, parent, boolQueryParam(request, 'force') ?? false, queryParam(request, 'requestId'));
    });
    app.post<{ Params: JobParams }>(`${prefix}/importJobs/:importJob`, async (request) => {
      const { name, parent, verb } = jobName(request, ['validate', 'run']);
      const requestId = verbBodyRequestId(objectBody(request)) ?? queryParam(request, 'requestId');
      return verb === 'validate' ? jobs.validate(name, parent, requestId) : jobs.run(name, parent, requestId);
    });
  },
};
