/**
 * The app-wide authentication hook: with `--auth`, identifies the caller of every request (but
 * `GET /healthz`) and keeps the admin routes for admin tokens.
 */
import type { FastifyInstance } from 'fastify';
import { STATIC_FILES } from '../console/static-files';
import type { Authorizer } from './auth';

export const ADMIN_PREFIX = '/emulator/';
/**
 * Paths open without a token: health, and every static file of the console, taken from the
 * console's own list (they hold no data; its JSON routes need an admin token). A browser sends no
 * token for a page's scripts: one missing here leaves the console blank under --auth.
 */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set(['/healthz', ...STATIC_FILES.map((f) => f.url)]);

/** The data files' signed upload URLs (migrationcenter/upload-urls.ts UPLOAD_PATH_PREFIX). */
export const SIGNED_UPLOAD_PREFIX = '/uploads/';

export function installAuthHook(app: FastifyInstance, auth: Authorizer): void {
  if (!auth.enabled) return;
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?')[0];
    if (PUBLIC_PATHS.has(path)) return;
    // A signed upload URL carries its own credential (its signature), as object storage's do.
    if (path.startsWith(SIGNED_UPLOAD_PREFIX)) return;
    const principal = auth.authenticate(request.headers.authorization);
    request.principal = principal;
    if (path.startsWith(ADMIN_PREFIX)) auth.requireAdmin(principal);
  });
}
