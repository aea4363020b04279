/**
 * Transports for the one REST client, and the choice between them.
 *
 *   GOOGLE_NATIVE_LOCAL_ENDPOINT / stack config `google-native-local:endpoint`
 *     unset, empty or `embedded`  -> the emulator inside this process (fastify inject, no socket),
 *                                    durable under `<program folder>/.google-native-local/`
 *     `http(s)://host:port` or `host:port` -> an emulator (or any server) over HTTP
 *     `google`                    -> the real APIs with Application Default Credentials
 *
 *   GOOGLE_NATIVE_LOCAL_TOKEN / stack config `google-native-local:token` (http only): a bearer
 *   token for an emulator started with `--auth` (set the config as a secret).
 *
 * Closure serialisation: nothing here opens anything at import time. Transports are created
 * lazily inside functions and cached in module variables only once created at run time.
 */
import { GoogleRestClient, Transport, TransportRequest, TransportResponse, UploadRequest } from './client';
import * as embedded from './embedded';
import { putStream } from './upload-http';
import { withoutTrailingSlashes } from './slashes';

export type GoogleApiName = 'networkservices' | 'migrationcenter';
export type BackendKind = 'embedded' | 'http' | 'google';

/** Environment variable that selects the backend. */
export const ENDPOINT_ENV = 'GOOGLE_NATIVE_LOCAL_ENDPOINT';
/** Stack configuration key that selects the backend (wins over the environment variable). */
export const ENDPOINT_CONFIG_KEY = 'google-native-local:endpoint';
/** Environment variable with a bearer token for an emulator over HTTP started with `--auth`. */
export const TOKEN_ENV = 'GOOGLE_NATIVE_LOCAL_TOKEN';
/** Stack configuration key of that token (wins over the environment variable). */
export const TOKEN_CONFIG_KEY = 'google-native-local:token';
/** The OAuth scope used with the real APIs. */
export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** Hosts of the real APIs. */
export const GOOGLE_API_ROOTS: Record<GoogleApiName, string> = {
  networkservices: 'https://networkservices.googleapis.com',
  migrationcenter: 'https://migrationcenter.googleapis.com',
};

export type EndpointSetting = { kind: 'embedded' } | { kind: 'http'; baseUrl: string; token?: string } | { kind: 'google' };

/** Reads a config bag: the dynamic provider's `req.config` (with `get`) or a plain record. */
export type ConfigSource = { get(key: string): string | undefined } | Record<string, string | undefined>;

/** Parses an endpoint setting; throws a plain-words error for anything else. */
export function parseEndpoint(value: string | undefined): EndpointSetting {
  const v = (value ?? '').trim();
  if (v === '' || v.toLowerCase() === 'embedded') return { kind: 'embedded' };
  if (v.toLowerCase() === 'google') return { kind: 'google' };
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(v) ? v : /^[^/\s:]+:\d+$/.test(v) ? `http://${v}` : undefined;
  const url = withScheme && URL.canParse(withScheme) ? new URL(withScheme) : undefined;
  if (url && (url.protocol === 'http:' || url.protocol === 'https:')) {
    // Google's paths start at the root: keep only the origin (Google's own clients drop a path too).
    return { kind: 'http', baseUrl: url.origin };
  }
  throw new Error(
    `${ENDPOINT_CONFIG_KEY} / ${ENDPOINT_ENV} is "${value}": use nothing (or "embedded") for the emulator ` +
      `inside the provider, an http(s) URL (or host:port) for an emulator over HTTP, or "google" for the real APIs`,
  );
}

function readConfig(config: ConfigSource | undefined, key: string): string | undefined {
  if (!config) return undefined;
  return typeof (config as { get?: unknown }).get === 'function'
    ? (config as { get(key: string): string | undefined }).get(key)
    : (config as Record<string, string | undefined>)[key];
}

/** The endpoint setting: stack config `google-native-local:endpoint` first, then the environment. */
export function endpointSetting(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fromConfig = readConfig(config, ENDPOINT_CONFIG_KEY);
  if (fromConfig !== undefined && fromConfig !== '') return fromConfig;
  return env[ENDPOINT_ENV];
}

/** The emulator bearer token: stack config `google-native-local:token` first, then the environment. */
export function tokenSetting(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fromConfig = readConfig(config, TOKEN_CONFIG_KEY);
  if (fromConfig !== undefined && fromConfig !== '') return fromConfig;
  return env[TOKEN_ENV] || undefined;
}

/** A selected backend: one REST client per API. */
export interface Backend {
  readonly kind: BackendKind;
  /** Where requests go, for messages. */
  readonly description: string;
  client(api: GoogleApiName): GoogleRestClient;
}

let backendCache: Record<string, Backend> | undefined;

/**
 * Selects the backend from the stack config / environment (see the top of this file). One
 * Backend per distinct setting per process, created on first use.
 */
export function resolveBackend(config?: ConfigSource): Backend {
  let setting = parseEndpoint(endpointSetting(config));
  if (setting.kind === 'http') {
    const token = tokenSetting(config);
    if (token) setting = { ...setting, token };
  }
  const key = setting.kind === 'http' ? `http:${setting.baseUrl}:${setting.token ?? ''}` : setting.kind;
  if (!backendCache) backendCache = {};
  const cached = backendCache[key];
  if (cached) return cached;
  const backend = createBackend(setting);
  backendCache[key] = backend;
  return backend;
}

/** Builds a backend for a parsed setting (not cached). */
export function createBackend(setting: EndpointSetting): Backend {
  switch (setting.kind) {
    case 'embedded': {
      const client = new GoogleRestClient(embeddedTransport());
      return { kind: 'embedded', description: client.transport.description, client: () => client };
    }
    case 'http': {
      const client = new GoogleRestClient(httpTransport(setting.baseUrl, { token: setting.token }));
      return { kind: 'http', description: setting.baseUrl, client: () => client };
    }
    case 'google': {
      const clients: Partial<Record<GoogleApiName, GoogleRestClient>> = {};
      return {
        kind: 'google',
        description: 'Google APIs (Application Default Credentials)',
        client(api: GoogleApiName) {
          return (clients[api] ??= new GoogleRestClient(googleTransport({ api })));
        },
      };
    }
  }
}

function headersToRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => {
    out[key] = value;
  });
  return out;
}

async function fetchSend(baseUrl: string, req: TransportRequest, extraHeaders?: Record<string, string>): Promise<TransportResponse> {
  const res = await fetch(baseUrl + req.url, {
    method: req.method,
    headers: { ...req.headers, ...extraHeaders },
    body: req.body,
  });
  return { status: res.status, headers: headersToRecord(res.headers), body: await res.text() };
}

/**
 * Requests over HTTP with the global fetch, to `baseUrl` (an origin, e.g. `http://127.0.0.1:8085`),
 * with `Authorization: Bearer <token>` when a token is given.
 */
export function httpTransport(baseUrl: string, options: { token?: string } = {}): Transport {
  const origin = withoutTrailingSlashes(baseUrl);
  const auth = options.token ? { authorization: `Bearer ${options.token}` } : undefined;
  return {
    description: origin,
    send: (req) => fetchSend(origin, req, auth),
    // The token is not sent with an upload: the signed URL's signature is its credential.
    upload: putStream,
  };
}

/** The part of a fastify instance that injectTransport uses. */
export interface InjectableApp {
  inject(options: {
    method: string;
    url: string;
    headers?: Record<string, string>;
    payload?: string | NodeJS.ReadableStream;
  }): PromiseLike<{ statusCode: number; headers: Record<string, unknown>; payload: string }>;
}

/**
 * The origin of requests sent with `inject()`: light-my-request's default Host `localhost:80`, so
 * the signed upload URLs the app hands out through inject point there (`http://localhost`).
 */
export const INJECT_ORIGIN = new URL('http://localhost:80').origin;

function responseOf(res: { statusCode: number; headers: Record<string, unknown>; payload: string }): TransportResponse {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) {
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return { status: res.statusCode, headers, body: res.payload };
}

/**
 * Requests through a fastify instance's `inject()`: the same wire (routes, error handler,
 * serialisation), in-process, without a socket. `getApp` is called on every request; it may
 * create the app lazily.
 */
export function injectTransport(getApp: () => InjectableApp | Promise<InjectableApp>, description = 'in-process app'): Transport {
  return {
    description,
    async send(req) {
      const app = await getApp();
      return responseOf(await app.inject({ method: req.method, url: req.url, headers: req.headers, payload: req.body }));
    },
    // A signed URL of this app (its origin is the inject origin) goes through inject() too, with the
    // file as a stream payload; any other URL (e.g. object storage) goes over the network.
    async upload(req: UploadRequest) {
      const url = new URL(req.url);
      if (url.origin !== INJECT_ORIGIN) return putStream(req);
      const app = await getApp();
      const headers = { ...req.headers, 'content-length': String(req.length) };
      return responseOf(await app.inject({ method: 'PUT', url: url.pathname + url.search, headers, payload: req.body }));
    },
  };
}

interface GoogleAuthLike {
  getRequestHeaders(url?: string): Promise<Headers | Record<string, string>>;
}

let googleAuth: GoogleAuthLike | undefined;

function getGoogleAuth(): GoogleAuthLike {
  if (!googleAuth) {
    // Loaded on first use: the emulator paths never load google-auth-library.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { GoogleAuth } = require('google-auth-library') as typeof import('google-auth-library');
    googleAuth = new GoogleAuth({ scopes: [CLOUD_PLATFORM_SCOPE] });
  }
  return googleAuth;
}

/**
 * Requests to the real Google API `api` (networkservices.googleapis.com or
 * migrationcenter.googleapis.com) with Application Default Credentials and the cloud-platform
 * scope. `rootUrl` overrides the host (e.g. a regional or private endpoint).
 */
export function googleTransport(options: { api: GoogleApiName; rootUrl?: string }): Transport {
  const root = withoutTrailingSlashes(options.rootUrl ?? GOOGLE_API_ROOTS[options.api]);
  return {
    description: root,
    async send(req) {
      const url = root + req.url;
      const authHeaders = await getGoogleAuth().getRequestHeaders(url);
      const extra = typeof (authHeaders as Headers).forEach === 'function' ? headersToRecord(authHeaders as Headers) : (authHeaders as Record<string, string>);
      return fetchSend(root, req, extra);
    },
    // Signed object-storage URLs carry their own credential: no Application Default Credentials.
    upload: putStream,
  };
}

/** The embedded backend's transport: the emulator app of this process, built on the first request. */
export function embeddedTransport(): Transport {
  return injectTransport(embedded.getEmbeddedApp, `the embedded emulator (data in ${embedded.EMBEDDED_DATA_DIR}/ of the program folder)`);
}

/** Forgets cached backends (tests). Does not close the embedded emulator: see closeEmbeddedBackend. */
export function resetBackendCache(): void {
  backendCache = undefined;
}
