import type { FastifyInstance } from 'fastify';
import { loggingApp, sharedApp } from '../../support/app';
import type { AuthConfig } from '../../../backend-emulator/config';
import { ROLE_PERMISSIONS } from '../../../backend-emulator/auth/permissions';
import { PARENT, call, createPolicy, expectGoogleError, getIam, policyName, setIam } from '../../support/networkservices';

const R = policyName('ep1');
const AUTH: AuthConfig = {
  tokens: {
    'tok-alice': 'user:alice@example.com',
    'tok-bob': 'user:bob@example.com',
    'tok-carol': 'user:carol@corp.example',
    'tok-dave': 'user:dave@example.com',
    'tok-erin': 'user:erin@example.com',
  },
  adminTokens: ['tok-admin'],
  groups: { 'group:devs@example.com': ['user:dave@example.com'] },
  roles: { 'organizations/123/roles/iamReader': ['networkservices.endpointPolicies.getIamPolicy'] },
};
const as = (token: string) => ({ authorization: `Bearer ${token}` });

let app: FastifyInstance;
let logs: string[];

// One app for the file, reset (by the admin) before each test; each test reads only its own log lines.
const sharedAppOfFile = sharedApp(() => {
  const built = loggingApp({ builtinServices: ['networkservices'], auth: AUTH, logLevel: 'debug' });
  logs = built.lines;
  return built.app;
}, as('tok-admin'));

beforeEach(async () => {
  app = sharedAppOfFile();
  logs.length = 0;
  const seed = await call(
    app,
    'POST',
    '/emulator/v1/seed',
    {
      iamPolicies: {
        'projects/p1': { bindings: [{ role: 'roles/networkservices.admin', members: ['user:alice@example.com'] }] },
      },
    },
    as('tok-admin'),
  );
  expect(seed.status).toBe(200);
  expect((await createPolicy(app, 'ep1', undefined, undefined, as('tok-alice'))).status).toBe(200);
});

test('no token is 401 UNAUTHENTICATED; an unknown or malformed token too', async () => {
  for (const headers of [{}, as('tok-nobody'), { authorization: 'Basic abc' }, { authorization: 'Bearer' }]) {
    const res = await call(app, 'GET', `/v1/${R}`, undefined, headers);
    expectGoogleError(res, 401, 'UNAUTHENTICATED');
  }
  expectGoogleError(await getIam(app, R), 401, 'UNAUTHENTICATED');
});

test('/healthz needs no token; admin routes need an admin token', async () => {
  expect((await call(app, 'GET', '/healthz')).status).toBe(200);
  expectGoogleError(await call(app, 'POST', '/emulator/v1/reset'), 401, 'UNAUTHENTICATED');
  expectGoogleError(await call(app, 'POST', '/emulator/v1/reset', undefined, as('tok-alice')), 403, 'PERMISSION_DENIED');
  expect((await call(app, 'GET', `/emulator/v1/iamHistory?resource=${R}`, undefined, as('tok-admin'))).status).toBe(200);
});

test('a project-level role grants get/setIamPolicy on the endpoint policy', async () => {
  const set = await setIam(app, R, { policy: { bindings: [{ role: 'roles/viewer', members: ['user:bob@example.com'] }] } }, as('tok-alice'));
  expect(set.status).toBe(200);
  expect((await getIam(app, R, 3, as('tok-alice'))).body).toEqual(set.body);
  const hist = await call(app, 'GET', `/emulator/v1/iamHistory?resource=${R}`, undefined, as('tok-admin'));
  expect(hist.body.entries[0].principal).toBe('user:alice@example.com');
});

test('without the permission: 403 PERMISSION_DENIED naming it', async () => {
  await setIam(app, R, { policy: { bindings: [{ role: 'roles/viewer', members: ['user:bob@example.com'] }] } }, as('tok-alice'));
  // bob is a viewer on the resource: may read the policy, not write it.
  expect((await getIam(app, R, 3, as('tok-bob'))).status).toBe(200);
  const denied = await setIam(app, R, { policy: { bindings: [] } }, as('tok-bob'));
  const error = expectGoogleError(denied, 403, 'PERMISSION_DENIED');
  expect(error.message).toContain('networkservices.endpointPolicies.setIamPolicy');
  expect(error.message).toContain(R);
  // carol holds nothing.
  const error2 = expectGoogleError(await getIam(app, R, 3, as('tok-carol')), 403, 'PERMISSION_DENIED');
  expect(error2.message).toContain('networkservices.endpointPolicies.getIamPolicy');
  // The denied write changed nothing.
  expect((await getIam(app, R, 3, as('tok-alice'))).body.bindings).toEqual([{ role: 'roles/viewer', members: ['user:bob@example.com'] }]);
});

test('domain:, group:, case folding, custom roles and conditions', async () => {
  const grant = async (bindings: unknown[], version = 1) => expect((await setIam(app, R, { policy: { version, bindings } }, as('tok-admin'))).status).toBe(200);

  await grant([{ role: 'roles/iam.securityAdmin', members: ['domain:CORP.example'] }]);
  expect(
    (await setIam(app, R, { policy: { bindings: [{ role: 'roles/iam.securityAdmin', members: ['domain:corp.example'] }] } }, as('tok-carol'))).status,
  ).toBe(200);

  await grant([{ role: 'roles/iam.securityReviewer', members: ['group:DEVS@example.com'] }]);
  expect((await getIam(app, R, 1, as('tok-dave'))).status).toBe(200);
  expectGoogleError(await setIam(app, R, { policy: { bindings: [] } }, as('tok-dave')), 403, 'PERMISSION_DENIED');

  await grant([{ role: 'organizations/123/roles/iamReader', members: ['user:ERIN@example.com'] }]);
  expect((await getIam(app, R, 1, as('tok-erin'))).status).toBe(200);

  await grant(
    [
      {
        role: 'roles/iam.securityReviewer',
        members: ['user:erin@example.com'],
        condition: { title: 'expired', expression: 'request.time < timestamp("2001-01-01T00:00:00Z")' },
      },
    ],
    3,
  );
  expectGoogleError(await getIam(app, R, 1, as('tok-erin')), 403, 'PERMISSION_DENIED');
  await grant(
    [{ role: 'roles/iam.securityReviewer', members: ['user:erin@example.com'], condition: { title: 'this resource', expression: `resource.name == "${R}"` } }],
    3,
  );
  expect((await getIam(app, R, 1, as('tok-erin'))).status).toBe(200);
});

test('testIamPermissions returns what the caller holds', async () => {
  await setIam(app, R, { policy: { bindings: [{ role: 'roles/viewer', members: ['user:bob@example.com'] }] } }, as('tok-alice'));
  const ask = {
    permissions: ['networkservices.endpointPolicies.get', 'networkservices.endpointPolicies.setIamPolicy', 'networkservices.endpointPolicies.getIamPolicy'],
  };
  expect((await call(app, 'POST', `/v1/${R}:testIamPermissions`, ask, as('tok-bob'))).body).toEqual({
    permissions: ['networkservices.endpointPolicies.get', 'networkservices.endpointPolicies.getIamPolicy'],
  });
  expect((await call(app, 'POST', `/v1/${R}:testIamPermissions`, ask, as('tok-carol'))).body).toEqual({});
  expect((await call(app, 'POST', `/v1/${R}:testIamPermissions`, ask, as('tok-alice'))).body).toEqual(ask);
});

test('tokens never reach the logs; each request logs one line with its id', async () => {
  await call(app, 'GET', `/v1/${R}`, undefined, { ...as('tok-alice'), 'x-request-id': 'rid-1' });
  await call(app, 'GET', `/v1/${R}`, undefined, as('tok-nobody-secret'));
  const text = logs.join('');
  expect(text).not.toContain('tok-alice');
  expect(text).not.toContain('tok-nobody-secret');
  expect(text).not.toContain('tok-admin');
  const lines = text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const requestLines = lines.filter((l) => l.msg === 'request' && l.reqId === 'rid-1');
  expect(requestLines).toHaveLength(1);
  expect(requestLines[0]).toMatchObject({ method: 'GET', statusCode: 200, principal: 'user:alice@example.com' });
});

test('the role table grants what docs/emulator.md says', () => {
  expect(ROLE_PERMISSIONS['roles/owner']).toEqual(['*']);
  expect(ROLE_PERMISSIONS['roles/viewer']).toContain('networkservices.endpointPolicies.getIamPolicy');
  expect(ROLE_PERMISSIONS['roles/viewer']).not.toContain('networkservices.endpointPolicies.setIamPolicy');
  expect(ROLE_PERMISSIONS['roles/editor']).not.toContain('networkservices.endpointPolicies.setIamPolicy');
});

test('CRUD needs its permission too: a token alone is 403 naming the permission and the parent', async () => {
  const denied = expectGoogleError(await call(app, 'GET', `/v1/${PARENT}/endpointPolicies`, undefined, as('tok-carol')), 403, 'PERMISSION_DENIED');
  expect(denied.message).toBe(`Permission 'networkservices.endpointPolicies.list' denied on resource '${PARENT}' (or it may not exist).`);
  expect((await call(app, 'GET', `/v1/${PARENT}/endpointPolicies`, undefined, as('tok-alice'))).status).toBe(200);
});
