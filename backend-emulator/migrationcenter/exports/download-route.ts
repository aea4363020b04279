/**
 * The download route of a family's export files: `GET /downloads/{job}/executions/{id}/{file}`
 * with the URL's `expires` and `signature`. Not a Google API path (Google's files live in object
 * storage): the signature is the credential (`withAccess('signed')`), checked before anything is
 * looked up, so a refused URL learns nothing about what exists.
 */
import * as fs from 'fs';
import type { FastifyInstance } from 'fastify';
import { withAccess } from '../../auth/access';
import { GoogleApiError } from '../../errors';
import { DOWNLOAD_PATH_PREFIX, parseDownloadName, type DownloadUrls } from './download-urls';
import type { ExportFiles } from './export-files';

export interface DownloadSource {
  files: ExportFiles;
  urls: DownloadUrls;
  /** Whether `job` (its name) exists and lists `executionId` with `file`, not expired. */
  hasFile(job: string, executionId: string, file: string): boolean;
}

function noSuchFile(name: string): GoogleApiError {
  return new GoogleApiError('NOT_FOUND', `No export file ${name}: its job or execution was deleted, or it expired.`);
}

/** Registers the route for the jobs whose names continue `{location}/{root}/...` (`assetsExportJobs`, `reportConfigs`). */
export function registerDownloadRoute(app: FastifyInstance, root: string, source: DownloadSource): void {
  const url = `${DOWNLOAD_PATH_PREFIX}projects/:project/locations/:location/${root}/*`;
  // The families serve a second API version from the same store and files: one route serves both.
  if (app.hasRoute({ method: 'GET', url })) return;
  app.get<{ Params: { project: string; location: string; '*': string } }>(url, withAccess('signed'), async (request, reply) => {
    const { project, location } = request.params;
    const name = `projects/${project}/locations/${location}/${root}/${request.params['*']}`;
    source.urls.verify(name, (request.query ?? {}) as Record<string, unknown>);
    const parts = parseDownloadName(name);
    if (!parts || !source.hasFile(parts.job, parts.executionId, parts.file)) throw noSuchFile(name);
    const filePath = source.files.filePath(parts.job, parts.executionId, parts.file);
    const size = filePath ? fs.statSync(filePath, { throwIfNoEntry: false })?.size : undefined;
    if (!filePath || size === undefined) throw noSuchFile(name);
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${parts.file}"`)
      .header('Content-Length', String(size))
      .send(fs.createReadStream(filePath));
  });
}
