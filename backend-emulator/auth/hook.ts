/**
 * The app-wide authentication hook: with `--auth`, identifies the caller of every request (but
 * `GET /healthz`) and keeps the admin routes for admin tokens.
 */
import type { FastifyInstance } from 'fastify';
import type { Authorizer } from './auth';

export const ADMIN_PREFIX = '/emulator/';
/** Paths open without a token: health, and the console's static files (they hold no data; its JSON routes need an admin token). */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set(['/healthz', '/', '/console/app.js', '/console/console.css']);

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
