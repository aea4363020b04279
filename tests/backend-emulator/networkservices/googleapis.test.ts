/**
 * Conformance with Google's generated Node client (`googleapis` 140, which still lists the IAM
 * methods of endpointPolicies), against a listening emulator.
 */
// The client of this one API, not the googleapis index, which loads every API of Google (seconds per test file).
import { networkservices, type networkservices_v1 } from 'googleapis/build/src/apis/networkservices';
import { startEmulator, type RunningEmulator } from '../../../backend-emulator';
import { MATCHER, PARENT, policyName } from '../../support/networkservices';
import { startRecordingProxy, type RecordingProxy } from '../../support/recording-proxy';

let emulator: RunningEmulator;
let ns: networkservices_v1.Networkservices;
let proxy: RecordingProxy;
const MIN_ANSWERS = 10;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent', builtinServices: ['networkservices'] });
  expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  // Through a recording proxy: the last test walks every answer the client got.
  proxy = await startRecordingProxy(emulator.url);
  ns = networkservices({ version: 'v1', rootUrl: `${proxy.url}/`, retry: false });
});
afterAll(async () => {
  await proxy.close();
  await emulator.close();
});

const policies = () => ns.projects.locations.endpointPolicies;

/** The GaxiosError of a rejected call: status and the Google error body. */
async function failure(p: Promise<unknown>): Promise<{ status: number; error: { code: number; status: string; message: string; details: any[] } }> {
  try {
    await p;
  } catch (err) {
    const e = err as { response?: { status: number; data: { error: any } } };
    if (!e.response) throw err;
    return { status: e.response.status, error: e.response.data.error };
  }
  throw new Error('the call succeeded');
}

test('create an endpoint policy: a done Operation carrying the policy', async () => {
  const res = await policies().create({
    parent: PARENT,
    endpointPolicyId: 'gapi-1',
    requestBody: { type: 'SIDECAR_PROXY', endpointMatcher: MATCHER, labels: { env: 'test' } },
  });
  expect(res.status).toBe(200);
  expect(res.data.done).toBe(true);
  expect(res.data.response).toMatchObject({ '@type': 'type.googleapis.com/google.cloud.networkservices.v1.EndpointPolicy', name: policyName('gapi-1') });
  const got = await policies().get({ name: policyName('gapi-1') });
  expect(got.data).toMatchObject({ name: policyName('gapi-1'), type: 'SIDECAR_PROXY', labels: { env: 'test' } });
  const op = await ns.projects.locations.operations.get({ name: res.data.name! });
  expect(op.data.done).toBe(true);
  const list = await policies().list({ parent: PARENT, pageSize: 10 });
  expect(list.data.endpointPolicies?.map((p) => p.name)).toContain(policyName('gapi-1'));
});

test('set and get IAM; a stale etag is 409 ABORTED', async () => {
  const resource = policyName('gapi-1');
  const empty = await policies().getIamPolicy({ resource, 'options.requestedPolicyVersion': 3 });
  expect(empty.data).toEqual({ etag: 'ACAB' });

  const set = await policies().setIamPolicy({
    resource,
    requestBody: {
      policy: {
        version: 3,
        etag: empty.data.etag,
        bindings: [
          { role: 'roles/networkservices.viewer', members: ['user:alice@example.com'] },
          {
            role: 'roles/networkservices.admin',
            members: ['group:ops@example.com'],
            condition: { title: 'until 2100', expression: 'request.time < timestamp("2100-01-01T00:00:00Z")' },
          },
        ],
      },
    },
  });
  expect(set.status).toBe(200);
  expect(set.data.etag).not.toBe('ACAB');

  const v3 = await policies().getIamPolicy({ resource, 'options.requestedPolicyVersion': 3 });
  expect(v3.data).toEqual(set.data);
  const v1 = await policies().getIamPolicy({ resource });
  expect(v1.data.version).toBe(1);
  expect(v1.data.bindings?.[1].role).toMatch(/^roles\/networkservices\.admin_withcond_/);

  const stale = await failure(policies().setIamPolicy({ resource, requestBody: { policy: { etag: empty.data.etag, bindings: [] } } }));
  expect(stale.status).toBe(409);
  expect(stale.error).toMatchObject({
    code: 409,
    status: 'ABORTED',
    message: 'There were concurrent policy changes. Please retry the whole read-modify-write with exponential backoff.',
  });

  const perms = await policies().testIamPermissions({ resource, requestBody: { permissions: ['networkservices.endpointPolicies.get'] } });
  expect(perms.data.permissions).toEqual(['networkservices.endpointPolicies.get']);
});

test('a missing policy is 404 NOT_FOUND', async () => {
  const missing = await failure(policies().get({ name: policyName('does-not-exist') }));
  expect(missing.status).toBe(404);
  expect(missing.error.status).toBe('NOT_FOUND');
  const del = await failure(policies().delete({ name: policyName('does-not-exist') }));
  expect(del.status).toBe(404);
  // IAM on it too: the policy belongs to a resource that does not exist.
  const iam = await failure(policies().getIamPolicy({ resource: policyName('does-not-exist'), 'options.requestedPolicyVersion': 3 }));
  expect(iam.status).toBe(404);
  expect(iam.error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
  expect(iam.error.details).toEqual([
    expect.objectContaining({ '@type': 'type.googleapis.com/google.rpc.ResourceInfo', resourceName: policyName('does-not-exist') }),
  ]);
});

test('a role that does not apply to endpoint policies is 400 INVALID_ARGUMENT naming the binding', async () => {
  const bad = await failure(
    policies().setIamPolicy({
      resource: policyName('gapi-1'),
      requestBody: { policy: { bindings: [{ role: 'roles/storage.admin', members: ['user:ok@example.com'] }] } },
    }),
  );
  expect(bad.status).toBe(400);
  expect(bad.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: 'Role roles/storage.admin is not supported for this resource.' });
  expect(bad.error.details[0]).toMatchObject({ fieldViolations: [{ field: 'policy.bindings[0].role' }] });
});

test('a method of the API that the emulator does not implement is 501 UNIMPLEMENTED, naming it', async () => {
  const meshes = await failure(ns.projects.locations.meshes.list({ parent: PARENT }));
  expect(meshes.status).toBe(501);
  expect(meshes.error).toMatchObject({
    code: 501,
    status: 'UNIMPLEMENTED',
    message: expect.stringContaining('networkservices.projects.locations.meshes.list'),
  });
});

test('a bad member is 400 INVALID_ARGUMENT with the field named', async () => {
  const bad = await failure(
    policies().setIamPolicy({
      resource: policyName('gapi-1'),
      requestBody: { policy: { bindings: [{ role: 'roles/viewer', members: ['user:ok@example.com', 'alice'] }] } },
    }),
  );
  expect(bad.status).toBe(400);
  expect(bad.error.status).toBe('INVALID_ARGUMENT');
  expect(bad.error.details[0]).toMatchObject({
    '@type': 'type.googleapis.com/google.rpc.BadRequest',
    fieldViolations: [{ field: 'policy.bindings[0].members[1]', description: expect.any(String) }],
  });
});

test('patch and delete through the client', async () => {
  const patched = await policies().patch({ name: policyName('gapi-1'), updateMask: 'description', requestBody: { description: 'patched' } });
  expect(patched.data.done).toBe(true);
  expect((await policies().get({ name: policyName('gapi-1') })).data.description).toBe('patched');
  const deleted = await policies().delete({ name: policyName('gapi-1') });
  expect(deleted.data.done).toBe(true);
  expect((await failure(policies().getIamPolicy({ resource: policyName('gapi-1') }))).status).toBe(404);
});

// Last in the file: every answer Google's client received above, walked for default values.
test('no answer of this suite holds a ProtoJSON default value (empty list, false, 0, "", enum zero)', () => {
  expect(proxy.answers.length).toBeGreaterThan(MIN_ANSWERS);
  expect(proxy.defaultsFound()).toEqual([]);
});
