/**
 * The read functions, from a program (pulumi.runtime.setMocks) down to the embedded emulator: each
 * call registers a read of a `pulumi-nodejs:dynamic/...:get*` resource by id, and the mock engine
 * answers it with the provider's own `read` (read-functions-impl.ts) against the emulator in this
 * process, as the dynamic-provider host would.
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
});

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

it('a read of something that does not exist fails, naming it', async () => {
  await expect(readImpl.readFunction(`getSource projects/${PROJECT}/locations/us-central1/sources/never`)).rejects.toThrow(
    `getSource: projects/${PROJECT}/locations/us-central1/sources/never does not exist`,
  );
});
