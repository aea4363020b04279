/**
 * Request bodies and query strings: JSON only, size-limited, objects only; a key given twice in a
 * JSON object and a query parameter given twice are rejected rather than silently picked. A body's
 * rules are json-body.ts's, applied here on the request thread, or by the body worker for a large
 * body of a route that declares large `bytes` fields (large-bytes.ts). Every parsed body's names
 * are then checked against the method's request message (request-bodies.ts; by the worker for the
 * bodies it reads), before any hook or route.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidArgument } from '../errors';
import { integerText } from '../integer-text';
import type { FilesFolder } from '../temp-folders';
import { BodyWorker } from './body-thread';
import { BodiesInFlight, readBodyBytes } from './body-bytes';
import { googlePath } from './front-end';
import { readJsonBody } from './json-body';
import { LARGE_BODY_BYTES, noteLargeBody } from './large-bodies';
import { declaredLargeBytesFields, keepTexts, removeUnmovedTexts, withLargeBytesTexts } from './large-bytes';
import { bodyNames, refuseUnknownBodyNames } from './request-bodies';
import type { BodyNames } from './unknown-names';

/**
 * Replaces fastify's parsers (JSON and text/plain) with one JSON parser (json-body.ts's rules).
 * `largeBytesFolder`: where the body worker writes large `bytes` fields' texts.
 */
export function installJsonParser(app: FastifyInstance, largeBytesFolder: FilesFolder): void {
  const bodyWorker = new BodyWorker(() => largeBytesFolder.path);
  const inFlight = new BodiesInFlight();
  app.addHook('onClose', async () => bodyWorker.close());
  // Only JSON: fastify's text/plain parser would hand routes a string.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  // The body's bytes are read by readBodyBytes (one buffer of the declared length, not chunks and a copy).
  app.addContentTypeParser('application/json', (request, payload, done) =>
    readBodyBytes(
      request,
      payload,
      (err, bytes) => {
        if (err || !bytes) return done(err, undefined);
        const fields = bytes.length >= LARGE_BODY_BYTES ? declaredLargeBytesFields(request) : undefined;
        if (fields) {
          // The worker refuses the unknown names itself: the request thread never receives such a body.
          let names: BodyNames | undefined;
          try {
            names = bodyNames(request);
          } catch (error) {
            return done(error as Error, undefined);
          }
          bodyWorker.read(bytes, googlePath(request), fields, names).then(
            ({ value, texts }) => {
              keepTexts(request, withLargeBytesTexts(value, fields, texts));
              done(null, value);
            },
            (error: Error) => done(error, undefined),
          );
          return;
        }
        if (bytes.length >= LARGE_BODY_BYTES) noteLargeBody(request);
        let value: unknown;
        try {
          value = readJsonBody(bytes, googlePath(request));
          // Then Google's parser's names: a name the method's request message has not (request-bodies.ts).
          refuseUnknownBodyNames(request, value);
        } catch (error) {
          return done(error as Error, undefined);
        }
        done(null, value);
      },
      inFlight,
    ),
  );
  removeUnmovedTexts(app);
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
  const value = integerText(raw);
  if (value === undefined) throw invalidArgument([{ field: name, description: `must be an integer, not '${raw}'` }]);
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
