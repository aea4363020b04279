/**
 * The app-wide authentication and authorization decision: with `--auth`, identifies the caller of
 * every request and makes the one access decision, on the route the router matched: the access
 * the route declares (auth/access.ts) and, for a Google API route, the IAM permission of the
 * Google method the request is, on the resource its path names (auth/request-permission.ts). A
 * request no route matched needs a token like any API call, so that probing unknown paths
 * reveals nothing to a caller without one.
 *
 * It runs in the app's one onRequest hook (app.ts), after the Host/Origin guard and before any
 * other rule or the body is read.
 */
import type { FastifyRequest } from 'fastify';
import { unknownPath } from '../errors';
import type { RouteAccess } from './access';
import type { Authorizer } from './auth';
import { requestPermission } from './request-permission';

/** The decision of `auth` for a request: throws when the request is refused; undefined without `--auth`. */
export function authorizationDecision(auth: Authorizer): ((request: FastifyRequest) => void) | undefined {
  if (!auth.enabled) return undefined;
  return (request) => {
    const access: RouteAccess = request.routeOptions.config?.access ?? 'caller';
    // A signed upload or download URL carries its own credential (its signature), as object storage's do.
    if (access === 'public' || access === 'signed') return;
    const principal = auth.authenticate(request.headers.authorization);
    request.principal = principal;
    if (access === 'admin') return auth.requireAdmin(principal);
    const needs = requestPermission(request);
    // A Google route reached by no method of Google's: refused as its handler would, before it
    // could act on a path the decision did not see.
    if (needs.kind === 'no-method') throw unknownPath(request.method, request.url.split('?')[0]);
    if (needs.kind === 'permission') auth.requirePermission(principal, needs.resource, ...needs.permissions);
  };
}
