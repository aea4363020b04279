/** In-process requests to an emulator app (fastify `inject()`), shared by the test folders. */
import type { FastifyInstance, InjectOptions } from 'fastify';
import { isGoogleApiUrl, protoJsonDefaults } from './protojson';

export interface Res {
  status: number;
  body: any;
  headers: Record<string, unknown>;
  raw: string;
}

/** A JSON request (a string or Buffer payload is sent as is); the body comes back parsed when it is JSON. */
export async function call(app: FastifyInstance, method: string, url: string, payload?: unknown, headers: Record<string, string> = {}): Promise<Res> {
  const options: InjectOptions = { method: method as InjectOptions['method'], url, headers };
  if (payload !== undefined) {
    options.payload = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) options.headers = { ...headers, 'content-type': 'application/json' };
  }
  const res = await app.inject(options);
  let body: unknown;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    body = res.body;
  }
  // Every answer of a Google API route in every inject test is checked: no ProtoJSON default value.
  const defaults = isGoogleApiUrl(url) ? protoJsonDefaults(body) : [];
  if (defaults.length > 0) throw new Error(`${method} ${url} answered default values, which ProtoJSON leaves out: ${defaults.slice(0, 5).join(', ')}`);
  return { status: res.statusCode, body, headers: res.headers as Record<string, unknown>, raw: res.body };
}

/** The body of a response with the expected status; throws with the response otherwise. */
export function ok(res: Res, status = 200): any {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.raw.slice(0, 2000)}`);
  return res.body;
}

/** Asserts a google.rpc.Status error and returns it. */
export function googleError(res: Res, code: number, status: string): { code: number; message: string; status: string; details: any[] } {
  if (res.status !== code || res.body?.error?.status !== status) throw new Error(`expected ${code} ${status}, got ${res.status}: ${res.raw.slice(0, 2000)}`);
  return { ...res.body.error, details: res.body.error.details ?? [] };
}
