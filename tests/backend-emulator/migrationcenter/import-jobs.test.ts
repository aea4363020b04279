/**
 * Migration Center import jobs through inject(): create and its validation, alias spellings,
 * requestId idempotency, forbidden transitions, views, list filter/orderBy/paging, patch, delete.
 */
import type { FastifyInstance } from 'fastify';
import { COLLECTIONS } from '../../../backend-emulator/migrationcenter/names';
import type { StoredJob } from '../../../backend-emulator/migrationcenter/types';
import { NO_DATA_MESSAGE } from '../../../backend-emulator/migrationcenter/import-jobs/import-jobs';
import {
  BASE,
  EMPTY_TYPE,
  GOOD_VM_INFO,
  IMPORT_JOB_TYPE,
  METADATA_TYPE,
  PARENT,
  SOURCE,
  VM_HEADER,
  act,
  call,
  csv,
  createDataFile,
  createJob,
  ensureSource,
  googleError,
  inlinePayload,
  jobName,
  ok,
  violations,
  vmRow,
} from '../../support/migrationcenter';
import { sharedApp } from '../../support/app';

const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const REPORT = { fileValidations: [], jobErrors: [{ errorDetails: 'a warning', severity: 'WARNING' }] };
const EXEC_REPORT = { framesReported: 2, totalRowsCount: 2, executionErrors: { fileValidations: [], jobErrors: [] } };
/** The two reports as ProtoJSON answers them: empty lists left out (a message field stays, as `{}`). */
const REPORT_WIRE = { jobErrors: [{ errorDetails: 'a warning', severity: 'WARNING' }] };
const EXEC_REPORT_WIRE = { framesReported: 2, totalRowsCount: 2, executionErrors: {} };

let app: FastifyInstance;
const sharedAppOfBlock = sharedApp();
beforeEach(() => {
  app = sharedAppOfBlock();
});

const inline = () => inlinePayload({ 'vmInfo.csv': GOOD_VM_INFO });

/** The Operations of import jobs (the tests' source has its own create Operation). */
async function jobOperations(): Promise<any[]> {
  const ops: any[] = ok(await call(app, 'GET', `${BASE}/operations`)).operations ?? [];
  return ops.filter((o) => o.metadata.target.includes('/importJobs/'));
}

/** Seeds jobs directly in a given state (through the seed route, as a user would). */
async function seedJobs(...jobs: Array<Record<string, unknown>>): Promise<void> {
  // A seeded job names an existing source too: seeded in the same document, before the jobs.
  ok(
    await call(app, 'POST', '/emulator/v1/seed', {
      sources: [{ name: SOURCE }],
      importJobs: jobs.map((j) => ({ assetSource: SOURCE, inlinePayload: inline(), ...j, name: jobName(j.id as string), id: undefined })),
    }),
  );
}

/** Writes a job in a state no request can leave it in (a worker-owned state), straight into the store. */
async function putJob(id: string, state: string): Promise<void> {
  await app.ready(); // the routes register (and recover interrupted jobs) at ready: write after that
  const time = new Date().toISOString();
  const stored: StoredJob = {
    job: { name: jobName(id), createTime: time, updateTime: time, state: state as StoredJob['job']['state'], inlinePayload: inline() as any },
    attempt: 1,
  };
  app.emulator.store.put(COLLECTIONS.importJobs, jobName(id), stored);
}

describe('create', () => {
  test('returns a done Operation whose response is the PENDING job in wire spelling', async () => {
    const op = ok(await createJob(app, 'job-1', { displayName: 'First', labels: { env: 'dev' }, inlinePayload: inline() }));
    expect(op.name).toMatch(new RegExp(`^${PARENT}/operations/[^/]+$`));
    expect(op.done).toBe(true);
    expect(op.metadata).toMatchObject({ '@type': METADATA_TYPE, target: jobName('job-1'), verb: 'create', apiVersion: 'v1alpha1' });
    expect(op.metadata.requestedCancellation).toBeUndefined();
    expect(op.metadata.createTime).toMatch(RFC3339_UTC);
    expect(op.metadata.endTime).toMatch(RFC3339_UTC);
    expect(op.response['@type']).toBe(IMPORT_JOB_TYPE);
    const job = op.response;
    expect(job).toMatchObject({
      name: jobName('job-1'),
      displayName: 'First',
      labels: { env: 'dev' },
      state: 'IMPORT_JOB_STATE_PENDING',
      // The Operation names the payload's files, without their text (the caller's own; get shows it).
      inlinePayload: { format: inline().format, payload: [{ name: 'vmInfo.csv' }] },
    });
    expect(job.createTime).toMatch(RFC3339_UTC);
    expect(job.updateTime).toBe(job.createTime);
    expect(job.completeTime).toBeUndefined();
    // The operation reads back the same, and the job is there.
    expect(ok(await call(app, 'GET', `/v1alpha1/${op.name}`))).toEqual(op);
    const { '@type': type, ...plain } = job;
    expect(type).toBe(IMPORT_JOB_TYPE);
    // get (the FULL view) is the Operation's job with the payload's text.
    expect(ok(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}`))).toEqual({ ...plain, inlinePayload: inline() });
  });

  test.each([
    ['a displayName over 63 characters', { displayName: 'x'.repeat(64) }, '', 'displayName', /at most 63/],
    ['both payloads', { gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://bucket/x.csv' } }, '', 'inlinePayload', /together with gcsPayload/],
    ['an unknown field', { colour: 'red' }, '', 'import_job', /Unknown name "colour" at 'import_job': Cannot find field/],
    ['importJobId in the body', { importJobId: 'x' }, '', 'import_job', /Unknown name "importJobId"/],
    ['an assetSource that is not a source name', { assetSource: 'sources/s1' }, '', 'assetSource', /projects\/\{project\}/],
    [
      'base64 that is not base64',
      { inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: 'MachineId,MachineName\nm1,a' }] } },
      '',
      'inlinePayload.payload[0].data',
      /base64/,
    ],
    ['the unspecified format', { inlinePayload: { ...inline(), format: 'IMPORT_JOB_FORMAT_UNSPECIFIED' } }, '', 'inlinePayload.format', /UNSPECIFIED/],
    ['a zero requestId', {}, '&requestId=00000000-0000-0000-0000-000000000000', 'requestId', /UUID/],
    ['a requestId that is not a UUID', {}, '&requestId=abc', 'requestId', /UUID/],
  ])('refuses %s with INVALID_ARGUMENT naming the field', async (_what, extra, query, field, reason) => {
    const err = googleError(await createJob(app, 'job-1', { inlinePayload: inline(), ...extra }, query), 400, 'INVALID_ARGUMENT');
    const v = violations(err);
    expect(v.map((x) => x.field)).toContain(field);
    expect(v.find((x) => x.field === field)!.description).toMatch(reason);
    expect(err.message).toContain(field);
    expect(ok(await call(app, 'GET', `${BASE}/importJobs`)).importJobs ?? []).toEqual([]);
  });

  test('refuses a job without assetSource: INVALID_ARGUMENT naming assetSource (Required, as on Google)', async () => {
    const err = googleError(await createJob(app, 'job-1', { assetSource: undefined, inlinePayload: inline() }), 400, 'INVALID_ARGUMENT');
    expect(violations(err)).toEqual([{ field: 'assetSource', description: 'is required' }]);
    expect(err.message).toContain('assetSource');
    expect(ok(await call(app, 'GET', `${BASE}/importJobs`)).importJobs ?? []).toEqual([]);
  });

  test('a source that does not exist is NOT_FOUND with ResourceInfo, and nothing is created for it', async () => {
    const missing = `${PARENT}/sources/nowhere`;
    const err = googleError(await createJob(app, 'job-1', { assetSource: missing, inlinePayload: inline() }), 404, 'NOT_FOUND');
    expect(err.details).toEqual([
      expect.objectContaining({
        '@type': 'type.googleapis.com/google.rpc.ResourceInfo',
        resourceType: 'migrationcenter.googleapis.com/Source',
        resourceName: missing,
      }),
    ]);
    googleError(await call(app, 'GET', `/v1alpha1/${missing}`), 404, 'NOT_FOUND');
    googleError(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}`), 404, 'NOT_FOUND');
  });

  test('a source of another location is INVALID_ARGUMENT naming assetSource', async () => {
    const other = 'projects/p1/locations/europe-west1/sources/src';
    await ensureSource(app, other);
    const err = googleError(await createJob(app, 'job-1', { assetSource: other, inlinePayload: inline() }), 400, 'INVALID_ARGUMENT');
    expect(violations(err)[0].field).toBe('assetSource');
  });

  test('a job may be created with no payload (data comes later); validating it ends FAILED_VALIDATION saying there is no data', async () => {
    const op = ok(await createJob(app, 'job-1', { displayName: 'x' }));
    expect(op.response.state).toBe('IMPORT_JOB_STATE_PENDING');
    const [done, job] = await act(app, 'job-1', 'validate');
    expect(done.error).toBeUndefined();
    expect(job.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
    expect(job.validationReport.jobErrors).toEqual([{ severity: 'ERROR', errorDetails: NO_DATA_MESSAGE }]);
    expect(NO_DATA_MESSAGE).toMatch(/no data to validate: add data files \(importDataFiles\) or a payload/);
  });

  test.each(['Job1', '1job', 'job-', 'job_1', 'x'.repeat(64)])('refuses importJobId %j', async (id) => {
    const err = googleError(await createJob(app, id, { inlinePayload: inline() }), 400, 'INVALID_ARGUMENT');
    expect(violations(err)[0]).toEqual({ field: 'importJobId', description: expect.stringContaining('resource ID') });
  });

  test('refuses a missing importJobId', async () => {
    await ensureSource(app);
    const err = googleError(await call(app, 'POST', `${BASE}/importJobs`, { assetSource: SOURCE, inlinePayload: inline() }), 400, 'INVALID_ARGUMENT');
    expect(violations(err)).toEqual([{ field: 'importJobId', description: 'is required' }]);
  });

  test('a duplicate importJobId is ALREADY_EXISTS', async () => {
    ok(await createJob(app, 'job-1', { inlinePayload: inline() }));
    const err = googleError(await createJob(app, 'job-1', { inlinePayload: inline() }), 409, 'ALREADY_EXISTS');
    expect(err.message).toContain(jobName('job-1'));
  });

  test('ignores output-only fields in the body', async () => {
    const op = ok(
      await createJob(app, 'job-1', { inlinePayload: inline(), state: 'IMPORT_JOB_STATE_COMPLETED', name: 'other', createTime: '2000-01-01T00:00:00Z' }),
    );
    expect(op.response).toMatchObject({ name: jobName('job-1'), state: 'IMPORT_JOB_STATE_PENDING' });
    expect(op.response.createTime).not.toBe('2000-01-01T00:00:00Z');
  });
});

describe("only wire names on the wire (the reference's neutral names are the provider's arguments)", () => {
  test('storagePayload is refused as Google refuses it: Unknown name at import_job', async () => {
    const err = googleError(
      await createJob(app, 'job-1', { storagePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://bucket/a/' } }),
      400,
      'INVALID_ARGUMENT',
    );
    const text = `Invalid JSON payload received. Unknown name "storagePayload" at 'import_job': Cannot find field.`;
    expect(err.message).toBe(text);
    expect(violations(err)).toEqual([{ field: 'import_job', description: text }]);
    expect(ok(await call(app, 'GET', `${BASE}/importJobs`)).importJobs ?? []).toEqual([]);
  });

  test.each([
    'IMPORT_JOB_FORMAT_VMTOOL_XLSX',
    'IMPORT_JOB_FORMAT_VMTOOL_CSV',
    'IMPORT_JOB_FORMAT_EXPORTED_CLOUDA_CSV',
    'IMPORT_JOB_FORMAT_EXPORTED_CLOUDB_CSV',
    'CSV',
  ])('inline format %s is refused: Invalid value at import_job.inline_payload.format', async (format) => {
    const err = googleError(await createJob(app, 'job-1', { inlinePayload: { ...inline(), format } }), 400, 'INVALID_ARGUMENT');
    const text = `Invalid value at 'import_job.inline_payload.format' (type.googleapis.com/google.cloud.migrationcenter.v1alpha1.ImportJobFormat), "${format}"`;
    expect(err.message).toBe(text);
    expect(violations(err)).toEqual([{ field: 'import_job.inline_payload.format', description: text }]);
  });

  test('a neutral format in gcsPayload is refused at import_job.gcs_payload.format', async () => {
    const err = googleError(
      await createJob(app, 'job-1', { gcsPayload: { format: 'IMPORT_JOB_FORMAT_VMTOOL_XLSX', path: 'gs://bucket/a.xlsx' } }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(violations(err)[0].field).toBe('import_job.gcs_payload.format');
  });

  test.each([
    'IMPORT_JOB_FORMAT_RVTOOLS_CSV',
    'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV',
    'IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV',
    'IMPORT_JOB_FORMAT_CMDB',
    'IMPORT_JOB_FORMAT_DATABASE_ZIP',
  ])('wire format %s is accepted on create and stored as given', async (format) => {
    const op = ok(await createJob(app, 'job-1', { inlinePayload: { ...inline(), format } }));
    expect(op.response.inlinePayload.format).toBe(format);
  });
});

describe('requestId', () => {
  const RID = '6f1c1f5e-8a4a-4e36-9a57-3b0f2b1c2d3e';

  test('a repeat returns the same Operation and creates nothing', async () => {
    const first = ok(await createJob(app, 'job-1', { inlinePayload: inline() }, `&requestId=${RID}`));
    const again = ok(await createJob(app, 'job-1', { inlinePayload: inline() }, `&requestId=${RID}`));
    expect(again.name).toBe(first.name);
    expect(again).toEqual(first);
    expect(ok(await call(app, 'GET', `${BASE}/importJobs`)).importJobs).toHaveLength(1);
    expect(await jobOperations()).toHaveLength(1);
  });

  test('the same id with a different body is INVALID_ARGUMENT naming requestId', async () => {
    ok(await createJob(app, 'job-1', { inlinePayload: inline() }, `&requestId=${RID}`));
    const err = googleError(await createJob(app, 'job-1', { inlinePayload: inline(), displayName: 'changed' }, `&requestId=${RID}`), 400, 'INVALID_ARGUMENT');
    expect(violations(err)[0].field).toBe('requestId');
    expect(err.message).toContain(RID);
    expect(err.message).toMatch(/different request/);
    // Another job id with the same request id is a different request too.
    googleError(await createJob(app, 'job-2', { inlinePayload: inline() }, `&requestId=${RID}`), 400, 'INVALID_ARGUMENT');
  });

  test('20 concurrent creates with one requestId create exactly one job and return one Operation', async () => {
    await ensureSource(app);
    const results = await Promise.all(Array.from({ length: 20 }, () => createJob(app, 'job-1', { inlinePayload: inline() }, `&requestId=${RID}`)));
    for (const r of results) expect(r.status).toBe(200);
    expect(new Set(results.map((r) => r.body.name)).size).toBe(1);
    expect(ok(await call(app, 'GET', `${BASE}/importJobs`)).importJobs).toHaveLength(1);
    expect(await jobOperations()).toHaveLength(1);
  });

  test('20 concurrent creates without requestId: one job, 19 ALREADY_EXISTS', async () => {
    await ensureSource(app);
    const results = await Promise.all(Array.from({ length: 20 }, () => createJob(app, 'job-1', { inlinePayload: inline() })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
  });

  test('a record older than two hours no longer applies', async () => {
    ok(await createJob(app, 'job-1', { inlinePayload: inline() }, `&requestId=${RID}`));
    const store = app.emulator.store;
    const [entry] = store.list<{ createTime: number }>(COLLECTIONS.requestIds);
    store.put(COLLECTIONS.requestIds, entry.key, { ...entry.value, createTime: Date.now() - 2 * 60 * 60 * 1000 - 1 });
    const op = ok(await createJob(app, 'job-2', { inlinePayload: inline() }, `&requestId=${RID}`));
    expect(op.response.name).toBe(jobName('job-2'));
  });

  test('a record of 59 minutes still applies', async () => {
    const first = ok(await createJob(app, 'job-1', { inlinePayload: inline() }, `&requestId=${RID}`));
    const store = app.emulator.store;
    const [entry] = store.list<{ createTime: number }>(COLLECTIONS.requestIds);
    store.put(COLLECTIONS.requestIds, entry.key, { ...entry.value, createTime: Date.now() - 59 * 60 * 1000 });
    expect(ok(await createJob(app, 'job-1', { inlinePayload: inline() }, `&requestId=${RID}`)).name).toBe(first.name);
  });

  test('validate, patch and delete honour requestId too', async () => {
    ok(await createJob(app, 'job-1', { inlinePayload: inline() }));
    const p1 = ok(await call(app, 'PATCH', `/v1alpha1/${jobName('job-1')}?updateMask=displayName&requestId=${RID}`, { displayName: 'a' }));
    const p2 = ok(await call(app, 'PATCH', `/v1alpha1/${jobName('job-1')}?updateMask=displayName&requestId=${RID}`, { displayName: 'a' }));
    expect(p2.name).toBe(p1.name);
    googleError(
      await call(app, 'PATCH', `/v1alpha1/${jobName('job-1')}?updateMask=displayName&requestId=${RID}`, { displayName: 'b' }),
      400,
      'INVALID_ARGUMENT',
    );

    const rid2 = '0e7a3c52-1d3f-4f5b-8c9d-aaaaaaaaaaaa';
    const d1 = ok(await call(app, 'DELETE', `/v1alpha1/${jobName('job-1')}?requestId=${rid2}`));
    const d2 = ok(await call(app, 'DELETE', `/v1alpha1/${jobName('job-1')}?requestId=${rid2}`));
    expect(d2.name).toBe(d1.name);
    expect(d1.response['@type']).toBe(EMPTY_TYPE);
    googleError(await call(app, 'DELETE', `/v1alpha1/${jobName('job-1')}`), 404, 'NOT_FOUND');
  });

  test(':validate with a requestId in the body: a repeat returns the same Operation and starts nothing', async () => {
    ok(await createJob(app, 'job-1', { inlinePayload: inline() }));
    const v1 = ok(await call(app, 'POST', `/v1alpha1/${jobName('job-1')}:validate`, { requestId: RID }));
    const v2 = ok(await call(app, 'POST', `/v1alpha1/${jobName('job-1')}:validate`, { requestId: RID }));
    expect(v2.name).toBe(v1.name);
    googleError(await call(app, 'POST', `/v1alpha1/${jobName('job-1')}:validate`, { requestId: 'nope' }), 400, 'INVALID_ARGUMENT');
  });
});

describe("the Operation's status message says how far the work got", () => {
  test(':validate counts the rows read, :run the assets written', async () => {
    ok(await createJob(app, 'job-1', { inlinePayload: inlinePayload({ 'vmInfo.csv': GOOD_VM_INFO }) }));
    const [validated] = await act(app, 'job-1', 'validate');
    expect(validated.metadata.statusMessage).toBe('validating 1 file(s): 2 rows read');
    const [ran] = await act(app, 'job-1', 'run');
    expect(ran.metadata.statusMessage).toBe('importing 1 file(s): 2 assets written');
  });

  test('the finished Operation says the final count, not the last one written before it (they are written at most twice a second)', async () => {
    const rows = Array.from({ length: 12_000 }, (_, i) => vmRow(`m-${i}`, `vm-${i}`));
    ok(await createJob(app, 'job-1', { inlinePayload: inlinePayload({ 'vmInfo.csv': csv(VM_HEADER, ...rows) }) }));
    const [validated] = await act(app, 'job-1', 'validate');
    expect(validated.metadata.statusMessage).toBe('validating 1 file(s): 12,000 rows read');
    const [ran] = await act(app, 'job-1', 'run');
    expect(ran.metadata.statusMessage).toBe('importing 1 file(s): 12,000 assets written');
  });
});

describe('forbidden transitions are FAILED_PRECONDITION naming the state', () => {
  test.each([
    ['run', 'IMPORT_JOB_STATE_PENDING'],
    ['run', 'IMPORT_JOB_STATE_FAILED_VALIDATION'],
    ['run', 'IMPORT_JOB_STATE_COMPLETED'],
    ['run', 'IMPORT_JOB_STATE_FAILED'],
    ['validate', 'IMPORT_JOB_STATE_COMPLETED'],
    ['validate', 'IMPORT_JOB_STATE_FAILED'],
  ])(':%s of a %s job', async (verb, state) => {
    await seedJobs({ id: 'job-1', state });
    const err = googleError(await call(app, 'POST', `/v1alpha1/${jobName('job-1')}:${verb}`, {}), 400, 'FAILED_PRECONDITION');
    expect(err.message).toContain(state);
    expect(ok(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}`)).state).toBe(state);
  });

  test.each([
    ['validate', 'IMPORT_JOB_STATE_RUNNING'],
    ['validate', 'IMPORT_JOB_STATE_VALIDATING'],
    ['run', 'IMPORT_JOB_STATE_RUNNING'],
    ['run', 'IMPORT_JOB_STATE_VALIDATING'],
  ])(':%s of a %s job', async (verb, state) => {
    await putJob('job-1', state);
    const err = googleError(await call(app, 'POST', `/v1alpha1/${jobName('job-1')}:${verb}`, {}), 400, 'FAILED_PRECONDITION');
    expect(err.message).toContain(state);
  });

  test.each(['IMPORT_JOB_STATE_COMPLETED', 'IMPORT_JOB_STATE_FAILED', 'IMPORT_JOB_STATE_RUNNING', 'IMPORT_JOB_STATE_VALIDATING'])(
    'a payload patch of a %s job',
    async (state) => {
      if (state === 'IMPORT_JOB_STATE_COMPLETED' || state === 'IMPORT_JOB_STATE_FAILED') await seedJobs({ id: 'job-1', state });
      else await putJob('job-1', state);
      const err = googleError(
        await call(app, 'PATCH', `/v1alpha1/${jobName('job-1')}?updateMask=inlinePayload`, { inlinePayload: inline() }),
        400,
        'FAILED_PRECONDITION',
      );
      expect(err.message).toContain(state);
      // displayName and labels stay editable.
      ok(await call(app, 'PATCH', `/v1alpha1/${jobName('job-1')}?updateMask=displayName`, { displayName: 'renamed' }));
    },
  );

  test('re-validating a READY or FAILED_VALIDATION job is allowed', async () => {
    await seedJobs({ id: 'job-1', state: 'IMPORT_JOB_STATE_READY' }, { id: 'job-2', state: 'IMPORT_JOB_STATE_FAILED_VALIDATION' });
    for (const id of ['job-1', 'job-2']) {
      const op = ok(await call(app, 'POST', `/v1alpha1/${jobName(id)}:validate`, {}));
      expect(op.done).toBeUndefined();
      expect(op.metadata.verb).toBe('validate');
    }
  });

  test('a payload patch of a READY job sends it back to PENDING and clears the report', async () => {
    await seedJobs({ id: 'job-1', state: 'IMPORT_JOB_STATE_READY', validationReport: REPORT });
    const op = ok(
      await call(app, 'PATCH', `/v1alpha1/${jobName('job-1')}?updateMask=inlinePayload`, {
        inlinePayload: inlinePayload({ 'vmInfo.csv': GOOD_VM_INFO + 'm-3,x\n' }),
      }),
    );
    expect(op.response.state).toBe('IMPORT_JOB_STATE_PENDING');
    expect(op.response.validationReport).toBeUndefined();
    googleError(await call(app, 'POST', `/v1alpha1/${jobName('job-1')}:run`, {}), 400, 'FAILED_PRECONDITION');
  });

  test('unknown verbs and verbs on GET are 404', async () => {
    ok(await createJob(app, 'job-1', { inlinePayload: inline() }));
    googleError(await call(app, 'POST', `/v1alpha1/${jobName('job-1')}:explode`, {}), 404, 'NOT_FOUND');
    googleError(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}:validate`), 404, 'NOT_FOUND');
    googleError(await call(app, 'POST', `/v1alpha1/${jobName('nope')}:validate`, {}), 404, 'NOT_FOUND');
  });
});

describe('views', () => {
  beforeEach(async () => {
    await seedJobs({ id: 'job-1', state: 'IMPORT_JOB_STATE_COMPLETED', validationReport: REPORT, executionReport: EXEC_REPORT, displayName: 'one' });
  });

  test('get defaults to FULL: reports and payload', async () => {
    const job = ok(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}`));
    expect(job.validationReport).toEqual(REPORT_WIRE);
    expect(job.executionReport).toEqual(EXEC_REPORT_WIRE);
    expect(job.inlinePayload).toEqual(inline());
    expect(job.completeTime).toMatch(RFC3339_UTC);
    expect(ok(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}?view=IMPORT_JOB_VIEW_FULL`))).toEqual(job);
  });

  test('BASIC hides reports and payload', async () => {
    const job = ok(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}?view=IMPORT_JOB_VIEW_BASIC`));
    expect(Object.keys(job).sort()).toEqual(['assetSource', 'completeTime', 'createTime', 'displayName', 'name', 'state', 'updateTime']);
  });

  test('list defaults to BASIC; FULL on request', async () => {
    const [basic] = ok(await call(app, 'GET', `${BASE}/importJobs`)).importJobs;
    expect(basic.validationReport).toBeUndefined();
    expect(basic.inlinePayload).toBeUndefined();
    const [full] = ok(await call(app, 'GET', `${BASE}/importJobs?view=IMPORT_JOB_VIEW_FULL`)).importJobs;
    expect(full.validationReport).toEqual(REPORT_WIRE);
    expect(full.inlinePayload).toEqual(inline());
  });

  test('an unknown view is INVALID_ARGUMENT', async () => {
    const err = googleError(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}?view=EVERYTHING`), 400, 'INVALID_ARGUMENT');
    expect(violations(err)[0].field).toBe('view');
  });
});

describe('list', () => {
  beforeEach(async () => {
    await seedJobs(
      { id: 'job-a', displayName: 'x', state: 'IMPORT_JOB_STATE_READY', labels: { env: 'prod' }, createTime: '2024-01-01T00:00:00Z' },
      { id: 'job-b', displayName: 'y', state: 'IMPORT_JOB_STATE_PENDING', labels: { env: 'dev' }, createTime: '2024-01-03T00:00:00Z' },
      { id: 'job-c', displayName: 'x', state: 'IMPORT_JOB_STATE_COMPLETED', createTime: '2024-01-02T00:00:00Z' },
      { id: 'job-d', displayName: 'a b', state: 'IMPORT_JOB_STATE_READY', labels: { env: 'prod', team: 'red' }, createTime: '2024-01-05T00:00:00Z' },
      { id: 'job-e', displayName: 'z', state: 'IMPORT_JOB_STATE_FAILED', createTime: '2024-01-04T00:00:00Z' },
    );
  });
  const ids = (body: any) => body.importJobs.map((j: any) => j.name.split('/').pop());
  const list = async (query: string) => ok(await call(app, 'GET', `${BASE}/importJobs?${query}`));

  test.each([
    ['state = IMPORT_JOB_STATE_READY', ['job-a', 'job-d']],
    ['state=READY', ['job-a', 'job-d']],
    ['displayName = "x"', ['job-a', 'job-c']],
    ['displayName = "a b"', ['job-d']],
    ['state = IMPORT_JOB_STATE_READY AND displayName = "x"', ['job-a']],
    ['state = IMPORT_JOB_STATE_READY displayName = "x"', ['job-a']],
    ['displayName = "y" OR displayName = "z"', ['job-b', 'job-e']],
    ['NOT state = IMPORT_JOB_STATE_READY', ['job-b', 'job-c', 'job-e']],
    ['-state = IMPORT_JOB_STATE_READY', ['job-b', 'job-c', 'job-e']],
    ['state != IMPORT_JOB_STATE_READY AND (displayName = "x" OR displayName = "z")', ['job-c', 'job-e']],
    ['labels.env = prod', ['job-a', 'job-d']],
    ['labels:team', ['job-d']],
    ['createTime > "2024-01-02T00:00:00Z"', ['job-b', 'job-d', 'job-e']],
    ['displayName = "*"', ['job-a', 'job-b', 'job-c', 'job-d', 'job-e']],
    ['name:*job-c', ['job-c']],
  ])('filter %s', async (filter, expected) => {
    expect(ids(await list(`filter=${encodeURIComponent(filter)}`))).toEqual(expected);
  });

  test.each(['state =', 'colour = red', '(state = X', 'state = "unterminated', 'state ~ x', 'createTime > yesterday'])(
    'a bad filter %j is INVALID_ARGUMENT on filter',
    async (filter) => {
      const err = googleError(await call(app, 'GET', `${BASE}/importJobs?filter=${encodeURIComponent(filter)}`), 400, 'INVALID_ARGUMENT');
      expect(violations(err)[0].field).toBe('filter');
    },
  );

  test.each([
    ['createTime desc', ['job-d', 'job-e', 'job-b', 'job-c', 'job-a']],
    ['createTime', ['job-a', 'job-c', 'job-b', 'job-e', 'job-d']],
    ['displayName', ['job-d', 'job-a', 'job-c', 'job-b', 'job-e']],
    ['displayName desc, createTime desc', ['job-e', 'job-b', 'job-c', 'job-a', 'job-d']],
    ['state, name desc', ['job-c', 'job-e', 'job-b', 'job-d', 'job-a']],
  ])('orderBy %s', async (orderBy, expected) => {
    expect(ids(await list(`orderBy=${encodeURIComponent(orderBy)}`))).toEqual(expected);
  });

  test.each(['colour', 'createTime sideways', 'createTime desc extra'])('a bad orderBy %j is INVALID_ARGUMENT on orderBy', async (orderBy) => {
    const err = googleError(await call(app, 'GET', `${BASE}/importJobs?orderBy=${encodeURIComponent(orderBy)}`), 400, 'INVALID_ARGUMENT');
    expect(violations(err)[0].field).toBe('orderBy');
  });

  test('paging walks every job once, with filter and orderBy kept by the token', async () => {
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const body = await list(`pageSize=2&orderBy=${encodeURIComponent('createTime desc')}${token ? `&pageToken=${token}` : ''}`);
      expect(body.importJobs.length).toBeLessThanOrEqual(2);
      seen.push(...ids(body));
      token = body.nextPageToken;
    } while (token);
    expect(seen).toEqual(['job-d', 'job-e', 'job-b', 'job-c', 'job-a']);

    const first = await list('pageSize=1&filter=' + encodeURIComponent('state = READY'));
    expect(ids(first)).toEqual(['job-a']);
    // An insert between pages neither repeats nor skips.
    await seedJobs({ id: 'job-0', state: 'IMPORT_JOB_STATE_READY' });
    const second = await list(`pageSize=5&filter=${encodeURIComponent('state = READY')}&pageToken=${first.nextPageToken}`);
    expect(ids(second)).toEqual(['job-d']);
    expect(second.nextPageToken).toBeUndefined();
    // A token is bound to its filter.
    const err = googleError(await call(app, 'GET', `${BASE}/importJobs?pageSize=1&pageToken=${first.nextPageToken}`), 400, 'INVALID_ARGUMENT');
    expect(violations(err)[0].field).toBe('pageToken');
    googleError(await call(app, 'GET', `${BASE}/importJobs?pageToken=garbage`), 400, 'INVALID_ARGUMENT');
    googleError(await call(app, 'GET', `${BASE}/importJobs?pageSize=-1`), 400, 'INVALID_ARGUMENT');
  });

  test('another location lists nothing', async () => {
    expect(ok(await call(app, 'GET', '/v1alpha1/projects/p1/locations/europe-west1/importJobs')).importJobs).toBeUndefined();
  });
});

describe('patch', () => {
  beforeEach(async () => {
    ok(await createJob(app, 'job-1', { displayName: 'one', labels: { env: 'dev' }, inlinePayload: inline() }));
  });
  const patch = (query: string, body: unknown) => call(app, 'PATCH', `/v1alpha1/${jobName('job-1')}${query}`, body);

  test('updateMask=displayName changes only the display name', async () => {
    const before = ok(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}`));
    await new Promise((r) => setTimeout(r, 5));
    const op = ok(await patch('?updateMask=displayName', { displayName: 'two', labels: { env: 'ignored' } }));
    expect(op.done).toBe(true);
    expect(op.metadata.verb).toBe('update');
    expect(op.response['@type']).toBe(IMPORT_JOB_TYPE);
    expect(op.response).toMatchObject({ displayName: 'two', labels: { env: 'dev' } });
    expect(op.response.updateTime > before.updateTime).toBe(true);
    expect(op.response.createTime).toBe(before.createTime);
  });

  test('updateMask=labels replaces the labels; a masked field absent from the body is cleared', async () => {
    expect(ok(await patch('?updateMask=labels', { labels: { team: 'blue' } })).response.labels).toEqual({ team: 'blue' });
    const op = ok(await patch('?updateMask=displayName,labels', {}));
    expect(op.response.displayName).toBeUndefined();
    expect(op.response.labels).toBeUndefined();
  });

  test('without updateMask: INVALID_ARGUMENT naming updateMask (required, as on Google); nothing changes', async () => {
    const err = googleError(await patch('', { displayName: 'three' }), 400, 'INVALID_ARGUMENT');
    expect(violations(err)).toEqual([{ field: 'updateMask', description: expect.stringMatching(/^is required/) }]);
    expect(ok(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}`)).displayName).toBe('one');
  });

  test('mask paths in either spelling: display_name, inline_payload', async () => {
    expect(ok(await patch('?updateMask=display_name', { displayName: 'three' })).response).toMatchObject({ displayName: 'three', labels: { env: 'dev' } });
    const payload = inlinePayload({ 'vmInfo.csv': GOOD_VM_INFO }, 'IMPORT_JOB_FORMAT_MANUAL_CSV');
    expect(ok(await patch('?updateMask=inline_payload,labels', { inlinePayload: payload, labels: { team: 'x' } })).response).toEqual(
      expect.objectContaining({ inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv' }] }, labels: { team: 'x' } }),
    );
    expect(ok(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}`)).inlinePayload).toEqual(payload);
    expect(
      ok(await patch('?updateMask=gcs_payload', { gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://bucket/x/' } })).response.inlinePayload,
    ).toBeUndefined();
  });

  test.each([
    ['?updateMask=assetSource', { assetSource: 'projects/p1/locations/us-central1/sources/s' }, /assetSource cannot be changed/],
    ['?updateMask=state', { state: 'IMPORT_JOB_STATE_READY' }, /output only/],
    ['?updateMask=colour', {}, /not a field that can be updated/],
    ['?updateMask=labels.env', { labels: { env: 'x' } }, /whole labels/],
    ['', {}, /is required/],
  ])('mask %s is INVALID_ARGUMENT on updateMask', async (query, body, reason) => {
    const err = googleError(await patch(query, body), 400, 'INVALID_ARGUMENT');
    expect(violations(err)[0]).toEqual({ field: 'updateMask', description: expect.stringMatching(reason) });
  });

  test('values go through the same schema as create', async () => {
    const err = googleError(await patch('?updateMask=displayName', { displayName: 'x'.repeat(64) }), 400, 'INVALID_ARGUMENT');
    expect(violations(err)[0].field).toBe('displayName');
    const err2 = googleError(await patch('?updateMask=labels', { labels: { Env: 'x' } }), 400, 'INVALID_ARGUMENT');
    expect(violations(err2)[0].field).toBe('labels.Env');
    const err3 = googleError(
      await patch('?updateMask=gcsPayload', { gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://bucket/../x' } }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(violations(err3)[0].field).toBe('gcsPayload.path');
  });

  test("the payload can move from inline to storage; the reference's storagePayload is an unknown name", async () => {
    const op = ok(await patch('?updateMask=gcsPayload', { gcsPayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV', path: 'gs://bucket/x/' } }));
    expect(op.response.gcsPayload).toEqual({ format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV', path: 'gs://bucket/x/' });
    expect(op.response.inlinePayload).toBeUndefined();
    const err = googleError(
      await patch('?updateMask=gcsPayload', { storagePayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV', path: 'gs://bucket/x/' } }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(err.message).toContain('Unknown name "storagePayload" at \'import_job\'');
  });

  test('patching a missing job is NOT_FOUND', async () => {
    googleError(await call(app, 'PATCH', `/v1alpha1/${jobName('nope')}?updateMask=displayName`, { displayName: 'x' }), 404, 'NOT_FOUND');
  });
});

describe('delete', () => {
  test('a PENDING job is deleted; the Operation is done with Empty', async () => {
    ok(await createJob(app, 'job-1', { inlinePayload: inline() }));
    const op = ok(await call(app, 'DELETE', `/v1alpha1/${jobName('job-1')}`));
    expect(op).toMatchObject({ done: true, response: { '@type': EMPTY_TYPE }, metadata: { verb: 'delete', target: jobName('job-1') } });
    googleError(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}`), 404, 'NOT_FOUND');
    googleError(await call(app, 'DELETE', `/v1alpha1/${jobName('job-1')}`), 404, 'NOT_FOUND');
  });

  test.each(['IMPORT_JOB_STATE_COMPLETED', 'IMPORT_JOB_STATE_READY', 'IMPORT_JOB_STATE_FAILED_VALIDATION', 'IMPORT_JOB_STATE_FAILED'])(
    'a %s job with no data files is deleted without force (force concerns data files only)',
    async (state) => {
      await seedJobs({ id: 'job-1', state });
      ok(await call(app, 'DELETE', `/v1alpha1/${jobName('job-1')}`));
      googleError(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}`), 404, 'NOT_FOUND');
    },
  );

  test.each(['IMPORT_JOB_STATE_RUNNING', 'IMPORT_JOB_STATE_VALIDATING'])('a %s job is deleted without force', async (state) => {
    await putJob('job-1', state);
    ok(await call(app, 'DELETE', `/v1alpha1/${jobName('job-1')}`));
    googleError(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}`), 404, 'NOT_FOUND');
  });

  test('a job with data files needs force=true (FAILED_PRECONDITION otherwise)', async () => {
    ok(await createJob(app, 'job-1', {}));
    ok(await createDataFile(app, 'job-1', 'vm-info', { displayName: 'vmInfo.csv' }));
    ok(await createDataFile(app, 'job-1', 'perf-info', { displayName: 'perfInfo.csv' }));
    const err = googleError(await call(app, 'DELETE', `/v1alpha1/${jobName('job-1')}?force=false`), 400, 'FAILED_PRECONDITION');
    expect(err.message).toMatch(/2 data file\(s\).*force=true/);
    ok(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}`));
    ok(await call(app, 'DELETE', `/v1alpha1/${jobName('job-1')}?force=true`));
    googleError(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}`), 404, 'NOT_FOUND');
  });

  test('force must be a boolean', async () => {
    ok(await createJob(app, 'job-1', { inlinePayload: inline() }));
    googleError(await call(app, 'DELETE', `/v1alpha1/${jobName('job-1')}?force=maybe`), 400, 'INVALID_ARGUMENT');
  });
});

describe('operations', () => {
  test('get and list under /v1alpha1 with the Migration Center metadata type; unknown is NOT_FOUND', async () => {
    const op = ok(await createJob(app, 'job-1', { inlinePayload: inline() }));
    const listed = await jobOperations();
    expect(listed).toEqual([op]);
    expect(listed[0].metadata['@type']).toBe(METADATA_TYPE);
    googleError(await call(app, 'GET', `${BASE}/operations/nope`), 404, 'NOT_FOUND');
  });

  test('a validation that finds no object: FAILED_VALIDATION with a job error, the Operation still succeeds', async () => {
    ok(await createJob(app, 'job-1', { gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://no-such-bucket/vmInfo.csv' } }));
    const [op, job] = await act(app, 'job-1', 'validate');
    expect(op).toMatchObject({ done: true, response: { '@type': EMPTY_TYPE } });
    expect(op.error).toBeUndefined();
    expect(job.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
    expect(job.validationReport).toEqual({
      jobErrors: [{ errorDetails: 'object gs://no-such-bucket/vmInfo.csv not found', severity: 'ERROR' }],
    });
  });
});
