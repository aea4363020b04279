/**
 * Google's front end, for every Google API route at once: what Google's servers do to a request
 * before any method sees it, applied here in one place so that no route can forget a rule.
 *
 * The rules run in the order Google's front end applies them, after the Host/Origin guard and the
 * authorization decision (app.ts's one onRequest hook): the query (`googleFrontEndRequest`), then
 * the body as it is parsed (http/json-body.ts), then the answer
 * (`installGoogleFrontEnd`'s preSerialization).
 *
 * - The method is found once per request (http/request-method.ts: the path the router matched,
 *   looked up in the table of Google's methods generated from Google's clients), the same answer
 *   the authorization decision reads.
 * - A query parameter the method's request message does not have is `400 INVALID_ARGUMENT`, in
 *   Google's words (`Cannot bind query parameter. Field 'pagesize' could not be found in request
 *   message.`); the standard system parameters (`fields`, `key`, `alt`, ...) are taken everywhere.
 * - ProtoJSON in (proto field names, enum numbers) and out (no default values; an answer a route
 *   wrote as ProtoJSON text, `ProtoJsonText`, is sent as it is; one holding strings kept in files,
 *   `StreamedProtoJson`, is streamed, the files' bytes read as it is sent).
 *
 * A key given twice in a JSON body is refused by the body parser (http/body.ts), for every route.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { invalidArgument } from '../errors';
import { requestGoogleMethod, requestRoutedPath } from './request-method';
import { fromProtoJsonQuery, isGoogleApiPath, jsonFieldPath, ProtoJsonText, toProtoJson } from './protojson';
import { answering } from './large-bodies';
import { StreamedProtoJson } from './streamed-json';

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
 * The routed path of a Google API request, or undefined for the emulator's own routes (a body's
 * ProtoJSON rules follow it: json-body.ts).
 */
export function googlePath(request: FastifyRequest): string | undefined {
  const path = requestRoutedPath(request);
  return path !== undefined && isGoogleApiPath(path) ? path : undefined;
}

function refuseUnknownQueryParameters(request: FastifyRequest): void {
  const query = request.query as Record<string, unknown> | undefined;
  if (query === undefined) return;
  for (const name in query) {
    if (SYSTEM_PARAMETERS.has(name)) continue;
    const method = requestGoogleMethod(request);
    if (!method) return;
    if (method.query.has(jsonFieldPath(name))) continue;
    const text = `Invalid JSON payload received. Unknown name "${name}": Cannot bind query parameter. Field '${name}' could not be found in request message.`;
    throw invalidArgument([{ field: name, description: text }], text);
  }
}

/**
 * The front end's rules on what arrives before the body: an unknown query parameter is refused and
 * the query read as ProtoJSON. Run by the app's one onRequest hook (app.ts), after the Host/Origin
 * guard and the authorization decision; the body's rules run as it is parsed (http/body.ts).
 */
export function googleFrontEndRequest(request: FastifyRequest): void {
  const path = googlePath(request);
  if (path === undefined) return;
  refuseUnknownQueryParameters(request);
  request.query = fromProtoJsonQuery((request.query ?? {}) as Record<string, unknown>, path);
}

/**
 * The text of an answer: a ProtoJsonText as it was written (a route that wrote its answer as
 * ProtoJSON text), anything else as JSON.
 */
function answerText(payload: unknown): string | Buffer {
  return payload instanceof ProtoJsonText ? payload.text : JSON.stringify(payload);
}

/**
 * The serializer of an answer that may be streamed: a StreamedProtoJson as a stream that writes
 * its bytes to the response once fastify pipes it (fastify pipes a stream the serializer answers),
 * with their length (known: no chunked encoding); anything else (an error answered instead) as
 * `answerText`.
 */
function streamedAnswerBody(reply: FastifyReply): (payload: unknown) => string | Buffer | Readable {
  return (payload) => {
    if (!(payload instanceof StreamedProtoJson)) return answerText(payload);
    const { length, stream } = payload.body(reply.raw);
    reply.header('content-length', String(length));
    return stream;
  };
}

/** ProtoJSON out: a callback hook (it runs on every answer; an async one costs a promise and a microtask turn). */
export function installGoogleFrontEnd(app: FastifyInstance): void {
  // Errors of unmatched requests are Google's shape too: those go by the raw path.
  app.addHook('preSerialization', (request, reply, payload, done) => {
    // After a large body, the request thread collects its garbage once this answer is out (large-bodies.ts).
    answering(request, reply);
    // An answer holding text kept in files is streamed (fastify pipes a stream a serializer returns,
    // as one a route returns: its types only say string).
    if (payload instanceof StreamedProtoJson) {
      reply.serializer(streamedAnswerBody(reply) as (payload: unknown) => string);
      // Its files close once the response is over: sent, failed, or never started (an error instead).
      reply.raw.once('close', payload.release);
      // Already ProtoJSON (StreamedProtoJson.of); another version's edge may still rewrite its value.
      done(null, payload);
      return;
    }
    // An answer written as text is sent as it is (another version's edge may still make it a value again).
    // (fastify sends the bytes a serializer returns as it sends a string: its types only say string.)
    if (payload instanceof ProtoJsonText) {
      reply.serializer(answerText as (payload: unknown) => string);
      // Its bytes may be a buffer lent for this answer (answer-bytes.ts): back once the last byte is sent.
      if (payload.release) reply.raw.once('finish', payload.release);
    }
    done(null, isGoogleApiPath(requestRoutedPath(request) ?? request.url.split('?')[0]) ? toProtoJson(payload) : payload);
  });
}
