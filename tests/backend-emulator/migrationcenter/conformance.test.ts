/**
 * Conformance with Google's own client: the `googleapis` Migration Center v1alpha1 client against
 * a real listening emulator. An inline manual CSV with good and bad rows is validated (the
 * operation polled), fixed, validated again, run; both reports are read back field by field and
 * checked against the output schemas; the assets execution stored are listed. The same for a
 * storage payload in a temporary storage directory. And the data-file flow: data files created with
 * the client, their bytes PUT with `fetch` to the signed URL, validated, run, deleted with the job.
 */
import * as fs from 'fs';
import * as path from 'path';
// The client of this one API, not the googleapis index, which loads every API of Google (seconds per test file).
import { migrationcenter, type migrationcenter_v1alpha1 } from 'googleapis/build/src/apis/migrationcenter';
import { startEmulator, type RunningEmulator } from '../../../backend-emulator';
import { validateOutput } from '../../../schemas';
import { DATA_FILE_TYPE, EMPTY_TYPE, IMPORT_JOB_TYPE, METADATA_TYPE, PARENT, VM_HEADER, b64, csv, tempDir, vmRow } from '../../support/migrationcenter';
import { migrationCenterOf } from '../../../backend-emulator/migrationcenter/routes';
import { startRecordingProxy, type RecordingProxy } from '../../support/recording-proxy';

const NO_RETRY = { retry: false } as const;

/** Good rows m-1 and m-2, a row with an ERROR (row 4: cores not a number), a row with a WARNING (row 5). */
const BAD_ROW = vmRow('m-3', 'bad-1', { AllocatedProcessorCoreCount: 'many' });
const WARN_ROW = vmRow('m-4', 'warn-1', { TotalDiskAllocatedGiB: '10', TotalDiskUsedGiB: '20' });
const GOOD_ROWS = [vmRow('m-1', 'web-1'), vmRow('m-2', 'db-1', { AllocatedProcessorCoreCount: '8', MemoryGiB: '32' })];
const MIXED = csv(VM_HEADER, ...GOOD_ROWS, BAD_ROW, WARN_ROW);
const FIXED = csv(VM_HEADER, ...GOOD_ROWS, WARN_ROW);
const PERF = csv(
  'MachineId,TimeStamp,CpuUtilizationPercentage,MemoryUtilizationPercentage',
  'm-1,2024-01-31T13:00:00Z,10,20',
  'm-1,2024-01-31T13:30:00Z,30,40',
);

let emulator: RunningEmulator;
let storageDir: string;
let mc: migrationcenter_v1alpha1.Migrationcenter;
let proxy: RecordingProxy;
const MIN_ANSWERS = 30;

beforeAll(async () => {
  storageDir = tempDir('mc-storage-');
  emulator = await startEmulator({ port: 0, inMemory: true, storageDir, logLevel: 'silent' });
  // Through a recording proxy: the last test walks every answer the client got.
  proxy = await startRecordingProxy(emulator.url);
  mc = migrationcenter({ version: 'v1alpha1', rootUrl: `${proxy.url}/` });
});
afterAll(async () => {
  await proxy.close();
  await emulator.close();
  fs.rmSync(storageDir, { recursive: true, force: true });
});

async function createSource(parent: string, sourceId: string): Promise<void> {
  const { data } = await mc.projects.locations.sources.create({ parent, sourceId, requestBody: { type: 'SOURCE_TYPE_UPLOAD' } }, NO_RETRY);
  expect(data.done).toBe(true);
}

async function waitDone(name: string): Promise<migrationcenter_v1alpha1.Schema$Operation> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { data } = await mc.projects.locations.operations.get({ name }, NO_RETRY);
    if (data.done) return data;
    if (Date.now() > deadline) throw new Error(`operation ${name} not done: ${JSON.stringify(data)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function validateJob(name: string): Promise<migrationcenter_v1alpha1.Schema$ImportJob> {
  const { data: op } = await mc.projects.locations.importJobs.validate({ name, requestBody: {} }, NO_RETRY);
  expect(op.done).toBeUndefined();
  expect(op.metadata).toMatchObject({ '@type': METADATA_TYPE, verb: 'validate', target: name, apiVersion: 'v1alpha1' });
  const done = await waitDone(op.name!);
  expect(done.error).toBeUndefined();
  expect(done.response).toEqual({ '@type': EMPTY_TYPE });
  expect(done.metadata!.endTime).toEqual(expect.any(String));
  return (await mc.projects.locations.importJobs.get({ name }, NO_RETRY)).data;
}

async function runJob(name: string): Promise<migrationcenter_v1alpha1.Schema$ImportJob> {
  const { data: op } = await mc.projects.locations.importJobs.run({ name, requestBody: {} }, NO_RETRY);
  expect(op.done).toBeUndefined();
  expect(op.metadata).toMatchObject({ verb: 'run', target: name });
  const done = await waitDone(op.name!);
  expect(done.error).toBeUndefined();
  expect(done.response).toEqual({ '@type': EMPTY_TYPE });
  return (await mc.projects.locations.importJobs.get({ name }, NO_RETRY)).data;
}

function expectMixedReport(report: any, fileName: string): void {
  expect(validateOutput('ValidationReport', report)).toEqual([]);
  expect(report.jobErrors).toBeUndefined();
  expect(report.fileValidations).toHaveLength(1);
  const file = report.fileValidations[0];
  expect(file.fileName).toBe(fileName);
  expect(file.partialReport).toBeUndefined();
  expect(file.fileErrors).toBeUndefined();
  expect(file.rowErrors.map((r: any) => r.rowNumber)).toEqual([4, 5]);
  const [bad, warn] = file.rowErrors;
  expect(bad).toMatchObject({ rowNumber: 4, vmName: 'bad-1', vmUuid: 'm-3' });
  expect(bad.errors).toEqual([{ severity: 'ERROR', errorDetails: expect.stringContaining('AllocatedProcessorCoreCount') }]);
  expect(warn).toMatchObject({ rowNumber: 5, vmName: 'warn-1', vmUuid: 'm-4' });
  expect(warn.errors).toEqual([{ severity: 'WARNING', errorDetails: expect.stringContaining('TotalDiskUsedGiB') }]);
}

function expectReadyReport(report: any, fileNames: string[]): void {
  expect(validateOutput('ValidationReport', report)).toEqual([]);
  expect(report.jobErrors).toBeUndefined();
  expect(report.fileValidations.map((f: any) => f.fileName).sort()).toEqual([...fileNames].sort());
  const vm = report.fileValidations.find((f: any) => f.fileName.endsWith('vmInfo.csv'));
  expect(vm.rowErrors).toHaveLength(1);
  expect(vm.rowErrors[0]).toMatchObject({ rowNumber: 4, vmName: 'warn-1', vmUuid: 'm-4', errors: [{ severity: 'WARNING', errorDetails: expect.any(String) }] });
  for (const f of report.fileValidations) {
    expect(f.partialReport).toBeUndefined();
    expect((f.fileErrors ?? []).filter((e: any) => e.severity === 'ERROR')).toEqual([]);
  }
}

function expectExecutionReport(report: any): void {
  expect(validateOutput('ExecutionReport', report)).toEqual([]);
  expect(report.totalRowsCount).toBeGreaterThanOrEqual(3);
  expect(report.framesReported).toBeGreaterThanOrEqual(3);
  expect(report.executionErrors.jobErrors).toBeUndefined();
  const rowErrors = report.executionErrors.fileValidations.flatMap((f: any) => f.rowErrors ?? []);
  expect(rowErrors.flatMap((r: any) => r.errors).filter((e: any) => e.severity === 'ERROR')).toEqual([]);
  // The imported row with a warning is reported again by execution.
  expect(rowErrors).toContainEqual(expect.objectContaining({ vmName: 'warn-1', vmUuid: 'm-4', errors: [expect.objectContaining({ severity: 'WARNING' })] }));
}

test('inline manual CSV: create, validate (FAILED_VALIDATION), fix, validate (READY), run (COMPLETED), read reports and assets', async () => {
  const parent = PARENT;
  const name = `${parent}/importJobs/inline-job`;
  // The source comes first: assetSource is required and must exist.
  await createSource(parent, 'uploads');
  const { data: created } = await mc.projects.locations.importJobs.create(
    {
      parent,
      importJobId: 'inline-job',
      requestBody: {
        displayName: 'Inline import',
        labels: { env: 'test' },
        assetSource: `${parent}/sources/uploads`,
        inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: b64(MIXED) }] },
      },
    },
    NO_RETRY,
  );
  expect(created.done).toBe(true);
  expect(created.response).toMatchObject({ '@type': IMPORT_JOB_TYPE, name, state: 'IMPORT_JOB_STATE_PENDING' });

  // The referenced source is the one created above.
  const { data: source } = await mc.projects.locations.sources.get({ name: `${parent}/sources/uploads` }, NO_RETRY);
  expect(source).toMatchObject({ name: `${parent}/sources/uploads`, type: 'SOURCE_TYPE_UPLOAD' });

  // Validation finds the ERROR row: FAILED_VALIDATION, and :run is refused.
  const failed = await validateJob(name);
  expect(failed.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
  expectMixedReport(failed.validationReport, 'vmInfo.csv');
  await expect(mc.projects.locations.importJobs.run({ name, requestBody: {} }, NO_RETRY)).rejects.toMatchObject({
    response: { status: 400, data: { error: { status: 'FAILED_PRECONDITION' } } },
  });

  // Fix the payload (drop the bad row, add performance samples): PENDING again, then READY.
  const { data: patched } = await mc.projects.locations.importJobs.patch(
    {
      name,
      updateMask: 'inlinePayload',
      requestBody: {
        inlinePayload: {
          format: 'IMPORT_JOB_FORMAT_MANUAL_CSV',
          payload: [
            { name: 'vmInfo.csv', data: b64(FIXED) },
            { name: 'perfInfo.csv', data: b64(PERF) },
          ],
        },
      },
    },
    NO_RETRY,
  );
  expect(patched.response).toMatchObject({ state: 'IMPORT_JOB_STATE_PENDING' });
  const ready = await validateJob(name);
  expect(ready.state).toBe('IMPORT_JOB_STATE_READY');
  expectReadyReport(ready.validationReport, ['vmInfo.csv', 'perfInfo.csv']);

  // Run: COMPLETED with both reports.
  const completed = await runJob(name);
  expect(completed.state).toBe('IMPORT_JOB_STATE_COMPLETED');
  expect(completed.completeTime).toMatch(/Z$/);
  expect(Date.parse(completed.completeTime!)).toBeGreaterThanOrEqual(Date.parse(completed.createTime!));
  expect(completed.updateTime! >= completed.createTime!).toBe(true);
  expectReadyReport(completed.validationReport, ['vmInfo.csv', 'perfInfo.csv']);
  expectExecutionReport(completed.executionReport);
  expect(completed.displayName).toBe('Inline import');
  expect(completed.labels).toEqual({ env: 'test' });

  // BASIC view through the client hides reports and payload.
  const { data: basic } = await mc.projects.locations.importJobs.get({ name, view: 'IMPORT_JOB_VIEW_BASIC' }, NO_RETRY);
  expect(basic.validationReport).toBeUndefined();
  expect(basic.inlinePayload).toBeUndefined();
  const { data: listed } = await mc.projects.locations.importJobs.list({ parent, filter: 'state = IMPORT_JOB_STATE_COMPLETED' }, NO_RETRY);
  expect(listed.importJobs!.map((j) => j.name)).toEqual([name]);

  // The assets execution stored: three machines (the warning row is imported), paged.
  const first = await mc.projects.locations.assets.list({ parent, pageSize: 2 }, NO_RETRY);
  expect(first.data.assets).toHaveLength(2);
  const second = await mc.projects.locations.assets.list({ parent, pageSize: 2, pageToken: first.data.nextPageToken! }, NO_RETRY);
  const assets = [...first.data.assets!, ...second.data.assets!];
  expect(second.data.nextPageToken).toBeUndefined();
  expect(assets.map((a) => a.virtualMachineDetails!.vmName).sort()).toEqual(['db-1', 'warn-1', 'web-1']);
  const db = assets.find((a) => a.virtualMachineDetails!.vmName === 'db-1')!;
  expect(db.virtualMachineDetails).toMatchObject({ coreCount: 8, memoryMb: 32 * 1024 });
  expect(db.sources).toEqual([`${parent}/sources/uploads`]);
  expect(db.attributes!.MachineId).toBe('m-2');
  const { data: one } = await mc.projects.locations.assets.get({ name: db.name!, view: 'ASSET_VIEW_FULL' }, NO_RETRY);
  expect(one).toEqual(db);
  const web = assets.find((a) => a.virtualMachineDetails!.vmName === 'web-1')!;
  const { data: webFull } = await mc.projects.locations.assets.get({ name: web.name!, view: 'ASSET_VIEW_FULL' }, NO_RETRY);
  expect(webFull.performanceData?.dailyResourceUsageAggregations?.length).toBeGreaterThan(0);
  expect(web.performanceData).toBeUndefined(); // list default BASIC
  // A typed filter (numbers compare as numbers) and aggregateValues, through the client.
  const { data: big } = await mc.projects.locations.assets.list(
    { parent, filter: 'virtualMachineDetails.coreCount > 4', orderBy: 'virtualMachineDetails.memoryMb desc' },
    NO_RETRY,
  );
  expect(big.assets!.map((a) => a.title)).toEqual(['db-1']);
  const cores = assets.reduce((n, a) => n + (a.virtualMachineDetails!.coreCount ?? 0), 0);
  const { data: aggregated } = await mc.projects.locations.assets.aggregateValues(
    {
      parent,
      requestBody: {
        aggregations: [
          { field: 'virtualMachineDetails.coreCount', sum: {} },
          { field: 'name', count: {} },
        ],
      },
    },
    NO_RETRY,
  );
  expect(aggregated.results).toEqual([
    { field: 'virtualMachineDetails.coreCount', sum: { value: cores } },
    { field: 'name', count: { value: '3' } },
  ]);

  // A completed job with no data files is deleted without force (force concerns data files only).
  const { data: deleted } = await mc.projects.locations.importJobs.delete({ name }, NO_RETRY);
  expect(deleted).toMatchObject({ done: true, response: { '@type': EMPTY_TYPE } });
  // Operations are listed under the location.
  const { data: ops } = await mc.projects.locations.operations.list({ name: parent }, NO_RETRY);
  expect(ops.operations!.map((o) => o.metadata!.verb)).toEqual(expect.arrayContaining(['create', 'validate', 'update', 'run', 'delete']));
});

test('storage payload in the storage dir: a prefix of objects, validate and run', async () => {
  const parent = 'projects/p2/locations/europe-west1';
  const folder = path.join(storageDir, 'imports-bucket', 'batch-1');
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, 'vmInfo.csv'), MIXED);
  const name = `${parent}/importJobs/storage-job`;
  await createSource(parent, 'storage');
  const { data: created } = await mc.projects.locations.importJobs.create(
    {
      parent,
      importJobId: 'storage-job',
      requestBody: { assetSource: `${parent}/sources/storage`, gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://imports-bucket/batch-1/' } },
    },
    NO_RETRY,
  );
  expect(created.response).toMatchObject({ gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://imports-bucket/batch-1/' } });

  const failed = await validateJob(name);
  expect(failed.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
  expectMixedReport(failed.validationReport, 'vmInfo.csv');

  // Fix the object in place and validate again: re-validation of FAILED_VALIDATION is allowed.
  fs.writeFileSync(path.join(folder, 'vmInfo.csv'), FIXED);
  fs.mkdirSync(path.join(folder, 'perf'));
  fs.writeFileSync(path.join(folder, 'perf', 'perfInfo.csv'), PERF);
  const ready = await validateJob(name);
  expect(ready.state).toBe('IMPORT_JOB_STATE_READY');
  expectReadyReport(ready.validationReport, ['vmInfo.csv', 'perf/perfInfo.csv']);

  const completed = await runJob(name);
  expect(completed.state).toBe('IMPORT_JOB_STATE_COMPLETED');
  expectExecutionReport(completed.executionReport);
  const { data } = await mc.projects.locations.assets.list({ parent }, NO_RETRY);
  expect(data.assets!.map((a) => a.title).sort()).toEqual(['db-1', 'warn-1', 'web-1']);
  expect(data.assets![0].sources).toEqual([`${parent}/sources/storage`]);
});

test('storage payload: one object, and a missing object is a job error of the validation report', async () => {
  const parent = 'projects/p3/locations/us-east1';
  fs.mkdirSync(path.join(storageDir, 'single-bucket'), { recursive: true });
  fs.writeFileSync(path.join(storageDir, 'single-bucket', 'vmInfo.csv'), FIXED);
  await createSource(parent, 'single');
  const assetSource = `${parent}/sources/single`;
  await mc.projects.locations.importJobs.create(
    { parent, importJobId: 'one', requestBody: { assetSource, gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://single-bucket/vmInfo.csv' } } },
    NO_RETRY,
  );
  expect((await validateJob(`${parent}/importJobs/one`)).state).toBe('IMPORT_JOB_STATE_READY');

  await mc.projects.locations.importJobs.create(
    {
      parent,
      importJobId: 'missing',
      requestBody: { assetSource, gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://single-bucket/nope.csv' } },
    },
    NO_RETRY,
  );
  const job = await validateJob(`${parent}/importJobs/missing`);
  expect(job.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
  expect(job.validationReport).toEqual({ jobErrors: [{ errorDetails: 'object gs://single-bucket/nope.csv not found', severity: 'ERROR' }] });
});

test('errors reach the client in the google.rpc.Status shape', async () => {
  await createSource(PARENT, 'errors');
  await expect(
    mc.projects.locations.importJobs.create(
      {
        parent: PARENT,
        importJobId: 'Bad_Id',
        requestBody: {
          assetSource: `${PARENT}/sources/errors`,
          inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: b64(FIXED) }] },
        },
      },
      NO_RETRY,
    ),
  ).rejects.toMatchObject({
    response: {
      status: 400,
      data: {
        error: {
          code: 400,
          status: 'INVALID_ARGUMENT',
          details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'importJobId' }] }],
        },
      },
    },
  });
});

describe("Google's rules, through googleapis", () => {
  const parent = 'projects/p4/locations/us-west1';
  const assetSource = `${parent}/sources/rules`;
  const inline = (format = 'IMPORT_JOB_FORMAT_MANUAL_CSV') => ({ format, payload: [{ name: 'vmInfo.csv', data: b64(FIXED) }] });
  const rejection = (status: number, name: string) => ({ response: { status, data: { error: { code: status, status: name } } } });
  beforeAll(() => createSource(parent, 'rules'));

  test('create without assetSource: 400 naming assetSource', async () => {
    await expect(
      mc.projects.locations.importJobs.create({ parent, importJobId: 'no-source', requestBody: { inlinePayload: inline() } }, NO_RETRY),
    ).rejects.toMatchObject({
      response: {
        status: 400,
        data: { error: { status: 'INVALID_ARGUMENT', details: [{ fieldViolations: [{ field: 'assetSource', description: 'is required' }] }] } },
      },
    });
  });

  test('create with a source that does not exist: 404 with ResourceInfo', async () => {
    await expect(
      mc.projects.locations.importJobs.create(
        { parent, importJobId: 'lost', requestBody: { assetSource: `${parent}/sources/lost`, inlinePayload: inline() } },
        NO_RETRY,
      ),
    ).rejects.toMatchObject({
      response: {
        status: 404,
        data: { error: { status: 'NOT_FOUND', details: [{ '@type': 'type.googleapis.com/google.rpc.ResourceInfo', resourceName: `${parent}/sources/lost` }] } },
      },
    });
  });

  test('a payload-less job is created; validating it ends FAILED_VALIDATION with a job error', async () => {
    const { data: created } = await mc.projects.locations.importJobs.create({ parent, importJobId: 'empty', requestBody: { assetSource } }, NO_RETRY);
    expect(created.response).toMatchObject({ state: 'IMPORT_JOB_STATE_PENDING' });
    const job = await validateJob(`${parent}/importJobs/empty`);
    expect(job.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
    expect(job.validationReport!.jobErrors).toEqual([{ severity: 'ERROR', errorDetails: expect.stringContaining('no data to validate') }]);
  });

  test('patch without updateMask: 400 naming updateMask; display_name works as a mask path', async () => {
    const name = `${parent}/importJobs/patched`;
    await mc.projects.locations.importJobs.create({ parent, importJobId: 'patched', requestBody: { assetSource, inlinePayload: inline() } }, NO_RETRY);
    await expect(mc.projects.locations.importJobs.patch({ name, requestBody: { displayName: 'x' } }, NO_RETRY)).rejects.toMatchObject({
      response: { status: 400, data: { error: { status: 'INVALID_ARGUMENT', details: [{ fieldViolations: [{ field: 'updateMask' }] }] } } },
    });
    const { data: op } = await mc.projects.locations.importJobs.patch({ name, updateMask: 'display_name', requestBody: { displayName: 'renamed' } }, NO_RETRY);
    expect(op.response).toMatchObject({ displayName: 'renamed' });
    // Sources too (Google's UpdateSource requires the mask as well).
    await expect(mc.projects.locations.sources.patch({ name: assetSource, requestBody: { displayName: 'x' } }, NO_RETRY)).rejects.toMatchObject(
      rejection(400, 'INVALID_ARGUMENT'),
    );
    const { data: sourceOp } = await mc.projects.locations.sources.patch(
      { name: assetSource, updateMask: 'display_name', requestBody: { displayName: 'Rules' } },
      NO_RETRY,
    );
    expect(sourceOp.response).toMatchObject({ displayName: 'Rules' });
  });

  test("the reference's storagePayload on the wire: 400 Unknown name", async () => {
    const requestBody = {
      assetSource,
      storagePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://b/x.csv' },
    } as migrationcenter_v1alpha1.Schema$ImportJob;
    await expect(mc.projects.locations.importJobs.create({ parent, importJobId: 'neutral', requestBody }, NO_RETRY)).rejects.toMatchObject({
      response: {
        status: 400,
        data: {
          error: { status: 'INVALID_ARGUMENT', message: `Invalid JSON payload received. Unknown name "storagePayload" at 'import_job': Cannot find field.` },
        },
      },
    });
  });

  test('a reference format on the wire: 400 Invalid value; DATABASE_ZIP is accepted', async () => {
    await expect(
      mc.projects.locations.importJobs.create(
        { parent, importJobId: 'vmtool', requestBody: { assetSource, inlinePayload: inline('IMPORT_JOB_FORMAT_VMTOOL_XLSX') } },
        NO_RETRY,
      ),
    ).rejects.toMatchObject({
      response: {
        status: 400,
        data: {
          error: {
            status: 'INVALID_ARGUMENT',
            message: `Invalid value at 'import_job.inline_payload.format' (type.googleapis.com/google.cloud.migrationcenter.v1alpha1.ImportJobFormat), "IMPORT_JOB_FORMAT_VMTOOL_XLSX"`,
          },
        },
      },
    });
    const { data } = await mc.projects.locations.importJobs.create(
      { parent, importJobId: 'db-zip', requestBody: { assetSource, inlinePayload: inline('IMPORT_JOB_FORMAT_DATABASE_ZIP') } },
      NO_RETRY,
    );
    expect(data.response).toMatchObject({ inlinePayload: { format: 'IMPORT_JOB_FORMAT_DATABASE_ZIP' } });
  });
});

test('import data files: create, upload to the signed URL with fetch, list, validate, replace, run, delete the job with and without force', async () => {
  const parent = 'projects/p5/locations/us-central1';
  const name = `${parent}/importJobs/files-job`;
  await createSource(parent, 'files');
  const files = mc.projects.locations.importJobs.importDataFiles;
  // A job with no payload: its data comes as data files.
  const { data: created } = await mc.projects.locations.importJobs.create(
    { parent, importJobId: 'files-job', requestBody: { assetSource: `${parent}/sources/files` } },
    NO_RETRY,
  );
  expect(created.response).toMatchObject({ name, state: 'IMPORT_JOB_STATE_PENDING' });

  const createFile = async (id: string, displayName: string): Promise<migrationcenter_v1alpha1.Schema$ImportDataFile> => {
    const { data: op } = await files.create(
      { parent: name, importDataFileId: id, requestBody: { displayName, format: 'IMPORT_JOB_FORMAT_MANUAL_CSV' } },
      NO_RETRY,
    );
    expect(op.done).toBe(true);
    expect(op.metadata).toMatchObject({ '@type': METADATA_TYPE, verb: 'create', target: `${name}/importDataFiles/${id}` });
    const file = op.response as migrationcenter_v1alpha1.Schema$ImportDataFile & { '@type': string };
    expect(file).toMatchObject({ '@type': DATA_FILE_TYPE, name: `${name}/importDataFiles/${id}`, displayName, state: 'CREATING' });
    // The signed URL points where the client reached the emulator.
    expect(file.uploadFileInfo!.signedUri!.startsWith(`${proxy.url}/`)).toBe(true);
    return file;
  };
  const put = (file: migrationcenter_v1alpha1.Schema$ImportDataFile, body: string) =>
    fetch(file.uploadFileInfo!.signedUri!, { method: 'PUT', headers: file.uploadFileInfo!.headers!, body });

  // Create a data file, upload a CSV with a bad row, list, validate: FAILED_VALIDATION naming the file.
  const bad = await createFile('vm-bad', 'vmInfo.csv');
  expect((await put(bad, MIXED)).status).toBe(200);
  const { data: listed } = await files.list({ parent: name }, NO_RETRY);
  expect(listed.importDataFiles!.map((f) => [f.name, f.state])).toEqual([[bad.name, 'ACTIVE']]);
  const { data: one } = await files.get({ name: bad.name! }, NO_RETRY);
  expect(one.state).toBe('ACTIVE');
  const failed = await validateJob(name);
  expect(failed.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
  expectMixedReport(failed.validationReport, 'vmInfo.csv');

  // Tampering the URL: 403 in Google's error shape.
  const tampered = await fetch(
    bad.uploadFileInfo!.signedUri!.replace(/signature=(.)/, (_m, c: string) => `signature=${c === '0' ? '1' : '0'}`),
    {
      method: 'PUT',
      headers: bad.uploadFileInfo!.headers!,
      body: FIXED,
    },
  );
  expect(tampered.status).toBe(403);
  expect(await tampered.json()).toMatchObject({ error: { code: 403, status: 'PERMISSION_DENIED' } });

  // Delete the bad file; a new data file with the fixed rows, and performance samples.
  const { data: deletedFile } = await files.delete({ name: bad.name! }, NO_RETRY);
  expect(deletedFile).toMatchObject({ done: true, response: { '@type': EMPTY_TYPE } });
  const good = await createFile('vm-good', 'vmInfo.csv');
  const perf = await createFile('perf', 'perfInfo.csv');
  expect((await put(good, FIXED)).status).toBe(200);
  expect((await put(perf, PERF)).status).toBe(200);
  const ready = await validateJob(name);
  expect(ready.state).toBe('IMPORT_JOB_STATE_READY');
  expectReadyReport(ready.validationReport, ['vmInfo.csv', 'perfInfo.csv']);
  const completed = await runJob(name);
  expect(completed.state).toBe('IMPORT_JOB_STATE_COMPLETED');
  expectExecutionReport(completed.executionReport);
  const { data: assets } = await mc.projects.locations.assets.list({ parent }, NO_RETRY);
  expect(assets.assets!.map((a) => a.title).sort()).toEqual(['db-1', 'warn-1', 'web-1']);

  // The job has data files: delete without force is refused, with force it goes, files too.
  await expect(mc.projects.locations.importJobs.delete({ name }, NO_RETRY)).rejects.toMatchObject({
    response: { status: 400, data: { error: { status: 'FAILED_PRECONDITION', message: expect.stringContaining('force=true') } } },
  });
  const { data: deleted } = await mc.projects.locations.importJobs.delete({ name, force: true }, NO_RETRY);
  expect(deleted).toMatchObject({ done: true, response: { '@type': EMPTY_TYPE } });
  await expect(files.get({ name: good.name! }, NO_RETRY)).rejects.toMatchObject({ response: { status: 404 } });
  expect(migrationCenterOf(emulator.app.emulator)!.dataFileBytes.listAll()).toEqual([]);
});

// Last in the file: every answer Google's client received above, walked for default values.
test('no answer of this suite holds a ProtoJSON default value (empty list, false, 0, "", enum zero)', () => {
  expect(proxy.answers.length).toBeGreaterThan(MIN_ANSWERS);
  expect(proxy.defaultsFound()).toEqual([]);
});
