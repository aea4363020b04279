import type { FastifyInstance } from 'fastify';
import { MATCHER, PARENT, call, createPolicy, expectGoogleError, fieldViolations, getIam, newApp, policyName, setIam } from '../../support/networkservices';
import { sharedApp } from '../../support/app';

let app: FastifyInstance;
const sharedAppOfBlock = sharedApp(() => newApp());
beforeEach(() => {
  app = sharedAppOfBlock();
});

const seed = {
  endpointPolicies: [
    { name: policyName('a'), type: 'SIDECAR_PROXY', endpointMatcher: MATCHER },
    { name: policyName('b'), type: 'GRPC_SERVER', endpointMatcher: MATCHER, labels: { team: 'x' } },
  ],
  iamPolicies: {
    'projects/p1': { bindings: [{ role: 'roles/owner', members: ['user:owner@example.com'] }] },
    [policyName('a')]: {
      version: 3,
      bindings: [
        {
          role: 'roles/networkservices.viewer',
          members: ['user:a@example.com'],
          condition: { title: 't', expression: 'request.time < timestamp("2100-01-01T00:00:00Z")' },
        },
      ],
    },
  },
};

test('GET /healthz is 200', async () => {
  const res = await call(app, 'GET', '/healthz');
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ status: 'ok' });
});

test('seed loads endpoint policies and IAM policies; reset clears everything', async () => {
  const res = await call(app, 'POST', '/emulator/v1/seed', seed);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ loaded: { endpointPolicies: 2, iamPolicies: 2 } });
  // A policy that exists before the seed takes an IAM policy too, and project policies keep any role.
  await createPolicy(app, 'existing');
  const more = {
    iamPolicies: {
      [policyName('existing')]: { bindings: [{ role: 'roles/viewer', members: ['user:v@example.com'] }] },
      'projects/p1': { bindings: [{ role: 'roles/iam.securityAdmin', members: ['user:s@example.com'] }] },
    },
  };
  expect((await call(app, 'POST', '/emulator/v1/seed', more)).status).toBe(200);
  expect((await getIam(app, policyName('existing'))).body.bindings).toEqual([{ role: 'roles/viewer', members: ['user:v@example.com'] }]);
  const list = await call(app, 'GET', `/v1/${PARENT}/endpointPolicies`);
  expect(list.body.endpointPolicies.map((p: { name: string }) => p.name)).toEqual([policyName('a'), policyName('b'), policyName('existing')]);
  expect(list.body.endpointPolicies[1].createTime).toEqual(expect.any(String));
  const iam = await getIam(app, policyName('a'), 3);
  expect(iam.body.version).toBe(3);
  expect(iam.body.etag).not.toBe('ACAB');
  const hist = await call(app, 'GET', `/emulator/v1/iamHistory?resource=projects/p1`);
  expect(hist.body.entries.map((e: { kind: string }) => e.kind)).toEqual(['seed', 'seed']);

  expect((await call(app, 'POST', '/emulator/v1/reset')).body).toEqual({});
  expect((await call(app, 'GET', `/v1/${PARENT}/endpointPolicies`)).body).toEqual({});
  expectGoogleError(await getIam(app, policyName('a')), 404, 'NOT_FOUND');
  expect((await call(app, 'GET', `/v1/${PARENT}/operations`)).body).toEqual({});
  expect((await call(app, 'GET', `/emulator/v1/iamHistory?resource=projects/p1`)).body.entries).toEqual([]);
});

test('an invalid seed is rejected as a whole, naming the field, and changes nothing', async () => {
  await createPolicy(app, 'existing');
  const cases: Array<[unknown, string]> = [
    [{ ...seed, endpointPolicies: [...seed.endpointPolicies, { name: policyName('c'), type: 'BAD', endpointMatcher: MATCHER }] }, 'endpointPolicies[2].type'],
    [{ ...seed, endpointPolicies: [{ name: 'not/a/name', type: 'SIDECAR_PROXY', endpointMatcher: MATCHER }] }, 'endpointPolicies[0].name'],
    [
      { ...seed, iamPolicies: { ...seed.iamPolicies, 'projects/p2': { bindings: [{ role: 'roles/viewer', members: ['bad'] }] } } },
      'iamPolicies["projects/p2"].bindings[0].members[0]',
    ],
    [
      {
        ...seed,
        iamPolicies: {
          'projects/p2': { bindings: [{ role: 'roles/owner', members: ['user:x@example.com'], condition: { title: 't', expression: 'true' } }], version: 3 },
        },
      },
      'iamPolicies["projects/p2"].bindings[0].condition',
    ],
    [{ ...seed, sources: [], unknownThing: 1 }, 'unknownThing'],
    // An IAM policy belongs to a resource: a project, or an endpoint policy that exists or is seeded.
    [{ iamPolicies: { [policyName('never')]: { bindings: [] } } }, `iamPolicies["${policyName('never')}"]`],
    [{ iamPolicies: { 'projects/p1/locations/global/importJobs/j': { bindings: [] } } }, 'iamPolicies["projects/p1/locations/global/importJobs/j"]'],
    [
      { ...seed, iamPolicies: { [policyName('a')]: { bindings: [{ role: 'roles/storage.admin', members: ['user:a@example.com'] }] } } },
      `iamPolicies["${policyName('a')}"].bindings[0].role`,
    ],
    [
      { endpointPolicies: [{ name: 'projects/p1/locations/us-east1/endpointPolicies/x', type: 'SIDECAR_PROXY', endpointMatcher: MATCHER }] },
      'endpointPolicies[0].name',
    ],
  ];
  for (const [doc, field] of cases) {
    const res = await call(app, 'POST', '/emulator/v1/seed', doc);
    expectGoogleError(res, 400, 'INVALID_ARGUMENT');
    expect(fieldViolations(res).map((v) => v.field)).toContain(field);
  }
  const list = await call(app, 'GET', `/v1/${PARENT}/endpointPolicies`);
  expect(list.body.endpointPolicies.map((p: { name: string }) => p.name)).toEqual([policyName('existing')]);
  expect((await call(app, 'GET', '/emulator/v1/iamHistory?resource=projects/p1')).body.entries).toEqual([]);
});

test("a seeded endpoint policy's createTime and updateTime are timestamps, as Google writes them; others are refused", async () => {
  const item = (times: Record<string, unknown>) => ({ endpointPolicies: [{ ...seed.endpointPolicies[0], ...times }] });
  for (const [times, field] of [
    [{ createTime: 'garbage' }, 'endpointPolicies[0].createTime'],
    [{ updateTime: '2024-01-31 13:30:00' }, 'endpointPolicies[0].updateTime'],
    [{ createTime: '2024-13-01T00:00:00Z' }, 'endpointPolicies[0].createTime'],
    [{ createTime: '2024-01-31T24:00:00Z' }, 'endpointPolicies[0].createTime'],
  ] as const) {
    const res = await call(app, 'POST', '/emulator/v1/seed', item(times));
    expectGoogleError(res, 400, 'INVALID_ARGUMENT');
    expect(fieldViolations(res).map((v) => v.field)).toEqual([field]);
  }
  expectGoogleError(await call(app, 'GET', `/v1/${policyName('a')}`), 404, 'NOT_FOUND');
  const times = { createTime: '2024-01-31T13:30:00Z', updateTime: '2024-01-31T13:30:00.5-05:00' };
  expect((await call(app, 'POST', '/emulator/v1/seed', item(times))).status).toBe(200);
  expect((await call(app, 'GET', `/v1/${policyName('a')}`)).body).toMatchObject(times);
});

test('seeding replaces a policy of the same name; the IAM etag moves on', async () => {
  await call(app, 'POST', '/emulator/v1/seed', seed);
  const before = (await getIam(app, policyName('a'))).body.etag;
  await call(app, 'POST', '/emulator/v1/seed', {
    endpointPolicies: [{ ...seed.endpointPolicies[0], description: 'v2' }],
    iamPolicies: { [policyName('a')]: { bindings: [] } },
  });
  expect((await call(app, 'GET', `/v1/${policyName('a')}`)).body.description).toBe('v2');
  const after = await getIam(app, policyName('a'));
  expect(after.body.etag).not.toBe(before);
  expect(after.body.bindings).toBeUndefined();
});

test('iamHistory needs ?resource=', async () => {
  expectGoogleError(await call(app, 'GET', '/emulator/v1/iamHistory'), 400, 'INVALID_ARGUMENT');
  await createPolicy(app, 'x');
  await setIam(app, policyName('x'), { policy: { bindings: [] } });
  expect((await call(app, 'GET', `/emulator/v1/iamHistory?resource=${policyName('x')}`)).body.entries).toHaveLength(1);
});
