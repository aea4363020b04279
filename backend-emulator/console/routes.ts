/**
 * The emulator's read-only web console: one static page at `/` and the small JSON routes it reads
 * (the emulator's own namespace, not Google's). See docs/console.md.
 *
 *   GET /                                   the console page (static/index.html)
 *   GET /console/app.js, /console/console.css
 *   GET /emulator/v1/console/summary        {endpointPolicies, importJobs, assets}: counts
 *   GET /emulator/v1/console/endpointPolicies?pageSize=&pageToken=
 *         -> {endpointPolicies: [{policy, iamPolicy, iamUpdateTime?, iamRevision?}], nextPageToken?}
 *   GET /emulator/v1/console/importJobs?pageSize=&pageToken=
 *         -> {importJobs: [JobSummary], nextPageToken?}   (state, times, payload, report counts)
 *   GET /emulator/v1/console/projects/P/locations/L/importJobs/J
 *         -> JobDetail (summary + each report's job errors, files with counts, file errors)
 *   GET /emulator/v1/console/projects/P/locations/L/importJobs/J/rowErrors
 *         ?report=validation|execution&file=&severity=ERROR|WARNING|INFO&offset=&pageSize=
 *         -> {rowErrors: [one line per error of a row], totalSize, severityCounts, nextOffset?, ...}
 *   GET /emulator/v1/console/projects/P/locations/L/importJobs/J/rowCells?file=&sheet=&row=
 *         -> {header, cells} of that row, read back from the job's files ({} when it is not there)
 *   GET /emulator/v1/console/assets?importJob=NAME&pageSize=&pageToken=
 *         -> {assets: [Asset (BASIC view)], nextPageToken?, reporter?}
 *
 * With `--auth`: the static files declare `public` access (they hold no data), the JSON routes
 * `admin` (auth/access.ts), which the app-wide hook enforces; the JSON routes check the admin token
 * once more themselves, so they stay admin-only whatever the hook does.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context';
import { withAccess } from '../auth/access';
import { intQueryParam, queryParam } from '../http/body';
import { locationName, splitVerb } from '../http/names';
import { namedPlugin } from '../http/plugin-name';
import { keysetPageRequest, parsePageSize, type PageLimits } from '../query/list-query';
import { GoogleApiError, invalidArgument, unknownPath } from '../errors';
import {
  ROW_ERRORS_PAGE,
  assetPage,
  endpointPolicyPage,
  jobDetail,
  jobPage,
  jobRowCells,
  jobRowErrorPage,
  parseReportKind,
  parseSeverity,
  summary,
  type ConsoleDomains,
} from './data';
import { networkServicesOf } from '../networkservices/routes';
import { migrationCenterOf } from '../migrationcenter/routes';
import { loadStaticFiles } from './static-files';

export const CONSOLE_API = '/emulator/v1/console';
/** Page sizes of the console's lists (default, largest). */
export const CONSOLE_PAGE: PageLimits = { defaultSize: 50, maxSize: 500 };

/**
 * Runs a read that scans files with a signal that aborts when the client goes away (its socket
 * closes before the answer is sent) or when `limitMs` passes: a scan nobody waits for stops.
 */
async function withReadLimit<T>(request: FastifyRequest, reply: FastifyReply, limitMs: number, read: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const gone = new AbortController();
  const onClose = (): void => {
    if (!reply.raw.writableFinished) gone.abort(new Error('the client closed the connection'));
  };
  reply.raw.once('close', onClose);
  const timeout = AbortSignal.timeout(limitMs);
  try {
    return await read(AbortSignal.any([gone.signal, timeout]));
  } catch (err) {
    if (timeout.aborted) throw new GoogleApiError('DEADLINE_EXCEEDED', `Reading the row took longer than ${limitMs / 1000} s; it was stopped.`);
    throw err;
  } finally {
    reply.raw.off('close', onClose);
  }
}

/** Only this page's own files; data reaches it through fetch() of the JSON routes. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

interface JobParams {
  project: string;
  location: string;
  importJob: string;
}

export async function consoleRoutes(app: FastifyInstance, ctx: EmulatorContext): Promise<void> {
  // The domains are read at request time: the services register theirs when their routes do.
  const domains = (): ConsoleDomains => ({ ...networkServicesOf(ctx), ...migrationCenterOf(ctx) });

  // ------------------------------------------------------------------ static page
  let files: ReturnType<typeof loadStaticFiles>['files'] = [];
  try {
    files = loadStaticFiles().files;
  } catch (err) {
    ctx.log.error({ err }, 'the web console is not available');
  }
  for (const file of files) {
    app.get(file.url, withAccess('public'), async (_request, reply) => {
      reply
        .type(file.contentType)
        .header('cache-control', 'no-cache')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', CONTENT_SECURITY_POLICY);
      return reply.send(file.body);
    });
  }

  // ------------------------------------------------------------------ JSON routes
  await app.register(
    namedPlugin('console api', async (api) => {
      // Every JSON route is admin-only: declared for the app's hook, and checked here once more.
      api.addHook('onRoute', (route) => {
        route.config = { ...route.config, access: 'admin' };
      });
      api.addHook('onRequest', async (request) => {
        ctx.auth.requireAdmin(request.principal);
      });
      api.addHook('onSend', async (_request, reply, payload) => {
        reply.header('cache-control', 'no-store');
        return payload;
      });

      // The console's lists page as the Google ones do (query/list-query.ts), with their own limits;
      // `scope` binds a token to the list that issued it.
      const page = (request: FastifyRequest, scope: string) =>
        keysetPageRequest({ pageSize: queryParam(request, 'pageSize'), pageToken: queryParam(request, 'pageToken') }, scope, CONSOLE_PAGE);

      api.get(`${CONSOLE_API}/summary`, async () => summary(domains()));

      api.get(`${CONSOLE_API}/endpointPolicies`, async (request) => {
        const result = endpointPolicyPage(domains(), page(request, 'console:endpointPolicies'));
        return { endpointPolicies: result.items, ...(result.nextPageToken ? { nextPageToken: result.nextPageToken } : {}) };
      });

      api.get(`${CONSOLE_API}/importJobs`, async (request) => {
        const result = jobPage(domains(), page(request, 'console:importJobs'));
        return { importJobs: result.items, ...(result.nextPageToken ? { nextPageToken: result.nextPageToken } : {}) };
      });

      const jobName = (request: FastifyRequest<{ Params: JobParams }>): string => {
        const { parent } = locationName(request.params.project, request.params.location, 'name');
        const { id, verb } = splitVerb(request.params.importJob);
        if (!id || verb !== undefined) throw unknownPath(request.method, request.url.split('?')[0]);
        return `${parent}/importJobs/${id}`;
      };
      const jobPath = `${CONSOLE_API}/projects/:project/locations/:location/importJobs/:importJob`;

      api.get<{ Params: JobParams }>(jobPath, async (request) => jobDetail(domains(), jobName(request)));

      api.get<{ Params: JobParams }>(`${jobPath}/rowErrors`, async (request) => {
        const name = jobName(request);
        const file = queryParam(request, 'file');
        return jobRowErrorPage(domains(), name, {
          report: parseReportKind(queryParam(request, 'report')),
          file: file === undefined || file === '' ? undefined : file,
          severity: parseSeverity(queryParam(request, 'severity')),
          offset: intQueryParam(request, 'offset', 0, Number.MAX_SAFE_INTEGER) ?? 0,
          pageSize: parsePageSize(queryParam(request, 'pageSize'), ROW_ERRORS_PAGE),
        });
      });

      api.get<{ Params: JobParams }>(`${jobPath}/rowCells`, async (request, reply) => {
        const name = jobName(request);
        const fileName = queryParam(request, 'file');
        if (!fileName) throw invalidArgument([{ field: 'file', description: 'is required: the file name the row error gives' }]);
        const rowNumber = intQueryParam(request, 'row', 1, Number.MAX_SAFE_INTEGER);
        if (rowNumber === undefined) throw invalidArgument([{ field: 'row', description: 'is required: the row number the row error gives' }]);
        const sheet = queryParam(request, 'sheet');
        return withReadLimit(request, reply, ctx.config.rowCellsTimeLimitMs, (signal) =>
          jobRowCells(domains(), name, { fileName, rowNumber, ...(sheet ? { sheet } : {}) }, signal),
        );
      });

      api.get(`${CONSOLE_API}/assets`, async (request) => {
        const raw = queryParam(request, 'importJob');
        const importJob = raw === undefined || raw === '' ? undefined : raw;
        const result = assetPage(domains(), page(request, importJob ? `console:assets:${importJob}` : 'console:assets'), importJob);
        return {
          assets: result.items,
          ...(result.reporter ? { reporter: result.reporter } : {}),
          ...(result.nextPageToken ? { nextPageToken: result.nextPageToken } : {}),
        };
      });
    }),
  );
}
