/**
 * Migration Center v1alpha1 on the wire (`/v1alpha1/`): import jobs, sources, assets, operations.
 *
 *   POST   /v1alpha1/{parent}/importJobs?importJobId=&requestId=       -> Operation (done; response ImportJob)
 *   GET    /v1alpha1/{parent}/importJobs?pageSize=&pageToken=&filter=&orderBy=&view=
 *   GET    /v1alpha1/{name}?view=                                       -> ImportJob (default FULL)
 *   PATCH  /v1alpha1/{name}?updateMask=&requestId=                      -> Operation (done; response ImportJob)
 *   DELETE /v1alpha1/{name}?force=&requestId=                           -> Operation (done; response Empty)
 *   POST   /v1alpha1/{name}:validate  {requestId}                       -> Operation (not done; response Empty)
 *   POST   /v1alpha1/{name}:run       {requestId}                       -> Operation (not done; response Empty)
 *   POST   /v1alpha1/{parent}/sources?sourceId=&requestId=              -> Operation (done; response Source)
 *   GET    /v1alpha1/{parent}/sources, GET /v1alpha1/{source}
 *   PATCH  /v1alpha1/{source}?updateMask=                                -> Operation (done; response Source)
 *   DELETE /v1alpha1/{source}?requestId=                                -> Operation (done; response Empty)
 *   GET    /v1alpha1/{parent}/assets?pageSize=&pageToken=&filter=&orderBy=&view=, GET /v1alpha1/{asset}?view=
 *   POST   /v1alpha1/{parent}/assets:aggregateValues {aggregations, filter}  -> {results}
 *   GET    /v1alpha1/{parent}/operations[/{id}], DELETE .../{id}, POST .../{id}:cancel
 *   POST   /v1alpha1/{job}/importDataFiles?importDataFileId=&requestId=  -> Operation (done; response ImportDataFile)
 *   GET    /v1alpha1/{job}/importDataFiles?pageSize=&pageToken=&filter=&orderBy=, GET /v1alpha1/{dataFile}
 *   DELETE /v1alpha1/{dataFile}?requestId=                              -> Operation (done; response Empty)
 *   PUT    /uploads/{dataFile}?expires=&signature=   (the signed upload URL; not a Google API path)
 * where {parent} is projects/{project}/locations/{location} and {job} is {parent}/importJobs/{id}.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context';
import { withAccess } from '../auth/access';
import { invalidArgument, refuseUnknownFields, unknownPath } from '../errors';
import { boolQueryParam, objectBody, queryParam } from '../http/body';
import { locationName, splitVerb } from '../http/names';
import { registerOperationRoutes } from '../operations/routes';
import type { StorageSettings } from '../payloads';
import { makeTempFolder } from '../temp-folders';
import { API_BASE, API_VERSION, COLLECTIONS, TYPES } from './names';
import { Sources } from './sources';
import { Assets } from './assets';
import { ImportJobs, parseJobView } from './import-jobs';
import { ImportDataFiles } from './import-data-files';
import { DataFileBytes } from './data-file-bytes';
import { UPLOAD_PATH_PREFIX, UploadUrls } from './upload-urls';
import { listRequest } from '../http/list-request';

/**
 * Body limit of the routes that take an inline payload (create and patch of import jobs): the
 * larger of this and the emulator's `bodyLimit`. Inline payloads are base64 (4/3 of the files).
 */
export const INLINE_BODY_LIMIT = 32 * 1024 * 1024;

interface ParentParams {
  project: string;
  location: string;
}
interface JobParams extends ParentParams {
  importJob: string;
}
interface SourceParams extends ParentParams {
  source: string;
}
interface DataFileParams extends JobParams {
  dataFile: string;
}
interface AssetParams extends ParentParams {
  asset: string;
}

/** The Migration Center domain objects of one app (exposed for tests as `app.migrationCenter`-free handles). */
export interface MigrationCenter {
  importJobs: ImportJobs;
  importDataFiles: ImportDataFiles;
  /** Where data files' bytes are kept (tests look for leftovers there). */
  dataFileBytes: DataFileBytes;
  uploadUrls: UploadUrls;
  sources: Sources;
  assets: Assets;
  storage: () => StorageSettings;
}

const instances = new WeakMap<EmulatorContext, MigrationCenter>();

/** The Migration Center of an app's context (tests use it to reach the domain directly). */
export function migrationCenterOf(ctx: EmulatorContext): MigrationCenter | undefined {
  return instances.get(ctx);
}

export async function migrationCenterRoutes(app: FastifyInstance, ctx: EmulatorContext): Promise<void> {
  const { store } = ctx;
  const ops = ctx.operations.forService({
    service: 'migrationcenter',
    apiVersion: API_VERSION,
    metadataType: TYPES.operationMetadata,
    // Recovery waits for the import jobs' hook (below): ops.recoverInterrupted.
    failInterrupted: false,
    requestIdCollection: COLLECTIONS.requestIds,
  });

  let tempStorage: string | undefined;
  const storage = (): StorageSettings => {
    const config = ctx.config;
    let dir = config.storageDir;
    if (!dir) {
      if (config.dataDir) dir = path.join(config.dataDir, 'storage');
      else {
        tempStorage ??= makeTempFolder('storage');
        dir = tempStorage;
      }
    }
    return { storageDir: dir, ...(config.storageEndpoint ? { storageEndpoint: config.storageEndpoint } : {}) };
  };
  app.addHook('onClose', async () => {
    if (tempStorage) fs.rmSync(tempStorage, { recursive: true, force: true });
  });

  const assets = new Assets(store);
  const sources = new Sources(store, ops, assets);
  // Data files: bytes in the data dir (a temporary one in memory), URLs signed with the data dir's key.
  const dataFileBytes = new DataFileBytes(ctx.config.dataDir);
  const uploadUrls = new UploadUrls(ctx.config.dataDir);
  app.addHook('onClose', async () => dataFileBytes.close());
  // The two domains use each other: the data files reach the jobs lazily (built just below).
  const importDataFiles: ImportDataFiles = new ImportDataFiles({ store, ops, bytes: dataFileBytes, urls: uploadUrls, jobs: () => importJobs });
  const importJobs: ImportJobs = new ImportJobs({ store, ops, sources, assets, storage, log: ctx.log, dataFiles: importDataFiles });
  instances.set(ctx, { importJobs, importDataFiles, dataFileBytes, uploadUrls, sources, assets, storage });
  // Uploads a stop interrupted, and bytes whose data file is gone, never outlive a restart.
  const swept = importDataFiles.sweep();
  if (swept > 0) ctx.log.warn({ files: swept }, 'removed data file uploads and bytes left by the previous stop');
  ctx.onReset(() => dataFileBytes.clear());

  ops.onRestart(importJobs.recovery);
  const recovered = ops.recoverInterrupted();
  if (recovered > 0) ctx.log.warn({ importJobs: recovered }, 'import jobs interrupted by the previous stop were marked failed');

  ctx.seeds.register('sources', (value, field) => sources.seed(value, field));
  ctx.seeds.register('importJobs', (value, field) => importJobs.seedAll(value, field));

  const prefix = `${API_BASE}/projects/:project/locations/:location`;
  const urlPath = (request: FastifyRequest): string => request.url.split('?')[0];
  const bodyLimit = Math.max(ctx.config.bodyLimit, INLINE_BODY_LIMIT);

  // ---------------------------------------------------------------- import jobs

  const jobName = (request: FastifyRequest<{ Params: JobParams }>): { name: string; parent: string; verb?: string } => {
    const { parent } = locationName(request.params.project, request.params.location, 'name');
    const { id, verb } = splitVerb(request.params.importJob);
    if (!id) throw unknownPath(request.method, urlPath(request));
    return { name: `${parent}/importJobs/${id}`, parent, verb };
  };

  app.post<{ Params: ParentParams }>(`${prefix}/importJobs`, { bodyLimit }, async (request) => {
    const { parent } = locationName(request.params.project, request.params.location);
    return importJobs.create(parent, queryParam(request, 'importJobId'), queryParam(request, 'requestId'), objectBody(request));
  });

  app.get<{ Params: ParentParams }>(`${prefix}/importJobs`, async (request) => {
    const { parent } = locationName(request.params.project, request.params.location);
    const view = parseJobView(queryParam(request, 'view'), 'IMPORT_JOB_VIEW_BASIC');
    return importJobs.list(parent, listRequest(request), view);
  });

  app.get<{ Params: JobParams }>(`${prefix}/importJobs/:importJob`, async (request) => {
    const { name, verb } = jobName(request);
    if (verb !== undefined) throw unknownPath(request.method, urlPath(request));
    return importJobs.get(name, parseJobView(queryParam(request, 'view'), 'IMPORT_JOB_VIEW_FULL'));
  });

  app.patch<{ Params: JobParams }>(`${prefix}/importJobs/:importJob`, { bodyLimit }, async (request) => {
    const { name, parent, verb } = jobName(request);
    if (verb !== undefined) throw unknownPath(request.method, urlPath(request));
    return importJobs.patch(name, parent, queryParam(request, 'updateMask'), queryParam(request, 'requestId'), objectBody(request));
  });

  app.delete<{ Params: JobParams }>(`${prefix}/importJobs/:importJob`, async (request) => {
    const { name, parent, verb } = jobName(request);
    if (verb !== undefined) throw unknownPath(request.method, urlPath(request));
    return importJobs.delete(name, parent, boolQueryParam(request, 'force') ?? false, queryParam(request, 'requestId'));
  });

  app.post<{ Params: JobParams }>(`${prefix}/importJobs/:importJob`, async (request) => {
    const { name, parent, verb } = jobName(request);
    if (verb !== 'validate' && verb !== 'run') throw unknownPath(request.method, urlPath(request));
    const body = objectBody(request);
    refuseUnknownFields(body, (k) => k === 'requestId');
    const requestId = body.requestId === undefined ? queryParam(request, 'requestId') : body.requestId;
    if (requestId !== undefined && typeof requestId !== 'string') throw invalidArgument([{ field: 'requestId', description: 'must be a string' }]);
    return verb === 'validate' ? importJobs.validate(name, parent, requestId) : importJobs.run(name, parent, requestId);
  });

  // ---------------------------------------------------------------- import data files

  const dataFileJob = (request: FastifyRequest<{ Params: JobParams }>): { job: string; parent: string } => {
    const { parent } = locationName(request.params.project, request.params.location, 'parent');
    const { id, verb } = splitVerb(request.params.importJob);
    if (!id || verb !== undefined) throw unknownPath(request.method, urlPath(request));
    return { job: `${parent}/importJobs/${id}`, parent };
  };
  const dataFileName = (request: FastifyRequest<{ Params: DataFileParams }>): { name: string; parent: string } => {
    const { job, parent } = dataFileJob(request);
    const { id, verb } = splitVerb(request.params.dataFile);
    if (!id || verb !== undefined) throw unknownPath(request.method, urlPath(request));
    return { name: `${job}/importDataFiles/${id}`, parent };
  };

  app.post<{ Params: JobParams }>(`${prefix}/importJobs/:importJob/importDataFiles`, async (request) => {
    const { job, parent } = dataFileJob(request);
    const origin = `${request.protocol}://${request.host}`;
    return importDataFiles.create(job, parent, queryParam(request, 'importDataFileId'), queryParam(request, 'requestId'), objectBody(request), origin);
  });

  app.get<{ Params: JobParams }>(`${prefix}/importJobs/:importJob/importDataFiles`, async (request) =>
    importDataFiles.list(dataFileJob(request).job, listRequest(request)),
  );

  app.get<{ Params: DataFileParams }>(`${prefix}/importJobs/:importJob/importDataFiles/:dataFile`, async (request) =>
    importDataFiles.get(dataFileName(request).name),
  );

  app.delete<{ Params: DataFileParams }>(`${prefix}/importJobs/:importJob/importDataFiles/:dataFile`, async (request) => {
    const { name, parent } = dataFileName(request);
    return importDataFiles.delete(name, parent, queryParam(request, 'requestId'));
  });

  // The signed upload URL. Its own plugin: a content-type parser that reads nothing, so the body
  // stays the raw request stream (never buffered, no body limit) for the domain to stream to disk.
  app.register(async (uploads) => {
    uploads.removeAllContentTypeParsers();
    uploads.addContentTypeParser('*', (_request, _payload, done) => done(null));
    uploads.put<{ Params: { '*': string } }>(`${UPLOAD_PATH_PREFIX}*`, withAccess('signed'), async (request, reply) => {
      const length = request.headers['content-length'];
      const declared = length !== undefined && /^\d+$/.test(length) ? Number(length) : undefined;
      const query = (request.query ?? {}) as Record<string, unknown>;
      await importDataFiles.upload(request.params['*'], query, request.headers, declared, request.raw);
      return reply.code(200).send();
    });
  });

  // ---------------------------------------------------------------- sources

  const sourceName = (request: FastifyRequest<{ Params: SourceParams }>): { name: string; parent: string } => {
    const { parent } = locationName(request.params.project, request.params.location, 'name');
    const { id, verb } = splitVerb(request.params.source);
    if (!id || verb !== undefined) throw unknownPath(request.method, urlPath(request));
    return { name: `${parent}/sources/${id}`, parent };
  };

  app.post<{ Params: ParentParams }>(`${prefix}/sources`, async (request) => {
    const { parent } = locationName(request.params.project, request.params.location);
    return sources.create(parent, queryParam(request, 'sourceId'), queryParam(request, 'requestId'), objectBody(request));
  });

  app.get<{ Params: ParentParams }>(`${prefix}/sources`, async (request) => {
    const { parent } = locationName(request.params.project, request.params.location);
    return sources.list(parent, listRequest(request));
  });

  app.get<{ Params: SourceParams }>(`${prefix}/sources/:source`, async (request) => sources.get(sourceName(request).name));

  app.patch<{ Params: SourceParams }>(`${prefix}/sources/:source`, async (request) => {
    const { name, parent } = sourceName(request);
    return sources.patch(name, parent, queryParam(request, 'updateMask'), queryParam(request, 'requestId'), objectBody(request));
  });

  app.delete<{ Params: SourceParams }>(`${prefix}/sources/:source`, async (request) => {
    const { name, parent } = sourceName(request);
    return sources.delete(name, parent, queryParam(request, 'requestId'));
  });

  // ---------------------------------------------------------------- assets

  app.get<{ Params: ParentParams }>(`${prefix}/assets`, async (request) => {
    const { parent } = locationName(request.params.project, request.params.location);
    return assets.list(parent, listRequest(request), queryParam(request, 'view'));
  });

  // The `assets:aggregateValues` verb path, registered before the `:asset` route (fastify's `::` is a literal colon).
  app.post<{ Params: ParentParams }>(`${prefix}/assets::aggregateValues`, async (request) => {
    const { parent } = locationName(request.params.project, request.params.location);
    return assets.aggregateValues(parent, objectBody(request));
  });

  app.get<{ Params: AssetParams }>(`${prefix}/assets/:asset`, async (request) => {
    const { parent } = locationName(request.params.project, request.params.location, 'name');
    const { id, verb } = splitVerb(request.params.asset);
    if (!id || verb !== undefined) throw unknownPath(request.method, urlPath(request));
    return assets.get(`${parent}/assets/${id}`, queryParam(request, 'view'));
  });

  // ---------------------------------------------------------------- operations

  registerOperationRoutes(app, ops, API_BASE);
}
