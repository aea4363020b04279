/**
 * Access, over the compiled CLI as users run it. What tests/backend-emulator/auth/auth.test.ts (in-process:
 * 401 without or with an unknown token, 403 naming the permission, admin routes, tokens absent from
 * a debug log stream) and tests/backend-emulator/cli.process.test.ts (401 over HTTP, the warning for a non-loopback
 * --host) already prove is not repeated; this adds:
 * - the real log output of `--log-level info` on stderr, grepped for every token used, including
 *   tokens sent where the emulator does not read them (`?access_token=`, `?key=`) and refused ones;
 * - tokens named like Object.prototype members (`constructor`, `__proto__`, ...) are unknown tokens;
 * - every admin route (reset, seed, iamHistory, the console's JSON) refuses a user token;
 * - without --host the emulator binds 127.0.0.1 only (checked in /proc/net/tcp), without a warning.
 */
import * as fs from 'fs';
import * as path from 'path';
import { spawnCli } from '../../support/cli-process';
import { tempDir } from '../../support/temp-dir';
import { cliProcessesOfThisFile } from '../support/cli-processes';
import { MATCHER } from '../support/networkservices';

jest.setTimeout(60_000);

const TOKENS = {
  alice: 'tok-alice-3f9c1e7a',
  bob: 'tok-bob-8d2b4c61',
  admin: 'tok-admin-5e7a9b02',
};
const NOT_TOKENS = ['tok-unknown-1c4d', 'constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
const RESOURCE = 'projects/acc/locations/global/endpointPolicies/ep';

const running = cliProcessesOfThisFile();

async function call(url: string, method: string, token?: string, body?: unknown, extra: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { ...extra };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

test('with --auth at --log-level info: 401 / 403 / admin-only as documented, and no token ever reaches the log output', async () => {
  const dir = tempDir('gnl-access-');
  const authFile = path.join(dir, 'auth.json');
  fs.writeFileSync(
    authFile,
    JSON.stringify({ tokens: { [TOKENS.alice]: 'user:alice@example.com', [TOKENS.bob]: 'user:bob@example.com' }, adminTokens: [TOKENS.admin] }),
  );
  const p = await spawnCli(['--port', '0', '--in-memory', '--auth', authFile, '--log-level', 'info']);
  running.push(p);
  const u = p.url;

  // The endpoint policy exists; alice may administer IAM on the project; bob holds nothing.
  expect(
    (
      await call(`${u}/emulator/v1/seed`, 'POST', TOKENS.admin, {
        endpointPolicies: [{ name: RESOURCE, type: 'SIDECAR_PROXY', endpointMatcher: MATCHER }],
        iamPolicies: { 'projects/acc': { bindings: [{ role: 'roles/networkservices.admin', members: ['user:alice@example.com'] }] } },
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await call(`${u}/v1/${RESOURCE}:setIamPolicy`, 'POST', TOKENS.alice, {
        policy: { bindings: [{ role: 'roles/viewer', members: ['user:carol@example.com'] }] },
      })
    ).status,
  ).toBe(200);

  // Unknown tokens, including names of Object.prototype members: 401 UNAUTHENTICATED.
  for (const token of NOT_TOKENS) {
    for (const [method, route] of [
      ['GET', `/v1/${RESOURCE}:getIamPolicy`],
      ['GET', '/v1alpha1/projects/acc/locations/l/importJobs'],
      ['POST', '/emulator/v1/reset'],
    ]) {
      const res = await call(`${u}${route}`, method, token);
      expect([token, route, res.status, res.body.error.status]).toEqual([token, route, 401, 'UNAUTHENTICATED']);
    }
  }
  // No Authorization header, a token in the query string (not read: Google's access_token parameter is not emulated).
  for (const query of [`access_token=${TOKENS.alice}`, `key=${TOKENS.admin}`, `token=${TOKENS.bob}`]) {
    const res = await call(`${u}/v1/${RESOURCE}:getIamPolicy?${query}`, 'GET');
    expect(res.status).toBe(401);
    expect(res.body.error.status).toBe('UNAUTHENTICATED');
  }
  // A token without the permission: 403 naming it.
  const denied = await call(`${u}/v1/${RESOURCE}:setIamPolicy`, 'POST', TOKENS.bob, { policy: {} });
  expect(denied.status).toBe(403);
  expect(denied.body.error.message).toContain('networkservices.endpointPolicies.setIamPolicy');
  // A request id chosen by the client is logged; the token sent with it is not (before the reset below
  // takes alice's role away).
  expect(
    (await call(`${u}/v1/projects/acc/locations/global/endpointPolicies`, 'GET', TOKENS.alice, undefined, { 'x-request-id': 'access-test-1' })).status,
  ).toBe(200);
  // Every admin route needs an admin token: 401 without a token, 403 with a user token, 200 with the admin token.
  const adminRoutes: Array<[string, string, unknown?]> = [
    ['GET', `/emulator/v1/iamHistory?resource=${encodeURIComponent(RESOURCE)}`],
    ['POST', '/emulator/v1/seed', {}],
    ['GET', '/emulator/v1/console/summary'],
    ['GET', '/emulator/v1/console/endpointPolicies'],
    ['GET', '/emulator/v1/console/importJobs'],
    ['GET', '/emulator/v1/console/assets'],
    ['POST', '/emulator/v1/reset'],
  ];
  for (const [method, route, body] of adminRoutes) {
    expect([route, (await call(`${u}${route}`, method, undefined, body)).status]).toEqual([route, 401]);
    expect([route, (await call(`${u}${route}`, method, TOKENS.alice, body)).status]).toEqual([route, 403]);
    expect([route, (await call(`${u}${route}`, method, TOKENS.admin, body)).status]).toEqual([route, 200]);
  }

  p.child.kill('SIGTERM');
  expect((await p.exited).code).toBe(0);
  const log = p.stderr();
  const lines = log
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  // At info, one line per request: the log really is being written.
  expect(lines.filter((l) => l.msg === 'request').length).toBeGreaterThan(30);
  expect(lines.find((l) => l.reqId === 'access-test-1')).toMatchObject({ statusCode: 200, principal: 'user:alice@example.com' });
  for (const token of [...Object.values(TOKENS), 'tok-unknown-1c4d']) expect([token, log.includes(token)]).toEqual([token, false]);
  // The query-string credentials were redacted, not dropped: the line is there.
  expect(log).toContain('access_token=[REDACTED]');
  expect(p.stdout()).toBe(`listening on ${p.url}\n`);
});

(process.platform === 'linux' ? test : test.skip)('without --host (and without --auth) the emulator listens on 127.0.0.1 only, and does not warn', async () => {
  const p = await spawnCli(['--port', '0', '--in-memory', '--log-level', 'info']);
  running.push(p);
  expect(p.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const port = Number(new URL(p.url).port);
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  // /proc/net/tcp: "sl local_address rem_address st ...", addresses as hex IP:port, 0A = LISTEN.
  const listening = [fs.readFileSync('/proc/net/tcp', 'utf8'), fs.existsSync('/proc/net/tcp6') ? fs.readFileSync('/proc/net/tcp6', 'utf8') : '']
    .join('\n')
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f[1]?.endsWith(`:${hex}`) && f[3] === '0A')
    .map((f) => f[1]);
  expect(listening).toEqual([`0100007F:${hex}`]);
  expect((await fetch(`${p.url}/healthz`)).status).toBe(200);
  p.child.kill('SIGTERM');
  await p.exited;
  expect(p.stderr()).not.toMatch(/non-loopback/);
});
