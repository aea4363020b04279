/**
 * The app-wide error and not-found handlers: whatever goes wrong, the client receives
 * `{"error":{"code","message","status","details"}}` (the REST form of google.rpc.Status).
 */
import { STATUS_CODES, type IncomingMessage } from 'http';
import type { Socket } from 'net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GoogleApiError, internal, invalidArgument, payloadTooLarge, unknownPath, type StatusName } from '../errors';
import { setAnswerHeaders } from './answer-headers';
import { toProtoJson } from './protojson';

const JSON_TYPE = 'application/json; charset=utf-8';

/** fastify's `maxParamLength` (its default): the longest path segment a route parameter takes. */
export const MAX_PATH_SEGMENT = 100;

/** Maps an HTTP status fastify chose to the canonical status Google uses for it. */
const STATUS_FOR_HTTP: Record<number, StatusName> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'NOT_FOUND',
  406: 'INVALID_ARGUMENT',
  408: 'DEADLINE_EXCEEDED',
  409: 'ABORTED',
  411: 'INVALID_ARGUMENT',
  415: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

type AnyError = Partial<FastifyError> & { validation?: Array<{ instancePath?: string; message?: string; params?: Record<string, unknown> }> };

/** Turns anything thrown into the GoogleApiError to send. */
export function toGoogleApiError(err: unknown, request?: FastifyRequest): GoogleApiError {
  if (err instanceof GoogleApiError) return err;
  const e = (err ?? {}) as AnyError;
  if (Array.isArray(e.validation)) {
    const context = (e as { validationContext?: string }).validationContext;
    return invalidArgument(
      e.validation.map((v) => {
        let field = (v.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
        if (v.params && typeof v.params.missingProperty === 'string') field = field ? `${field}.${v.params.missingProperty}` : v.params.missingProperty;
        if (!field && context && context !== 'body') field = context;
        return { field, description: v.message ?? 'is invalid' };
      }),
    );
  }
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return payloadTooLarge(request?.routeOptions?.bodyLimit ?? 0);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
      const type = request?.headers['content-type'] ?? '(none)';
      return invalidArgument(
        [{ field: '', description: `Content-Type '${type}' is not supported; send application/json` }],
        `Invalid request: Content-Type '${type}' is not supported; the body must be JSON (application/json).`,
      );
    }
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return invalidArgument(
        [{ field: '', description: 'Content-Length does not match the body' }],
        'Invalid request: Content-Length does not match the body.',
      );
    case 'FST_ERR_BAD_URL':
      return invalidArgument(
        [{ field: '', description: 'the URL path is not valid (malformed percent-encoding)' }],
        'Invalid request: the URL path is not valid.',
      );
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return invalidArgument(
        [{ field: '', description: `a path segment is longer than ${MAX_PATH_SEGMENT} characters` }],
        `Invalid request: a path segment is longer than ${MAX_PATH_SEGMENT} characters; no resource name has one.`,
      );
    default:
      break;
  }
  if (e instanceof SyntaxError || e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || /forbidden (prototype|constructor) property/i.test(e.message ?? '')) {
    const detail = (e.message ?? 'malformed JSON').replace(/\s+/g, ' ');
    return invalidArgument([{ field: '', description: detail }], `Invalid JSON payload received. ${detail}`);
  }
  const statusCode = typeof e.statusCode === 'number' ? e.statusCode : 500;
  if (statusCode === 413) return payloadTooLarge(request?.routeOptions?.bodyLimit ?? 0);
  if (statusCode >= 400 && statusCode < 500) {
    const status = STATUS_FOR_HTTP[statusCode] ?? 'FAILED_PRECONDITION';
    return new GoogleApiError(status, e.message || status);
  }
  const status = STATUS_FOR_HTTP[statusCode];
  if (status) return new GoogleApiError(status, e.message || status);
  return internal();
}

/**
 * Whether the request declares a body not yet received whole. (`complete` alone says false for a
 * request without a body too, while its refusal is sent from the hook that the 'request' event ran.)
 */
function bodyStillComing(raw: IncomingMessage): boolean {
  if (raw.complete !== false) return false;
  const length = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function sendGoogleError(reply: FastifyReply, error: GoogleApiError): FastifyReply {
  // A refusal made before the body arrived (401, 403, 404, 501 from the hook and the router): the
  // connection closes after the answer. Kept open, Node reads and drops the rest of the body for as
  // long as the client sends it, without a time limit (fastify sets none): a client with no token
  // held a socket for good by trickling a declared 100 kB body, a byte every few seconds.
  if (bodyStillComing(reply.request.raw)) reply.header('connection', 'close');
  // ProtoJSON on every route's errors, the signed upload URLs' included (no `field: ""`).
  return reply.code(error.httpCode).type(JSON_TYPE).send(toProtoJson(error.toJSON()));
}

/**
 * fastify's `frameworkErrors`: errors raised before any route runs (a malformed percent-encoding,
 * a path segment over MAX_PATH_SEGMENT) get the Google shape too.
 */
export function frameworkErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // No hook ran for this request (the router could not read its URL): its headers are set here.
  setAnswerHeaders(request, reply);
  void sendGoogleError(reply, toGoogleApiError(err, request));
}

/**
 * fastify's `clientErrorHandler`: a request Node's HTTP parser refuses (headers or URL over 16 KiB,
 * malformed HTTP) never reaches fastify's routing; answer it in the Google shape as well, then
 * close the connection, as Node and fastify do.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  let error: GoogleApiError;
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') error = new GoogleApiError('DEADLINE_EXCEEDED', 'The request was not received in time.', [], 408);
  else if (err.code === 'HPE_HEADER_OVERFLOW') {
    error = new GoogleApiError(
      'INVALID_ARGUMENT',
      'Request header fields too large: the request line and headers exceed the HTTP limit (16 KiB).',
      [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: '', description: 'the URL and headers are too long' }] }],
      431,
    );
  } else error = invalidArgument([{ field: '', description: 'the request is not valid HTTP/1.1' }], 'Invalid request: the HTTP request could not be parsed.');
  if (socket.writable) {
    const body = JSON.stringify(toProtoJson(error.toJSON()));
    socket.write(
      `HTTP/1.1 ${error.httpCode} ${STATUS_CODES[error.httpCode] ?? ''}\r\nContent-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

/** Installs the error handler and the not-found handler on the root instance. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, request, reply) => {
    const googleError = toGoogleApiError(err, request);
    if (googleError.httpCode >= 500) request.log.error({ err }, 'request failed');
    else request.log.debug({ status: googleError.status, message: googleError.message }, 'request rejected');
    return sendGoogleError(reply, googleError);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    return sendGoogleError(reply, unknownPath(request.method, path));
  });
}
