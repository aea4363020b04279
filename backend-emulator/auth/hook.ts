/**
 * The app-wide authentication hook: with `--auth`, identifies the caller of every request and
 * makes the one access decision, on the access the matched route declares (auth/access.ts). A
 * request no route matched needs a token like any API call, so that probing unknown paths
 * reveals nothing to a caller without one.
 */
import type { FastifyInstance } from 'fastify';
import type { RouteAccess } from './access';
import type { Authorizer } from './auth';

export function installAuthHook(app: FastifyInstance, auth: Authorizer): void {
  if (!auth.enabled) return;
  app.addHook('onRequest', async (request) => {
    const access: RouteAccess = request.routeOptions.config?.access ?? 'caller';
    // A signed upload URL carries its own credential (its signature), as object storage's do.
    if (access === 'public' || access === 'signed') return;
    const principal = auth.authenticate(request.headers.authorization);
    request.principal = principal;
    if (access === 'admin') auth.requireAdmin(principal);
  });
}
