/**
 * Import data files through inject(): create (ids, body, format rules, requestId), get, list,
 * delete; the signed upload URL (PUT with its headers; tampered, expired, other-file and
 * header-less URLs refused with 403; > 100 MB refused with 413 while streaming; re-upload
 * replaces); validation and run read the files under their display names; job delete with and
 * without force; nothing left in the data dir for resources that are gone, also after a restart.
 */
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import { Readable, Writable } from 'stream';
import type { FastifyInstance } from 'fastify';
import { migrationCenterOf } from '../../../backend-emulator/migrationcenter/routes';
import { MAX_DATA_FILE_BYTES } from '../../../backend-emulator/migrationcenter/import-data-files/data-file-bytes';
import { startEmulator } from '../../../backend-emulator';
import {
  BASE,
  DATA_FILE_TYPE,
  EMPTY_TYPE,
  GOOD_VM_INFO,
  VM_HEADER,
  act,
  call,
  createDataFile,
  createJob,
  csv,
  googleError,
  inlinePayload,
  jobName,
  newApp,
  ok,
  tempDir,
  upload,
  violations,
  vmRow,
} from '../../support/migrationcenter';
import { sharedApp } from '../../support/app';
import { aws15Zip, azure152Zip } from '../../support/cloud-zips';
import { protoJsonDefaults } from '../../support/protojson';

const BAD_VM_INFO = csv(VM_HEADER, vmRow('m-1', 'web-1'), vmRow('m-2', 'bad-1', { AllocatedProcessorCoreCount: 'many' }));
const fileName = (jobId: string, id: string) => `${jobName(jobId)}/importDataFiles/${id}`;

let app: FastifyInstance;
const sharedAppOfBlock = sharedApp(() => newApp());
beforeEach(() => {
  app = sharedAppOfBlock();
});
// A test that needs other options puts its own app in `app`: closed after that test (the shared
// one is closed after the file).
afterEach(async () => {
  if (app !== sharedAppOfBlock()) await app.close();
});

const mc = () => migrationCenterOf(app.emulator)!;

/** Creates a job without payload and one data file; returns the ImportDataFile. */
async function jobWithFile(jobId = 'job-1', fileId = 'vm-info', displayName = 'vmInfo.csv'): Promise<any> {
  ok(await createJob(app, jobId, {}));
  return ok(await createDataFile(app, jobId, fileId, { displayName })).response;
}

/** A stream of `total` bytes made of one repeated chunk; `pulled()` says how many were read. */
function generated(total: number, chunk = 1024 * 1024): { stream: Readable; pulled: () => number } {
  const block = Buffer.alloc(chunk, 'a');
  let sent = 0;
  const stream = new Readable({
    read() {
      if (sent >= total) return void this.push(null);
      const n = Math.min(chunk, total - sent);
      sent += n;
      this.push(n === chunk ? block : block.subarray(0, n));
    },
  });
  return { stream, pulled: () => sent };
}

describe('create', () => {
  test('an Operation, done, whose response is the ImportDataFile with a signed URL to the emulator itself', async () => {
    ok(await createJob(app, 'job-1', {}));
    const res = await call(
      app,
      'POST',
      `/v1alpha1/${jobName('job-1')}/importDataFiles?importDataFileId=vm-info`,
      { displayName: 'vmInfo.csv', format: 'IMPORT_JOB_FORMAT_MANUAL_CSV' },
      { host: 'emulator.localhost:9123' },
    );
    const op = ok(res);
    expect(op).toMatchObject({ done: true, metadata: { verb: 'create', target: fileName('job-1', 'vm-info') } });
    const file = op.response;
    expect(Object.keys(file)).toEqual(['@type', 'name', 'displayName', 'format', 'createTime', 'state', 'uploadFileInfo']);
    expect(file).toMatchObject({
      '@type': DATA_FILE_TYPE,
      name: fileName('job-1', 'vm-info'),
      displayName: 'vmInfo.csv',
      format: 'IMPORT_JOB_FORMAT_MANUAL_CSV',
      state: 'CREATING',
      uploadFileInfo: { headers: { 'Content-Type': 'application/octet-stream' } },
    });
    const uri = new URL(file.uploadFileInfo.signedUri);
    expect(uri.origin).toBe('http://emulator.localhost:9123');
    expect(uri.pathname).toBe(`/uploads/${fileName('job-1', 'vm-info')}`);
    expect(Date.parse(file.uploadFileInfo.uriExpirationTime)).toBeGreaterThan(Date.now());
    // GET answers the same file (without the Any's @type).
    const { '@type': _type, ...wire } = file;
    expect(ok(await call(app, 'GET', `/v1alpha1/${fileName('job-1', 'vm-info')}`))).toEqual(wire);
  });

  test('the id: required, a resource id; a second one with the same id is ALREADY_EXISTS', async () => {
    ok(await createJob(app, 'job-1', {}));
    const missing = googleError(
      await call(app, 'POST', `/v1alpha1/${jobName('job-1')}/importDataFiles`, { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV' }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(violations(missing)).toEqual([{ field: 'importDataFileId', description: 'is required' }]);
    const bad = googleError(await createDataFile(app, 'job-1', 'Bad_Id'), 400, 'INVALID_ARGUMENT');
    expect(violations(bad)[0]).toMatchObject({ field: 'importDataFileId', description: expect.stringContaining('resource ID') });
    ok(await createDataFile(app, 'job-1', 'f1'));
    const dup = googleError(await createDataFile(app, 'job-1', 'f1'), 409, 'ALREADY_EXISTS');
    expect(dup.details).toEqual([
      expect.objectContaining({ resourceType: 'migrationcenter.googleapis.com/ImportDataFile', resourceName: fileName('job-1', 'f1') }),
    ]);
  });

  test('the job must exist: NOT_FOUND naming it', async () => {
    const err = googleError(await createDataFile(app, 'nope', 'f1'), 404, 'NOT_FOUND');
    expect(err.details[0]).toMatchObject({ resourceName: jobName('nope') });
    googleError(await call(app, 'GET', `/v1alpha1/${jobName('nope')}/importDataFiles`), 404, 'NOT_FOUND');
  });

  test('the body: format required, displayName at most 256, unknown fields refused, enum numbers read', async () => {
    ok(await createJob(app, 'job-1', {}));
    const noFormat = googleError(await call(app, 'POST', `/v1alpha1/${jobName('job-1')}/importDataFiles?importDataFileId=f1`, {}), 400, 'INVALID_ARGUMENT');
    expect(violations(noFormat).map((v) => v.field)).toEqual(['format']);
    const unspecified = googleError(await createDataFile(app, 'job-1', 'f1', { format: 'IMPORT_JOB_FORMAT_UNSPECIFIED' }), 400, 'INVALID_ARGUMENT');
    expect(violations(unspecified).map((v) => v.field)).toEqual(['format']);
    const long = googleError(await createDataFile(app, 'job-1', 'f1', { displayName: 'x'.repeat(257) }), 400, 'INVALID_ARGUMENT');
    expect(violations(long).map((v) => v.field)).toEqual(['displayName']);
    ok(await createDataFile(app, 'job-1', 'f2', { displayName: 'y'.repeat(256) }));
    googleError(await createDataFile(app, 'job-1', 'f3', { color: 'blue' }), 400, 'INVALID_ARGUMENT');
    const numbered = ok(await createDataFile(app, 'job-1', 'f4', { format: 6, display_name: 'vmInfo.csv' }));
    expect(numbered.response).toMatchObject({ format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', displayName: 'vmInfo.csv' });
  });

  test.each(['IMPORT_JOB_FORMAT_VMTOOL_CSV', 'IMPORT_JOB_FORMAT_EXPORTED_CLOUDB_CSV', 'CSV'])(
    "a format ImportJobFormat does not have (%s, the reference's spellings too) is Google's Invalid value at import_data_file.format",
    async (format) => {
      ok(await createJob(app, 'job-1', {}));
      const err = googleError(await createDataFile(app, 'job-1', 'f1', { format }), 400, 'INVALID_ARGUMENT');
      const text = `Invalid value at 'import_data_file.format' (type.googleapis.com/google.cloud.migrationcenter.v1alpha1.ImportJobFormat), "${format}"`;
      expect(err.message).toBe(text);
      expect(violations(err)).toEqual([{ field: 'import_data_file.format', description: text }]);
    },
  );

  test("one format per job: another data file's or the job payload's format is FAILED_PRECONDITION naming format", async () => {
    await jobWithFile();
    const err = googleError(await createDataFile(app, 'job-1', 'other', { format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV' }), 400, 'FAILED_PRECONDITION');
    expect(err.message).toMatch(/^format IMPORT_JOB_FORMAT_RVTOOLS_CSV differs .*IMPORT_JOB_FORMAT_MANUAL_CSV/);
    ok(await createJob(app, 'job-2', { inlinePayload: inlinePayload({ 'vmInfo.csv': GOOD_VM_INFO }) }));
    const payload = googleError(await createDataFile(app, 'job-2', 'f1', { format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX' }), 400, 'FAILED_PRECONDITION');
    expect(payload.message).toMatch(/^format IMPORT_JOB_FORMAT_RVTOOLS_XLSX differs from the format of the payload/);
    ok(await createDataFile(app, 'job-2', 'f1', { displayName: 'perfInfo.csv' }));
    // Patching the job's payload to another format than its data files' is refused the same way.
    const patch = await call(app, 'PATCH', `/v1alpha1/${jobName('job-2')}?updateMask=inlinePayload`, {
      inlinePayload: { ...inlinePayload({ 'vmInfo.csv': GOOD_VM_INFO }), format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV' },
    });
    expect(googleError(patch, 400, 'FAILED_PRECONDITION').message).toMatch(/format IMPORT_JOB_FORMAT_RVTOOLS_CSV of the new payload differs/);
  });

  test('a repeated requestId answers the first Operation; another request with it is refused', async () => {
    ok(await createJob(app, 'job-1', {}));
    const id = '7f9d3c0e-6b8a-4f8e-9d3a-2a1b3c4d5e6f';
    const first = ok(await createDataFile(app, 'job-1', 'f1', {}, `&requestId=${id}`));
    expect(ok(await createDataFile(app, 'job-1', 'f1', {}, `&requestId=${id}`))).toEqual(first);
    googleError(await createDataFile(app, 'job-1', 'f2', {}, `&requestId=${id}`), 400, 'INVALID_ARGUMENT');
    googleError(await createDataFile(app, 'job-1', 'f3', {}, '&requestId=not-a-uuid'), 400, 'INVALID_ARGUMENT');
  });
});

describe('list and get', () => {
  test('pageSize, pageToken, filter, orderBy; an empty list is {}', async () => {
    ok(await createJob(app, 'job-1', {}));
    expect(ok(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}/importDataFiles`))).toEqual({});
    for (const [id, displayName] of [
      ['c', 'tagInfo.csv'],
      ['a', 'vmInfo.csv'],
      ['b', 'perfInfo.csv'],
    ])
      ok(await createDataFile(app, 'job-1', id, { displayName }));
    const listUrl = `/v1alpha1/${jobName('job-1')}/importDataFiles`;
    const first = ok(await call(app, 'GET', `${listUrl}?pageSize=2`));
    expect(first.importDataFiles.map((f: any) => f.displayName)).toEqual(['vmInfo.csv', 'perfInfo.csv']);
    const second = ok(await call(app, 'GET', `${listUrl}?pageSize=2&pageToken=${first.nextPageToken}`));
    expect(second.importDataFiles.map((f: any) => f.displayName)).toEqual(['tagInfo.csv']);
    expect(second.nextPageToken).toBeUndefined();
    const filtered = ok(await call(app, 'GET', `${listUrl}?filter=${encodeURIComponent('displayName = "perfInfo.csv"')}`));
    expect(filtered.importDataFiles.map((f: any) => f.name)).toEqual([fileName('job-1', 'b')]);
    const ordered = ok(await call(app, 'GET', `${listUrl}?orderBy=${encodeURIComponent('displayName desc')}`));
    expect(ordered.importDataFiles.map((f: any) => f.displayName)).toEqual(['vmInfo.csv', 'tagInfo.csv', 'perfInfo.csv']);
    googleError(await call(app, 'GET', `${listUrl}?orderBy=color`), 400, 'INVALID_ARGUMENT');
    googleError(await call(app, 'GET', `/v1alpha1/${fileName('job-1', 'zz')}`), 404, 'NOT_FOUND');
  });
});

describe('upload to the signed URL', () => {
  test('PUT with the headers: 200, the file is ACTIVE, validation reads it under its display name', async () => {
    const file = await jobWithFile();
    const res = await upload(app, file.uploadFileInfo, BAD_VM_INFO);
    expect(res.status).toBe(200);
    expect(ok(await call(app, 'GET', `/v1alpha1/${file.name}`)).state).toBe('ACTIVE');
    const [, job] = await act(app, 'job-1', 'validate');
    expect(job.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
    expect(job.validationReport.fileValidations).toEqual([
      expect.objectContaining({ fileName: 'vmInfo.csv', rowErrors: [expect.objectContaining({ rowNumber: 3, vmName: 'bad-1' })] }),
    ]);
  });

  test("the collection scripts' zips upload as one data file each, and validate and run as their CSV files do", async () => {
    for (const [i, made] of [aws15Zip(), azure152Zip()].entries()) {
      const format = i === 0 ? 'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV' : 'IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV';
      const jobId = `zip-${i}`;
      ok(await createJob(app, jobId, {}));
      const file = ok(await createDataFile(app, jobId, 'export', { displayName: made.name, format })).response;
      expect((await upload(app, file.uploadFileInfo, made.data)).status).toBe(200);
      const [, validated] = await act(app, jobId, 'validate');
      expect(validated.state).toBe('IMPORT_JOB_STATE_READY');
      // The archive's own report, then one per entry read, under the data file's display name.
      expect(validated.validationReport.fileValidations.map((f: { fileName: string }) => f.fileName)).toEqual(
        expect.arrayContaining([made.name, expect.stringMatching(new RegExp(`^${made.name}/.*vmInfo\\.csv$`))]),
      );
      const [, ran] = await act(app, jobId, 'run');
      expect(ran.state).toBe('IMPORT_JOB_STATE_COMPLETED');
      expect(ran.executionReport.framesReported).toBeGreaterThan(0);
    }
  });

  test('uploading again replaces the bytes (and sends a validated job back to PENDING) until the job runs', async () => {
    const file = await jobWithFile();
    ok(await upload(app, file.uploadFileInfo, BAD_VM_INFO));
    expect((await act(app, 'job-1', 'validate'))[1].state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
    ok(await upload(app, file.uploadFileInfo, GOOD_VM_INFO));
    const pending = ok(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}`));
    expect(pending.state).toBe('IMPORT_JOB_STATE_PENDING');
    expect(pending.validationReport).toBeUndefined();
    expect((await act(app, 'job-1', 'validate'))[1].state).toBe('IMPORT_JOB_STATE_READY');
    expect((await act(app, 'job-1', 'run'))[1].state).toBe('IMPORT_JOB_STATE_COMPLETED');
    const late = googleError(await upload(app, file.uploadFileInfo, BAD_VM_INFO), 400, 'FAILED_PRECONDITION');
    expect(late.message).toMatch(/IMPORT_JOB_STATE_COMPLETED: its data files can be added, uploaded or deleted only before it runs/);
    googleError(await createDataFile(app, 'job-1', 'late'), 400, 'FAILED_PRECONDITION');
    const assets = ok(await call(app, 'GET', `${BASE}/assets`));
    expect(assets.assets.map((a: any) => a.title).sort()).toEqual(['db-1', 'web-1']);
  });

  test('a data file with no bytes yet is a job error of the validation naming it', async () => {
    await jobWithFile('job-1', 'vm-info', 'vmInfo.csv');
    const [, job] = await act(app, 'job-1', 'validate');
    expect(job.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
    expect(job.validationReport.jobErrors).toEqual([
      { severity: 'ERROR', errorDetails: expect.stringMatching(/^data file vmInfo\.csv \(.*vm-info\) has no bytes/) },
    ]);
  });

  test('a tampered, expired, other-file or header-less URL: 403 PERMISSION_DENIED saying why', async () => {
    const file = await jobWithFile();
    const other = ok(await createDataFile(app, 'job-1', 'other', { displayName: 'perfInfo.csv' })).response;
    const info = file.uploadFileInfo;
    const url = new URL(info.signedUri);
    const put = (u: URL, headers = info.headers) => call(app, 'PUT', `${u.pathname}${u.search}`, GOOD_VM_INFO, headers);

    const tampered = new URL(url);
    tampered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    const e1 = googleError(await put(tampered), 403, 'PERMISSION_DENIED');
    expect(e1.message).toMatch(/signature does not match/);
    expect(e1.details).toEqual([expect.objectContaining({ reason: 'SIGNATURE_MISMATCH' })]);

    // Another file's signature on this file's path.
    const otherUrl = new URL(other.uploadFileInfo.signedUri);
    const swapped = new URL(url);
    swapped.search = otherUrl.search;
    expect(googleError(await put(swapped), 403, 'PERMISSION_DENIED').message).toMatch(/signed for another data file/);

    const expired = new URL(mc().uploadUrls.sign(url.origin, file.name, Date.now() - 1000).signedUri);
    const e3 = googleError(await put(expired), 403, 'PERMISSION_DENIED');
    expect(e3.message).toMatch(/^The upload URL expired at /);
    expect(e3.details).toEqual([expect.objectContaining({ reason: 'URL_EXPIRED' })]);

    const unsigned = new URL(url);
    unsigned.search = '';
    expect(googleError(await put(unsigned), 403, 'PERMISSION_DENIED').message).toMatch(/not a signed URL/);
    expect(googleError(await put(url, { 'content-type': 'text/csv' }), 403, 'PERMISSION_DENIED').message).toMatch(/must send the header Content-Type/);

    // None of them stored anything.
    expect(ok(await call(app, 'GET', `/v1alpha1/${file.name}`)).state).toBe('CREATING');
    expect(mc().dataFileBytes.listAll()).toEqual([]);
    // The URL of a deleted data file: NOT_FOUND.
    ok(await call(app, 'DELETE', `/v1alpha1/${other.name}`));
    googleError(await upload(app, other.uploadFileInfo, GOOD_VM_INFO), 404, 'NOT_FOUND');
    // Created again under the same name (within the same second): the old URL does not write into the new file.
    const again = ok(await createDataFile(app, 'job-1', 'other', { displayName: 'perfInfo.csv' })).response;
    expect(again.uploadFileInfo.signedUri).not.toBe(other.uploadFileInfo.signedUri);
    const replayed = googleError(await upload(app, other.uploadFileInfo, GOOD_VM_INFO), 403, 'PERMISSION_DENIED');
    expect(replayed.message).toMatch(/signed for an earlier data file named .*\/importDataFiles\/other, deleted since/);
    expect(replayed.details).toEqual([expect.objectContaining({ reason: 'SIGNATURE_MISMATCH' })]);
    expect(ok(await call(app, 'GET', `/v1alpha1/${again.name}`)).state).toBe('CREATING');
    ok(await upload(app, again.uploadFileInfo, GOOD_VM_INFO));
    expect(ok(await call(app, 'GET', `/v1alpha1/${again.name}`)).state).toBe('ACTIVE');
  });

  test('more than 100 MB: 413, counted while streaming (no Content-Length), nothing kept', async () => {
    const file = await jobWithFile();
    const url = new URL(file.uploadFileInfo.signedUri);
    const { stream } = generated(MAX_DATA_FILE_BYTES + 1);
    const res = await app.inject({ method: 'PUT', url: `${url.pathname}${url.search}`, headers: file.uploadFileInfo.headers, payload: stream });
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(res.body).error).toMatchObject({
      code: 413,
      status: 'INVALID_ARGUMENT',
      message: expect.stringContaining(`${MAX_DATA_FILE_BYTES} bytes`),
    });
    // The upload URL is no API path, but its errors are ProtoJSON too (no `"field": ""`).
    expect(protoJsonDefaults(JSON.parse(res.body))).toEqual([]);
    expect(mc().dataFileBytes.listAll()).toEqual([]);
    expect(ok(await call(app, 'GET', `/v1alpha1/${file.name}`)).state).toBe('CREATING');
    // Exactly 100 MB is accepted.
    const exact = generated(MAX_DATA_FILE_BYTES);
    const accepted = await app.inject({ method: 'PUT', url: `${url.pathname}${url.search}`, headers: file.uploadFileInfo.headers, payload: exact.stream });
    expect(accepted.statusCode).toBe(200);
    expect(mc().dataFileBytes.size(file.name)).toBe(MAX_DATA_FILE_BYTES);
  });

  test('a declared Content-Length over 100 MB is refused before a byte is read', async () => {
    const file = await jobWithFile();
    const url = new URL(file.uploadFileInfo.signedUri);
    const { stream, pulled } = generated(MAX_DATA_FILE_BYTES + 1);
    const headers = { ...file.uploadFileInfo.headers, 'content-length': String(MAX_DATA_FILE_BYTES + 1) };
    const res = await app.inject({ method: 'PUT', url: `${url.pathname}${url.search}`, headers, payload: stream });
    expect(res.statusCode).toBe(413);
    expect(pulled()).toBeLessThan(MAX_DATA_FILE_BYTES);
  });
});

describe('with --auth', () => {
  test('the signed URL is its own credential: the PUT needs no token, the API methods still do', async () => {
    const token = { authorization: 'Bearer alice-token' };
    app = newApp({ auth: { tokens: { 'alice-token': 'user:alice@example.com' }, adminTokens: ['admin-token'] } });
    const grant = { iamPolicies: { 'projects/p1': { bindings: [{ role: 'roles/migrationcenter.admin', members: ['user:alice@example.com'] }] } } };
    ok(await call(app, 'POST', '/emulator/v1/seed', grant, { authorization: 'Bearer admin-token' }));
    ok(await call(app, 'POST', `${BASE}/sources?sourceId=src`, {}, token));
    ok(await call(app, 'POST', `${BASE}/importJobs?importJobId=job-1`, { assetSource: `${BASE.slice('/v1alpha1/'.length)}/sources/src` }, token));
    googleError(await createDataFile(app, 'job-1', 'f1'), 401, 'UNAUTHENTICATED');
    const created = ok(
      await call(app, 'POST', `/v1alpha1/${jobName('job-1')}/importDataFiles?importDataFileId=f1`, { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV' }, token),
    );
    ok(await upload(app, created.response.uploadFileInfo, GOOD_VM_INFO));
    const url = new URL(created.response.uploadFileInfo.signedUri);
    googleError(await call(app, 'PUT', url.pathname, GOOD_VM_INFO, created.response.uploadFileInfo.headers), 403, 'PERMISSION_DENIED');
  });
});

describe('logs', () => {
  test("the request log never holds a signed URL's signature", async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    app = newApp({ logLevel: 'info', logStream });
    const file = await jobWithFile();
    ok(await upload(app, file.uploadFileInfo, GOOD_VM_INFO));
    const signature = new URL(file.uploadFileInfo.signedUri).searchParams.get('signature')!;
    const uploadLines = lines.filter((l) => l.includes('/uploads/'));
    expect(uploadLines).toHaveLength(1);
    expect(uploadLines[0]).toContain('signature=[REDACTED]');
    expect(lines.join('')).not.toContain(signature);
  });
});

describe('delete', () => {
  test("deleting a data file removes its bytes; the Operation's response is Empty", async () => {
    const file = await jobWithFile();
    ok(await upload(app, file.uploadFileInfo, GOOD_VM_INFO));
    expect(mc().dataFileBytes.listAll()).toHaveLength(1);
    const op = ok(await call(app, 'DELETE', `/v1alpha1/${file.name}`));
    expect(op).toMatchObject({ done: true, response: { '@type': EMPTY_TYPE }, metadata: { verb: 'delete', target: file.name } });
    expect(mc().dataFileBytes.listAll()).toEqual([]);
    googleError(await call(app, 'GET', `/v1alpha1/${file.name}`), 404, 'NOT_FOUND');
    googleError(await call(app, 'DELETE', `/v1alpha1/${file.name}`), 404, 'NOT_FOUND');
    // With no data left, the job's validation says so again.
    expect((await act(app, 'job-1', 'validate'))[1].validationReport.jobErrors[0].errorDetails).toMatch(/no data to validate/);
  });

  test('a job with data files: refused without force (FAILED_PRECONDITION), with force its files and bytes go too', async () => {
    const file = await jobWithFile();
    ok(await upload(app, file.uploadFileInfo, GOOD_VM_INFO));
    const err = googleError(await call(app, 'DELETE', `/v1alpha1/${jobName('job-1')}`), 400, 'FAILED_PRECONDITION');
    expect(err.message).toMatch(/has 1 data file\(s\).*force=true/);
    expect(mc().dataFileBytes.listAll()).toHaveLength(1);
    ok(await call(app, 'DELETE', `/v1alpha1/${jobName('job-1')}?force=true`));
    googleError(await call(app, 'GET', `/v1alpha1/${file.name}`), 404, 'NOT_FOUND');
    expect(mc().dataFileBytes.listAll()).toEqual([]);
    // A job created again under the same id starts without files.
    ok(await createJob(app, 'job-1', {}));
    expect(ok(await call(app, 'GET', `/v1alpha1/${jobName('job-1')}/importDataFiles`))).toEqual({});
  });
});

describe('the data dir', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = tempDir('mc-data-files-');
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  test('bytes and the signing key survive a restart; leftovers of a killed upload and orphan bytes are swept', async () => {
    app = newApp({ dataDir, inMemory: false });
    const file = await jobWithFile();
    ok(await upload(app, file.uploadFileInfo, GOOD_VM_INFO));
    const second = ok(await createDataFile(app, 'job-1', 'perf', { displayName: 'perfInfo.csv' })).response;
    const root = mc().dataFileBytes.root;
    await app.close();
    // What a kill -9 leaves: a half-written upload, and bytes whose data file never committed.
    fs.writeFileSync(path.join(root, 'tmp', 'killed.part'), 'half an upl');
    const orphanDir = path.join(root, 'files', 'f'.repeat(40));
    fs.mkdirSync(orphanDir);
    fs.writeFileSync(path.join(orphanDir, 'a'.repeat(40)), 'orphan');

    app = newApp({ dataDir, inMemory: false });
    await app.ready();
    expect(mc().dataFileBytes.listAll()).toEqual([expect.stringMatching(/^files\//)]);
    expect(fs.readdirSync(path.join(root, 'tmp'))).toEqual([]);
    // The URL signed before the restart still works (the key is in the data dir).
    ok(await upload(app, second.uploadFileInfo, csv('MachineId,TimeStamp,CpuUtilizationPercentage', 'm-1,2024-01-31T13:00:00Z,10')));
    expect(mc().dataFileBytes.listAll()).toHaveLength(2);
    expect((await act(app, 'job-1', 'validate'))[1].state).toBe('IMPORT_JOB_STATE_READY');
  });

  test('an interrupted upload (the client goes away mid-body) leaves nothing: no temporary file, the old bytes stay', async () => {
    const emulator = await startEmulator({ port: 0, dataDir, inMemory: false, logLevel: 'silent' });
    app = emulator.app;
    try {
      const created = await fetch(`${emulator.url}/v1alpha1/${jobName('job-1')}`);
      expect(created.status).toBe(404);
      const file = await jobWithFile();
      ok(await upload(app, file.uploadFileInfo, GOOD_VM_INFO));
      const signed = new URL(file.uploadFileInfo.signedUri);
      const received = new Promise<void>((resolve) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port: emulator.port,
            method: 'PUT',
            path: `${signed.pathname}${signed.search}`,
            headers: { ...file.uploadFileInfo.headers, 'content-length': '1000000' },
          },
          () => undefined,
        );
        req.on('error', () => resolve());
        req.write(Buffer.alloc(300_000, 'x'), () => setTimeout(() => req.destroy(), 50));
      });
      await received;
      // The server notices the abort asynchronously: wait until its temporary file is gone.
      const deadline = Date.now() + 5000;
      while (fs.readdirSync(path.join(mc().dataFileBytes.root, 'tmp')).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(mc().dataFileBytes.listAll()).toEqual([expect.stringMatching(/^files\//)]);
      expect(mc().dataFileBytes.size(file.name)).toBe(Buffer.byteLength(GOOD_VM_INFO));
      expect((await act(app, 'job-1', 'validate'))[1].state).toBe('IMPORT_JOB_STATE_READY');
    } finally {
      await emulator.close();
    }
  });
});
