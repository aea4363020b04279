/**
 * Google's front end, for every Google API route at once: what Google's servers do to a request
 * before any method sees it, applied here in one place so that no route can forget a rule.
 *
 * - The method is found from the path the router matched (http/matched-path.ts) in the table of
 *   Google's methods (http/google-methods.ts, generated from Google's clients).
 * - A query parameter the method's request message does not have is `400 INVALID_ARGUMENT`, in
 *   Google's words (`Cannot bind query parameter. Field 'pagesize' could not be found in request
 *   message.`); the standard system parameters (`fields`, `key`, `alt`, ...) are taken everywhere.
 * - ProtoJSON in (proto field names, enum numbers) and out (no default values).
 *
 * A key given twice in a JSON body is refused by the body parser (http/body.ts), for every route.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidArgument } from '../errors';
import { googleMethodOf, type GoogleMethod } from './google-methods';
import { matchedPath } from './matched-path';
import { fromProtoJsonBody, fromProtoJsonQuery, isGoogleApiPath, jsonFieldPath, toProtoJson } from './protojson';

/** Google's system parameters, accepted by every method (they are not fields of its request). */
export const SYSTEM_PARAMETERS: ReadonlySet<string> = new Set([
  '$.xgafv',
  'access_token',
  'alt',
  'callback',
  'fields',
  'key',
  'oauth_token',
  'prettyPrint',
  'quotaUser',
  'upload_protocol',
  'uploadType',
]);

/**
 * The routed path of a request (http/matched-path.ts), worked out once: the front end reads it
 * before the handler (the query and body rules) and again for the answer (ProtoJSON out).
 */
const routedPaths = new WeakMap<FastifyRequest, string | undefined>();

function routedPath(request: FastifyRequest): string | undefined {
  if (routedPaths.has(request)) return routedPaths.get(request);
  const path = matchedPath(request);
  routedPaths.set(request, path);
  return path;
}

/** The routed path of a Google API request, or undefined for the emulator's own routes. */
function googlePath(request: FastifyRequest): string | undefined {
  const path = routedPath(request);
  return path !== undefined && isGoogleApiPath(path) ? path : undefined;
}

function refuseUnknownQueryParameters(request: FastifyRequest, path: string): void {
  const query = request.query as Record<string, unknown> | undefined;
  if (query === undefined) return;
  let method: GoogleMethod | undefined | null = null;
  for (const name in query) {
    if (SYSTEM_PARAMETERS.has(name)) continue;
    if (method === null) method = googleMethodOf(request.method === 'HEAD' ? 'GET' : request.method, path);
    if (!method) return;
    if (method.query.has(jsonFieldPath(name))) continue;
    const text = `Invalid JSON payload received. Unknown name "${name}": Cannot bind query parameter. Field '${name}' could not be found in request message.`;
    throw invalidArgument([{ field: name, description: text }], text);
  }
}

// Callback hooks, not async ones: these run on every request, and an async hook costs a promise
// and a turn of the microtask queue each.
export function installGoogleFrontEnd(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const path = googlePath(request);
    if (path === undefined) return done();
    try {
      refuseUnknownQueryParameters(request, path);
      request.query = fromProtoJsonQuery((request.query ?? {}) as Record<string, unknown>, path);
      if (request.body !== undefined) request.body = fromProtoJsonBody(request.body, path);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
  // Errors of unmatched requests are Google's shape too: those go by the raw path.
  app.addHook('preSerialization', (request, _reply, payload, done) => {
    done(null, isGoogleApiPath(routedPath(request) ?? request.url.split('?')[0]) ? toProtoJson(payload) : payload);
  });
}
