/**
 * Logging: pino through fastify's logger. Quiet by default (`warn`); at `info` each request
 * writes exactly one line when its response is sent. Bearer tokens never reach a log line: the
 * request serializer never includes headers, and `redact` censors them wherever they appear.
 */
import type { IncomingMessage } from 'http';
import type { Logger } from 'pino';
import type { LogLevel } from './config';

export const REQUEST_ID_HEADER = 'x-request-id';

/** Paths pino censors, whatever a log call passes. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'authorization',
  'token',
  'tokens',
  'adminTokens',
  'auth.tokens',
  'auth.adminTokens',
  'config.auth',
];

export interface LoggerOptions {
  level: LogLevel;
  /** Where lines go (tests pass a stream to read them); else `fd`. */
  stream?: NodeJS.WritableStream;
  /** File descriptor for lines when no stream is given: 1 (stdout, the default) or 2 (stderr, the CLI). */
  fd?: number;
}

export function createLogger(options: LoggerOptions): Logger {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pino = require('pino') as typeof import('pino');
  const pinoOptions = {
    level: options.level,
    redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
    base: { pid: process.pid },
    serializers: {
      // Only what identifies the request: never headers.
      req: (req: { method?: string; url?: string; id?: string }) => ({ method: req.method, url: redactUrl(req.url), id: req.id }),
    },
  };
  if (options.stream) return pino.default(pinoOptions, options.stream);
  // Synchronous writes: no line is lost when the process exits right after logging.
  return pino.default(pinoOptions, pino.destination({ dest: options.fd ?? 1, sync: true }));
}

/**
 * Query parameters that carry credentials (Google APIs accept `access_token` and `key`; a data
 * file's signed upload URL carries `signature`): never logged.
 */
const CREDENTIAL_PARAMS: ReadonlySet<string> = new Set(['access_token', 'oauth_token', 'token', 'key', 'signature']);

/** A query parameter's name as the server reads it: percent-decoded, `+` as a space, lower case. */
function paramName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/**
 * The URL as logged: the values of credential query parameters replaced by `[REDACTED]`. A name is
 * compared decoded, as the query parser reads it: `?%61ccess_token=` is `access_token` too.
 */
export function redactUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const question = url.indexOf('?');
  if (question < 0) return url;
  const hash = url.indexOf('#', question);
  const query = url.slice(question + 1, hash < 0 ? undefined : hash);
  const redacted = query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return equals >= 0 && CREDENTIAL_PARAMS.has(paramName(name)) ? `${name}=[REDACTED]` : pair;
    })
    .join('&');
  return `${url.slice(0, question + 1)}${redacted}${hash < 0 ? '' : url.slice(hash)}`;
}

let requestCounter = 0;
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** fastify `genReqId`: the caller's `x-request-id` when it is a sane token, else `req-<n>`. */
export function genReqId(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  const value = Array.isArray(given) ? given[0] : given;
  if (value && SAFE_REQUEST_ID.test(value)) return value;
  requestCounter = (requestCounter + 1) % Number.MAX_SAFE_INTEGER;
  return `req-${requestCounter.toString(36)}`;
}
