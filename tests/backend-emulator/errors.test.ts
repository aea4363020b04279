import type { FastifyInstance } from 'fastify';
import { sharedApp, inMemoryApp } from '../support/app';
import { call, createPolicy, expectGoogleError, getIam, newApp, policyName, setIam } from '../support/networkservices';

const R = policyName('ep1');
let app: FastifyInstance;
let etag: string;

/** Everything a failed request must leave as it was. */
async function snapshot(): Promise<string> {
  const parts = [
    await call(app, 'GET', `/v1/projects/p1/locations/global/endpointPolicies`),
    await getIam(app, R, 3),
    await call(app, 'GET', `/emulator/v1/iamHistory?resource=${R}`),
    await call(app, 'GET', `/v1/projects/p1/locations/global/operations`),
  ];
  return JSON.stringify(parts.map((p) => p.body));
}

const sharedAppOfBlock = sharedApp(() => newApp({ bodyLimit: 64 * 1024 }));
beforeEach(async () => {
  app = sharedAppOfBlock();
  await createPolicy(app, 'ep1');
  etag = (await setIam(app, R, { policy: { bindings: [{ role: 'roles/viewer', members: ['user:a@example.com'] }] } })).body.etag;
});

test('malformed JSON is 400 INVALID_ARGUMENT in the Google shape, state unchanged', async () => {
  const before = await snapshot();
  for (const payload of ['{"policy":', '{bad json}', "{'single': 1}", '[1,2']) {
    const res = await call(app, 'POST', `/v1/${R}:setIamPolicy`, payload, { 'content-type': 'application/json' });
    const error = expectGoogleError(res, 400, 'INVALID_ARGUMENT');
    expect(error.message).toMatch(/^Invalid JSON payload received/);
  }
  expect(await snapshot()).toBe(before);
});

test('a JSON body that is not an object is INVALID_ARGUMENT', async () => {
  for (const payload of ['[]', '"text"', '42', 'null']) {
    const res = await call(app, 'POST', `/v1/${R}:setIamPolicy`, payload, { 'content-type': 'application/json' });
    expectGoogleError(res, 400, 'INVALID_ARGUMENT');
  }
});

test('__proto__ and constructor.prototype keys are refused', async () => {
  const before = await snapshot();
  for (const payload of ['{"policy":{"bindings":[]},"__proto__":{"polluted":true}}', '{"policy":{"constructor":{"prototype":{"polluted":true}}}}']) {
    const res = await call(app, 'POST', `/v1/${R}:setIamPolicy`, payload, { 'content-type': 'application/json' });
    expectGoogleError(res, 400, 'INVALID_ARGUMENT');
  }
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(await snapshot()).toBe(before);
});

test('a wrong content type is 400 INVALID_ARGUMENT naming the type', async () => {
  const res = await call(app, 'POST', `/v1/${R}:setIamPolicy`, JSON.stringify({ policy: { bindings: [] } }), { 'content-type': 'text/plain' });
  const error = expectGoogleError(res, 400, 'INVALID_ARGUMENT');
  expect(error.message).toContain('text/plain');
  expect((await getIam(app, R)).body.etag).toBe(etag);
});

test('a body over the limit is 413 with status INVALID_ARGUMENT, state unchanged', async () => {
  const before = await snapshot();
  const members = Array.from({ length: 3000 }, (_, i) => `user:someone-with-a-long-name-${i}@example.com`);
  const res = await setIam(app, R, { policy: { bindings: [{ role: 'roles/viewer', members }] } });
  const error = expectGoogleError(res, 413, 'INVALID_ARGUMENT');
  expect(error.message).toContain(String(64 * 1024));
  expect(await snapshot()).toBe(before);
});

test('wrong types in a body are INVALID_ARGUMENT, state unchanged', async () => {
  const before = await snapshot();
  const res = await setIam(app, R, { policy: { bindings: [{ role: 7, members: [true] }] } });
  expectGoogleError(res, 400, 'INVALID_ARGUMENT');
  const res2 = await call(app, 'PATCH', `/v1/${R}?updateMask=type`, { type: 3 });
  expectGoogleError(res2, 400, 'INVALID_ARGUMENT');
  expect(await snapshot()).toBe(before);
});

test('unknown paths and methods are 404 NOT_FOUND in the Google shape', async () => {
  for (const [method, url] of [
    ['GET', '/'],
    ['GET', '/v2/projects/p1/locations/global/endpointPolicies'],
    ['GET', '/v1/projects/p1/locations/global/widgets'],
    ['PUT', `/v1/${R}`],
    ['POST', '/emulator/v1/nothing'],
  ]) {
    const res = await call(app, method, url, method === 'GET' ? undefined : {});
    const error = expectGoogleError(res, 404, 'NOT_FOUND');
    expect(error.message).toContain(url.split('?')[0]);
  }
});

test("a method of Google's APIs that the emulator does not implement is 501 UNIMPLEMENTED, naming the method", async () => {
  // newApp has Network Services only: Migration Center's paths are unimplemented here, still Google's.
  for (const [method, url, id] of [
    ['GET', '/v1/projects/p1/locations/global/meshes', 'networkservices.projects.locations.meshes.list'],
    ['GET', '/v1/projects/p1/locations/global/meshes/m1?view=FULL', 'networkservices.projects.locations.meshes.get'],
    ['POST', '/v1/projects/p1/locations/global/gateways/g1:setIamPolicy', 'networkservices.projects.locations.gateways.setIamPolicy'],
    ['GET', '/v1/projects/p1/locations/global/gateways', 'networkservices.projects.locations.gateways.list'],
    ['POST', '/v1alpha1/projects/p1/locations/us-central1/groups', 'migrationcenter.projects.locations.groups.create'],
    ['POST', '/v1alpha1/projects/p1/locations/us-central1/assets:batchDelete', 'migrationcenter.projects.locations.assets.batchDelete'],
    ['POST', '/v1alpha1/projects/p1/locations/l/groups/g%3AaddAssets', 'migrationcenter.projects.locations.groups.addAssets'],
  ]) {
    const res = await call(app, method, url, method === 'GET' ? undefined : {});
    const error = expectGoogleError(res, 501, 'UNIMPLEMENTED');
    expect(error.message).toContain(`Method ${id} is not implemented by the emulator`);
  }
});

test('a path or verb that is in no Google API stays 404, also beside an emulated method', async () => {
  for (const [method, url] of [
    ['POST', `/v1/${R}:getIamPolicy`], // getIamPolicy is a GET
    ['GET', `/v1/${R}:frobnicate`],
    ['GET', '/v1/projects/p1/locations/global/meshes/m1/extra'],
    ['POST', '/v1alpha1/projects/p1/locations/l/importJobs/j:foo'],
    ['DELETE', '/v1/projects/p1/locations/global/meshes'],
  ]) {
    const res = await call(app, method, url, method === 'GET' || method === 'DELETE' ? undefined : {});
    expectGoogleError(res, 404, 'NOT_FOUND');
  }
});

test('a repeated query parameter is INVALID_ARGUMENT', async () => {
  const res = await call(app, 'GET', `/v1/${R}:getIamPolicy?options.requestedPolicyVersion=1&options.requestedPolicyVersion=3`);
  expectGoogleError(res, 400, 'INVALID_ARGUMENT');
});

test('an empty JSON body reads as {} (bodiless POSTs)', async () => {
  const res = await call(app, 'POST', `/v1/${R}:testIamPermissions`, '', { 'content-type': 'application/json' });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({});
});

test('responses carry the request id; a given x-request-id is echoed', async () => {
  const a = await call(app, 'GET', `/v1/${R}`);
  expect(a.headers['x-request-id']).toMatch(/^req-/);
  const b = await call(app, 'GET', `/v1/${R}`, undefined, { 'x-request-id': 'trace-abc-123' });
  expect(b.headers['x-request-id']).toBe('trace-abc-123');
  const c = await call(app, 'GET', '/nowhere', undefined, { 'x-request-id': 'bad id with spaces' });
  expect(c.headers['x-request-id']).toMatch(/^req-/);
  expect(c.headers['content-type']).toMatch(/^application\/json/);
});

test('an unexpected exception is 500 INTERNAL without internals', async () => {
  const broken = newApp({
    services: [
      async (instance) => {
        instance.get('/boom', async () => {
          throw new Error('secret internal detail');
        });
      },
    ],
  });
  try {
    const res = await call(broken, 'GET', '/boom');
    const error = expectGoogleError(res, 500, 'INTERNAL');
    expect(res.raw).not.toContain('secret internal detail');
    expect(error.message).toBe('Internal error encountered.');
  } finally {
    await broken.close();
  }
});

test("every plugin of the app is named in fastify's plugin tree (no function source standing in for a name)", async () => {
  const named = inMemoryApp({ services: [async function extraRoutes() {}, async () => {}] });
  try {
    await named.ready();
    const plugins = named
      .printPlugins()
      .split('\n')
      .map((line) => line.replace(/^[\s│├└─┬]+/, '').replace(/ \d+ ms$/, ''))
      .filter((name) => name !== '' && name !== 'bound _after');
    expect(plugins).toEqual([
      'root',
      'admin',
      'networkservices',
      'migrationcenter',
      'signed uploads',
      'migrationcenter /v1alpha1',
      'migrationcenter /v1',
      'console',
      'console api',
      'extraRoutes',
      'service 2',
    ]);
  } finally {
    await named.close();
  }
});
