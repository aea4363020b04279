/**
 * Hostile requests against the emulator's access decisions (issue 22), in-process through
 * `inject()`, which runs the very hooks a socket does:
 * - every spelling of an admin path that the router decodes reaches the same decision: a user
 *   token never resets, seeds or reads admin data, whatever letters are percent-encoded;
 * - the path-dependent wire rules (ProtoJSON) follow the matched route too;
 * - a web page of another origin cannot drive an emulator started without --auth (simple requests
 *   of each method, `Origin: null`, a cross-site GET told by Sec-Fetch-Site), while the console
 *   (same origin), a navigation and clients that send no Origin keep working;
 * - a foreign Host (DNS rebinding) is refused; loopback names and allowed hosts are answered;
 * - --allow-origin answers CORS for that origin only;
 * - the smaller items: `?%61ccess_token=` is redacted like `?access_token=`, answers carry nosniff.
 */
import { PassThrough } from 'stream';
import type { FastifyInstance } from 'fastify';
import type { AuthConfig } from '../../backend-emulator/config';
import { inMemoryApp, sharedApp } from '../support/app';
import { call, googleError, ok } from '../support/inject';
import { MATCHER } from '../support/networkservices';

const USER = 'tok-user-6b1d0c2e';
const ADMIN = 'tok-admin-93a7f4d5';
const AUTH: AuthConfig = { tokens: { [USER]: 'user:mallory@example.com' }, adminTokens: [ADMIN] };
const POLICY = 'projects/web/locations/global/endpointPolicies/ep';
const as = (token: string) => ({ authorization: `Bearer ${token}` });

/** Every spelling of `path` with one character percent-encoded (upper- and lower-case hex), and all of them at once. */
function encodedSpellings(path: string): string[] {
  const encode = (c: string, lower: boolean) => {
    const hex = `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
    return lower ? hex.toLowerCase() : hex;
  };
  const out = new Set<string>();
  for (let i = 0; i < path.length; i++) {
    if (path[i] === '/') continue;
    for (const lower of [false, true]) out.add(path.slice(0, i) + encode(path[i], lower) + path.slice(i + 1));
  }
  out.add(
    path
      .split('')
      .map((c) => (c === '/' ? c : encode(c, false)))
      .join(''),
  );
  return [...out];
}

async function seedPolicy(app: FastifyInstance, headers: Record<string, string> = {}): Promise<void> {
  ok(await call(app, 'POST', '/emulator/v1/seed', { endpointPolicies: [{ name: POLICY, type: 'SIDECAR_PROXY', endpointMatcher: MATCHER }] }, headers));
}

async function policyExists(app: FastifyInstance, headers: Record<string, string> = {}): Promise<boolean> {
  return (await call(app, 'GET', `/v1/${POLICY}`, undefined, headers)).status === 200;
}

describe('with --auth, the access decision follows the route the router matched', () => {
  let app: FastifyInstance;
  const sharedAppOfBlock = sharedApp(() => inMemoryApp({ auth: AUTH }), as(ADMIN));
  beforeEach(async () => {
    app = sharedAppOfBlock();
    await seedPolicy(app, as(ADMIN));
  });

  // Three entries each: jest.each would pass a `done` callback in place of a missing third one.
  const ADMIN_ROUTES: Array<[string, string, unknown]> = [
    ['POST', '/emulator/v1/reset', {}],
    ['POST', '/emulator/v1/seed', { iamPolicies: { 'projects/web': { bindings: [{ role: 'roles/owner', members: ['user:mallory@example.com'] }] } } }],
    ['GET', '/emulator/v1/iamHistory?resource=projects/web', undefined],
    ['GET', '/emulator/v1/console/summary', undefined],
    ['GET', '/emulator/v1/console/importJobs', undefined],
  ];

  test.each(ADMIN_ROUTES)('%s %s: no spelling of the path lets a user token through', async (method, url, body) => {
    const [path, query] = url.split('?');
    const spellings = encodedSpellings(path);
    expect(spellings.length).toBeGreaterThan(path.replace(/\//g, '').length);
    for (const spelled of spellings) {
      const target = query ? `${spelled}?${query}` : spelled;
      const res = await call(app, method, target, body, as(USER));
      if (res.status !== 403 && res.status !== 404) throw new Error(`${method} ${target} with a user token answered ${res.status}: ${res.raw.slice(0, 300)}`);
      const anonymous = await call(app, method, target, body);
      if (anonymous.status !== 401) throw new Error(`${method} ${target} without a token answered ${anonymous.status}`);
    }
    // Nothing was wiped, and the user was granted nothing: the policy is still there, its IAM
    // policy is still closed to the user.
    expect(await policyExists(app, as(ADMIN))).toBe(true);
    googleError(await call(app, 'GET', `/v1/${POLICY}:getIamPolicy`, undefined, as(USER)), 403, 'PERMISSION_DENIED');
  });

  test('an admin token reaches the same routes under an encoded spelling: one route, one decision', async () => {
    ok(await call(app, 'GET', '/emulator/v1/%63onsole/summary', undefined, as(ADMIN)));
    ok(await call(app, 'POST', '/emulator/v1/%72eset', {}, as(ADMIN)));
    expect(await policyExists(app, as(ADMIN))).toBe(false);
  });

  test('double encoding, an encoded slash and other near-spellings match no admin route', async () => {
    for (const url of [
      '/emulator/v1/%2572eset',
      '/emulator%2Fv1%2Freset',
      '//emulator/v1/reset',
      '/emulator/v1/reset/',
      '/EMULATOR/v1/reset',
      '/emulator/v1/reset;x',
    ]) {
      const res = await call(app, 'POST', url, {}, as(USER));
      expect([url, res.status]).toEqual([url, 404]);
    }
    expect(await policyExists(app, as(ADMIN))).toBe(true);
  });

  test('the public routes stay public under any spelling; everything else needs a token', async () => {
    expect((await call(app, 'GET', '/%68ealthz')).status).toBe(200);
    expect((await call(app, 'GET', '/console/%61pp.js')).status).toBe(200);
    for (const url of ['/v1/projects/web/locations/global/endpointPolicies', '/v%31/projects/web/locations/global/endpointPolicies', '/no/such/path']) {
      googleError(await call(app, 'GET', url), 401, 'UNAUTHENTICATED');
    }
  });

  test('a Google API path with encoded letters is still a Google call: the domain checks IAM, ProtoJSON applies', async () => {
    googleError(await call(app, 'GET', `/v%31/${POLICY}%3AgetIamPolicy`, undefined, as(USER)), 403, 'PERMISSION_DENIED');
    // An empty list is `{}` on the wire (no default values), whatever the path's spelling.
    const res = await call(app, 'GET', '/v1%61lpha1/projects/web/locations/us-central1/sources', undefined, as(ADMIN));
    expect([res.status, res.raw]).toEqual([200, '{}']);
  });
});

describe('web pages of other origins cannot drive an emulator started without --auth', () => {
  let app: FastifyInstance;
  const sharedAppOfBlock = sharedApp();
  beforeEach(async () => {
    app = sharedAppOfBlock();
    await seedPolicy(app);
  });

  const EVIL = 'https://evil.example';

  test.each([
    ['POST', '/emulator/v1/reset'],
    ['POST', '/v1alpha1/projects/web/locations/us-central1/sources?sourceId=s1'],
    ['PATCH', `/v1/${POLICY}`],
    ['DELETE', `/v1/${POLICY}`],
    ['PUT', '/uploads/projects/web/locations/us-central1/importJobs/j/importDataFiles/f?expires=1&signature=x'],
    ['GET', '/emulator/v1/console/summary'],
    ['GET', `/v1/${POLICY}`],
  ])('a simple %s %s from another origin is 403 PERMISSION_DENIED and changes nothing', async (method, url) => {
    // A "simple" request: no body, no content type, as fetch(url, {method, mode: 'no-cors'}) sends it.
    const res = await app.inject({ method: method as 'GET', url, headers: { origin: EVIL } });
    expect(res.statusCode).toBe(403);
    const body = JSON.parse(res.body);
    expect(body.error.status).toBe('PERMISSION_DENIED');
    expect(body.error.message).toContain('--allow-origin');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(await policyExists(app)).toBe(true);
    expect((await call(app, 'GET', '/v1alpha1/projects/web/locations/us-central1/sources')).raw).toBe('{}');
  });

  test('Origin: null (a sandboxed frame, a file:// page) is refused too', async () => {
    googleError(await call(app, 'POST', '/emulator/v1/reset', undefined, { origin: 'null' }), 403, 'PERMISSION_DENIED');
    expect(await policyExists(app)).toBe(true);
  });

  test('a cross-site GET without an Origin (an <img src>) is told by Sec-Fetch-Site; a navigation to the console passes', async () => {
    for (const site of ['cross-site', 'same-site']) {
      googleError(
        await call(app, 'GET', '/emulator/v1/console/summary', undefined, { 'sec-fetch-site': site, 'sec-fetch-mode': 'no-cors' }),
        403,
        'PERMISSION_DENIED',
      );
    }
    const page = await app.inject({ method: 'GET', url: '/', headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });

  test("the console's own requests (same origin) and clients that send no Origin work as before", async () => {
    const host = '127.0.0.1:8085';
    const own = await call(app, 'GET', '/emulator/v1/console/summary', undefined, { host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin' });
    expect(ok(own)).toEqual({ endpointPolicies: 1, importJobs: 0, assets: 0 });
    ok(await call(app, 'GET', `/v1/${POLICY}`, undefined, { host }));
    ok(await call(app, 'POST', '/emulator/v1/reset', {}, { host }));
    expect(await policyExists(app)).toBe(false);
  });

  test('a preflight from another origin gets no CORS grant', async () => {
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/emulator/v1/reset',
      headers: { origin: EVIL, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('a foreign Host (DNS rebinding) is refused', () => {
  let app: FastifyInstance;
  const sharedAppOfBlock = sharedApp();
  beforeEach(() => {
    app = sharedAppOfBlock();
  });

  test.each([
    'evil.example',
    'evil.example:8085',
    'localhost.evil.example',
    '127.0.0.1.nip.io:8085',
    '10.0.0.7:8085',
    // Not a Host at all, though its part before the first colon is a loopback name: the emulator
    // would write it into the URLs it answers (`signedUri`).
    'localhost:80@evil.example',
    'localhost:8085/evil',
    '[::1]:8085@evil.example',
  ])('Host: %s is 403 on every route', async (host) => {
    await seedPolicy(app);
    for (const [method, url] of [
      ['GET', '/healthz'],
      ['GET', `/v1/${POLICY}`],
      ['GET', '/emulator/v1/console/summary'],
      ['POST', '/emulator/v1/reset'],
    ]) {
      const res = await call(app, method, url, method === 'POST' ? {} : undefined, { host });
      const error = googleError(res, 403, 'PERMISSION_DENIED');
      expect(error.message).toContain('--allow-host');
    }
    expect(await policyExists(app)).toBe(true);
  });

  test.each(['localhost', 'localhost:8085', '127.0.0.1:8085', '127.1.2.3', '[::1]:8085', '::1', 'app.localhost:8085', 'LOCALHOST:8085'])(
    'Host: %s (loopback) is answered',
    async (host) => {
      expect(ok(await call(app, 'GET', '/healthz', undefined, { host }))).toEqual({ status: 'ok' });
    },
  );

  test('--allow-host names (exact, and .domain for a domain and its subdomains) and the --host address are answered', async () => {
    const allowing = inMemoryApp({ allowHosts: ['emulator.test', '.docker.internal'], listenHost: '192.0.2.10' });
    try {
      for (const host of ['emulator.test:8085', 'host.docker.internal:8085', 'docker.internal', '192.0.2.10:8085']) {
        expect([host, (await call(allowing, 'GET', '/healthz', undefined, { host })).status]).toEqual([host, 200]);
      }
      for (const host of ['other.test', 'emulator.test.evil.example', 'xdocker.internal']) {
        expect([host, (await call(allowing, 'GET', '/healthz', undefined, { host })).status]).toEqual([host, 403]);
      }
    } finally {
      await allowing.close();
    }
  });
});

describe('--allow-origin: that origin, and only it, may call the emulator, with CORS', () => {
  let app: FastifyInstance;
  const APP_ORIGIN = 'http://localhost:3000';
  const sharedAppOfBlock = sharedApp(() => inMemoryApp({ allowOrigins: [APP_ORIGIN] }));
  beforeEach(() => {
    app = sharedAppOfBlock();
  });

  test('its preflight is 204 with the methods and headers; its requests are answered with Access-Control-Allow-Origin', async () => {
    const pre = await app.inject({
      method: 'OPTIONS',
      url: '/v1alpha1/projects/web/locations/us-central1/sources',
      headers: { origin: APP_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' },
    });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(pre.headers['access-control-allow-methods']).toContain('POST');
    expect(pre.headers['access-control-allow-headers']).toBe('content-type, authorization');
    const res = await call(app, 'GET', '/v1alpha1/projects/web/locations/us-central1/sources', undefined, { origin: APP_ORIGIN });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(res.headers.vary).toContain('Origin');
  });

  test('another origin, or the same host on another port or scheme, is still refused', async () => {
    for (const origin of ['http://localhost:3001', 'https://localhost:3000', 'http://evil.example']) {
      const res = await call(app, 'GET', '/healthz', undefined, { origin });
      expect([origin, res.status, res.headers['access-control-allow-origin']]).toEqual([origin, 403, undefined]);
    }
  });
});

describe('smaller items', () => {
  test('a credential query parameter is redacted from the request log however its name is encoded', async () => {
    const lines: string[] = [];
    const stream = new PassThrough();
    stream.on('data', (d: Buffer) => lines.push(d.toString()));
    const app = inMemoryApp({ logLevel: 'info', logStream: stream });
    try {
      const secrets = ['s3cr3t-a1', 's3cr3t-b2', 's3cr3t-c3', 's3cr3t-d4', 's3cr3t-e5'];
      const names = ['access_token', '%61ccess_token', 'ACCESS_TOKEN', 'acc%65ss%5Ftoken', 'k%65y'];
      for (let i = 0; i < names.length; i++) await call(app, 'GET', `/healthz?${names[i]}=${secrets[i]}&other=kept`);
      const log = lines.join('');
      expect(log).toContain('other=kept');
      for (const secret of secrets) expect(log).not.toContain(secret);
      expect(log.match(/\[REDACTED\]/g)?.length).toBe(names.length);
    } finally {
      await app.close();
    }
  });

  test('answers carry X-Content-Type-Options: nosniff and a request id (API JSON, errors, admin routes, refusals)', async () => {
    const app = inMemoryApp();
    try {
      for (const url of [
        '/healthz',
        '/v1alpha1/projects/web/locations/us-central1/sources',
        '/v1/projects/web/locations/global/endpointPolicies/nope',
        '/no/such/path',
        // A URL the router cannot decode: answered by the framework's error handler, before any hook.
        '/v1/projects/%E0%A4%A/locations/global/endpointPolicies',
      ]) {
        const res = await app.inject({ method: 'GET', url });
        expect([url, res.headers['x-content-type-options']]).toEqual([url, 'nosniff']);
        expect([url, res.headers['x-request-id']]).toEqual([url, expect.stringMatching(/^req-/)]);
      }
      // Refused by the Host/Origin guard, and by the front end's query rule.
      const foreign = await app.inject({ method: 'GET', url: '/healthz', headers: { host: 'evil.example' } });
      expect([foreign.statusCode, foreign.headers['x-content-type-options']]).toEqual([403, 'nosniff']);
      const unknownQuery = await app.inject({ method: 'GET', url: '/v1/projects/web/locations/global/endpointPolicies?pagesize=1' });
      expect([unknownQuery.statusCode, unknownQuery.headers['x-content-type-options']]).toEqual([400, 'nosniff']);
    } finally {
      await app.close();
    }
  });
});
