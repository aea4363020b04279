/**
 * Both resources (and their companions) driven through the real plugin protocol: the
 * dynamic-provider host from @pulumi/pulumi, over gRPC, against an emulator server.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { createTestProgram, type TestProgram } from '../../support/harness/program';
import { dynamicUrn, startProviderHost, type ProviderHost, type PropertyMap } from '../../support/harness/provider-host';
import { startEmulator, type RunningEmulator } from '../../backend-emulator';
import { restApi } from '../support/rest-api';

jest.setTimeout(180_000);

type LazyProviderModule = typeof import('../../provider/lazy-provider');

const PROJECT = 'lifecycle-project';
const POLICY = `projects/${PROJECT}/locations/global/endpointPolicies/web`;
const b64 = (text: string) => Buffer.from(text).toString('base64');
const GOOD_CSV = 'MachineId,MachineName,AllocatedProcessorCoreCount,MemoryGiB\nvm-1,web-1,4,16\nvm-2,db-1,8,64\n';
const BAD_CSV = 'MachineId,MachineName,AllocatedProcessorCoreCount,MemoryGiB\nvm-1,web-1,four,16\n';

let program: TestProgram;
let emulator: RunningEmulator;
let serialized: Record<string, string>;

async function hostFor(kind: keyof typeof serialized): Promise<ProviderHost> {
  const host = await startProviderHost({ cwd: program.dir, provider: serialized[kind], project: 'lifecycle' });
  await host.configure({ 'google-native-local:endpoint': emulator.url, 'google-native-local:project': PROJECT });
  return host;
}

const api = restApi(() => emulator.url);

async function bindingsOf(name: string): Promise<Array<{ role: string; members: string[]; condition?: PropertyMap }>> {
  const policy = await api<{ bindings?: Array<{ role: string; members: string[] }> }>('GET', `/v1/${name}:getIamPolicy?options.requestedPolicyVersion=3`);
  return policy.bindings ?? [];
}

beforeAll(async () => {
  program = await createTestProgram();
  // The provider text the package's resources store, loaded from the installed package.
  const lazy = program.requirePackage<LazyProviderModule>('dist/provider/lazy-provider');
  serialized = {
    binding: lazy.providerModuleText('iam-binding-impl'),
    job: lazy.providerModuleText('import-job-impl'),
    policy: lazy.providerModuleText('endpoint-policy-impl'),
    source: lazy.providerModuleText('source-impl'),
  };
  emulator = await startEmulator({ port: 0, inMemory: true });
});

afterAll(async () => {
  await emulator?.close();
  program?.cleanup();
});

it('serialises each provider into a small closure that requires the package', () => {
  for (const text of Object.values(serialized)) {
    expect(text.length).toBeLessThan(4096);
    expect(text).toContain('google-native-local/dist/provider/');
  }
});

describe('EndpointPolicy + EndpointPolicyIamBinding', () => {
  let host: ProviderHost;
  beforeAll(async () => {
    host = await hostFor('policy');
    const urn = dynamicUrn('networkservices/v1:EndpointPolicy', 'web');
    const { inputs, failures } = await host.check(
      urn,
      {},
      {
        endpointPolicyId: 'web',
        type: 'SIDECAR_PROXY',
        endpointMatcher: { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY', metadataLabels: [{ labelName: 'app', labelValue: 'web' }] } },
      },
    );
    expect(failures).toEqual([]);
    expect(inputs).toMatchObject({ project: PROJECT, location: 'global' });
    const created = await host.create(urn, inputs);
    expect(created.id).toBe(POLICY);
    expect(created.properties).toMatchObject({ name: POLICY, createTime: expect.any(String) });
    host.provider = serialized.binding;
  });
  afterAll(() => host?.close());

  const urn = dynamicUrn('networkservices/v1:EndpointPolicyIamBinding', 'viewers');
  const args = { name: POLICY, role: 'roles/networkservices.viewer', members: ['user:Alice@Example.com', 'group:ops@example.com'] };

  it('reports check failures by property', async () => {
    const { failures } = await host.check(urn, {}, { ...args, members: ['alice@example.com'], condition: { title: 't', expression: 'request.time <' } });
    expect(failures.map((f) => f.property)).toEqual(['members[0]', 'condition.expression']);
  });

  it('refuses at preview a role endpoint policies do not take, and a location other than global', async () => {
    const { failures } = await host.check(
      urn,
      {},
      { ...args, name: `projects/${PROJECT}/locations/us-central1/endpointPolicies/web`, role: 'roles/storage.admin' },
    );
    expect(failures).toEqual([
      { property: 'name', reason: expect.stringContaining('locations/global') },
      { property: 'role', reason: 'Role roles/storage.admin is not supported for this resource.' },
    ]);
  });

  it('a binding on an endpoint policy that does not exist fails clearly, and stores nothing', async () => {
    const missing = `projects/${PROJECT}/locations/global/endpointPolicies/never-created`;
    const { inputs } = await host.check(urn, {}, { ...args, name: missing });
    await expect(host.create(urn, inputs)).rejects.toThrow(`endpoint policy ${missing} does not exist: create it first`);
    await expect(api('GET', `/v1/${missing}:getIamPolicy`)).rejects.toThrow(/404/);
  });

  it('goes through create, no-op diff, update, refresh with drift, import, replace and delete', async () => {
    const { inputs } = await host.check(urn, {}, args);
    expect(inputs.members).toEqual(['group:ops@example.com', 'user:alice@example.com']);
    const created = await host.create(urn, inputs);
    expect(created.id).toBe(`${POLICY}/roles/networkservices.viewer`);
    expect(created.properties).toMatchObject({ project: PROJECT, etag: expect.stringMatching(/^[A-Za-z0-9+/=_-]+$/) });
    expect(await bindingsOf(POLICY)).toEqual([{ role: 'roles/networkservices.viewer', members: ['group:ops@example.com', 'user:alice@example.com'] }]);

    expect((await host.diff(created.id, urn, created.properties, inputs)).changes).toBe('none');

    // Update in place: members only.
    const more = (await host.check(urn, inputs, { ...args, members: [...args.members, 'domain:example.org'] })).inputs;
    const diff = await host.diff(created.id, urn, created.properties, more);
    expect([diff.changes, diff.replaces]).toEqual(['some', []]);
    const updated = await host.update(created.id, urn, created.properties, more);
    expect(updated.properties.etag).not.toBe(created.properties.etag);
    expect((await bindingsOf(POLICY))[0].members).toContain('domain:example.org');

    // Out-of-band change: someone adds a member; refresh shows the drift.
    const policy = await api<PropertyMap>('GET', `/v1/${POLICY}:getIamPolicy`);
    const bindings = policy.bindings as Array<{ role: string; members: string[] }>;
    bindings[0].members.push('user:mallory@example.com');
    await api('POST', `/v1/${POLICY}:setIamPolicy`, { policy });
    const refreshed = await host.read(created.id, urn, updated.properties, more);
    expect(refreshed.properties.members).toContain('user:mallory@example.com');
    expect((await host.diff(created.id, urn, refreshed.properties, more)).changes).toBe('some');

    // Import by id: only the id is known.
    const imported = await host.read(created.id, urn, {});
    expect(imported.id).toBe(created.id);
    expect(imported.properties).toMatchObject({ name: POLICY, role: 'roles/networkservices.viewer', project: PROJECT });

    // Replacement: a new role; the old binding goes after the new one is made.
    const editors = (await host.check(urn, more, { ...args, role: 'roles/networkservices.admin' })).inputs;
    const replace = await host.diff(created.id, urn, refreshed.properties, editors);
    expect([replace.replaces, replace.deleteBeforeReplace]).toEqual([['role'], false]);
    const replacement = await host.create(urn, editors);
    await host.delete(created.id, urn, refreshed.properties);
    expect((await bindingsOf(POLICY)).map((b) => b.role)).toEqual(['roles/networkservices.admin']);

    // Removed outside Pulumi: refresh reports it gone.
    await api('POST', `/v1/${POLICY}:setIamPolicy`, { policy: { bindings: [] } });
    expect((await host.read(replacement.id, urn, replacement.properties)).id).toBe('');
    await host.delete(replacement.id, urn, replacement.properties);
  });

  it('keeps a conditional binding apart from the plain one of the same role', async () => {
    const plain = (await host.check(urn, {}, args)).inputs;
    const conditional = (
      await host.check(
        urn,
        {},
        {
          ...args,
          members: ['user:bob@example.com'],
          condition: { title: 'until 2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' },
        },
      )
    ).inputs;
    const a = await host.create(urn, plain);
    const b = await host.create(urn, conditional);
    expect(b.id).toBe(`${POLICY}/roles/networkservices.viewer/until 2030`);
    expect(await bindingsOf(POLICY)).toHaveLength(2);
    const imported = await host.read(b.id, urn, {});
    expect(imported.properties).toMatchObject({ members: ['user:bob@example.com'], condition: { title: 'until 2030' } });
    await host.delete(a.id, urn, a.properties);
    expect(await bindingsOf(POLICY)).toEqual([expect.objectContaining({ members: ['user:bob@example.com'] })]);
    await host.delete(b.id, urn, b.properties);
    expect(await bindingsOf(POLICY)).toEqual([]);
  });

  it('loses nothing when 200 bindings for 200 roles are created at once, from two processes', async () => {
    const second = await hostFor('binding');
    try {
      const roles = Array.from({ length: 200 }, (_, i) => `projects/${PROJECT}/roles/custom${i}`);
      await Promise.all(
        roles.map((role, i) =>
          (i % 2 === 0 ? host : second).create(dynamicUrn('networkservices/v1:EndpointPolicyIamBinding', `r${i}`), {
            name: POLICY,
            role,
            members: [`user:u${i}@example.com`],
          }),
        ),
      );
      const bindings = await bindingsOf(POLICY);
      expect(bindings.map((b) => b.role).sort()).toEqual([...roles].sort());
      await api('POST', `/v1/${POLICY}:setIamPolicy`, { policy: { bindings: [] } });
    } finally {
      await second.close();
    }
  });
});

describe('Source + ImportJob', () => {
  let host: ProviderHost;
  const parent = `projects/${PROJECT}/locations/global`;
  beforeAll(async () => {
    host = await hostFor('source');
    const urn = dynamicUrn('migrationcenter/v1alpha1:Source', 'uploads');
    const { inputs, failures } = await host.check(urn, {}, { sourceId: 'uploads', type: 'SOURCE_TYPE_UPLOAD', displayName: 'Uploads' });
    expect(failures).toEqual([]);
    const created = await host.create(urn, inputs);
    expect(created.id).toBe(`${parent}/sources/uploads`);
    host.provider = serialized.job;
  });
  afterAll(() => host?.close());

  const urn = dynamicUrn('migrationcenter/v1alpha1:ImportJob', 'inventory');
  const args = {
    importJobId: 'inventory',
    displayName: 'Inventory',
    assetSource: `${parent}/sources/uploads`,
    inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: b64(GOOD_CSV) }] },
  };

  it('creates, validates and runs a job, then updates, refreshes, imports, replaces and deletes it', async () => {
    const { inputs, failures } = await host.check(urn, {}, args);
    expect(failures).toEqual([]);
    // Known at preview: check() gives the name that follows from the inputs.
    expect(inputs.name).toBe(`${parent}/importJobs/inventory`);
    const created = await host.create(urn, inputs);
    expect(created.id).toBe(`${parent}/importJobs/inventory`);
    expect(created.properties).toMatchObject({
      name: `${parent}/importJobs/inventory`,
      state: 'IMPORT_JOB_STATE_COMPLETED',
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      createTime: expect.stringMatching(/Z$/),
      completeTime: expect.stringMatching(/Z$/),
      executionReport: expect.objectContaining({ totalRowsCount: 2 }),
      validationReport: expect.objectContaining({ jobErrors: [] }),
    });
    expect((await host.diff(created.id, urn, created.properties, inputs)).changes).toBe('none');

    const renamed = (await host.check(urn, inputs, { ...args, displayName: 'Renamed', labels: { env: 'test' } })).inputs;
    expect((await host.diff(created.id, urn, created.properties, renamed)).replaces).toEqual([]);
    const updated = await host.update(created.id, urn, created.properties, renamed);
    expect(updated.properties).toMatchObject({ displayName: 'Renamed', labels: { env: 'test' }, requestId: created.properties.requestId });

    await api('PATCH', `/v1alpha1/${created.id}?updateMask=displayName`, { displayName: 'Changed outside' });
    const refreshed = await host.read(created.id, urn, updated.properties, renamed);
    expect(refreshed.inputs?.displayName).toBe('Changed outside');

    const imported = await host.read(created.id, urn, {});
    expect(imported.properties).toMatchObject({ importJobId: 'inventory', project: PROJECT, location: 'global', state: 'IMPORT_JOB_STATE_COMPLETED' });

    const bad = (await host.check(urn, renamed, { ...args, inlinePayload: { ...args.inlinePayload, payload: [{ name: 'vmInfo.csv', data: b64(BAD_CSV) }] } }))
      .inputs;
    const replace = await host.diff(created.id, urn, refreshed.properties, bad);
    expect([replace.replaces, replace.deleteBeforeReplace]).toEqual([['inlinePayload'], true]);
    await host.delete(created.id, urn, refreshed.properties);
    const second = await host.create(urn, bad);
    // Data errors are not call errors: they are in the report and the state.
    expect(second.properties.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
    const rowErrors = (second.properties.validationReport as { fileValidations: Array<{ rowErrors: Array<{ rowNumber: number }> }> }).fileValidations[0]
      .rowErrors;
    expect(rowErrors[0].rowNumber).toBe(2);

    await host.delete(second.id, urn, second.properties);
    expect((await host.read(second.id, urn, second.properties)).id).toBe('');
  });

  it('imports local files as data files: uploads them, runs the job, and replaces it only when a file changes', async () => {
    const folder = path.join(program.dir, 'inventory');
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'vmInfo.csv'), GOOD_CSV);
    fs.writeFileSync(path.join(folder, 'diskInfo.csv'), 'MachineId,DiskLabel,SizeInGib,UsedInGib\nvm-1,/dev/sda,100,50\n');
    const filesUrn = dynamicUrn('migrationcenter/v1alpha1:ImportJob', 'from-files');
    const fileArgs = {
      importJobId: 'from-files',
      assetSource: `${parent}/sources/uploads`,
      format: 'IMPORT_JOB_FORMAT_MANUAL_CSV',
      files: [{ path: './inventory/vmInfo.csv' }, { path: './inventory/diskInfo.csv' }],
    };
    const { inputs, failures } = await host.check(filesUrn, {}, fileArgs);
    expect(failures).toEqual([]);
    const sha = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
    expect((inputs.files as PropertyMap[])[0]).toEqual({ path: './inventory/vmInfo.csv', sha256: sha(GOOD_CSV), size: GOOD_CSV.length });

    const created = await host.create(filesUrn, inputs);
    expect(created.properties).toMatchObject({ state: 'IMPORT_JOB_STATE_COMPLETED', executionReport: expect.objectContaining({ totalRowsCount: 3 }) });
    const job = `${parent}/importJobs/from-files`;
    const dataFiles = await api<{ importDataFiles: Array<{ name: string; displayName: string; state: string }> }>('GET', `/v1alpha1/${job}/importDataFiles`);
    expect(dataFiles.importDataFiles.map((f) => [f.name, f.displayName, f.state]).sort()).toEqual([
      [`${job}/importDataFiles/disk-info-csv`, 'diskInfo.csv', 'ACTIVE'],
      [`${job}/importDataFiles/vm-info-csv`, 'vmInfo.csv', 'ACTIVE'],
    ]);
    const assets = await api<{ assets?: Array<{ attributes?: Record<string, string> }> }>('GET', `/v1alpha1/${parent}/assets?view=ASSET_VIEW_FULL`);
    expect(assets.assets?.length ?? 0).toBeGreaterThan(0);

    // A second `pulumi up` with the same files: no change.
    const again = (await host.check(filesUrn, created.properties, fileArgs)).inputs;
    expect((await host.diff(created.id, filesUrn, created.properties, again)).changes).toBe('none');

    // A changed file: the job is replaced (it runs once), the old one deleted first (same name).
    fs.writeFileSync(path.join(folder, 'vmInfo.csv'), BAD_CSV);
    const changedInputs = (await host.check(filesUrn, created.properties, fileArgs)).inputs;
    const replace = await host.diff(created.id, filesUrn, created.properties, changedInputs);
    expect([replace.replaces, replace.deleteBeforeReplace]).toEqual([['files'], true]);

    // A missing file fails at preview, naming the file.
    const missing = await host.check(filesUrn, {}, { ...fileArgs, files: [{ path: './inventory/nope.csv' }] });
    expect(missing.failures).toEqual([{ property: 'files[0].path', reason: expect.stringMatching(/^\.\/inventory\/nope\.csv: no such file/) }]);
    await host.delete(created.id, filesUrn, created.properties);
  });

  it('surfaces a Google error with its status and message', async () => {
    const { inputs } = await host.check(urn, {}, { ...args, importJobId: 'dup' });
    await host.create(urn, inputs);
    await expect(host.create(urn, { ...inputs, requestId: undefined })).rejects.toThrow(/ALREADY_EXISTS/);
  });
});

describe('the embedded default backend', () => {
  it('needs no server and keeps state in the program folder between runs', async () => {
    const start = async (kind: keyof typeof serialized) => {
      const host = await startProviderHost({ cwd: program.dir, provider: serialized[kind], project: 'embedded' });
      await host.configure({ 'google-native-local:project': PROJECT });
      return host;
    };
    const first = await start('policy');
    const policyUrn = dynamicUrn('networkservices/v1:EndpointPolicy', 'embedded');
    const policy = await first.create(
      policyUrn,
      (
        await first.check(
          policyUrn,
          {},
          {
            endpointPolicyId: 'embedded',
            type: 'GRPC_SERVER',
            endpointMatcher: { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ALL', metadataLabels: [{ labelName: 'a', labelValue: 'b' }] } },
          },
        )
      ).inputs,
    );
    first.provider = serialized.binding;
    const urn = dynamicUrn('networkservices/v1:EndpointPolicyIamBinding', 'embedded');
    const binding = await first.create(urn, { name: policy.id, role: 'roles/networkservices.viewer', members: ['user:eve@example.com'] });
    await first.close();

    // A second run (a new host process): the state is still there, read from .google-native-local/.
    const second = await start('binding');
    try {
      const read = await second.read(binding.id, urn, binding.properties);
      expect(read.properties).toMatchObject({ members: ['user:eve@example.com'], etag: binding.properties.etag });
      await second.delete(binding.id, urn, binding.properties);
      expect((await second.read(binding.id, urn, binding.properties)).id).toBe('');
    } finally {
      await second.close();
    }
    // Nothing of it reached the emulator server the other tests use.
    await expect(api('GET', `/v1/${policy.id}`)).rejects.toThrow(/404/);
  });

  it('uploads local files to the embedded emulator through its own wire (signed URL answered in process)', async () => {
    fs.writeFileSync(path.join(program.dir, 'vmInfo.csv'), GOOD_CSV);
    const host = await startProviderHost({ cwd: program.dir, provider: serialized.source, project: 'embedded' });
    try {
      await host.configure({ 'google-native-local:project': PROJECT });
      const sourceUrn = dynamicUrn('migrationcenter/v1alpha1:Source', 'embedded-src');
      const source = await host.create(sourceUrn, (await host.check(sourceUrn, {}, { sourceId: 'embedded-src' })).inputs);
      host.provider = serialized.job;
      const urn = dynamicUrn('migrationcenter/v1alpha1:ImportJob', 'embedded-files');
      const args = { importJobId: 'embedded-files', assetSource: source.id, format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', files: [{ path: 'vmInfo.csv' }] };
      const { inputs, failures } = await host.check(urn, {}, args);
      expect(failures).toEqual([]);
      const created = await host.create(urn, inputs);
      expect(created.properties).toMatchObject({ state: 'IMPORT_JOB_STATE_COMPLETED', executionReport: expect.objectContaining({ totalRowsCount: 2 }) });
      await host.delete(created.id, urn, created.properties);
    } finally {
      await host.close();
    }
  });
});

describe('companion resources update in place through updateMask', () => {
  it('EndpointPolicy and Source', async () => {
    const host = await hostFor('source');
    try {
      const urn = dynamicUrn('migrationcenter/v1alpha1:Source', 'patched');
      const first = (await host.check(urn, {}, { sourceId: 'patched', displayName: 'One', type: 'SOURCE_TYPE_UPLOAD' })).inputs;
      const created = await host.create(urn, first);
      const second = (await host.check(urn, first, { sourceId: 'patched', displayName: 'Two', type: 'SOURCE_TYPE_UPLOAD', priority: 7 })).inputs;
      const diff = await host.diff(created.id, urn, created.properties, second);
      expect([diff.changes, diff.replaces]).toEqual(['some', []]);
      // The name follows from the inputs: check() gives it, so at preview (where the engine takes
      // the checked inputs as the outputs of an update) a job's assetSource stays known and the
      // job previews unchanged instead of replaced.
      expect([first.name, second.name]).toEqual([created.id, created.id]);
      const updated = await host.update(created.id, urn, created.properties, second);
      expect(updated.properties).toMatchObject({ displayName: 'Two', priority: 7 });
      expect(await api('GET', `/v1alpha1/${created.id}`)).toMatchObject({ displayName: 'Two', priority: 7, type: 'SOURCE_TYPE_UPLOAD' });
      expect((await host.diff(created.id, urn, updated.properties, second)).changes).toBe('none');
      const moved = (await host.check(urn, second, { ...second, sourceId: 'moved' })).inputs;
      expect(moved.name).toBe(created.id.replace(/patched$/, 'moved'));
      expect((await host.diff(created.id, urn, updated.properties, moved)).replaces).toEqual(['sourceId']);
      await host.delete(created.id, urn, updated.properties);

      host.provider = serialized.policy;
      const purn = dynamicUrn('networkservices/v1:EndpointPolicy', 'patched');
      const matcher = { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY', metadataLabels: [{ labelName: 'a', labelValue: 'b' }] } };
      const p1 = (await host.check(purn, {}, { endpointPolicyId: 'patched', type: 'SIDECAR_PROXY', endpointMatcher: matcher })).inputs;
      const policy = await host.create(purn, p1);
      const p2 = (await host.check(purn, p1, { ...p1, description: 'now described', labels: { env: 'test' } })).inputs;
      expect((await host.diff(policy.id, purn, policy.properties, p2)).replaces).toEqual([]);
      const updatedPolicy = await host.update(policy.id, purn, policy.properties, p2);
      expect(updatedPolicy.properties).toMatchObject({ description: 'now described', labels: { env: 'test' } });
      expect(await api('GET', `/v1/${policy.id}`)).toMatchObject({ description: 'now described', type: 'SIDECAR_PROXY' });
      await host.delete(policy.id, purn, updatedPolicy.properties);
      await expect(api('GET', `/v1/${policy.id}`)).rejects.toThrow(/404/);
    } finally {
      await host.close();
    }
  });
});
