/**
 * The three IAM resources side by side on one endpoint policy, against the embedded emulator (the
 * default backend, in this process): what each owns, what they leave alone, which combinations
 * fight, drift, and concurrent writers. Each resource is driven through its provider module as
 * the dynamic-provider host drives it (check, then create / diff / update / read / delete).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ENDPOINT_ENV, resetBackendCache } from '../../provider/backends';
import { closeEmbeddedBackend } from '../../provider/embedded';
import { clientFor } from '../../provider/runtime';
import * as endpointPolicy from '../../provider/endpoint-policy-impl';
import * as bindingImpl from '../../provider/iam-binding-impl';
import * as memberImpl from '../../provider/iam-member-impl';
import * as policyImpl from '../../provider/iam-policy-impl';
import type { IamPolicy } from '../../provider/iam-policy-edit';

jest.setTimeout(120_000);

const PROJECT = 'iam-semantics';
const VIEWER = 'roles/networkservices.viewer';
const EDITOR = 'roles/networkservices.admin';

let tmp: string;
const cwd = process.cwd();
const savedEndpoint = process.env[ENDPOINT_ENV];

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-iam-'));
  process.chdir(tmp);
  delete process.env[ENDPOINT_ENV];
  resetBackendCache();
});

afterAll(async () => {
  await closeEmbeddedBackend();
  process.chdir(cwd);
  if (savedEndpoint !== undefined) process.env[ENDPOINT_ENV] = savedEndpoint;
  resetBackendCache();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A new endpoint policy per test, so each starts from an empty IAM policy. */
let counter = 0;
async function newEndpointPolicy(): Promise<string> {
  const checked = endpointPolicy.check(
    {},
    {
      project: PROJECT,
      endpointPolicyId: `ep-${++counter}`,
      type: 'SIDECAR_PROXY',
      endpointMatcher: { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY', metadataLabels: [{ labelName: 'app', labelValue: 'web' }] } },
    },
  );
  expect(checked.failures).toEqual([]);
  return (await endpointPolicy.create(checked.inputs)).id;
}

const api = () => clientFor('networkservices');
const getPolicy = (name: string) => api().get<IamPolicy>(`/v1/${name}:getIamPolicy`, { 'options.requestedPolicyVersion': 3 });

/** The policy as `{role: sorted members}` (unconditional bindings), for readable expectations. */
async function grants(name: string): Promise<Record<string, string[]>> {
  const policy = await getPolicy(name);
  return Object.fromEntries((policy.bindings ?? []).map((b) => [b.condition ? `${b.role} if ${b.condition.title}` : b.role, [...b.members].sort()]));
}

/** Another tool's write: read, edit, write with the etag read (retrying on ABORTED itself). */
async function outOfBand(name: string, edit: (p: IamPolicy) => IamPolicy): Promise<void> {
  for (;;) {
    const current = await getPolicy(name);
    try {
      await api().post(`/v1/${name}:setIamPolicy`, { policy: { ...edit(current), etag: current.etag, version: 3 } });
      return;
    } catch (err) {
      if ((err as { status?: string }).status !== 'ABORTED') throw err;
    }
  }
}

async function upMember(args: Record<string, unknown>) {
  const { inputs, failures } = memberImpl.check({}, args);
  expect(failures).toEqual([]);
  const created = await memberImpl.create(inputs as memberImpl.MemberInputs);
  return { id: created.id, outs: created.outs as memberImpl.MemberOutputs };
}

async function upBinding(args: Record<string, unknown>) {
  const { inputs, failures } = bindingImpl.check({}, args);
  expect(failures).toEqual([]);
  const created = await bindingImpl.create(inputs as bindingImpl.BindingInputs);
  return { id: created.id, outs: created.outs as bindingImpl.BindingOutputs };
}

function checkPolicy(args: Record<string, unknown>) {
  const { inputs, failures } = policyImpl.check({}, { project: PROJECT, ...args });
  expect(failures).toEqual([]);
  return inputs as policyImpl.PolicyInputs;
}

const endpointPolicyId = (name: string) => name.split('/').pop() as string;

describe('EndpointPolicyIamMember', () => {
  it('two members of one role, in one stack, both stay; deleting one leaves the other', async () => {
    const name = await newEndpointPolicy();
    const alice = await upMember({ name, role: VIEWER, member: 'user:Alice@Example.com' });
    const bob = await upMember({ name, role: VIEWER, member: 'user:bob@example.com' });
    expect(alice.id).toBe(`${name} ${VIEWER} user:alice@example.com`);
    expect(await grants(name)).toEqual({ [VIEWER]: ['user:alice@example.com', 'user:bob@example.com'] });

    // A refresh of either finds it, and its inputs as written: no diff on the next up.
    for (const m of [alice, bob]) {
      const read = await memberImpl.read(m.id, m.outs);
      expect(read.id).toBe(m.id);
      expect(memberImpl.diff(m.id, read.props as memberImpl.MemberOutputs, read.inputs as memberImpl.MemberInputs).changes).toBe(false);
    }

    await memberImpl.remove(alice.id, alice.outs);
    expect(await grants(name)).toEqual({ [VIEWER]: ['user:bob@example.com'] });
    await memberImpl.remove(bob.id, bob.outs);
    expect(await grants(name)).toEqual({});
  });

  it('leaves members granted by others (out of band) in place, on create and on delete', async () => {
    const name = await newEndpointPolicy();
    await outOfBand(name, () => ({ bindings: [{ role: VIEWER, members: ['group:ops@example.com'] }] }));
    const alice = await upMember({ name, role: VIEWER, member: 'user:alice@example.com' });
    expect(await grants(name)).toEqual({ [VIEWER]: ['group:ops@example.com', 'user:alice@example.com'] });
    await memberImpl.remove(alice.id, alice.outs);
    expect(await grants(name)).toEqual({ [VIEWER]: ['group:ops@example.com'] });
  });

  it('a conditional grant is its own binding, beside the unconditional one', async () => {
    const name = await newEndpointPolicy();
    const condition = { title: 'until 2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' };
    const plain = await upMember({ name, role: VIEWER, member: 'user:alice@example.com' });
    const timed = await upMember({ name, role: VIEWER, member: 'user:alice@example.com', condition });
    expect(timed.id).toBe(`${name} ${VIEWER} user:alice@example.com until 2030`);
    expect(await grants(name)).toEqual({ [VIEWER]: ['user:alice@example.com'], [`${VIEWER} if until 2030`]: ['user:alice@example.com'] });
    // Import by id, condition title with a space included.
    const imported = await memberImpl.read(timed.id, {});
    expect(imported.inputs).toEqual({ name, role: VIEWER, member: 'user:alice@example.com', condition: { ...condition, description: undefined } });
    await memberImpl.remove(plain.id, plain.outs);
    expect(await grants(name)).toEqual({ [`${VIEWER} if until 2030`]: ['user:alice@example.com'] });
  });

  it('drift: a member removed out of band reads as gone, and the next up grants it again', async () => {
    const name = await newEndpointPolicy();
    const alice = await upMember({ name, role: VIEWER, member: 'user:alice@example.com' });
    await outOfBand(name, (p) => ({ bindings: (p.bindings ?? []).filter((b) => b.role !== VIEWER) }));
    // Refresh: gone, so Pulumi drops it from the state and creates it on the next up.
    expect(await memberImpl.read(alice.id, alice.outs)).toEqual({ id: '' });
    await upMember({ name, role: VIEWER, member: 'user:alice@example.com' });
    expect(await grants(name)).toEqual({ [VIEWER]: ['user:alice@example.com'] });
  });

  it('every argument names the grant: a change replaces, delete first only when the grant is the same one', () => {
    const name = 'projects/p1/locations/global/endpointPolicies/ep';
    const olds = { name, role: VIEWER, member: 'user:alice@example.com', etag: 'e', project: 'p1' };
    expect(memberImpl.diff('id', olds, { ...olds, member: 'user:ALICE@example.com' })).toMatchObject({ changes: false });
    expect(memberImpl.diff('id', olds, { ...olds, member: 'user:bob@example.com' })).toMatchObject({ replaces: ['member'], deleteBeforeReplace: false });
    expect(memberImpl.diff('id', olds, { ...olds, role: EDITOR })).toMatchObject({ replaces: ['role'], deleteBeforeReplace: false });
    const condition = { title: 't', expression: 'true' };
    const withCondition = { ...olds, condition };
    expect(memberImpl.diff('id', withCondition, { ...withCondition, condition: { ...condition, location: 'main.ts:3' } })).toMatchObject({
      replaces: ['condition'],
      deleteBeforeReplace: true,
    });
  });

  it('check names the field and the rule', () => {
    const { failures } = memberImpl.check(
      {},
      { name: 'projects/p1/locations/us-central1/endpointPolicies/ep', role: 'roles/storage.admin', member: 'alice@example.com' },
    );
    expect(failures).toEqual([
      { property: 'name', reason: expect.stringContaining('locations/global') },
      { property: 'role', reason: 'Role roles/storage.admin is not supported for this resource.' },
      { property: 'member', reason: expect.stringContaining('must be a member of the form') },
    ]);
  });

  it('50 member resources of one role created and deleted at once, with another tool writing meanwhile: none lost, none left', async () => {
    const name = await newEndpointPolicy();
    const emails = Array.from({ length: 50 }, (_, i) => `user:user-${String(i).padStart(2, '0')}@example.com`);
    // The other tool adds 10 editors, one write each, at the same time: its writes and the
    // members' writes conflict on the etag, and each side retries its whole cycle.
    const editors = Array.from({ length: 10 }, (_, i) => `group:team-${i}@example.com`);
    const [members] = await Promise.all([
      Promise.all(emails.map((member) => upMember({ name, role: VIEWER, member }))),
      Promise.all(
        editors.map((editor) =>
          outOfBand(name, (p) => {
            const others = (p.bindings ?? []).filter((b) => b.role !== EDITOR);
            const current = (p.bindings ?? []).find((b) => b.role === EDITOR)?.members ?? [];
            return { bindings: [...others, { role: EDITOR, members: [...current, editor] }] };
          }),
        ),
      ),
    ]);
    expect(await grants(name)).toEqual({ [VIEWER]: emails, [EDITOR]: [...editors].sort() });
    for (const m of members) expect((await memberImpl.read(m.id, m.outs)).id).toBe(m.id);

    await Promise.all(members.map((m) => memberImpl.remove(m.id, m.outs)));
    expect(await grants(name)).toEqual({ [EDITOR]: [...editors].sort() });
  }, 180_000);
});

describe('EndpointPolicyIamMember beside EndpointPolicyIamBinding', () => {
  it('on different roles they never meet', async () => {
    const name = await newEndpointPolicy();
    const binding = await upBinding({ name, role: EDITOR, members: ['group:ops@example.com'] });
    const alice = await upMember({ name, role: VIEWER, member: 'user:alice@example.com' });
    expect(await grants(name)).toEqual({ [EDITOR]: ['group:ops@example.com'], [VIEWER]: ['user:alice@example.com'] });
    await bindingImpl.remove(binding.id, binding.outs);
    expect(await grants(name)).toEqual({ [VIEWER]: ['user:alice@example.com'] });
    expect((await memberImpl.read(alice.id, alice.outs)).id).toBe(alice.id);
  });

  it('on the same role they fight: the binding owns the list, and the member reads as gone after the binding writes', async () => {
    const name = await newEndpointPolicy();
    const alice = await upMember({ name, role: VIEWER, member: 'user:alice@example.com' });
    const binding = await upBinding({ name, role: VIEWER, members: ['group:ops@example.com'] });
    expect(await grants(name)).toEqual({ [VIEWER]: ['group:ops@example.com'] });
    // What the user sees: a refresh drops the member, the next up adds it back...
    expect(await memberImpl.read(alice.id, alice.outs)).toEqual({ id: '' });
    await upMember({ name, role: VIEWER, member: 'user:alice@example.com' });
    // ...and the binding then reads as drifted (a member it does not list), to be taken away again.
    const read = await bindingImpl.read(binding.id, binding.outs);
    expect((read.props as bindingImpl.BindingOutputs).members).toEqual(['group:ops@example.com', 'user:alice@example.com']);
    expect(bindingImpl.diff(binding.id, read.props as bindingImpl.BindingOutputs, binding.outs)).toMatchObject({ changes: true, replaces: [] });
  });
});

describe('EndpointPolicyIamPolicy', () => {
  it('replaces everything on create, reads back, and leaves an empty policy on delete', async () => {
    const name = await newEndpointPolicy();
    await upBinding({ name, role: EDITOR, members: ['group:ops@example.com'] });
    await upMember({ name, role: VIEWER, member: 'user:alice@example.com' });
    const inputs = checkPolicy({ endpointPolicyId: endpointPolicyId(name), bindings: [{ role: VIEWER, members: ['user:Carol@example.com'] }] });
    expect(inputs).toMatchObject({ project: PROJECT, location: 'global', bindings: [{ role: VIEWER, members: ['user:carol@example.com'] }] });
    const created = await policyImpl.create(inputs);
    expect(created.id).toBe(name);
    expect(await grants(name)).toEqual({ [VIEWER]: ['user:carol@example.com'] });
    expect(created.outs).toMatchObject({ bindings: [{ role: VIEWER, members: ['user:carol@example.com'] }], etag: expect.any(String), auditConfigs: [] });

    const read = await policyImpl.read(created.id, created.outs);
    expect(policyImpl.diff(created.id, read.props as policyImpl.PolicyOutputs, inputs).changes).toBe(false);

    await policyImpl.remove(created.id, created.outs as policyImpl.PolicyOutputs);
    const after = await getPolicy(name);
    expect(after.bindings ?? []).toEqual([]);
    expect(after.auditConfigs ?? []).toEqual([]);
  });

  it('drift: a binding added out of band shows as a change on refresh, and the update removes it', async () => {
    const name = await newEndpointPolicy();
    const inputs = checkPolicy({ endpointPolicyId: endpointPolicyId(name), bindings: [{ role: VIEWER, members: ['user:carol@example.com'] }] });
    const created = await policyImpl.create(inputs);
    await outOfBand(name, (p) => ({ bindings: [...(p.bindings ?? []), { role: EDITOR, members: ['user:mallory@example.com'] }] }));
    const read = await policyImpl.read(created.id, created.outs);
    const refreshed = read.props as policyImpl.PolicyOutputs;
    expect(policyImpl.diff(created.id, refreshed, inputs)).toMatchObject({ changes: true, replaces: [] });
    await policyImpl.update(created.id, refreshed, inputs);
    expect(await grants(name)).toEqual({ [VIEWER]: ['user:carol@example.com'] });
  });

  it('a change of bindings is an update; another endpoint policy is a replace; etag, updateMask and version alone change nothing', async () => {
    const name = await newEndpointPolicy();
    const inputs = checkPolicy({ endpointPolicyId: endpointPolicyId(name), bindings: [{ role: VIEWER, members: ['user:carol@example.com'] }] });
    const created = await policyImpl.create(inputs);
    const outs = created.outs as policyImpl.PolicyOutputs;
    const more = checkPolicy({
      endpointPolicyId: endpointPolicyId(name),
      bindings: [{ role: VIEWER, members: ['user:carol@example.com', 'user:dan@example.com'] }],
    });
    expect(policyImpl.diff(created.id, outs, more)).toMatchObject({ changes: true, replaces: [] });
    await policyImpl.update(created.id, outs, more);
    expect(await grants(name)).toEqual({ [VIEWER]: ['user:carol@example.com', 'user:dan@example.com'] });
    expect(policyImpl.diff(created.id, outs, { ...inputs, endpointPolicyId: 'other' })).toMatchObject({ changes: true, replaces: ['endpointPolicyId'] });
    expect(policyImpl.diff(created.id, outs, { ...inputs, version: 1, updateMask: 'bindings', etag: 'BwXYZ' })).toMatchObject({ changes: false });
    // The same grants in another order or spelling are no change.
    const shuffled = checkPolicy({
      endpointPolicyId: endpointPolicyId(name),
      bindings: [
        { role: VIEWER, members: ['user:CAROL@example.com'] },
        { role: VIEWER, members: ['user:carol@example.com'] },
      ],
    });
    expect(policyImpl.diff(created.id, outs, shuffled).changes).toBe(false);
  });

  it('beside a member of the same endpoint policy, the policy wins every write and the member reads as gone', async () => {
    const name = await newEndpointPolicy();
    const alice = await upMember({ name, role: VIEWER, member: 'user:alice@example.com' });
    const inputs = checkPolicy({ endpointPolicyId: endpointPolicyId(name), bindings: [{ role: EDITOR, members: ['group:ops@example.com'] }] });
    await policyImpl.create(inputs);
    expect(await grants(name)).toEqual({ [EDITOR]: ['group:ops@example.com'] });
    expect(await memberImpl.read(alice.id, alice.outs)).toEqual({ id: '' });
  });

  it('with a stale etag given, the write fails with ABORTED instead of overwriting', async () => {
    const name = await newEndpointPolicy();
    const stale = (await getPolicy(name)).etag;
    await outOfBand(name, () => ({ bindings: [{ role: EDITOR, members: ['group:ops@example.com'] }] }));
    const inputs = checkPolicy({ endpointPolicyId: endpointPolicyId(name), etag: stale, bindings: [{ role: VIEWER, members: ['user:carol@example.com'] }] });
    await expect(policyImpl.create(inputs)).rejects.toMatchObject({ status: 'ABORTED' });
    expect(await grants(name)).toEqual({ [EDITOR]: ['group:ops@example.com'] });
  });

  it('on an endpoint policy that does not exist, create says so', async () => {
    const inputs = checkPolicy({ endpointPolicyId: 'never-created', bindings: [] });
    await expect(policyImpl.create(inputs)).rejects.toThrow(
      /endpoint policy projects\/iam-semantics\/locations\/global\/endpointPolicies\/never-created does not exist/,
    );
  });

  it('check names the field and the rule', () => {
    const { failures } = policyImpl.check(
      {},
      {
        project: PROJECT,
        endpointPolicyId: 'Bad_Id',
        location: 'us-central1',
        bindings: [{ role: 'roles/storage.admin', members: ['user:a@example.com'] }],
        version: 2,
      },
    );
    expect(failures).toEqual([
      { property: 'endpointPolicyId', reason: expect.stringContaining('must be a resource ID') },
      { property: 'location', reason: 'must be global (endpoint policies exist in location global only)' },
      { property: 'bindings[0].role', reason: 'Role roles/storage.admin is not supported for this resource.' },
      { property: 'version', reason: 'must be 0, 1 or 3' },
    ]);
  });
});
