/**
 * Request bodies and query strings: JSON only, size-limited, objects only; a key given twice in a
 * JSON object and a query parameter given twice are rejected rather than silently picked.
 */
import { isUtf8 } from 'buffer';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidArgument } from '../errors';
import { hasLoneSurrogate } from '../unicode';
import { googleFrontEndBody } from './front-end';
import { firstDuplicateKey } from './json-duplicates';
import { readBodyBytes } from './body-bytes';
import { LARGE_BODY_BYTES, noteLargeBody } from './large-bodies';

/**
 * Replaces fastify's parsers (JSON and text/plain) with one JSON parser with one that keeps its protections (`__proto__` and
 * `constructor.prototype` keys are errors) but reads an empty body as "no body", as Google's
 * front end does for bodiless POSTs such as `:cancel`. A body that is not valid UTF-8 is refused
 * (JSON text is UTF-8; decoding it anyway would store U+FFFD in place of the bad bytes).
 */
export function installJsonParser(app: FastifyInstance): void {
  const strict = app.getDefaultJsonParser('error', 'error');
  // Only JSON: fastify's text/plain parser would hand routes a string.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  // The body's bytes are read by readBodyBytes (one buffer of the declared length, not chunks and a copy).
  app.addContentTypeParser('application/json', (request, payload, done) =>
    readBodyBytes(request, payload, (err, bytes) => (err || !bytes ? done(err, undefined) : parseJsonBody(request, bytes, done))),
  );

  /** The body's bytes as a JSON value, with the rules above. */
  function parseJsonBody(request: FastifyRequest, bytes: Buffer, done: (err: Error | null, body: unknown) => void): void {
    if (!isUtf8(bytes)) {
      done(
        invalidArgument([{ field: '', description: 'the body is not valid UTF-8' }], 'Invalid JSON payload received. The body is not valid UTF-8.'),
        undefined,
      );
      return;
    }
    if (bytes.length >= LARGE_BODY_BYTES) noteLargeBody(request);
    const text = bytes.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    // Google's parser refuses a field given twice; JSON.parse would keep the last one.
    const duplicate = firstDuplicateKey(text);
    if (duplicate) {
      const field = duplicate.path ? `${duplicate.path}.${duplicate.key}` : duplicate.key;
      done(invalidArgument([{ field, description: 'is given twice' }], `Invalid JSON payload received. Duplicate field "${duplicate.key}".`), undefined);
      return;
    }
    strict(request, text, (err, value) => {
      // `\uD800` escapes are valid JSON but no Unicode text: refused like invalid UTF-8 bytes.
      if (!err && SURROGATE_ESCAPE.test(text) && holdsLoneSurrogate(value)) {
        done(
          invalidArgument(
            [{ field: '', description: 'a string holds an unpaired UTF-16 surrogate' }],
            'Invalid JSON payload received. A string holds an unpaired UTF-16 surrogate (\\uD800-\\uDFFF).',
          ),
          undefined,
        );
        return;
      }
      if (err) return done(err, undefined);
      // ProtoJSON in for a Google API route (the front end's rule, read as the body is parsed).
      let read: unknown;
      try {
        read = googleFrontEndBody(request, value, text);
      } catch (error) {
        return done(error as Error, undefined);
      }
      done(null, read);
    });
  }
}

/** A `\uD800`-`\uDFFF` escape in JSON text (the only way a parsed string can hold a surrogate). */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** Whether a string, or any key or string inside a parsed JSON value, holds an unpaired surrogate. */
function holdsLoneSurrogate(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (hasLoneSurrogate(v)) return true;
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
        if (hasLoneSurrogate(k)) return true;
        stack.push(item);
      }
    }
  }
  return false;
}

/** The body as a JSON object; an absent body is `{}`; anything but an object is INVALID_ARGUMENT. */
export function objectBody(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    const kind = Array.isArray(body) ? 'a list' : `a ${typeof body}`;
    throw invalidArgument(
      [{ field: '', description: `the body must be a JSON object, not ${kind}` }],
      `Invalid JSON payload received. Expected an object, got ${kind}.`,
    );
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
