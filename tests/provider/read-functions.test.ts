/**
 * The read functions, from a program (pulumi.runtime.setMocks) down to the embedded emulator: each
 * call registers a read of a `pulumi-nodejs:dynamic/...:get*` resource by id, and the mock engine
 * answers it with the provider's own `read` (read-functions-impl.ts) against the emulator in this
 * process, as the dynamic-provider host would. The Migration Center resources the reads find are
 * created over REST, as any other client would make them.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as pulumi from '@pulumi/pulumi';
import { ENDPOINT_ENV, resetBackendCache } from '../../provider/backends';
import { closeEmbeddedBackend } from '../../provider/embedded';
import * as readImpl from '../../provider/read-functions-impl';
import * as endpointPolicy from '../../provider/endpoint-policy-impl';
import * as source from '../../provider/source-impl';
import * as importJob from '../../provider/import-job-impl';
import * as iamPolicy from '../../provider/iam-policy-impl';
import type { Operation } from '../../provider/client';
import { clientFor } from '../../provider/runtime';

jest.setTimeout(120_000);

const PROJECT = 'read-functions';
const reads: Array<{ type: string; name: string; id: string }> = [];

pulumi.runtime.setMocks(
  {
    async newResource(args) {
      if (!args.id) throw new Error(`only reads are expected here, not a new ${args.type}`);
      reads.push({ type: args.type, name: args.name, id: args.id });
      const result = await readImpl.read(args.id);
      return { id: result.id, state: result.props };
    },
    call: () => ({}),
  },
  'project',
  'stack',
  false,
);

// Loaded after setMocks, as Pulumi's testing guide does.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const local = require('../../provider') as typeof import('../../provider');

const valueOf = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((resolve) => o.apply(resolve));

let tmp: string;
const cwd = process.cwd();
const savedEndpoint = process.env[ENDPOINT_ENV];
const POLICY = `projects/${PROJECT}/locations/global/endpointPolicies/web`;
const PLACE = `projects/${PROJECT}/locations/us-central1`;
const condition = { title: 'until 2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' };

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-read-'));
  process.chdir(tmp);
  delete process.env[ENDPOINT_ENV];
  resetBackendCache();
  const ep = endpointPolicy.check(
    {},
    {
      project: PROJECT,
      endpointPolicyId: 'web',
      type: 'GRPC_SERVER',
      endpointMatcher: { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ALL' } },
      labels: { team: 'web' },
    },
  );
  await endpointPolicy.create(ep.inputs);
  const policy = iamPolicy.check(
    {},
    { project: PROJECT, endpointPolicyId: 'web', bindings: [{ role: 'roles/networkservices.viewer', members: ['user:alice@example.com'], condition }] },
  );
  expect(policy.failures).toEqual([]);
  await iamPolicy.create(policy.inputs as iamPolicy.PolicyInputs);
  const src = source.check(
    {},
    { project: PROJECT, location: 'us-central1', sourceId: 'uploads', displayName: 'Uploads', type: 'SOURCE_TYPE_UPLOAD', priority: 7 },
  );
  await source.create(src.inputs);
  const csv = 'MachineId,MachineName,AllocatedProcessorCoreCount,MemoryGiB\nvm-1,web-1,4,16\nvm-2,db-1,four,64\n';
  const job = await importJob.check(
    {},
    {
      project: PROJECT,
      location: 'us-central1',
      importJobId: 'inventory',
      assetSource: `projects/${PROJECT}/locations/us-central1/sources/uploads`,
      inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: Buffer.from(csv).toString('base64') }] },
    },
  );
  expect(job.failures).toEqual([]);
  await importJob.create(job.inputs as importJob.ImportJobInputs);
  await createMigrationCenterResources();
});

/** POSTs `body` to a collection over REST and waits for the create. */
async function createOverRest(collection: string, idParam: string, id: string, body: Record<string, unknown>): Promise<void> {
  const client = clientFor('migrationcenter');
  const op = await client.post<Operation>(`/v1alpha1/${collection}`, body, { [idParam]: id });
  await client.waitForOperation(op, { apiVersion: 'v1alpha1' });
}

async function createMigrationCenterResources(): Promise<void> {
  await createOverRest(`${PLACE}/groups`, 'groupId', 'web', { displayName: 'Web tier', description: 'front ends', labels: { tier: 'front' } });
  await createOverRest(`${PLACE}/preferenceSets`, 'preferenceSetId', 'default', {
    displayName: 'Default',
    virtualMachinePreferences: { targetProduct: 'COMPUTE_MIGRATION_TARGET_PRODUCT_COMPUTE_ENGINE', commitmentPlan: 'COMMITMENT_PLAN_ONE_YEAR' },
  });
  await createOverRest(`${PLACE}/reportConfigs`, 'reportConfigId', 'wave-1', {
    displayName: 'Wave 1',
    groupPreferencesetAssignments: [{ group: `${PLACE}/groups/web`, preferenceSet: `${PLACE}/preferenceSets/default` }],
  });
  await createOverRest(`${PLACE}/reportConfigs/wave-1/reports`, 'reportId', 'first', { displayName: 'First', type: 'TOTAL_COST_OF_OWNERSHIP' });
  await createOverRest(`${PLACE}/discoveryClients`, 'discoveryClientId', 'dc-1', {
    serviceAccount: 'collector@read-functions.iam.gserviceaccount.com',
    source: `${PLACE}/sources/uploads`,
    labels: { site: 'dc-east' },
    expireTime: '2030-01-01T00:00:00Z',
  });
  // A job still waiting for its data: a data file is added to it, its bytes not uploaded yet.
  await createOverRest(`${PLACE}/importJobs`, 'importJobId', 'later', { assetSource: `${PLACE}/sources/uploads` });
  await createOverRest(`${PLACE}/importJobs/later/importDataFiles`, 'importDataFileId', 'vm-info', {
    displayName: 'vmInfo.csv',
    format: 'IMPORT_JOB_FORMAT_MANUAL_CSV',
  });
}

afterAll(async () => {
  await closeEmbeddedBackend();
  process.chdir(cwd);
  if (savedEndpoint !== undefined) process.env[ENDPOINT_ENV] = savedEndpoint;
  resetBackendCache();
  fs.rmSync(tmp, { recursive: true, force: true });
});

it('getEndpointPolicy: every field of the result, defaults included', async () => {
  const result = await local.getEndpointPolicy({ project: PROJECT, location: 'global', endpointPolicyId: 'web' });
  expect(result).toEqual({
    authorizationPolicy: '',
    clientTlsPolicy: '',
    createTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    description: '',
    endpointMatcher: { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ALL' } },
    labels: { team: 'web' },
    name: POLICY,
    serverTlsPolicy: '',
    trafficPortSelector: { ports: [] },
    type: 'GRPC_SERVER',
    updateTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
  });
  expect(reads).toContainEqual({
    type: 'pulumi-nodejs:dynamic/networkservices/v1:getEndpointPolicy',
    name: `getEndpointPolicy:${POLICY}`,
    id: `getEndpointPolicy ${POLICY}`,
  });
});

it('getEndpointPolicyIamPolicy: at version 3 the condition shows; at version 1 the role is masked', async () => {
  const v3 = await valueOf(
    local.getEndpointPolicyIamPolicyOutput({ project: PROJECT, location: 'global', endpointPolicyId: pulumi.output('web'), optionsRequestedPolicyVersion: 3 }),
  );
  expect(v3).toMatchObject({
    version: 3,
    auditConfigs: [],
    etag: expect.any(String),
    bindings: [{ role: 'roles/networkservices.viewer', members: ['user:alice@example.com'], condition }],
  });
  const v1 = await local.getEndpointPolicyIamPolicy({ project: PROJECT, location: 'global', endpointPolicyId: 'web', optionsRequestedPolicyVersion: 1 });
  expect(v1.version).toBe(1);
  expect(v1.bindings).toEqual([{ role: expect.stringMatching(/^roles\/networkservices\.viewer_withcond_/), members: ['user:alice@example.com'] }]);
});

it('getSource: the source with its output-only fields', async () => {
  const result = await valueOf(local.getSourceOutput({ project: PROJECT, location: 'us-central1', sourceId: 'uploads' }));
  expect(result).toMatchObject({
    name: `projects/${PROJECT}/locations/us-central1/sources/uploads`,
    displayName: 'Uploads',
    description: '',
    type: 'SOURCE_TYPE_UPLOAD',
    priority: 7,
    isManaged: false,
    errorFrameCount: 0,
    pendingFrameCount: 0,
  });
});

it('getImportJob: the job with both reports (the full view by default)', async () => {
  const job = await local.getImportJob({ project: PROJECT, location: 'us-central1', importJobId: 'inventory' });
  expect(job.name).toBe(`projects/${PROJECT}/locations/us-central1/importJobs/inventory`);
  expect(job.inlinePayload.format).toBe('IMPORT_JOB_FORMAT_MANUAL_CSV');
  expect(job.gcsPayload).toEqual({ format: '', path: '' });
  // Row 2 of the data (vm-2) has a memory that is not a number: the reports say so, row by row.
  const rowErrors = [...job.validationReport.fileValidations, ...job.executionReport.executionErrors.fileValidations].flatMap((f) => f.rowErrors);
  expect(rowErrors.length).toBeGreaterThan(0);
  expect(rowErrors[0]).toMatchObject({ vmName: 'db-1', errors: [expect.objectContaining({ severity: expect.any(String) })] });
  const basic = await local.getImportJob({ project: PROJECT, location: 'us-central1', importJobId: 'inventory', view: 'IMPORT_JOB_VIEW_BASIC' });
  expect(basic.validationReport).toEqual({ fileValidations: [], jobErrors: [] });
});

const TIME = /^\d{4}-\d\d-\d\dT/;

it('getGroup: every field of the result; the Output variant resolves to the same', async () => {
  const result = await local.getGroup({ project: PROJECT, location: 'us-central1', groupId: 'web' });
  expect(result).toEqual({
    createTime: expect.stringMatching(TIME),
    description: 'front ends',
    displayName: 'Web tier',
    labels: { tier: 'front' },
    name: `projects/${PROJECT}/locations/us-central1/groups/web`,
    updateTime: expect.stringMatching(TIME),
  });
  expect(await valueOf(local.getGroupOutput({ project: PROJECT, location: pulumi.output('us-central1'), groupId: 'web' }))).toEqual(result);
  expect(reads).toContainEqual({
    type: 'pulumi-nodejs:dynamic/migrationcenter/v1alpha1:getGroup',
    name: 'getGroup:projects/read-functions/locations/us-central1/groups/web',
    id: `getGroup projects/${PROJECT}/locations/us-central1/groups/web`,
  });
});

it('getPreferenceSet: the preferences as set; the Output variant resolves', async () => {
  const result = await local.getPreferenceSet({ project: PROJECT, location: 'us-central1', preferenceSetId: 'default' });
  expect(result).toEqual({
    createTime: expect.stringMatching(TIME),
    description: '',
    displayName: 'Default',
    name: `projects/${PROJECT}/locations/us-central1/preferenceSets/default`,
    updateTime: expect.stringMatching(TIME),
    virtualMachinePreferences: { targetProduct: 'COMPUTE_MIGRATION_TARGET_PRODUCT_COMPUTE_ENGINE', commitmentPlan: 'COMMITMENT_PLAN_ONE_YEAR' },
  });
  const output = local.getPreferenceSetOutput({ project: pulumi.output(PROJECT), location: 'us-central1', preferenceSetId: pulumi.output('default') });
  expect(await valueOf(output.apply((p) => p.virtualMachinePreferences.commitmentPlan))).toBe('COMMITMENT_PLAN_ONE_YEAR');
});

it('getReportConfig: the group and preference set pairs; the Output variant resolves', async () => {
  const result = await valueOf(local.getReportConfigOutput({ project: PROJECT, location: 'us-central1', reportConfigId: pulumi.output('wave-1') }));
  expect(result).toEqual({
    createTime: expect.stringMatching(TIME),
    description: '',
    displayName: 'Wave 1',
    groupPreferencesetAssignments: [{ group: `${PLACE}/groups/web`, preferenceSet: `${PLACE}/preferenceSets/default` }],
    name: `${PLACE}/reportConfigs/wave-1`,
    updateTime: expect.stringMatching(TIME),
  });
  expect(await local.getReportConfig({ project: PROJECT, location: 'us-central1', reportConfigId: 'wave-1' })).toEqual(result);
});

it('getReport: the summary by default (full view); the basic view leaves it empty; the Output variant resolves', async () => {
  const args = { project: PROJECT, location: 'us-central1', reportConfigId: 'wave-1', reportId: 'first' };
  const full = await local.getReport(args);
  expect(full).toMatchObject({
    description: '',
    displayName: 'First',
    name: `${PLACE}/reportConfigs/wave-1/reports/first`,
    state: 'SUCCEEDED',
    type: 'TOTAL_COST_OF_OWNERSHIP',
  });
  // One finding per group of the config, under the group's display name.
  expect(full.summary.groupFindings.map((g) => g.displayName)).toEqual(['Web tier']);
  const basic = await local.getReport({ ...args, view: 'REPORT_VIEW_BASIC' });
  expect(basic.summary).toEqual({ allAssetsStats: {}, groupFindings: [] });
  const state = local.getReportOutput({ ...args, reportId: pulumi.output('first') }).apply((r) => r.state);
  expect(await valueOf(state)).toBe('SUCCEEDED');
});

it('getDiscoveryClient: every field, the input-only ttl empty; the Output variant resolves', async () => {
  const result = await local.getDiscoveryClient({ project: PROJECT, location: 'us-central1', discoveryClientId: 'dc-1' });
  expect(result).toEqual({
    createTime: expect.stringMatching(TIME),
    description: '',
    displayName: '',
    errors: [],
    expireTime: '2030-01-01T00:00:00Z',
    heartbeatTime: '',
    labels: { site: 'dc-east' },
    name: `${PLACE}/discoveryClients/dc-1`,
    serviceAccount: 'collector@read-functions.iam.gserviceaccount.com',
    signalsEndpoint: expect.any(String),
    source: `${PLACE}/sources/uploads`,
    state: expect.any(String),
    ttl: '',
    updateTime: expect.stringMatching(TIME),
    version: '',
  });
  expect(await valueOf(local.getDiscoveryClientOutput({ project: PROJECT, location: 'us-central1', discoveryClientId: pulumi.output('dc-1') }))).toEqual(
    result,
  );
});

it('getImportDataFile: the data file with its upload URL; the Output variant resolves', async () => {
  const args = { project: PROJECT, location: 'us-central1', importJobId: 'later', importDataFileId: 'vm-info' };
  const result = await local.getImportDataFile(args);
  expect(result).toEqual({
    createTime: expect.stringMatching(TIME),
    displayName: 'vmInfo.csv',
    format: 'IMPORT_JOB_FORMAT_MANUAL_CSV',
    name: `${PLACE}/importJobs/later/importDataFiles/vm-info`,
    state: 'CREATING',
    uploadFileInfo: { headers: expect.any(Object), signedUri: expect.stringMatching(/^https?:\/\//), uriExpirationTime: expect.stringMatching(TIME) },
  });
  expect(await valueOf(local.getImportDataFileOutput({ ...args, importDataFileId: pulumi.output('vm-info') }))).toEqual(result);
});

describe('a read of something that does not exist fails, naming it', () => {
  it.each([
    ['getSource', `${PLACE}/sources/never`],
    ['getGroup', `${PLACE}/groups/never`],
    ['getPreferenceSet', `${PLACE}/preferenceSets/never`],
    ['getReportConfig', `${PLACE}/reportConfigs/never`],
    ['getReport', `${PLACE}/reportConfigs/wave-1/reports/never`],
    ['getDiscoveryClient', `${PLACE}/discoveryClients/never`],
    ['getImportDataFile', `${PLACE}/importJobs/later/importDataFiles/never`],
  ])('%s', async (fn, name) => {
    await expect(readImpl.readFunction(`${fn} ${name}`)).rejects.toThrow(`${fn}: ${name} does not exist`);
  });
});
