/**
 * Request bodies and query strings: JSON only, size-limited, objects only, and a query
 * parameter given twice is rejected rather than silently picked.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidArgument } from '../errors';

/**
 * Replaces fastify's parsers (JSON and text/plain) with one JSON parser with one that keeps its protections (`__proto__` and
 * `constructor.prototype` keys are errors) but reads an empty body as "no body", as Google's
 * front end does for bodiless POSTs such as `:cancel`.
 */
export function installJsonParser(app: FastifyInstance): void {
  const strict = app.getDefaultJsonParser('error', 'error');
  // Only JSON: fastify's text/plain parser would hand routes a string.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    strict(request, text, done);
  });
}

/** The body as a JSON object; an absent body is `{}`; anything but an object is INVALID_ARGUMENT. */
export function objectBody(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    const kind = Array.isArray(body) ? 'a list' : `a ${typeof body}`;
    throw invalidArgument([{ field: '', description: `the body must be a JSON object, not ${kind}` }], `Invalid JSON payload received. Expected an object, got ${kind}.`);
  }
  return body as Record<string, unknown>;
}

/** One query parameter as a string (undefined when absent); repeated parameters are rejected. */
export function queryParam(request: FastifyRequest, name: string): string | undefined {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const value = query[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw invalidArgument([{ field: name, description: 'must be given at most once' }]);
  return String(value);
}

/** An integer query parameter within [min, max]; undefined when absent. */
export function intQueryParam(request: FastifyRequest, name: string, min: number, max: number): number | undefined {
  const raw = queryParam(request, name);
  if (raw === undefined || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw)) throw invalidArgument([{ field: name, description: `must be an integer, not '${raw}'` }]);
  const value = Number(raw);
  if (value < min || value > max) throw invalidArgument([{ field: name, description: `must be between ${min} and ${max}` }]);
  return value;
}

/** A boolean query parameter (`true` / `false`); undefined when absent. */
export function boolQueryParam(request: FastifyRequest, name: string): boolean | undefined {
  const raw = queryParam(request, name);
  if (raw === undefined || raw === '') return undefined;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw invalidArgument([{ field: name, description: `must be true or false, not '${raw}'` }]);
}
