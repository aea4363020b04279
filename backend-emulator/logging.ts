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

type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LogCall = (...args: unknown[]) => void;

/**
 * A request's logger that makes its pino child only when it first writes a line. fastify makes a
 * child for every request (its bindings serialised, its methods set up) and the emulator, quiet by
 * default, writes nothing for most requests: until a line at an enabled level is written, this
 * asks the parent whether the level is on, and makes nothing. The child, once made, is the one
 * fastify would have made (same bindings, so every line carries `reqId`; the parent's redaction
 * and serializers), and every later call goes to it.
 *
 * The level is read from the parent until the child exists (pino's child copies the parent's
 * level when it is made): the same answer as an eager child unless the root's level changes
 * while a request is under way.
 */
class LazyRequestLogger {
  private made: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly childBindings: Record<string, unknown>,
  ) {}

  /** The pino child, made on first need. */
  private real(): Logger {
    return (this.made ??= this.parent.child(this.childBindings));
  }

  private write(level: LevelName, args: unknown[]): void {
    if (this.made) return (this.made[level] as LogCall)(...args);
    if (this.parent.isLevelEnabled(level)) (this.real()[level] as LogCall)(...args);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  isLevelEnabled(level: string): boolean {
    return (this.made ?? this.parent).isLevelEnabled(level);
  }
  get level(): string {
    return (this.made ?? this.parent).level;
  }
  /** Setting a request's own level needs its own child (the parent's level is the app's). */
  set level(level: string) {
    this.real().level = level;
  }
  child(bindings: Record<string, unknown>, options?: Record<string, unknown>): Logger {
    return this.real().child(bindings, options);
  }
  bindings(): Record<string, unknown> {
    return this.made ? this.made.bindings() : { ...this.parent.bindings(), ...this.childBindings };
  }
  flush(): void {
    this.parent.flush();
  }
}

/**
 * fastify's `childLoggerFactory`: the lazy request logger above, or pino's child made at once when
 * a route sets its own level or serializers (options only a real child can carry).
 */
export function requestLoggerFactory(parent: Logger, bindings: Record<string, unknown>, options: Record<string, unknown>): Logger {
  if (options.level !== undefined || options.serializers !== undefined) return parent.child(bindings, options);
  return new LazyRequestLogger(parent, bindings) as unknown as Logger;
}
