/**
 * The new IAM resources and the read functions through the real plugin protocol: the
 * dynamic-provider host from @pulumi/pulumi, over gRPC, with the provider text the classes store,
 * against an emulator server. The semantics are tested in iam-semantics.test.ts; this shows that
 * the host runs them (and a read by id, as a read function's is) from the installed package.
 */
import { createTestProgram, type TestProgram } from '../../support/harness/program';
import { dynamicUrn, startProviderHost, type ProviderHost } from '../../support/harness/provider-host';
import { startEmulator, type RunningEmulator } from '../../backend-emulator';
import { restApi } from '../support/rest-api';

jest.setTimeout(240_000);

type LazyProviderModule = typeof import('../../provider/lazy-provider');

const PROJECT = 'iam-host-project';
const POLICY = `projects/${PROJECT}/locations/global/endpointPolicies/web`;
const VIEWER = 'roles/networkservices.viewer';

let program: TestProgram;
let emulator: RunningEmulator;
let lazy: LazyProviderModule;
const hosts: ProviderHost[] = [];

async function hostFor(implModule: string): Promise<ProviderHost> {
  const host = await startProviderHost({ cwd: program.dir, provider: lazy.providerModuleText(implModule), project: 'iam-host' });
  await host.configure({ 'google-native-local:endpoint': emulator.url, 'google-native-local:project': PROJECT });
  hosts.push(host);
  return host;
}

const api = restApi(() => emulator.url);

async function viewers(): Promise<string[]> {
  const policy = await api<{ bindings?: Array<{ role: string; members: string[] }> }>('GET', `/v1/${POLICY}:getIamPolicy?options.requestedPolicyVersion=3`);
  return (policy.bindings ?? []).find((b) => b.role === VIEWER)?.members.sort() ?? [];
}

beforeAll(async () => {
  program = await createTestProgram();
  lazy = program.requirePackage<LazyProviderModule>('dist/provider/lazy-provider');
  emulator = await startEmulator({ port: 0, inMemory: true });
  await api('POST', `/v1/projects/${PROJECT}/locations/global/endpointPolicies?endpointPolicyId=web`, {
    type: 'SIDECAR_PROXY',
    endpointMatcher: { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY' } },
  });
});

afterAll(async () => {
  for (const host of hosts) await host.close();
  await emulator?.close();
  program?.cleanup();
});

it('EndpointPolicyIamMember: check, create beside another member, read, import by id, delete', async () => {
  const host = await hostFor('iam-member-impl');
  const urnA = dynamicUrn('networkservices/v1:EndpointPolicyIamMember', 'alice');
  const urnB = dynamicUrn('networkservices/v1:EndpointPolicyIamMember', 'bob');
  const a = (await host.check(urnA, {}, { name: POLICY, role: VIEWER, member: 'user:Alice@example.com' })).inputs;
  const b = (await host.check(urnB, {}, { name: POLICY, role: VIEWER, member: 'user:bob@example.com' })).inputs;
  const [createdA, createdB] = await Promise.all([host.create(urnA, a), host.create(urnB, b)]);
  expect(createdA.id).toBe(`${POLICY} ${VIEWER} user:alice@example.com`);
  expect(await viewers()).toEqual(['user:alice@example.com', 'user:bob@example.com']);
  const imported = await host.read(createdA.id, urnA, {});
  expect(imported.properties).toMatchObject({ name: POLICY, role: VIEWER, member: 'user:alice@example.com', project: PROJECT });
  await host.delete(createdA.id, urnA, createdA.properties);
  expect(await viewers()).toEqual(['user:bob@example.com']);
  await host.delete(createdB.id, urnB, createdB.properties);
  expect(await viewers()).toEqual([]);
});

it('EndpointPolicyIamPolicy: create replaces the policy, delete empties it', async () => {
  await api('POST', `/v1/${POLICY}:setIamPolicy`, { policy: { bindings: [{ role: 'roles/networkservices.admin', members: ['user:mallory@example.com'] }] } });
  const host = await hostFor('iam-policy-impl');
  const urn = dynamicUrn('networkservices/v1:EndpointPolicyIamPolicy', 'policy');
  const { inputs, failures } = await host.check(urn, {}, { endpointPolicyId: 'web', bindings: [{ role: VIEWER, members: ['user:carol@example.com'] }] });
  expect(failures).toEqual([]);
  const created = await host.create(urn, inputs);
  expect(created.id).toBe(POLICY);
  const policy = await api<{ bindings?: unknown[] }>('GET', `/v1/${POLICY}:getIamPolicy`);
  expect(policy.bindings).toEqual([{ role: VIEWER, members: ['user:carol@example.com'] }]);
  expect((await host.diff(created.id, urn, created.properties, inputs)).changes).toBe('none');
  await host.delete(created.id, urn, created.properties);
  expect((await api<{ bindings?: unknown[] }>('GET', `/v1/${POLICY}:getIamPolicy`)).bindings).toBeUndefined();
});

it('a read function call is a read by id in the host', async () => {
  const host = await hostFor('read-functions-impl');
  const urn = dynamicUrn('networkservices/v1:getEndpointPolicy', `getEndpointPolicy:${POLICY}`);
  const read = await host.read(`getEndpointPolicy ${POLICY}`, urn, {});
  expect(read.id).toBe(`getEndpointPolicy ${POLICY}`);
  expect(read.properties.result).toMatchObject({ name: POLICY, type: 'SIDECAR_PROXY', description: '', labels: {} });
});

it('50 member resources of one role from two provider processes at once (their writes conflict on the etag): none lost, none left', async () => {
  const hostsOfRun = [await hostFor('iam-member-impl'), await hostFor('iam-member-impl')];
  const members = Array.from({ length: 50 }, (_, i) => `user:member-${String(i).padStart(2, '0')}@example.com`);
  const created = await Promise.all(
    members.map(async (member, i) => {
      const host = hostsOfRun[i % 2];
      const urn = dynamicUrn('networkservices/v1:EndpointPolicyIamMember', `m${i}`);
      const { inputs } = await host.check(urn, {}, { name: POLICY, role: VIEWER, member });
      return { host, urn, created: await host.create(urn, inputs) };
    }),
  );
  expect(await viewers()).toEqual(members);
  await Promise.all(created.map(({ host, urn, created: c }) => host.delete(c.id, urn, c.properties)));
  expect(await viewers()).toEqual([]);
});
