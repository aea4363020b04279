/**
 * The Migration Center resources built on the REST resource lifecycle (Group, ReportConfig,
 * Report, DiscoveryClient): what check() refuses and where, the name each resolves to, and
 * which changes replace rather than update, as Google's methods decide (no update method for
 * report configs, reports and data files; a discovery client's source is fixed); and an
 * ImportDataFile's whole life against the embedded emulator.
 */
import * as group from '../../provider/group-impl';
import * as reportConfig from '../../provider/report-config-impl';
import * as report from '../../provider/report-impl';
import * as discoveryClient from '../../provider/discovery-client-impl';
import * as importDataFile from '../../provider/import-data-file-impl';
import * as preferenceSet from '../../provider/preference-set-impl';
import * as source from '../../provider/source-impl';
import { clientFor, configureFrom } from '../../provider/runtime';
import type { Operation } from '../../provider/client';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { tempDir } from '../../support/temp-dir';
import { closeEmbeddedBackend } from '../../provider/embedded';

// The embedded emulator keeps its data in `<cwd>/.google-native-local`: a folder of this test's own.
const workDir = tempDir('gnl-mc-resources-');
const startDir = process.cwd();

afterAll(async () => {
  await closeEmbeddedBackend();
  process.chdir(startDir);
  fs.rmSync(workDir, { recursive: true, force: true });
});

beforeAll(() => {
  process.chdir(workDir);
  configureFrom({ get: (key: string) => ({ 'google-native-local:project': 'mc-project' })[key] } as never);
});

const GROUP = 'projects/mc-project/locations/global/groups/web';
const PREFS = 'projects/mc-project/locations/global/preferenceSets/default';

describe('check', () => {
  it('fills the project and location and names the resource, under its parent for a report', () => {
    expect(group.check({}, { groupId: 'web', labels: { tier: 'front' } })).toEqual({
      inputs: { project: 'mc-project', location: 'global', groupId: 'web', labels: { tier: 'front' }, name: GROUP },
      failures: [],
    });
    const { inputs, failures } = report.check({}, { reportConfigId: 'wave-1', reportId: 'first', location: 'us-central1' });
    expect(failures).toEqual([]);
    expect(inputs.name).toBe('projects/mc-project/locations/us-central1/reportConfigs/wave-1/reports/first');
  });

  it('names every bad field with its rule', () => {
    expect((group.check({}, { groupId: 'Web', labels: { Tier: 'x' }, requestId: 'not-a-uuid' }).failures ?? []).map((f) => f.property)).toEqual([
      'groupId',
      'labels.Tier',
      'requestId',
    ]);
    const { failures } = reportConfig.check({}, { reportConfigId: 'wave-1', groupPreferencesetAssignments: [{ group: 'web', preferenceSet: PREFS }] });
    expect(failures).toEqual([
      { property: 'groupPreferencesetAssignments[0].group', reason: 'must be projects/{project}/locations/{location}/groups/{groupId}' },
    ]);
    expect(reportConfig.check({}, { reportConfigId: 'wave-1' }).failures).toEqual([{ property: 'groupPreferencesetAssignments', reason: 'is required' }]);
  });

  it('refuses a discovery client with both ttl and expireTime', () => {
    const args = { discoveryClientId: 'dc', serviceAccount: 'sa@p.iam.gserviceaccount.com', source: 'projects/mc-project/locations/global/sources/s' };
    expect(discoveryClient.check({}, { ...args, ttl: '3600s' }).failures).toEqual([]);
    expect(discoveryClient.check({}, { ...args, ttl: '3600s', expireTime: '2030-01-01T00:00:00Z' }).failures).toEqual([
      { property: 'ttl', reason: 'cannot be given together with expireTime: the client expires at one time' },
    ]);
    expect(discoveryClient.check({}, { ...args, ttl: 'an hour' }).failures).toEqual([
      { property: 'ttl', reason: 'must be a duration in seconds such as 3600s' },
    ]);
  });
});

describe('diff', () => {
  const place = { project: 'mc-project', location: 'global' };

  it('updates a group in place and replaces it for a new id', async () => {
    const old = { ...place, groupId: 'web', displayName: 'Web' };
    expect(await group.diff(GROUP, old, { ...old, displayName: 'Web tier' })).toMatchObject({ changes: true, replaces: [] });
    expect(await group.diff(GROUP, old, { ...old, groupId: 'web-2' })).toMatchObject({ changes: true, replaces: ['groupId'] });
    expect(await group.diff(GROUP, old, { ...old, requestId: '6f1c2b0e-8d8a-4c1e-9a4b-2f0d3c5e7a91' })).toMatchObject({ changes: false });
  });

  it('replaces a report config or a report for any change (Google has no update method)', () => {
    const old = { ...place, reportConfigId: 'wave-1', groupPreferencesetAssignments: [{ group: GROUP, preferenceSet: PREFS }] };
    expect(reportConfig.diff('x', old, { ...old, displayName: 'Wave 1' })).toMatchObject({ changes: true, replaces: ['displayName'] });
    const r = { ...place, reportConfigId: 'wave-1', reportId: 'first' };
    expect(report.diff('x', r, { ...r, reportConfigId: 'wave-2' })).toMatchObject({ replaces: ['reportConfigId'] });
    expect(report.diff('x', r, { ...r, description: 'd' })).toMatchObject({ replaces: ['description'] });
  });

  // One name holds one resource: creating the replacement first would be ALREADY_EXISTS.
  it('deletes first a resource replaced under the same name, and creates first one under a new name', () => {
    const r = { ...place, reportConfigId: 'wave-1', reportId: 'first' };
    expect(report.diff('x', r, { ...r, description: 'd' })).toMatchObject({ replaces: ['description'], deleteBeforeReplace: true });
    expect(report.diff('x', r, { ...r, reportId: 'second', description: 'd' })).toMatchObject({ deleteBeforeReplace: false });
    const dc = { ...place, discoveryClientId: 'dc', serviceAccount: 'a@p.iam.gserviceaccount.com', source: 'projects/mc-project/locations/global/sources/s' };
    expect(discoveryClient.diff('x', dc, { ...dc, source: 'projects/mc-project/locations/global/sources/t' })).toMatchObject({ deleteBeforeReplace: true });
    expect(discoveryClient.diff('x', dc, { ...dc, discoveryClientId: 'dc-2' })).toMatchObject({ deleteBeforeReplace: false });
    // An update replaces nothing: nothing to delete.
    expect(discoveryClient.diff('x', dc, { ...dc, displayName: 'Collector' })).toMatchObject({ replaces: [], deleteBeforeReplace: false });
    const file = { ...place, importJobId: 'j', importDataFileId: 'f', format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', sha256: 'aa' };
    expect(importDataFile.diff('x', file, { ...file, sha256: 'bb' })).toMatchObject({ replaces: ['sha256'], deleteBeforeReplace: true });
    expect(importDataFile.diff('x', file, { ...file, displayName: 'other.csv' })).toMatchObject({ replaces: ['displayName'], deleteBeforeReplace: true });
    expect(importDataFile.diff('x', file, { ...file, importDataFileId: 'g', sha256: 'bb' })).toMatchObject({
      replaces: ['importDataFileId', 'sha256'],
      deleteBeforeReplace: false,
    });
  });

  it('updates a discovery client in place but replaces it for another source', () => {
    const old = { ...place, discoveryClientId: 'dc', serviceAccount: 'a@p.iam.gserviceaccount.com', source: 'projects/mc-project/locations/global/sources/s' };
    expect(discoveryClient.diff('x', old, { ...old, serviceAccount: 'b@p.iam.gserviceaccount.com' })).toMatchObject({ changes: true, replaces: [] });
    expect(discoveryClient.diff('x', old, { ...old, source: 'projects/mc-project/locations/global/sources/t' })).toMatchObject({ replaces: ['source'] });
  });
});

describe('ImportDataFile against the embedded emulator', () => {
  const dir = tempDir('gnl-data-file-resource-');
  const job = 'projects/mc-project/locations/global/importJobs/inventory';
  const file = path.join(dir, 'vmInfo.csv');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('uploads the file, reads it back, replaces it when the bytes change, and deletes it', async () => {
    const client = clientFor('migrationcenter');
    const location = '/v1alpha1/projects/mc-project/locations/global';
    const done = { apiVersion: 'v1alpha1' };
    await client.waitForOperation(await client.post<Operation>(`${location}/sources`, {}, { sourceId: 'uploads' }), done);
    const assetSource = 'projects/mc-project/locations/global/sources/uploads';
    await client.waitForOperation(await client.post<Operation>(`${location}/importJobs`, { assetSource }, { importJobId: 'inventory' }), done);
    fs.writeFileSync(file, 'MachineId,MachineName\nvm-1,web-1\n');
    const args = { importJobId: 'inventory', importDataFileId: 'vm-info', format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: file };
    const checked = await importDataFile.check({}, args);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toMatchObject({ size: 33, sha256: createHash('sha256').update('MachineId,MachineName\nvm-1,web-1\n').digest('hex') });

    const created = await importDataFile.create(checked.inputs as Record<string, unknown>);
    expect(created.id).toBe(`${job}/importDataFiles/vm-info`);
    expect(created.outs).toMatchObject({ displayName: 'vmInfo.csv', format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', state: 'ACTIVE', size: 33 });
    const onServer = await client.get<{ state: string }>(`/v1alpha1/${job}/importDataFiles/vm-info`);
    expect(onServer.state).toBe('ACTIVE');

    const read = await importDataFile.read(created.id, created.outs as Record<string, unknown>);
    expect(read.props).toMatchObject({ path: file, size: 33, displayName: 'vmInfo.csv' });
    expect(importDataFile.diff(created.id, created.outs as Record<string, unknown>, checked.inputs as Record<string, unknown>).changes).toBe(false);

    fs.writeFileSync(file, 'MachineId,MachineName\nvm-1,web-2\n');
    const changed = await importDataFile.check({}, args);
    expect(importDataFile.diff(created.id, created.outs as Record<string, unknown>, changed.inputs as Record<string, unknown>)).toMatchObject({
      changes: true,
      replaces: ['sha256'],
      deleteBeforeReplace: true,
    });

    await importDataFile.remove(created.id);
    await expect(client.get(`/v1alpha1/${job}/importDataFiles/vm-info`)).rejects.toThrow(/NOT_FOUND|404/);
  });

  it('without a path (google-native\u2019s arguments) only creates the data file: the program PUTs the bytes to uploadFileInfo', async () => {
    const checked = await importDataFile.check(
      {},
      { importJobId: 'inventory', importDataFileId: 'perf', format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', displayName: 'perfInfo.csv', uploadFileInfo: {} },
    );
    expect(checked.failures).toEqual([]);
    const created = await importDataFile.create(checked.inputs as Record<string, unknown>);
    expect(created.outs).toMatchObject({
      name: `${job}/importDataFiles/perf`,
      displayName: 'perfInfo.csv',
      state: 'CREATING',
      uploadFileInfo: { signedUri: expect.stringMatching(/^https?:\/\//) },
    });
    expect(created.outs).not.toHaveProperty('sha256');
    await importDataFile.remove(created.id);
  });

  it('names the path when the file is missing', async () => {
    const { failures } = await importDataFile.check(
      {},
      { importJobId: 'inventory', importDataFileId: 'x', format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: path.join(dir, 'nope.csv') },
    );
    expect(failures).toEqual([{ property: 'path', reason: expect.stringContaining('nope.csv') }]);
  });
});

describe('Source: google-native\u2019s isManaged and requestId', () => {
  it('takes the reference\u2019s managed for isManaged, and refuses both', () => {
    expect(source.check({}, { sourceId: 's', managed: true }).inputs).toMatchObject({ managed: true, isManaged: true });
    expect(source.check({}, { sourceId: 's', isManaged: true, managed: true }).failures).toEqual([
      { property: 'managed', reason: 'cannot be given together with isManaged: they are two names of one field' },
    ]);
    expect(source.check({}, { sourceId: 's', requestId: 'nope' }).failures?.map((f) => f.property)).toEqual(['requestId']);
  });

  it('creates with isManaged and a requestId; the outputs carry the source\u2019s state', async () => {
    const inputs = source.check({}, { sourceId: 'managed-src', isManaged: true, requestId: '3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f8a9b0c' }).inputs;
    const created = await source.create(inputs);
    expect(created.outs).toMatchObject({ isManaged: true, state: 'ACTIVE', requestId: '3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f8a9b0c' });
    // managed -> isManaged on an existing source is no change.
    const renamed = source.check({}, { sourceId: 'managed-src', managed: true, requestId: '3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f8a9b0c' }).inputs;
    expect(source.diff(created.id, created.outs as Record<string, unknown>, renamed).changes).toBe(false);
    await source.remove(created.id);
  });
});

describe('the Migration Center workflow against the embedded emulator', () => {
  const location = 'projects/mc-project/locations/europe-west1';
  const place = { project: 'mc-project', location: 'europe-west1' };
  type Props = Record<string, unknown>;
  const checked = async (impl: { check: (o: Props, n: Props) => unknown }, args: Props): Promise<Props> => {
    const { inputs, failures } = (await impl.check({}, args)) as { inputs: Props; failures: unknown[] };
    expect(failures).toEqual([]);
    return inputs;
  };

  it('creates a preference set, a group, a report config, a report and a discovery client; updates in place what Google updates; deletes them', async () => {
    const prefsArgs = {
      ...place,
      preferenceSetId: 'default',
      virtualMachinePreferences: { targetProduct: 'COMPUTE_MIGRATION_TARGET_PRODUCT_COMPUTE_ENGINE', commitmentPlan: 'COMMITMENT_PLAN_NONE' },
    };
    const prefsInputs = await checked(preferenceSet, prefsArgs);
    const prefs = await preferenceSet.create(prefsInputs);
    expect(prefs.id).toBe(`${location}/preferenceSets/default`);

    // A nested field changes in place (PATCH with updateMask virtualMachinePreferences).
    const prefsNext = await checked(preferenceSet, {
      ...prefsArgs,
      virtualMachinePreferences: { ...prefsArgs.virtualMachinePreferences, commitmentPlan: 'COMMITMENT_PLAN_ONE_YEAR' },
    });
    expect(preferenceSet.diff(prefs.id, prefs.outs as Props, prefsNext)).toMatchObject({ changes: true, replaces: [] });
    const updated = await preferenceSet.update(prefs.id, prefs.outs as Props, prefsNext);
    expect(updated.outs).toMatchObject({ virtualMachinePreferences: { commitmentPlan: 'COMMITMENT_PLAN_ONE_YEAR' } });

    const groupInputs = await checked(group, { ...place, groupId: 'web', displayName: 'Web' });
    const created = await group.create(groupInputs);
    const renamed = await group.update(created.id, created.outs as Props, { ...groupInputs, displayName: 'Web tier' });
    expect(renamed.outs).toMatchObject({ displayName: 'Web tier', name: `${location}/groups/web` });

    const configInputs = await checked(reportConfig, {
      ...place,
      reportConfigId: 'wave-1',
      groupPreferencesetAssignments: [{ group: `${location}/groups/web`, preferenceSet: `${location}/preferenceSets/default` }],
    });
    const config = await reportConfig.create(configInputs);
    const reportInputs = await checked(report, { ...place, reportConfigId: 'wave-1', reportId: 'first', state: 'PENDING' });
    const made = await report.create(reportInputs);
    expect(made.id).toBe(`${location}/reportConfigs/wave-1/reports/first`);
    expect(made.outs).toMatchObject({ state: 'SUCCEEDED', summary: expect.any(Object) });
    // The service's state never shows as a diff against the one given.
    expect(report.diff(made.id, made.outs as Props, reportInputs).changes).toBe(false);

    const sourceOp = await clientFor('migrationcenter').post<Operation>(`/v1alpha1/${location}/sources`, {}, { sourceId: 'collector' });
    await clientFor('migrationcenter').waitForOperation(sourceOp, { apiVersion: 'v1alpha1' });
    const clientInputs = await checked(discoveryClient, {
      ...place,
      discoveryClientId: 'dc-1',
      serviceAccount: 'collector@mc-project.iam.gserviceaccount.com',
      source: `${location}/sources/collector`,
      ttl: '3600s',
    });
    const dc = await discoveryClient.create(clientInputs);
    expect(dc.outs).toMatchObject({ name: `${location}/discoveryClients/dc-1`, state: expect.any(String) });

    for (const [impl, id] of [
      [discoveryClient, dc.id],
      [report, made.id],
      [reportConfig, config.id],
      [group, created.id],
      [preferenceSet, prefs.id],
    ] as const) {
      await impl.remove(id);
      expect(await impl.read(id)).toEqual({ id: '' });
    }
  });

  it('names a preference set field that breaks Google\u2019s rules, down to its path', async () => {
    const { failures } = await preferenceSet.check({}, { ...place, preferenceSetId: 'p', virtualMachinePreferences: { commitmentPlan: 'FOREVER' } });
    expect((failures ?? []).map((f) => f.property)).toEqual(['virtualMachinePreferences.commitmentPlan']);
    expect((await preferenceSet.check({}, { ...place })).failures).toEqual([{ property: 'preferenceSetId', reason: 'is required' }]);
  });
});
