/**
 * Which Google method a request is, decided once per request and read by every rule that needs
 * it: the front end (its query parameters, ProtoJSON) and the authorization decision (its
 * permission). Both read the same answer, so they can never disagree about a request, however its
 * path is spelled (`sources/x%2FerrorFrames` is `sources.get` of `x%2FerrorFrames` for both).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { googleMethodOf, type GoogleMethod } from './google-methods';
import { matchedMethodPath } from './matched-path';

// The answers are kept on the request itself, in two slots fastify creates with every request
// (installRequestMethodSlots), not in WeakMaps keyed by the request: a WeakMap entry per request
// costs a hash insert and an ephemeron for the garbage collector to trace, on every request.
const ROUTED_PATH = Symbol('routedPath');
const GOOGLE_METHOD = Symbol('googleMethod');
/** What a slot holds before its answer is worked out (undefined is an answer: no route, no method). */
const UNKNOWN = 0;

interface RequestMethodSlots {
  [ROUTED_PATH]?: string | undefined | typeof UNKNOWN;
  [GOOGLE_METHOD]?: GoogleMethod | undefined | typeof UNKNOWN;
}

/** Declares the two slots on fastify's request, so every request is made with them (one shape). */
export function installRequestMethodSlots(app: FastifyInstance): void {
  app.decorateRequest(ROUTED_PATH as unknown as string, UNKNOWN);
  app.decorateRequest(GOOGLE_METHOD as unknown as string, UNKNOWN);
}

/**
 * The path the router matched, each parameter kept to its one segment (http/matched-path.ts), or
 * undefined when no route matched.
 */
export function requestRoutedPath(request: FastifyRequest): string | undefined {
  const slots = request as unknown as RequestMethodSlots;
  const known = slots[ROUTED_PATH];
  if (known !== UNKNOWN && ROUTED_PATH in slots) return known;
  const path = matchedMethodPath(request);
  slots[ROUTED_PATH] = path;
  return path;
}

/** The Google method of the routed path (HEAD is GET's), or undefined when it is none. */
export function requestGoogleMethod(request: FastifyRequest): GoogleMethod | undefined {
  const slots = request as unknown as RequestMethodSlots;
  const known = slots[GOOGLE_METHOD];
  if (known !== UNKNOWN && GOOGLE_METHOD in slots) return known;
  const path = requestRoutedPath(request);
  const method = path === undefined ? undefined : googleMethodOf(request.method === 'HEAD' ? 'GET' : request.method, path);
  slots[GOOGLE_METHOD] = method;
  return method;
}
