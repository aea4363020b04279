/**
 * Import data files: files uploaded for an import job through a signed URL.
 *
 *   POST   {job}/importDataFiles?importDataFileId=&requestId=  -> Operation (done; response ImportDataFile)
 *   GET    {job}/importDataFiles?pageSize=&pageToken=&filter=&orderBy=
 *   GET    {job}/importDataFiles/{id}
 *   DELETE {job}/importDataFiles/{id}?requestId=               -> Operation (done; response Empty)
 *   PUT    /uploads/{dataFile}?expires=&nonce=&signature=   (the signed upload URL; not a Google API path)
 * where {job} is {location}/importJobs/{id}.
 */
import type { FastifyRequest } from 'fastify';
import type { Family, LocationParams } from '../family';
import { idSegment, parentOf } from '../family';
import { withAccess } from '../../auth/access';
import { objectBody, queryParam } from '../../http/body';
import { namedPlugin } from '../../http/plugin-name';
import { listRequest } from '../../http/list-request';
import { ImportDataFiles } from './import-data-files';
import { DataFileBytes } from './data-file-bytes';
import { UPLOAD_PATH_PREFIX, UploadUrls } from './upload-urls';

type JobParams = LocationParams & { importJob: string };
type DataFileParams = JobParams & { dataFile: string };

export const importDataFilesFamily: Family<'importDataFiles'> = {
  key: 'importDataFiles',
  build(scope) {
    const { ctx, app } = scope;
    // Bytes in the data dir (a temporary one in memory), URLs signed with the data dir's key.
    const bytes = new DataFileBytes(ctx.config.dataDir);
    const urls = new UploadUrls(ctx.config.dataDir);
    app.addHook('onClose', async () => bytes.close());
    const files = new ImportDataFiles({ store: scope.store, ops: scope.ops, bytes, urls, jobs: scope.later('importJobs') });
    // Uploads a stop interrupted, and bytes whose data file is gone, never outlive a restart.
    const swept = files.sweep();
    if (swept > 0) ctx.log.warn({ files: swept }, 'removed data file uploads and bytes left by the previous stop');
    ctx.onReset(() => bytes.clear());
    // The signed upload URL belongs to no API version: declared here, once (routes() runs per
    // version). Its own plugin: a content-type parser that reads nothing, so the body stays the
    // raw request stream (never buffered, no body limit) for the domain to stream to disk.
    app.register(
      namedPlugin('signed uploads', async (uploads) => {
        uploads.removeAllContentTypeParsers();
        uploads.addContentTypeParser('*', (_request, _payload, done) => done(null));
        uploads.put<{ Params: { '*': string } }>(`${UPLOAD_PATH_PREFIX}*`, withAccess('signed'), async (request, reply) => {
          const length = request.headers['content-length'];
          const declared = length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
          const query = (request.query ?? {}) as Record<string, unknown>;
          await files.upload(request.params['*'], query, request.headers, declared, request.raw);
          return reply.code(200).send();
        });
      }),
    );
    return files;
  },
  routes({ app, prefix }, files) {
    const jobOf = (request: FastifyRequest<{ Params: JobParams }>): { job: string; parent: string } => {
      const parent = parentOf(request);
      return { job: `${parent}/importJobs/${idSegment(request, request.params.importJob).id}`, parent };
    };
    const fileName = (request: FastifyRequest<{ Params: DataFileParams }>): { name: string; parent: string } => {
      const { job, parent } = jobOf(request);
      return { name: `${job}/importDataFiles/${idSegment(request, request.params.dataFile).id}`, parent };
    };
    const base = `${prefix}/importJobs/:importJob/importDataFiles`;

    app.post<{ Params: JobParams }>(base, async (request) => {
      const { job, parent } = jobOf(request);
      const origin = `${request.protocol}://${request.host}`;
      return files.create(job, parent, queryParam(request, 'importDataFileId'), queryParam(request, 'requestId'), objectBody(request), origin);
    });
    app.get<{ Params: JobParams }>(base, async (request) => files.list(jobOf(request).job, listRequest(request)));
    app.get<{ Params: DataFileParams }>(`${base}/:dataFile`, async (request) => files.get(fileName(request).name));
    app.delete<{ Params: DataFileParams }>(`${base}/:dataFile`, async (request) => {
      const { name, parent } = fileName(request);
      return files.delete(name, parent, queryParam(request, 'requestId'));
    });
  },
};
