/**
 * REST calls to a listening emulator (a server started with `startEmulator({ port: 0 })`, or the
 * CLI), for tests that seed or read through the wire: a fetch that throws on a non-2xx answer,
 * naming the call, the HTTP status and Google's error status and message.
 */

export interface RestApiOptions {
  /** Sent as `Authorization: Bearer …` (an emulator started with --auth). */
  token?: string;
  /** Sent with every call. */
  headers?: Record<string, string>;
}

/** `api(method, path, body?)`: the parsed JSON answer (undefined for an empty one). */
export type RestApi = <T = any>(method: string, path: string, body?: unknown) => Promise<T>;

/** An operation as the wire answers it, as far as waiting for it needs. */
export interface WireOperation {
  name: string;
  done?: boolean;
  error?: unknown;
}

/**
 * A REST caller for the emulator at `baseUrl`: a string, or a function read at each call (the
 * emulator of a test file is started in its beforeAll, after the caller is made).
 */
export function restApi(baseUrl: string | (() => string), options: RestApiOptions = {}): RestApi {
  return async (method, path, body) => {
    const base = typeof baseUrl === 'function' ? baseUrl() : baseUrl;
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${errorText(text)}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/** Google's `error.status: error.message` of an error answer; its first 1,000 characters when it is not one. */
function errorText(text: string): string {
  try {
    const error = (JSON.parse(text) as { error?: { status?: string; message?: string } }).error;
    if (error?.message !== undefined) return `${error.status ?? ''}: ${error.message}`;
  } catch {
    // not JSON: shown as it is
  }
  return text.slice(0, 1000);
}

/** Polls the operation until it is done; throws its error if it ended with one. */
export async function operationDone(api: RestApi, op: WireOperation, apiVersion = 'v1alpha1'): Promise<WireOperation> {
  let current = op;
  while (!current.done) {
    await new Promise((r) => setTimeout(r, 20));
    current = await api<WireOperation>('GET', `/${apiVersion}/${op.name}`);
  }
  if (current.error) throw new Error(`${op.name}: ${JSON.stringify(current.error)}`);
  return current;
}
