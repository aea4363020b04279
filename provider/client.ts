/**
 * The provider's one REST client, for every backend (embedded emulator, emulator over HTTP, the
 * real Google APIs). A backend is only a `Transport`: how bytes reach the server. Everything the
 * providers rely on (JSON bodies, the google.rpc.Status error shape, long-running operations) is
 * here, once.
 *
 * Closure serialisation: this module keeps no sockets, handles or caches; it is safe for a
 * dynamic provider to capture.
 */
import { RPC_CODES, STATUS_HTTP_CODES, StatusName } from '../backend-emulator/errors';
import { withoutEdgeSlashes } from './slashes';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** One HTTP request, already encoded: `url` is the path plus query string (`/v1/...?a=b`). */
export interface TransportRequest {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  /** The JSON text of the body, if any. */
  body?: string;
}

export interface TransportResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A streamed upload to an absolute URL (a data file's signed upload URL): `body` is read as it is
 * sent, never held whole in memory; `length` is sent as Content-Length.
 */
export interface UploadRequest {
  url: string;
  headers: Record<string, string>;
  body: NodeJS.ReadableStream;
  length: number;
}

/** How requests reach a server. Implementations: provider/backends.ts. */
export interface Transport {
  /** Where requests go, for messages (e.g. `http://127.0.0.1:8085`, `embedded emulator`). */
  readonly description: string;
  send(request: TransportRequest): Promise<TransportResponse>;
  /** PUTs a stream to an absolute URL (signed upload URLs); absent: the transport cannot upload. */
  upload?(request: UploadRequest): Promise<TransportResponse>;
}

/** One entry of google.rpc.Status.details. */
export type ErrorDetail = { '@type'?: string } & Record<string, unknown>;

/** A Google API call that failed: the HTTP response (or operation error) in google.rpc.Status form. */
export class GoogleApiCallError extends Error {
  override readonly name = 'GoogleApiCallError';
  /** Canonical status name, e.g. `NOT_FOUND` (`UNAVAILABLE` when the server could not be reached). */
  readonly status: StatusName | string;
  /** HTTP status code; 0 when there was no HTTP response (connection failure). */
  readonly httpCode: number;
  /** The server's own message, without the prefix `message` adds. */
  readonly apiMessage: string;
  readonly details: ErrorDetail[];
  /** The request that failed (`GET /v1/...`), or the operation name for an operation error. */
  readonly request: string;
  /**
   * False when the answer was not Google's (no `{"error": {...}}` JSON body, a 2xx body that is not
   * JSON, or no answer at all): the server may be something else than a Google API or the
   * emulator, and its 404 says nothing about the resource.
   */
  readonly googleShaped: boolean;

  constructor(init: { status: StatusName | string; httpCode: number; message: string; details?: ErrorDetail[]; request: string; googleShaped?: boolean }) {
    super(`${init.request} failed: ${init.status}${init.httpCode ? ` (HTTP ${init.httpCode})` : ''}: ${init.message}`);
    this.status = init.status;
    this.httpCode = init.httpCode;
    this.apiMessage = init.message;
    this.details = init.details ?? [];
    this.request = init.request;
    this.googleShaped = init.googleShaped ?? true;
  }
}

/** True for a GoogleApiCallError (optionally with one of the given statuses). */
export function isGoogleApiCallError(err: unknown, ...statuses: string[]): err is GoogleApiCallError {
  return err instanceof GoogleApiCallError && (statuses.length === 0 || statuses.includes(err.status));
}

/** True for a NOT_FOUND GoogleApiCallError. */
export function isNotFound(err: unknown): boolean {
  return isGoogleApiCallError(err, 'NOT_FOUND');
}

/** Thrown by waitForOperation when the operation is not done in time. */
export class OperationTimeoutError extends Error {
  override readonly name = 'OperationTimeoutError';
  constructor(
    readonly operationName: string,
    readonly timeoutMs: number,
    readonly lastOperation: Operation<unknown, unknown>,
  ) {
    super(
      `operation ${operationName} was not done after ${timeoutMs} ms; it may still finish on the server ` + `(look it up by that name), or raise the timeout`,
    );
  }
}

/** google.longrunning.Operation (REST JSON form). */
export interface Operation<R = Record<string, unknown>, M = Record<string, unknown>> {
  name: string;
  done?: boolean;
  metadata?: M;
  response?: R;
  error?: { code: number; message: string; details?: ErrorDetail[] };
}

export type QueryValue = string | number | boolean | undefined | null | Array<string | number | boolean>;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface WaitForOperationOptions {
  /** The API version the operation name lives under: polls `GET /{apiVersion}/{op.name}`. */
  apiVersion: string;
  /** Give up after this long (default 20 minutes, Pulumi's default create timeout). */
  timeoutMs?: number;
  /** First wait between polls (default 1000 ms). */
  initialPollMs?: number;
  /** Longest wait between polls (default 15000 ms). */
  maxPollMs?: number;
  /** Growth of the wait after each poll (default 1.5). */
  multiplier?: number;
  /** Called after each poll (for logs and tests). */
  onPoll?: (op: Operation<unknown, unknown>) => void;
}

const NUMERIC_TO_STATUS: Record<number, StatusName> = Object.fromEntries(Object.entries(RPC_CODES).map(([name, code]) => [code, name as StatusName])) as Record<
  number,
  StatusName
>;

/** The status Google's front end uses for an HTTP code, for error bodies that are not google.rpc.Status. */
function statusForHttpCode(code: number): StatusName {
  switch (code) {
    case 400:
      return 'INVALID_ARGUMENT';
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'PERMISSION_DENIED';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'ABORTED';
    case 429:
      return 'RESOURCE_EXHAUSTED';
    case 499:
      return 'CANCELLED';
    case 501:
      return 'UNIMPLEMENTED';
    case 503:
      return 'UNAVAILABLE';
    case 504:
      return 'DEADLINE_EXCEEDED';
    default:
      return code >= 500 ? 'INTERNAL' : 'UNKNOWN';
  }
}

/** Encodes a query object the way Google's REST APIs read it (repeated keys for arrays). */
export function encodeQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function truncate(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** The REST client: JSON in, JSON out, google.rpc.Status errors as GoogleApiCallError. */
export class GoogleRestClient {
  constructor(readonly transport: Transport) {}

  /**
   * Sends `method path` with an optional query and JSON body. Resolves with the parsed JSON body
   * of a 2xx response (`{}` for an empty body); rejects with GoogleApiCallError otherwise.
   */
  async request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
    if (!path.startsWith('/')) throw new Error(`request path must start with "/": ${path}`);
    const url = path + encodeQuery(options.query);
    const label = `${method} ${url}`;
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    let res: TransportResponse;
    try {
      res = await this.transport.send({ method, url, headers, body });
    } catch (err) {
      const cause = err as Error & { cause?: { code?: string; message?: string } };
      const reason = cause.cause?.code ?? cause.cause?.message ?? cause.message;
      throw new GoogleApiCallError({
        status: 'UNAVAILABLE',
        httpCode: 0,
        message: `could not reach ${this.transport.description}: ${reason}`,
        request: label,
        googleShaped: false,
      });
    }
    if (res.status >= 200 && res.status < 300) {
      if (res.body.trim() === '') return {} as T;
      try {
        return JSON.parse(res.body) as T;
      } catch {
        throw new GoogleApiCallError({
          status: 'INTERNAL',
          httpCode: res.status,
          message: `the response is not JSON: ${truncate(res.body)}`,
          request: label,
          googleShaped: false,
        });
      }
    }
    throw errorFromResponse(res, label);
  }

  get<T>(path: string, query?: Record<string, QueryValue>): Promise<T> {
    return this.request<T>('GET', path, { query });
  }

  post<T>(path: string, body?: unknown, query?: Record<string, QueryValue>): Promise<T> {
    return this.request<T>('POST', path, { body: body ?? {}, query });
  }

  patch<T>(path: string, body: unknown, query?: Record<string, QueryValue>): Promise<T> {
    return this.request<T>('PATCH', path, { body, query });
  }

  delete<T>(path: string, query?: Record<string, QueryValue>): Promise<T> {
    return this.request<T>('DELETE', path, { query });
  }

  /**
   * PUTs `body` (a stream of `length` bytes) to a signed upload URL with the headers it was signed
   * with (`uploadFileInfo.signedUri` and `.headers`). The URL is absolute and its signature is its
   * credential: no bearer token is added. Rejects with GoogleApiCallError, whose `request` leaves
   * the signature out.
   */
  async upload(signedUri: string, headers: Record<string, string>, body: NodeJS.ReadableStream, length: number): Promise<void> {
    const url = new URL(signedUri);
    const label = `PUT ${url.origin}${url.pathname}`;
    if (!this.transport.upload) throw new Error(`${this.transport.description} cannot upload files`);
    let res: TransportResponse;
    try {
      res = await this.transport.upload({ url: signedUri, headers, body, length });
    } catch (err) {
      const cause = err as Error & { code?: string };
      throw new GoogleApiCallError({
        status: 'UNAVAILABLE',
        httpCode: 0,
        message: `could not upload to ${url.origin}: ${cause.code ?? cause.message}`,
        request: label,
      });
    }
    if (res.status < 200 || res.status >= 300) throw errorFromResponse(res, label);
  }

  /** See the function waitForOperation. */
  waitForOperation<R = Record<string, unknown>, M = Record<string, unknown>>(op: Operation<R, M>, options: WaitForOperationOptions): Promise<Operation<R, M>> {
    return waitForOperation(this, op, options);
  }
}

/** Builds the GoogleApiCallError for a non-2xx response. */
function errorFromResponse(res: TransportResponse, label: string): GoogleApiCallError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(res.body);
  } catch {
    parsed = undefined;
  }
  const error = (parsed as { error?: unknown } | undefined)?.error;
  if (error && typeof error === 'object') {
    const e = error as { code?: unknown; message?: unknown; status?: unknown; details?: unknown };
    return new GoogleApiCallError({
      status: typeof e.status === 'string' && e.status ? e.status : statusForHttpCode(res.status),
      httpCode: res.status,
      message: typeof e.message === 'string' ? e.message : truncate(res.body),
      details: Array.isArray(e.details) ? (e.details as ErrorDetail[]) : [],
      request: label,
    });
  }
  return new GoogleApiCallError({
    status: statusForHttpCode(res.status),
    httpCode: res.status,
    message: res.body.trim() ? truncate(res.body) : `HTTP ${res.status} with an empty body`,
    request: label,
    googleShaped: false,
  });
}

/** An operation's error (numeric google.rpc.Code) as a GoogleApiCallError. */
export function operationError(op: Operation<unknown, unknown>): GoogleApiCallError {
  const error = op.error ?? { code: 2, message: 'operation failed without an error message' };
  const status = NUMERIC_TO_STATUS[error.code] ?? 'UNKNOWN';
  return new GoogleApiCallError({
    status,
    httpCode: STATUS_HTTP_CODES[status],
    message: error.message,
    details: error.details ?? [],
    request: `operation ${op.name}`,
  });
}

const RETRYABLE_WHILE_POLLING = ['UNAVAILABLE', 'DEADLINE_EXCEEDED', 'RESOURCE_EXHAUSTED'];

/**
 * Polls `GET /{apiVersion}/{op.name}` until the operation is done, waiting initialPollMs, then
 * multiplier times longer each time up to maxPollMs. Resolves with the done operation; rejects
 * with the operation's error as GoogleApiCallError, or OperationTimeoutError after timeoutMs.
 * Transient poll failures (UNAVAILABLE, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED) are retried.
 */
export async function waitForOperation<R = Record<string, unknown>, M = Record<string, unknown>>(
  client: GoogleRestClient,
  op: Operation<R, M>,
  options: WaitForOperationOptions,
): Promise<Operation<R, M>> {
  const timeoutMs = options.timeoutMs ?? 20 * 60 * 1000;
  const maxPollMs = options.maxPollMs ?? 15_000;
  const multiplier = options.multiplier ?? 1.5;
  const deadline = Date.now() + timeoutMs;
  const apiVersion = withoutEdgeSlashes(options.apiVersion);
  let wait = options.initialPollMs ?? 1000;
  let current = op;
  while (!current.done) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new OperationTimeoutError(op.name, timeoutMs, current);
    await sleep(Math.min(wait, remaining));
    wait = Math.min(wait * multiplier, maxPollMs);
    try {
      current = await client.get<Operation<R, M>>(`/${apiVersion}/${op.name}`);
    } catch (err) {
      if (isGoogleApiCallError(err, ...RETRYABLE_WHILE_POLLING) && Date.now() < deadline) continue;
      throw err;
    }
    options.onPoll?.(current);
  }
  if (current.error) throw operationError(current);
  return current;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
