/**
 * Migration Center v1 (GA) beside v1alpha1, driven end to end through Google's newest client
 * (`googleapis-latest`, revision 188) on one listening emulator that also serves Network Services:
 * every v1 method the emulator has today (locations, sources, import jobs, import data files,
 * assets get/list/aggregateValues, operations), mixing v1 and v1alpha1 calls on the same jobs; the
 * wire differences of the two versions (type URLs, enum spellings, fields v1 lacks); both services'
 * operations on the shared `/v1/.../operations` path; and methods of families not built yet
 * answering 501 on both versions.
 */
import * as http from 'http';
import { migrationcenter, type migrationcenter_v1, type migrationcenter_v1alpha1 } from 'googleapis-latest/build/src/apis/migrationcenter';
import { networkservices } from 'googleapis-latest/build/src/apis/networkservices';
import { startEmulator, type RunningEmulator } from '../../backend-emulator';
import { VM_HEADER, csv, vmRow } from '../support/manual-csv';

jest.setTimeout(120_000);

const V1 = 'type.googleapis.com/google.cloud.migrationcenter.v1.';
const V1ALPHA1 = 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.';
const NS_METADATA = 'type.googleapis.com/google.cloud.networkservices.v1.OperationMetadata';
const EMPTY = 'type.googleapis.com/google.protobuf.Empty';
const PARENT = 'projects/p1/locations/us-central1';
const SOURCE = `${PARENT}/sources/src`;
const JOB = `${PARENT}/importJobs/job-1`;

let emulator: RunningEmulator;
let v1: migrationcenter_v1.Migrationcenter;
let alpha: migrationcenter_v1alpha1.Migrationcenter;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent' });
  const options = { rootUrl: `${emulator.url}/`, retry: false, fetchImplementation: fetch };
  v1 = migrationcenter({ version: 'v1', ...options });
  alpha = migrationcenter({ version: 'v1alpha1', ...options });
});
afterAll(() => emulator?.close());

/** The error a client call ends with: HTTP status and Google's error body. */
async function failure(call: Promise<unknown>): Promise<{ status: number; error: { status: string; message: string; details?: any[] } }> {
  try {
    await call;
  } catch (err) {
    const e = err as { status?: number; response?: { status: number; data: { error: any } } };
    return { status: e.response?.status ?? e.status ?? 0, error: e.response?.data.error };
  }
  throw new Error('the call succeeded');
}

async function waitDone(name: string): Promise<migrationcenter_v1.Schema$Operation> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { data } = await v1.projects.locations.operations.get({ name });
    if (data.done) return data;
    if (Date.now() > deadline) throw new Error(`operation ${name} not done: ${JSON.stringify(data)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('Migration Center v1 beside v1alpha1, over one domain', () => {
  test('locations: list and get through v1 and v1alpha1', async () => {
    const { data: list } = await v1.projects.locations.list({ name: 'projects/p1', pageSize: 100 });
    expect(list.locations!.map((l) => l.locationId)).toEqual(expect.arrayContaining(['us-central1', 'europe-west1']));
    expect(list.locations).toContainEqual({ name: 'projects/p1/locations/us-central1', locationId: 'us-central1', displayName: 'Council Bluffs, Iowa' });
    const { data: got } = await v1.projects.locations.get({ name: PARENT });
    expect(got).toEqual({ name: PARENT, locationId: 'us-central1', displayName: 'Council Bluffs, Iowa' });
    const { data: alphaList } = await alpha.projects.locations.list({ name: 'projects/p1', pageSize: 100 });
    // v1alpha1 is Migration Center's alone: no Network Services location in it.
    expect(alphaList.locations!.map((l) => l.locationId)).not.toContain('global');
    expect((await failure(v1.projects.locations.get({ name: 'projects/p1/locations/mars-north1' }))).status).toBe(404);
  });

  test('sources: create, get, list, patch through v1 (managed, v1 types), read through v1alpha1 (isManaged)', async () => {
    const { data: op } = await v1.projects.locations.sources.create({
      parent: PARENT,
      sourceId: 'src',
      requestBody: { type: 'SOURCE_TYPE_UPLOAD', managed: true },
    });
    expect(op.done).toBe(true);
    expect(op.metadata).toMatchObject({ '@type': `${V1}OperationMetadata`, verb: 'create', target: SOURCE, apiVersion: 'v1' });
    expect(op.response).toMatchObject({ '@type': `${V1}Source`, name: SOURCE, type: 'SOURCE_TYPE_UPLOAD', managed: true });
    expect(op.response).not.toHaveProperty('isManaged');

    expect((await v1.projects.locations.sources.get({ name: SOURCE })).data).toMatchObject({ name: SOURCE, managed: true });
    const { data: alphaSource } = await alpha.projects.locations.sources.get({ name: SOURCE });
    expect(alphaSource).toMatchObject({ name: SOURCE, isManaged: true });
    expect(alphaSource).not.toHaveProperty('managed');

    // v1's Source has no `isManaged`: refused as Google refuses a name its message lacks.
    const refused = await failure(v1.projects.locations.sources.create({ parent: PARENT, sourceId: 'src2', requestBody: { isManaged: true } as never }));
    expect(refused.status).toBe(400);
    expect(refused.error.message).toBe('Invalid JSON payload received. Unknown name "isManaged" at \'source\': Cannot find field.');

    const { data: patched } = await v1.projects.locations.sources.patch({ name: SOURCE, updateMask: 'displayName', requestBody: { displayName: 'From v1' } });
    expect(patched.response).toMatchObject({ '@type': `${V1}Source`, displayName: 'From v1' });
    const { data: list } = await v1.projects.locations.sources.list({ parent: PARENT });
    expect(list.sources!.map((s) => [s.name, s.displayName, s.managed])).toEqual([[SOURCE, 'From v1', true]]);
  });

  test('import jobs: v1 has no payload fields; a job created through v1 is read and patched through v1alpha1 and the reverse', async () => {
    const inline = await failure(
      v1.projects.locations.importJobs.create({
        parent: PARENT,
        importJobId: 'with-payload',
        requestBody: { assetSource: SOURCE, inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [] } } as never,
      }),
    );
    expect(inline.status).toBe(400);
    expect(inline.error.status).toBe('INVALID_ARGUMENT');
    expect(inline.error.message).toBe('Invalid JSON payload received. Unknown name "inlinePayload" at \'import_job\': Cannot find field.');
    expect(inline.error.details).toContainEqual({
      '@type': 'type.googleapis.com/google.rpc.BadRequest',
      fieldViolations: [
        { field: 'import_job', description: 'Invalid JSON payload received. Unknown name "inlinePayload" at \'import_job\': Cannot find field.' },
      ],
    });

    const { data: created } = await v1.projects.locations.importJobs.create({
      parent: PARENT,
      importJobId: 'job-1',
      requestBody: { assetSource: SOURCE, displayName: 'v1 job' },
    });
    expect(created.metadata).toMatchObject({ '@type': `${V1}OperationMetadata`, apiVersion: 'v1', verb: 'create', target: JOB });
    expect(created.response).toMatchObject({ '@type': `${V1}ImportJob`, name: JOB, state: 'IMPORT_JOB_STATE_PENDING', assetSource: SOURCE });

    // The same job through v1alpha1; the operation that created it too, in v1alpha1's types.
    expect((await alpha.projects.locations.importJobs.get({ name: JOB })).data).toMatchObject({ name: JOB, displayName: 'v1 job' });
    const { data: createdOp } = await alpha.projects.locations.operations.get({ name: created.name! });
    expect(createdOp.metadata).toMatchObject({ '@type': `${V1ALPHA1}OperationMetadata`, apiVersion: 'v1' });
    expect(createdOp.response).toMatchObject({ '@type': `${V1ALPHA1}ImportJob`, name: JOB });

    // A job with an inline payload, created through v1alpha1, has none when read through v1.
    const alphaJob = `${PARENT}/importJobs/alpha-job`;
    const csvText = csv(VM_HEADER, vmRow('m-9', 'alpha-vm'));
    await alpha.projects.locations.importJobs.create({
      parent: PARENT,
      importJobId: 'alpha-job',
      requestBody: {
        assetSource: SOURCE,
        inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: Buffer.from(csvText).toString('base64') }] },
      },
    });
    expect((await alpha.projects.locations.importJobs.get({ name: alphaJob })).data.inlinePayload).toBeDefined();
    const { data: throughV1 } = await v1.projects.locations.importJobs.get({ name: alphaJob });
    expect(throughV1).toMatchObject({ name: alphaJob, assetSource: SOURCE });
    expect(throughV1).not.toHaveProperty('inlinePayload');

    const { data: patched } = await alpha.projects.locations.importJobs.patch({
      name: JOB,
      updateMask: 'displayName',
      requestBody: { displayName: 'patched by v1alpha1' },
    });
    expect(patched.metadata).toMatchObject({ apiVersion: 'v1alpha1' });
    const { data: listed } = await v1.projects.locations.importJobs.list({ parent: PARENT, orderBy: 'name' });
    expect(listed.importJobs!.map((j) => [j.name, j.displayName ?? null])).toEqual([
      [alphaJob, null],
      [JOB, 'patched by v1alpha1'],
    ]);
    const { data: v1Patch } = await v1.projects.locations.importJobs.patch({ name: JOB, updateMask: 'labels', requestBody: { labels: { by: 'v1' } } });
    expect(v1Patch.response).toMatchObject({ '@type': `${V1}ImportJob`, labels: { by: 'v1' } });
  });

  test('import data files through v1 (STRATOZONE_CSV), uploaded, validated and run through v1, the assets read through v1', async () => {
    const files = v1.projects.locations.importJobs.importDataFiles;
    const manual = await failure(files.create({ parent: JOB, importDataFileId: 'f0', requestBody: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV' } }));
    expect(manual.status).toBe(400);
    expect(manual.error.message).toBe(`Invalid value at 'import_data_file.format' (${V1}ImportJobFormat), "IMPORT_JOB_FORMAT_MANUAL_CSV"`);
    const cmdb = await failure(files.create({ parent: JOB, importDataFileId: 'f0', requestBody: { format: 'IMPORT_JOB_FORMAT_CMDB' } }));
    expect(cmdb.error.message).toBe(`Invalid value at 'import_data_file.format' (${V1}ImportJobFormat), "IMPORT_JOB_FORMAT_CMDB"`);

    const { data: op } = await files.create({
      parent: JOB,
      importDataFileId: 'vms',
      requestBody: { displayName: 'vmInfo.csv', format: 'IMPORT_JOB_FORMAT_STRATOZONE_CSV' },
    });
    expect(op.metadata).toMatchObject({ '@type': `${V1}OperationMetadata`, apiVersion: 'v1' });
    const file = op.response as migrationcenter_v1.Schema$ImportDataFile & { '@type': string };
    expect(file).toMatchObject({
      '@type': `${V1}ImportDataFile`,
      name: `${JOB}/importDataFiles/vms`,
      format: 'IMPORT_JOB_FORMAT_STRATOZONE_CSV',
      state: 'CREATING',
    });
    // The same file in v1alpha1's spelling.
    expect((await alpha.projects.locations.importJobs.importDataFiles.get({ name: file.name! })).data.format).toBe('IMPORT_JOB_FORMAT_MANUAL_CSV');

    const body = csv(VM_HEADER, vmRow('m-1', 'web-1'), vmRow('m-2', 'db-1', { AllocatedProcessorCoreCount: '8', MemoryGiB: '32' }));
    const put = await fetch(file.uploadFileInfo!.signedUri!, { method: 'PUT', headers: file.uploadFileInfo!.headers!, body });
    expect(put.status).toBe(200);
    // A second file, deleted through v1 before the job runs (data files change only before).
    const { data: spare } = await files.create({ parent: JOB, importDataFileId: 'spare', requestBody: { format: 'IMPORT_JOB_FORMAT_STRATOZONE_CSV' } });
    const { data: deletedFile } = await files.delete({ name: (spare.response as { name: string }).name });
    expect(deletedFile).toMatchObject({ done: true, metadata: { '@type': `${V1}OperationMetadata`, verb: 'delete' }, response: { '@type': EMPTY } });
    const { data: listedFiles } = await files.list({ parent: JOB });
    expect(listedFiles.importDataFiles!.map((f) => [f.name, f.state, f.format])).toEqual([[file.name, 'ACTIVE', 'IMPORT_JOB_FORMAT_STRATOZONE_CSV']]);
    expect((await files.get({ name: file.name! })).data).toMatchObject({ state: 'ACTIVE', format: 'IMPORT_JOB_FORMAT_STRATOZONE_CSV' });

    const { data: validating } = await v1.projects.locations.importJobs.validate({ name: JOB, requestBody: {} });
    expect(validating.metadata).toMatchObject({ '@type': `${V1}OperationMetadata`, verb: 'validate', apiVersion: 'v1' });
    expect((await waitDone(validating.name!)).response).toEqual({ '@type': EMPTY });
    expect((await alpha.projects.locations.importJobs.get({ name: JOB })).data.state).toBe('IMPORT_JOB_STATE_READY');

    // Run through v1alpha1, polled through v1.
    const { data: running } = await alpha.projects.locations.importJobs.run({ name: JOB, requestBody: {} });
    expect(running.metadata).toMatchObject({ '@type': `${V1ALPHA1}OperationMetadata`, apiVersion: 'v1alpha1' });
    const ran = await waitDone(running.name!);
    expect(ran.metadata).toMatchObject({ '@type': `${V1}OperationMetadata`, apiVersion: 'v1alpha1', verb: 'run' });
    const { data: job } = await v1.projects.locations.importJobs.get({ name: JOB });
    expect(job.state).toBe('IMPORT_JOB_STATE_COMPLETED');
    expect(job.executionReport).toMatchObject({ framesReported: 2, totalRowsCount: 2 });

    const { data: assets } = await v1.projects.locations.assets.list({ parent: PARENT, orderBy: 'name' });
    expect(assets.assets).toHaveLength(2);
    for (const asset of assets.assets!) {
      expect(asset.name).toMatch(new RegExp(`^${PARENT}/assets/`));
      // v1alpha1's machine details have no v1 field.
      expect(asset).not.toHaveProperty('virtualMachineDetails');
    }
    const name = assets.assets![0].name!;
    expect((await v1.projects.locations.assets.get({ name })).data.name).toBe(name);
    expect((await alpha.projects.locations.assets.get({ name })).data.virtualMachineDetails).toBeDefined();
    const { data: aggregated } = await v1.projects.locations.assets.aggregateValues({
      parent: PARENT,
      requestBody: { aggregations: [{ field: 'name', count: {} }] },
    });
    expect(aggregated).toEqual({ results: [{ field: 'name', count: { value: '2' } }] });
  });

  test('operations: list, get, cancel and delete through v1, in v1 types', async () => {
    const ops = v1.projects.locations.operations;
    const { data: list } = await ops.list({ name: PARENT, pageSize: 100 });
    expect(list.operations!.length).toBeGreaterThan(5);
    for (const op of list.operations!) {
      expect(op.name).toMatch(new RegExp(`^${PARENT}/operations/`));
      expect(op.metadata!['@type']).toBe(`${V1}OperationMetadata`);
      if (op.response) expect(op.response['@type']).toMatch(/^type\.googleapis\.com\/google\.(cloud\.migrationcenter\.v1\.|protobuf\.Empty$)/);
    }
    const done = list.operations![0].name!;
    expect(await ops.cancel({ name: done, requestBody: {} })).toMatchObject({ status: 200, data: {} });
    expect(await ops.delete({ name: done })).toMatchObject({ status: 200, data: {} });
    expect((await failure(ops.get({ name: done }))).status).toBe(404);

    const { data: deleted } = await v1.projects.locations.importJobs.delete({ name: JOB, force: true });
    expect(deleted).toMatchObject({ done: true, metadata: { '@type': `${V1}OperationMetadata`, verb: 'delete' }, response: { '@type': EMPTY } });
    expect((await failure(alpha.projects.locations.importJobs.get({ name: JOB }))).status).toBe(404);
    const { data: deletedSource } = await v1.projects.locations.sources.delete({ name: `${PARENT}/sources/src` });
    expect(deletedSource.done).toBe(true);
  });

  test('report export jobs, which v1 does not have, are served on v1alpha1 only: on v1 their path is no method of Google', async () => {
    const parent = `${PARENT}/reportConfigs/rc/reports/r`;
    // v1alpha1: the route is served (an empty list: the report has none).
    const { status, data } = await alpha.projects.locations.reportConfigs.reports.reportExportJobs.list({ parent });
    expect([status, data]).toEqual([200, {}]);
    const res = await fetch(`${emulator.url}/v1/${parent}/reportExportJobs`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^Method not found: GET \/v1\//);
  });
});

/** A GET with the Host the request names (Google's clients always send the URL's own host). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { headers: { host } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('Network Services and Migration Center v1 operations on one emulator URL', () => {
  const GLOBAL = 'projects/p2/locations/global';

  test('each operation is answered by the service that holds it; a list holds one service', async () => {
    const ns = networkservices({ version: 'v1', rootUrl: `${emulator.url}/`, retry: false, fetchImplementation: fetch });
    const { data: nsOp } = await ns.projects.locations.endpointPolicies.create({
      parent: GLOBAL,
      endpointPolicyId: 'ep1',
      requestBody: { type: 'SIDECAR_PROXY', endpointMatcher: { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY' } } },
    });
    expect(nsOp.metadata).toMatchObject({ '@type': NS_METADATA });
    // Migration Center resources in `global` too, and in a region.
    const { data: mcGlobalOp } = await v1.projects.locations.sources.create({ parent: GLOBAL, sourceId: 'g' });
    const { data: mcRegionOp } = await v1.projects.locations.sources.create({ parent: 'projects/p2/locations/europe-west1', sourceId: 'r' });

    // get: each through either client, answered by its owner in its own types.
    expect((await v1.projects.locations.operations.get({ name: nsOp.name! })).data.metadata).toMatchObject({ '@type': NS_METADATA });
    expect((await ns.projects.locations.operations.get({ name: mcGlobalOp.name! })).data.metadata).toMatchObject({ '@type': `${V1}OperationMetadata` });

    // list on `global`, unhinted: Network Services' (its only location), never mixed.
    const { data: globalList } = await v1.projects.locations.operations.list({ name: GLOBAL });
    expect(globalList.operations!.map((o) => o.name)).toEqual([nsOp.name]);
    // list on a region: Migration Center's.
    const { data: regionList } = await ns.projects.locations.operations.list({ name: 'projects/p2/locations/europe-west1' });
    expect(regionList.operations!.map((o) => [o.name, o.metadata!['@type']])).toEqual([[mcRegionOp.name, `${V1}OperationMetadata`]]);

    // A Host naming the service picks it, as Google's own hosts do.
    const url = `${emulator.url}/v1/${GLOBAL}/operations`;
    const mcHosted = await getWithHost(url, 'migrationcenter.localhost');
    expect(mcHosted.body.operations.map((o: any) => [o.name, o.metadata['@type']])).toEqual([[mcGlobalOp.name, `${V1}OperationMetadata`]]);
    const nsHosted = await getWithHost(url, 'networkservices.localhost');
    expect(nsHosted.body.operations.map((o: any) => o.name)).toEqual([nsOp.name]);
    // ... and a name held by the other service is not found there.
    const crossed = await getWithHost(`${emulator.url}/v1/${mcGlobalOp.name}`, 'networkservices.localhost');
    expect(crossed.status).toBe(404);

    // locations: unhinted, each place once; hinted, one service's.
    const { data: nsLocations } = await ns.projects.locations.list({ name: 'projects/p2' });
    expect(nsLocations.locations!.map((l) => l.locationId)).toEqual(expect.arrayContaining(['global', 'us-central1']));
    const hostedLocations = await getWithHost(`${emulator.url}/v1/projects/p2/locations`, 'networkservices.localhost');
    expect(hostedLocations.body).toEqual({ locations: [{ name: 'projects/p2/locations/global', locationId: 'global' }] });
  });
});
