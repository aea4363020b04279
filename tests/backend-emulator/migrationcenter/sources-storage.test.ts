/**
 * Sources (CRUD, auto-create vs strictReferences), storage payload paths (escapes refused at
 * create), objects read through a GCS-compatible server, and the background work's cancel,
 * force-delete and shutdown paths.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { FastifyInstance } from 'fastify';
import { resetStorageClients } from '../../../backend-emulator/payloads';
import {
  BASE,
  EMPTY_TYPE,
  GOOD_VM_INFO,
  PARENT,
  act,
  call,
  createJob,
  googleError,
  inlinePayload,
  jobName,
  newApp,
  ok,
  tempDir,
  violations,
  waitOperation,
} from '../../support/migrationcenter';
import { sharedApp } from '../../support/app';
import { startFakeGcs, type FakeGcs } from '../../support/fake-gcs';
import { migrationCenterOf } from '../../../backend-emulator/migrationcenter/routes';

const SOURCE_TYPE = 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.Source';
const inline = () => inlinePayload({ 'vmInfo.csv': GOOD_VM_INFO });
const gcs = (p: string) => ({ gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: p } });

describe('sources', () => {
  let app: FastifyInstance;
  const sharedAppOfBlock = sharedApp(() => newApp());
  beforeEach(() => {
    app = sharedAppOfBlock();
  });

  test('create with sourceId, get, list, delete', async () => {
    const op = ok(
      await call(app, 'POST', `${BASE}/sources?sourceId=aws-export`, {
        displayName: 'AWS export',
        description: 'from the collection script',
        type: 'SOURCE_TYPE_INVENTORY_SCAN',
        priority: 5,
        managed: true,
      }),
    );
    expect(op).toMatchObject({ done: true, metadata: { verb: 'create', target: `${PARENT}/sources/aws-export` } });
    const source = op.response;
    expect(source['@type']).toBe(SOURCE_TYPE);
    expect(source).toMatchObject({
      name: `${PARENT}/sources/aws-export`,
      displayName: 'AWS export',
      description: 'from the collection script',
      type: 'SOURCE_TYPE_INVENTORY_SCAN',
      priority: 5,
      isManaged: true,
      state: 'ACTIVE',
    });
    expect(source.managed).toBeUndefined();
    expect(source.createTime).toMatch(/Z$/);
    expect(source.updateTime).toBe(source.createTime);
    const { '@type': _t, ...plain } = source;
    expect(ok(await call(app, 'GET', `/v1alpha1/${PARENT}/sources/aws-export`))).toEqual(plain);
    expect(ok(await call(app, 'GET', `${BASE}/sources`)).sources).toEqual([plain]);
    expect(ok(await call(app, 'GET', `${BASE}/sources?filter=${encodeURIComponent('type = INVENTORY_SCAN')}`)).sources).toHaveLength(1);
    expect(ok(await call(app, 'GET', `${BASE}/sources?filter=${encodeURIComponent('type = CUSTOM')}`)).sources).toBeUndefined();
    const del = ok(await call(app, 'DELETE', `/v1alpha1/${PARENT}/sources/aws-export`));
    expect(del).toMatchObject({ done: true, response: { '@type': EMPTY_TYPE } });
    googleError(await call(app, 'GET', `/v1alpha1/${PARENT}/sources/aws-export`), 404, 'NOT_FOUND');
    googleError(await call(app, 'DELETE', `/v1alpha1/${PARENT}/sources/aws-export`), 404, 'NOT_FOUND');
  });

  test.each([
    ['sourceId=Bad_Id', {}, 'sourceId'],
    ['', {}, 'sourceId'],
    ['sourceId=s1', { type: 'SOURCE_TYPE_MAGIC' }, 'type'],
    ['sourceId=s1', { priority: 1.5 }, 'priority'],
    ['sourceId=s1', { displayName: 'x'.repeat(64) }, 'displayName'],
    // An unknown name: Google's JSON parser names the message it is not in.
    ['sourceId=s1', { colour: 'red' }, 'source'],
    ['sourceId=s1&requestId=not-a-uuid', {}, 'requestId'],
  ])('create %s %j is INVALID_ARGUMENT naming %s', async (query, body, field) => {
    const err = googleError(await call(app, 'POST', `${BASE}/sources?${query}`, body), 400, 'INVALID_ARGUMENT');
    expect(violations(err).map((v) => v.field)).toContain(field);
  });

  test('a duplicate sourceId is ALREADY_EXISTS; a requestId repeat returns the first Operation', async () => {
    const rid = '1b4e28ba-2fa1-41d2-883f-0016d3cca427';
    const first = ok(await call(app, 'POST', `${BASE}/sources?sourceId=s1&requestId=${rid}`, {}));
    expect(ok(await call(app, 'POST', `${BASE}/sources?sourceId=s1&requestId=${rid}`, {})).name).toBe(first.name);
    googleError(await call(app, 'POST', `${BASE}/sources?sourceId=s1`, {}), 409, 'ALREADY_EXISTS');
  });

  test('a job referring to a missing source is NOT_FOUND: no source is ever created for it', async () => {
    const err = googleError(await createJob(app, 'job-1', { assetSource: `${PARENT}/sources/new-one`, inlinePayload: inline() }), 404, 'NOT_FOUND');
    expect(err.message).toContain(`${PARENT}/sources/new-one`);
    expect(ok(await call(app, 'GET', `${BASE}/sources`)).sources ?? []).toEqual([]);
    expect(ok(await call(app, 'GET', `${BASE}/importJobs`)).importJobs ?? []).toEqual([]);
    // Once the source exists, jobs may refer to it.
    ok(await call(app, 'POST', `${BASE}/sources?sourceId=new-one`, {}));
    ok(await createJob(app, 'job-1', { assetSource: `${PARENT}/sources/new-one`, inlinePayload: inline() }));
    ok(await createJob(app, 'job-2', { assetSource: `${PARENT}/sources/new-one`, inlinePayload: inline() }));
  });

  test('a source of another project or location is refused', async () => {
    const err = googleError(
      await createJob(app, 'job-1', { assetSource: 'projects/other/locations/us-central1/sources/s1', inlinePayload: inline() }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(violations(err)[0]).toEqual({ field: 'assetSource', description: expect.stringContaining(PARENT) });
    googleError(await createJob(app, 'job-1', { assetSource: 'sources/s1', inlinePayload: inline() }), 400, 'INVALID_ARGUMENT');
  });

  test('seeding sources and jobs', async () => {
    const res = ok(
      await call(app, 'POST', '/emulator/v1/seed', {
        sources: [{ name: `${PARENT}/sources/seeded`, type: 'SOURCE_TYPE_CUSTOM' }],
        importJobs: [{ name: jobName('seeded'), assetSource: `${PARENT}/sources/seeded`, state: 'IMPORT_JOB_STATE_READY', inlinePayload: inline() }],
      }),
    );
    expect(res.loaded).toEqual({ sources: 1, importJobs: 1 });
    expect(ok(await call(app, 'GET', `/v1alpha1/${jobName('seeded')}`)).state).toBe('IMPORT_JOB_STATE_READY');
    const bad = googleError(
      await call(app, 'POST', '/emulator/v1/seed', { importJobs: [{ name: jobName('x'), state: 'IMPORT_JOB_STATE_RUNNING', inlinePayload: inline() }] }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(violations(bad)[0].field).toBe('importJobs[0].state');
    // Seeded jobs follow create's rules: assetSource is required and must name an existing source.
    const noSource = googleError(
      await call(app, 'POST', '/emulator/v1/seed', { importJobs: [{ name: jobName('y'), inlinePayload: inline() }] }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(violations(noSource)).toEqual([{ field: 'importJobs[0].assetSource', description: 'is required' }]);
    const missing = googleError(
      await call(app, 'POST', '/emulator/v1/seed', { importJobs: [{ name: jobName('y'), assetSource: `${PARENT}/sources/missing`, inlinePayload: inline() }] }),
      404,
      'NOT_FOUND',
    );
    expect(missing.message).toContain(`${PARENT}/sources/missing`);
    googleError(await call(app, 'GET', `/v1alpha1/${PARENT}/sources/missing`), 404, 'NOT_FOUND');
  });

  test("a seeded job's times are timestamps and its reports objects: what is not would be served as the job, which no client parses", async () => {
    ok(await call(app, 'POST', '/emulator/v1/seed', { sources: [{ name: `${PARENT}/sources/seeded`, type: 'SOURCE_TYPE_CUSTOM' }] }));
    const job = { name: jobName('timed'), assetSource: `${PARENT}/sources/seeded`, state: 'IMPORT_JOB_STATE_COMPLETED' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ createTime: 'garbage' }, 'importJobs[0].createTime'],
      [{ updateTime: '2024-01-31' }, 'importJobs[0].updateTime'],
      [{ completeTime: '2024-02-30T00:00:00Z' }, 'importJobs[0].completeTime'],
      [{ createTime: 1706707800 }, 'importJobs[0].createTime'],
      [{ validationReport: 'str' }, 'importJobs[0].validationReport'],
      [{ executionReport: [] }, 'importJobs[0].executionReport'],
    ];
    for (const [fields, field] of cases) {
      const bad = googleError(await call(app, 'POST', '/emulator/v1/seed', { importJobs: [{ ...job, ...fields }] }), 400, 'INVALID_ARGUMENT');
      expect(violations(bad).map((v) => v.field)).toEqual([field]);
    }
    googleError(await call(app, 'GET', `/v1alpha1/${jobName('timed')}`), 404, 'NOT_FOUND');
    // Google's forms pass, kept as given: a fraction of 1 to 9 digits, an offset.
    const times = { createTime: '2024-01-31T13:30:00.123456789Z', updateTime: '2024-01-31T14:30:00+01:00', completeTime: '2024-02-29T00:00:00Z' };
    ok(await call(app, 'POST', '/emulator/v1/seed', { importJobs: [{ ...job, ...times, executionReport: {} }] }));
    expect(ok(await call(app, 'GET', `/v1alpha1/${jobName('timed')}`))).toMatchObject(times);
  });
});

describe('storage paths', () => {
  let app: FastifyInstance;
  let storageDir: string;
  let outside: string;
  // One app over one storage folder for the block; the bucket is made anew before each test.
  const sharedAppOfBlock = sharedApp(() => {
    storageDir = tempDir('mc-storage-');
    return newApp({ storageDir });
  });
  beforeEach(() => {
    app = sharedAppOfBlock();
    outside = tempDir('mc-outside-');
    fs.writeFileSync(path.join(outside, 'vmInfo.csv'), GOOD_VM_INFO);
    fs.rmSync(path.join(storageDir, 'bucket'), { recursive: true, force: true });
    fs.mkdirSync(path.join(storageDir, 'bucket'));
  });
  afterEach(() => {
    fs.rmSync(outside, { recursive: true, force: true });
  });
  afterAll(() => {
    fs.rmSync(storageDir, { recursive: true, force: true });
  });

  test.each([
    ['gs://bucket/../other/vmInfo.csv', /inside its bucket/],
    ['gs://bucket/a/../../x.csv', /inside its bucket/],
    ['gs://bucket//etc/passwd', /absolute/],
    ['gs://bucket/a/./b.csv', /"\." segments/],
    ['gs://bucket/a\\..\\..\\x', /must not contain "\\"/],
    ['gs://bucket/a//b.csv', /empty segments/],
  ])('%s is INVALID_ARGUMENT on gcsPayload.path', async (p, reason) => {
    const err = googleError(await createJob(app, 'job-1', gcs(p)), 400, 'INVALID_ARGUMENT');
    expect(violations(err)).toEqual([{ field: 'gcsPayload.path', description: expect.stringMatching(reason) }]);
  });

  test('a symbolic link pointing outside the bucket folder is refused (object and folder)', async () => {
    fs.symlinkSync(path.join(outside, 'vmInfo.csv'), path.join(storageDir, 'bucket', 'link.csv'));
    fs.symlinkSync(outside, path.join(storageDir, 'bucket', 'linkdir'));
    for (const p of ['gs://bucket/link.csv', 'gs://bucket/linkdir/', 'gs://bucket/linkdir/vmInfo.csv', 'gs://bucket/linkdir/not-yet/x.csv']) {
      const err = googleError(await createJob(app, 'job-1', gcs(p)), 400, 'INVALID_ARGUMENT');
      expect(violations(err)).toEqual([{ field: 'gcsPayload.path', description: expect.stringContaining('symbolic link') }]);
    }
    const err = googleError(
      await createJob(app, 'job-1', { gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://bucket/link.csv' } }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(violations(err)[0].field).toBe('gcsPayload.path');
  });

  test('a link inside the bucket is fine; a link added after create is caught at validation', async () => {
    fs.writeFileSync(path.join(storageDir, 'bucket', 'real.csv'), GOOD_VM_INFO);
    fs.mkdirSync(path.join(storageDir, 'bucket', 'set'));
    fs.symlinkSync(path.join(storageDir, 'bucket', 'real.csv'), path.join(storageDir, 'bucket', 'set', 'vmInfo.csv'));
    ok(await createJob(app, 'job-1', gcs('gs://bucket/set/')));
    expect((await act(app, 'job-1', 'validate'))[1].state).toBe('IMPORT_JOB_STATE_READY');

    fs.mkdirSync(path.join(storageDir, 'bucket', 'later'));
    ok(await createJob(app, 'job-2', gcs('gs://bucket/later/')));
    fs.symlinkSync(path.join(outside, 'vmInfo.csv'), path.join(storageDir, 'bucket', 'later', 'vmInfo.csv'));
    const [, job] = await act(app, 'job-2', 'validate');
    expect(job.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
    expect(job.validationReport.jobErrors).toEqual([
      { errorDetails: 'object gs://bucket/later/vmInfo.csv points outside its bucket folder', severity: 'ERROR' },
    ]);
  });

  test('a prefix with no object, and a folder named without the trailing slash', async () => {
    fs.mkdirSync(path.join(storageDir, 'bucket', 'empty'));
    ok(await createJob(app, 'job-1', gcs('gs://bucket/empty/')));
    expect((await act(app, 'job-1', 'validate'))[1].validationReport.jobErrors).toEqual([
      { errorDetails: 'no object found under gs://bucket/empty/', severity: 'ERROR' },
    ]);
    ok(await createJob(app, 'job-2', gcs('gs://bucket/empty')));
    const [, job] = await act(app, 'job-2', 'validate');
    expect(job.validationReport.jobErrors[0].errorDetails).toMatch(/^object gs:\/\/bucket\/empty not found \(it is a folder/);
  });

  test('a run whose object disappeared after validation ends FAILED, with the Operation failed', async () => {
    fs.writeFileSync(path.join(storageDir, 'bucket', 'vmInfo.csv'), GOOD_VM_INFO);
    ok(await createJob(app, 'job-1', gcs('gs://bucket/vmInfo.csv')));
    expect((await act(app, 'job-1', 'validate'))[1].state).toBe('IMPORT_JOB_STATE_READY');
    fs.unlinkSync(path.join(storageDir, 'bucket', 'vmInfo.csv'));
    const [op, job] = await act(app, 'job-1', 'run');
    expect(op.error).toMatchObject({ code: 9, message: expect.stringContaining('object gs://bucket/vmInfo.csv not found') });
    expect(job.state).toBe('IMPORT_JOB_STATE_FAILED');
    expect(job.completeTime).toMatch(/Z$/);
    expect(job.executionReport).toEqual({
      executionErrors: { jobErrors: [{ errorDetails: 'object gs://bucket/vmInfo.csv not found', severity: 'ERROR' }] },
    });
  });
});

describe('a GCS-compatible server (STORAGE_EMULATOR_HOST or storageEndpoint)', () => {
  let gcsServer: FakeGcs;
  let app: FastifyInstance;
  beforeEach(async () => {
    gcsServer = await startFakeGcs();
    resetStorageClients();
  });
  afterEach(async () => {
    await app.close();
    await gcsServer.close();
    delete process.env.STORAGE_EMULATOR_HOST;
    resetStorageClients();
  });

  test('STORAGE_EMULATOR_HOST: a prefix is listed and each object read; a missing object is a job error', async () => {
    process.env.STORAGE_EMULATOR_HOST = `${gcsServer.origin}/storage/v1`;
    gcsServer.objects.set('remote-bucket/run-1/vmInfo.csv', Buffer.from(GOOD_VM_INFO));
    app = newApp();
    ok(await createJob(app, 'job-1', gcs('gs://remote-bucket/run-1/')));
    const [, validated] = await act(app, 'job-1', 'validate');
    expect(validated.state).toBe('IMPORT_JOB_STATE_READY');
    expect(validated.validationReport.fileValidations.map((f: any) => f.fileName)).toEqual(['vmInfo.csv']);
    const [, done] = await act(app, 'job-1', 'run');
    expect(done.state).toBe('IMPORT_JOB_STATE_COMPLETED');
    expect(ok(await call(app, 'GET', `${BASE}/assets`)).assets).toHaveLength(2);
    expect(gcsServer.requests.some((r) => r.startsWith('GET /storage/v1/b/remote-bucket/o?'))).toBe(true);

    ok(await createJob(app, 'job-2', gcs('gs://remote-bucket/nope.csv')));
    expect((await act(app, 'job-2', 'validate'))[1].validationReport.jobErrors).toEqual([
      { errorDetails: 'object gs://remote-bucket/nope.csv not found', severity: 'ERROR' },
    ]);
    // The syntactic rule holds for remote storage too.
    googleError(await createJob(app, 'job-3', gcs('gs://remote-bucket/../x')), 400, 'INVALID_ARGUMENT');
  });

  test('config storageEndpoint: one object', async () => {
    gcsServer.objects.set('other-bucket/vm/vmInfo.csv', Buffer.from(GOOD_VM_INFO));
    app = newApp();
    await app.ready();
    (app.emulator.config as unknown as Record<string, unknown>).storageEndpoint = gcsServer.origin;
    ok(await createJob(app, 'job-1', gcs('gs://other-bucket/vm/vmInfo.csv')));
    expect((await act(app, 'job-1', 'validate'))[1].state).toBe('IMPORT_JOB_STATE_READY');
  });

  describe('background work that cannot finish (a download that hangs)', () => {
    beforeEach(async () => {
      process.env.STORAGE_EMULATOR_HOST = `${gcsServer.origin}/storage/v1`;
      gcsServer.objects.set('slow-bucket/hang/vmInfo.csv', Buffer.from(GOOD_VM_INFO));
      app = newApp();
      ok(await createJob(app, 'job-1', gcs('gs://slow-bucket/hang/vmInfo.csv')));
    });

    async function startValidation(): Promise<any> {
      const op = ok(await call(app, 'POST', `/v1alpha1/${jobName('job-1')}:validate`, {}));
      expect(op.done).toBeUndefined();
      expect(ok(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}`)).state).toBe('IMPORT_JOB_STATE_VALIDATING');
      // Wait until the download has started.
      for (let i = 0; i < 200 && !gcsServer.requests.some((r) => r.includes('alt=media')); i++) await new Promise((r) => setTimeout(r, 10));
      return op;
    }

    test('the job shows VALIDATING while the Operation is not done; :cancel ends both', async () => {
      const op = await startValidation();
      expect(ok(await call(app, 'GET', `/v1alpha1/${op.name}`)).done).toBeUndefined();
      googleError(await call(app, 'POST', `/v1alpha1/${jobName('job-1')}:validate`, {}), 400, 'FAILED_PRECONDITION');
      ok(await call(app, 'POST', `/v1alpha1/${op.name}:cancel`, {}));
      const done = await waitOperation(app, op.name);
      expect(done.error).toMatchObject({ code: 1 });
      expect(done.metadata.requestedCancellation).toBe(true);
      const job = ok(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}`));
      expect(job.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
      expect(job.validationReport.jobErrors[0].errorDetails).toMatch(/^cancelled: /);
    });

    test('delete (without force: the job has no data files) stops the work; its Operation ends ABORTED', async () => {
      const op = await startValidation();
      ok(await call(app, 'DELETE', `/v1alpha1/${jobName('job-1')}`));
      const done = await waitOperation(app, op.name);
      // The work was cancelled, not left to run on.
      expect(migrationCenterOf(app.emulator)!.importJobs.activeJobs).toEqual([]);
      expect(done.error).toMatchObject({ code: 10, message: expect.stringContaining('was deleted') });
      googleError(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}`), 404, 'NOT_FOUND');
    });

    test('shutdown marks the job interrupted', async () => {
      await startValidation();
      const store = app.emulator.store;
      // Keep the store open across close to read what was recorded.
      const close = store.close.bind(store);
      store.close = () => undefined;
      await app.close();
      const stored = store.get<any>('migrationcenter.importJobs', jobName('job-1'));
      close();
      expect(stored.job.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
      expect(stored.job.validationReport.jobErrors).toEqual([
        { errorDetails: 'interrupted: the emulator stopped while this job was IMPORT_JOB_STATE_VALIDATING', severity: 'ERROR' },
      ]);
      app = newApp(); // for afterEach
    });
  });
});
