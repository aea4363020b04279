/**
 * The one REST client over its transports: a tiny fastify app reached with inject() and over a
 * real loopback listener; google.rpc.Status errors; long-running operations; backend selection.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Readable } from 'stream';
import Fastify, { FastifyInstance } from 'fastify';
import {
  encodeQuery,
  GoogleApiCallError,
  GoogleRestClient,
  isNotFound,
  Operation,
  OperationTimeoutError,
  Transport,
  waitForOperation,
} from '../../provider/client';
import {
  createBackend,
  endpointSetting,
  ENDPOINT_CONFIG_KEY,
  ENDPOINT_ENV,
  GOOGLE_API_ROOTS,
  googleTransport,
  httpTransport,
  injectTransport,
  parseEndpoint,
  resetBackendCache,
  resolveBackend,
  TOKEN_CONFIG_KEY,
  TOKEN_ENV,
  tokenSetting,
} from '../../provider/backends';
import { closeEmbeddedBackend, EMBEDDED_DATA_DIR } from '../../provider/embedded';

/*
 * fastify's inject() loads light-my-request, which require()s `cookie` 2.x, an ESM-only package
 * that jest on Node 20 cannot load untransformed (Node itself loads it: the real host is fine).
 * These tests send no cookies: a stand-in of the one function used is enough.
 */
jest.mock('cookie', () => ({
  stringifySetCookie: (c: { name: string; value: string }) => `${c.name}=${encodeURIComponent(c.value)}`,
}));

// The embedded backend requires ../backend-emulator lazily; a stand-in records how it is built. Not a
// virtual mock: one is keyed by the spelling, and misses when an earlier test file of the same jest
// worker resolved the real module.
const emulatorCalls: { dataDir: string }[] = [];
jest.mock('../../backend-emulator', () => ({
  buildEmulatorApp: async (options: { dataDir: string }) => {
    emulatorCalls.push(options);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fastify = require('fastify') as typeof Fastify;
    const app = fastify();
    app.get('/v1/whoami', async () => ({ dataDir: options.dataDir }));
    return app;
  },
}));

interface Thing {
  name: string;
  size?: number;
  query?: unknown;
}

/** A tiny Google-shaped API: things, and operations that finish after a number of polls. */
function buildApp(): { app: FastifyInstance; polls: Record<string, number>; uploads: Array<Record<string, unknown>> } {
  const app = Fastify();
  const polls: Record<string, number> = {};
  const uploads: Array<Record<string, unknown>> = [];
  const googleError = (code: number, status: string, message: string, details: unknown[] = []) => ({
    error: { code, message, status, details },
  });

  app.get('/v1/things/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    if (id === 'missing') {
      return reply
        .code(404)
        .send(
          googleError(404, 'NOT_FOUND', "Resource 'things/missing' was not found", [
            { '@type': 'type.googleapis.com/google.rpc.ResourceInfo', resourceName: 'things/missing' },
          ]),
        );
    }
    if (id === 'html') return reply.code(502).type('text/html').send('<html>bad gateway</html>');
    return { name: `things/${id}`, size: 3, query: req.query };
  });
  app.post('/v1/things', async (req, reply) => {
    const body = req.body as Thing;
    if (!body.name) {
      return reply
        .code(400)
        .send(
          googleError(400, 'INVALID_ARGUMENT', "Invalid value for field 'name': required", [
            { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'name', description: 'required' }] },
          ]),
        );
    }
    return { ...body, query: req.query, contentType: req.headers['content-type'] };
  });
  app.delete('/v1/things/:id', async (_req, reply) => reply.code(200).send());
  app.get('/v1/whoami', async (req) => ({ authorization: req.headers.authorization ?? null }));

  // Operations: "<kind>-<n>" is done after n polls; kinds: ok, fail, never, flaky (503 on first poll).
  app.get('/v1alpha1/projects/p/locations/l/operations/:id', async (req, reply) => {
    const { id } = req.params as { id: string };
    const name = `projects/p/locations/l/operations/${id}`;
    const [kind, n] = id.split('-');
    polls[id] = (polls[id] ?? 0) + 1;
    if (kind === 'flaky' && polls[id] === 1) {
      return reply.code(503).send(googleError(503, 'UNAVAILABLE', 'try again'));
    }
    if (kind === 'never' || polls[id] < Number(n)) {
      return { name, done: false, metadata: { polls: polls[id] } };
    }
    if (kind === 'fail') {
      return { name, done: true, error: { code: 9, message: 'the import job is not ready', details: [] } };
    }
    return { name, done: true, response: { name: 'projects/p/locations/l/importJobs/j1', state: 'COMPLETED' } };
  });
  // A signed upload URL: the body is counted as it streams (no parser reads it whole).
  app.register(async (u) => {
    u.removeAllContentTypeParsers();
    u.addContentTypeParser('*', (_req, _payload, done) => done(null));
    u.put('/uploads/:id', async (req, reply) => {
      if ((req.query as { signature?: string }).signature !== 'good') {
        return reply.code(403).send(googleError(403, 'PERMISSION_DENIED', 'The signature does not match this URL'));
      }
      let bytes = 0;
      for await (const chunk of req.raw) bytes += (chunk as Buffer).length;
      uploads.push({ bytes, contentType: req.headers['content-type'], contentLength: req.headers['content-length'], authorization: req.headers.authorization });
      return {};
    });
  });
  return { app, polls, uploads };
}

type Setup = () => Promise<{
  transport: Transport;
  polls: Record<string, number>;
  uploads: Array<Record<string, unknown>>;
  origin: string;
  close(): Promise<void>;
}>;
const transports: Array<[string, Setup]> = [
  [
    'inject',
    async () => {
      const { app, polls, uploads } = buildApp();
      return { transport: injectTransport(() => app), polls, uploads, origin: 'http://localhost:80', close: () => app.close() };
    },
  ],
  [
    'http (loopback listener)',
    async () => {
      const { app, polls, uploads } = buildApp();
      const address = await app.listen({ host: '127.0.0.1', port: 0 });
      return { transport: httpTransport(address, { token: 'emulator-token' }), polls, uploads, origin: address, close: () => app.close() };
    },
  ],
];

describe.each(transports)('GoogleRestClient over %s', (_name, setup) => {
  let ctx: Awaited<ReturnType<typeof setup>>;
  let client: GoogleRestClient;

  beforeAll(async () => {
    ctx = await setup();
    client = new GoogleRestClient(ctx.transport);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('returns the parsed JSON body of a success, with the query encoded', async () => {
    const thing = await client.request<Thing>('GET', '/v1/things/a', {
      query: { 'options.requestedPolicyVersion': 3, skip: undefined, tags: ['x', 'y'] },
    });
    expect(thing).toEqual({ name: 'things/a', size: 3, query: { 'options.requestedPolicyVersion': '3', tags: ['x', 'y'] } });
  });

  it('sends a JSON body', async () => {
    const created = await client.post<Thing & { contentType: string }>('/v1/things', { name: 'b', size: 1 }, { requestId: 'r1' });
    expect(created).toEqual({ name: 'b', size: 1, query: { requestId: 'r1' }, contentType: 'application/json' });
  });

  it('upload streams a body to a signed URL with its headers and Content-Length, and no bearer token', async () => {
    const chunks = Array.from({ length: 64 }, () => Buffer.alloc(64 * 1024, 7));
    await client.upload(`${ctx.origin}/uploads/f1?signature=good`, { 'Content-Type': 'application/octet-stream' }, Readable.from(chunks), 64 * 64 * 1024);
    expect(ctx.uploads.at(-1)).toEqual({
      bytes: 4 * 1024 * 1024,
      contentType: 'application/octet-stream',
      contentLength: String(4 * 1024 * 1024),
      authorization: undefined,
    });
  });

  it('upload failures are GoogleApiCallErrors that leave the signature out', async () => {
    const err = await client.upload(`${ctx.origin}/uploads/f1?signature=secret-part`, {}, Readable.from([Buffer.from('x')]), 1).then(
      () => undefined,
      (e: unknown) => e as GoogleApiCallError,
    );
    if (!(err instanceof GoogleApiCallError)) throw new Error(`expected a GoogleApiCallError, got ${String(err)}`);
    expect([err.status, err.httpCode, err.apiMessage]).toEqual(['PERMISSION_DENIED', 403, 'The signature does not match this URL']);
    expect(err.message).toMatch(/^PUT http:\/\/(localhost|127\.0\.0\.1:\d+)\/uploads\/f1 failed/);
    expect(err.message).not.toContain('secret-part');
  });

  it('returns {} for an empty success body', async () => {
    await expect(client.delete('/v1/things/a')).resolves.toEqual({});
  });

  it('turns a google.rpc.Status error body into GoogleApiCallError', async () => {
    const err = (await client.get('/v1/things/missing').catch((e: unknown) => e)) as GoogleApiCallError;
    expect(err).toBeInstanceOf(GoogleApiCallError);
    expect(err.status).toBe('NOT_FOUND');
    expect(err.httpCode).toBe(404);
    expect(err.apiMessage).toBe("Resource 'things/missing' was not found");
    expect(err.details).toEqual([{ '@type': 'type.googleapis.com/google.rpc.ResourceInfo', resourceName: 'things/missing' }]);
    expect(err.request).toBe('GET /v1/things/missing');
    expect(err.message).toContain("NOT_FOUND (HTTP 404): Resource 'things/missing' was not found");
    expect(isNotFound(err)).toBe(true);

    const bad = (await client.post('/v1/things', {}).catch((e: unknown) => e)) as GoogleApiCallError;
    expect(bad.status).toBe('INVALID_ARGUMENT');
    expect(bad.httpCode).toBe(400);
    expect(bad.details[0]).toMatchObject({ fieldViolations: [{ field: 'name', description: 'required' }] });
    expect(isNotFound(bad)).toBe(false);
  });

  it('maps a non-Google error body from the HTTP code', async () => {
    const err = (await client.get('/v1/things/html').catch((e: unknown) => e)) as GoogleApiCallError;
    expect(err).toBeInstanceOf(GoogleApiCallError);
    expect(err.status).toBe('INTERNAL');
    expect(err.httpCode).toBe(502);
    expect(err.apiMessage).toContain('bad gateway');
  });

  it('waitForOperation polls until done and returns the done operation', async () => {
    const seen: unknown[] = [];
    const op: Operation = { name: 'projects/p/locations/l/operations/ok-3', done: false };
    const done = await waitForOperation(client, op, {
      apiVersion: 'v1alpha1',
      initialPollMs: 5,
      maxPollMs: 20,
      onPoll: (o) => seen.push(o.done),
    });
    expect(done.done).toBe(true);
    expect(done.response).toEqual({ name: 'projects/p/locations/l/importJobs/j1', state: 'COMPLETED' });
    expect(seen).toEqual([false, false, true]);
    expect(ctx.polls['ok-3']).toBe(3);
  });

  it('waitForOperation returns an operation that is already done without polling', async () => {
    const op: Operation = { name: 'projects/p/locations/l/operations/ok-0', done: true, response: { x: 1 } };
    await expect(client.waitForOperation(op, { apiVersion: 'v1alpha1' })).resolves.toBe(op);
    expect(ctx.polls['ok-0']).toBeUndefined();
  });

  it("waitForOperation throws the operation's error as GoogleApiCallError", async () => {
    const op: Operation = { name: 'projects/p/locations/l/operations/fail-2', done: false };
    const err = (await client.waitForOperation(op, { apiVersion: 'v1alpha1', initialPollMs: 5 }).catch((e: unknown) => e)) as GoogleApiCallError;
    expect(err).toBeInstanceOf(GoogleApiCallError);
    expect(err.status).toBe('FAILED_PRECONDITION');
    expect(err.httpCode).toBe(400);
    expect(err.apiMessage).toBe('the import job is not ready');
    expect(err.request).toBe('operation projects/p/locations/l/operations/fail-2');
  });

  it('waitForOperation retries a transient poll failure', async () => {
    const op: Operation = { name: 'projects/p/locations/l/operations/flaky-2', done: false };
    const done = await client.waitForOperation(op, { apiVersion: '/v1alpha1/', initialPollMs: 5 });
    expect(done.done).toBe(true);
    expect(ctx.polls['flaky-2']).toBe(2);
  });

  it('waitForOperation gives up with a clear timeout error', async () => {
    const op: Operation = { name: 'projects/p/locations/l/operations/never-1', done: false };
    const started = Date.now();
    const err = (await client
      // 1 s of polls at most 40 ms apart: dozens on a quiet machine, still several when the machine's
      // load stretches each loopback round trip (200 ms allowed only 2 in a .ci/run under load 10).
      .waitForOperation(op, { apiVersion: 'v1alpha1', timeoutMs: 1000, initialPollMs: 10, multiplier: 2, maxPollMs: 40 })
      .catch((e: unknown) => e)) as OperationTimeoutError;
    const elapsed = Date.now() - started;
    expect(err).toBeInstanceOf(OperationTimeoutError);
    expect(err.message).toContain('operation projects/p/locations/l/operations/never-1 was not done after 1000 ms');
    expect(err.operationName).toBe('projects/p/locations/l/operations/never-1');
    expect(err.lastOperation.done).toBe(false);
    // Waited at least the timeout (load can only lengthen the wait, so no upper bound is asserted).
    expect(elapsed).toBeGreaterThanOrEqual(990);
    expect(ctx.polls['never-1']).toBeGreaterThanOrEqual(4);
  });
});

describe('client errors without a server', () => {
  it('reports a connection failure as UNAVAILABLE with http code 0', async () => {
    // A port that was just free: nothing listens on it.
    const probe = Fastify();
    const address = await probe.listen({ host: '127.0.0.1', port: 0 });
    await probe.close();
    const client = new GoogleRestClient(httpTransport(address));
    const err = (await client.get('/v1/things/a').catch((e: unknown) => e)) as GoogleApiCallError;
    expect(err).toBeInstanceOf(GoogleApiCallError);
    expect(err.status).toBe('UNAVAILABLE');
    expect(err.httpCode).toBe(0);
    expect(err.message).toContain(`could not reach ${address}`);
    expect(err.message).toContain('ECONNREFUSED');
  });

  it('rejects a path without a leading slash', async () => {
    const client = new GoogleRestClient(injectTransport(() => Fastify()));
    await expect(client.get('v1/x')).rejects.toThrow('must start with "/"');
  });

  it('encodes queries with repeated keys and skips empty values', () => {
    expect(encodeQuery(undefined)).toBe('');
    expect(encodeQuery({ a: undefined, b: null })).toBe('');
    expect(encodeQuery({ updateMask: 'a,b', n: 2, f: false, r: ['x y', 'z'] })).toBe('?updateMask=a%2Cb&n=2&f=false&r=x+y&r=z');
  });
});

describe('backend selection', () => {
  const savedEnv = process.env[ENDPOINT_ENV];
  const savedToken = process.env[TOKEN_ENV];
  afterEach(() => {
    if (savedEnv === undefined) delete process.env[ENDPOINT_ENV];
    else process.env[ENDPOINT_ENV] = savedEnv;
    if (savedToken === undefined) delete process.env[TOKEN_ENV];
    else process.env[TOKEN_ENV] = savedToken;
    resetBackendCache();
  });

  it('parses endpoint settings', () => {
    expect(parseEndpoint(undefined)).toEqual({ kind: 'embedded' });
    expect(parseEndpoint('')).toEqual({ kind: 'embedded' });
    expect(parseEndpoint('embedded')).toEqual({ kind: 'embedded' });
    expect(parseEndpoint('google')).toEqual({ kind: 'google' });
    expect(parseEndpoint('GOOGLE')).toEqual({ kind: 'google' });
    expect(parseEndpoint('http://127.0.0.1:8085')).toEqual({ kind: 'http', baseUrl: 'http://127.0.0.1:8085' });
    expect(parseEndpoint('https://emu.example.com/some/path/')).toEqual({ kind: 'http', baseUrl: 'https://emu.example.com' });
    expect(parseEndpoint('localhost:8085')).toEqual({ kind: 'http', baseUrl: 'http://localhost:8085' });
    expect(() => parseEndpoint('ftp://x')).toThrow(/google-native-local:endpoint/);
    expect(() => parseEndpoint('nonsense')).toThrow(/"google" for the real APIs/);
  });

  it('reads stack config first, then the environment', () => {
    process.env[ENDPOINT_ENV] = 'http://from-env:1';
    expect(endpointSetting({})).toBe('http://from-env:1');
    expect(endpointSetting({ [ENDPOINT_CONFIG_KEY]: undefined })).toBe('http://from-env:1');
    expect(endpointSetting({ [ENDPOINT_CONFIG_KEY]: 'google' })).toBe('google');
    expect(endpointSetting({ get: (k: string) => (k === ENDPOINT_CONFIG_KEY ? 'http://from-config:2' : undefined) })).toBe('http://from-config:2');
    delete process.env[ENDPOINT_ENV];
    expect(endpointSetting(undefined)).toBeUndefined();
  });

  it('selects http, google and embedded backends, one per setting', async () => {
    const { app } = buildApp();
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      process.env[ENDPOINT_ENV] = address;
      const http = resolveBackend();
      expect(http.kind).toBe('http');
      expect(resolveBackend({})).toBe(http);
      await expect(http.client('migrationcenter').get('/v1/things/z')).resolves.toMatchObject({ name: 'things/z' });
    } finally {
      await app.close();
    }

    const google = resolveBackend({ [ENDPOINT_CONFIG_KEY]: 'google' });
    expect(google.kind).toBe('google');
    expect(google.client('networkservices').transport.description).toBe(GOOGLE_API_ROOTS.networkservices);
    expect(google.client('migrationcenter').transport.description).toBe('https://migrationcenter.googleapis.com');
    expect(google.client('networkservices')).toBe(google.client('networkservices'));

    delete process.env[ENDPOINT_ENV];
    expect(resolveBackend().kind).toBe('embedded');
  });

  it('sends a bearer token to an emulator over HTTP (config first, then environment)', async () => {
    const { app } = buildApp();
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      delete process.env[TOKEN_ENV];
      expect(tokenSetting({})).toBeUndefined();
      const plain = resolveBackend({ [ENDPOINT_CONFIG_KEY]: address });
      await expect(plain.client('networkservices').get('/v1/whoami')).resolves.toEqual({ authorization: null });

      process.env[TOKEN_ENV] = 'from-env';
      const fromEnv = resolveBackend({ [ENDPOINT_CONFIG_KEY]: address });
      expect(fromEnv).not.toBe(plain);
      await expect(fromEnv.client('networkservices').get('/v1/whoami')).resolves.toEqual({ authorization: 'Bearer from-env' });

      const fromConfig = resolveBackend({ [ENDPOINT_CONFIG_KEY]: address, [TOKEN_CONFIG_KEY]: 'from-config' });
      await expect(fromConfig.client('migrationcenter').get('/v1/whoami')).resolves.toEqual({ authorization: 'Bearer from-config' });
    } finally {
      await app.close();
    }
  });

  it('googleTransport targets the API host and takes a rootUrl override', () => {
    expect(googleTransport({ api: 'networkservices' }).description).toBe('https://networkservices.googleapis.com');
    expect(googleTransport({ api: 'migrationcenter', rootUrl: 'https://private.example/' }).description).toBe('https://private.example');
  });
});

describe('embedded backend', () => {
  let tmp: string;
  const cwd = process.cwd();

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-embedded-'));
    process.chdir(tmp);
  });
  afterAll(async () => {
    await closeEmbeddedBackend();
    process.chdir(cwd);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('builds the emulator lazily, once per process, with its data under <cwd>/.google-native-local', async () => {
    const backend = createBackend({ kind: 'embedded' });
    expect(backend.kind).toBe('embedded');
    expect(emulatorCalls).toHaveLength(0);
    const client = backend.client('networkservices');
    const [a, b] = await Promise.all([client.get('/v1/whoami'), backend.client('migrationcenter').get('/v1/whoami')]);
    const dataDir = path.join(fs.realpathSync(tmp), EMBEDDED_DATA_DIR);
    expect([a, b]).toEqual([{ dataDir: expect.any(String) }, { dataDir: expect.any(String) }]);
    expect(fs.realpathSync(path.dirname((a as { dataDir: string }).dataDir))).toBe(path.dirname(dataDir));
    expect(emulatorCalls).toHaveLength(1);
    const err = (await client.get('/v1/nothing').catch((e: unknown) => e)) as GoogleApiCallError;
    expect(err).toBeInstanceOf(GoogleApiCallError);
    expect(err.httpCode).toBe(404);
    expect(emulatorCalls).toHaveLength(1);

    await closeEmbeddedBackend();
    await client.get('/v1/whoami');
    expect(emulatorCalls).toHaveLength(2);
  });
});
