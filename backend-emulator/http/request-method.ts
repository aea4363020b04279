/**
 * Which Google method a request is, decided once per request and read by every rule that needs
 * it: the front end (its query parameters, ProtoJSON) and the authorization decision (its
 * permission). Both read the same answer, so they can never disagree about a request, however its
 * path is spelled (`sources/x%2FerrorFrames` is `sources.get` of `x%2FerrorFrames` for both).
 */
import type { FastifyRequest } from 'fastify';
import { googleMethodOf, type GoogleMethod } from './google-methods';
import { matchedMethodPath } from './matched-path';

const routedPaths = new WeakMap<FastifyRequest, string | undefined>();
const methods = new WeakMap<FastifyRequest, GoogleMethod | undefined>();

/**
 * The path the router matched, each parameter kept to its one segment (http/matched-path.ts), or
 * undefined when no route matched.
 */
export function requestRoutedPath(request: FastifyRequest): string | undefined {
  if (routedPaths.has(request)) return routedPaths.get(request);
  const path = matchedMethodPath(request);
  routedPaths.set(request, path);
  return path;
}

/** The Google method of the routed path (HEAD is GET's), or undefined when it is none. */
export function requestGoogleMethod(request: FastifyRequest): GoogleMethod | undefined {
  if (methods.has(request)) return methods.get(request);
  const path = requestRoutedPath(request);
  const method = path === undefined ? undefined : googleMethodOf(request.method === 'HEAD' ? 'GET' : request.method, path);
  methods.set(request, method);
  return method;
}
