/**
 * Where an import job keeps its inline payload (issue 27): the base64 text goes to files of its own
 * in the data dir (`<dataDir>/inline-payloads/`), written once at create (or at a patch of the
 * payload), and the job's record names them instead of holding the text; the job's answers are
 * what they were (a FULL view shows the payload as given). The text survives a restart with its
 * job, goes with the job's delete or a replacing patch, and text no record names is swept at
 * start-up.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { FastifyInstance } from 'fastify';
import { SqliteStore } from '../../../backend-emulator/store/sqlite-store';
import { COLLECTIONS } from '../../../backend-emulator/migrationcenter/names';
import type { StoredJob } from '../../../backend-emulator/migrationcenter/types';
import {
  BASE,
  GOOD_VM_INFO,
  IMPORT_JOB_TYPE,
  VM_HEADER,
  act,
  b64,
  call,
  createJob,
  csv,
  jobName,
  newApp,
  ok,
  googleError,
  tempDir,
  vmRow,
} from '../../support/migrationcenter';

const OTHER_VM_INFO = csv(VM_HEADER, vmRow('m-9', 'app-9'));

let dataDir: string;
let app: FastifyInstance | undefined;
beforeEach(() => {
  dataDir = tempDir('mc-inline-');
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const start = () => (app = newApp({ dataDir, inMemory: false }));
async function restart(): Promise<FastifyInstance> {
  await app?.close();
  return start();
}

/** The payload folders in the data dir, and the text of each file in them. */
function payloadFolders(): Record<string, string[]> {
  const root = path.join(dataDir, 'inline-payloads');
  const out: Record<string, string[]> = {};
  for (const folder of fs.readdirSync(root).sort()) {
    out[folder] = fs
      .readdirSync(path.join(root, folder))
      .sort()
      .map((f) => fs.readFileSync(path.join(root, folder, f), 'latin1'));
  }
  return out;
}

/** The job's record as the store holds it (read with the app closed: the store is the data dir's lock). */
async function storedRecord(name: string): Promise<StoredJob | undefined> {
  await app?.close();
  app = undefined;
  const store = new SqliteStore({ dataDir });
  try {
    return store.get<StoredJob>(COLLECTIONS.importJobs, name);
  } finally {
    store.close();
  }
}

const twoFiles = () => ({
  format: 'IMPORT_JOB_FORMAT_MANUAL_CSV',
  payload: [
    { name: 'vmInfo.csv', data: b64(GOOD_VM_INFO) },
    { name: 'other.csv', data: b64(OTHER_VM_INFO) },
  ],
});

/** An inline payload as an Operation shows it: its files by name, without their text. */
const named = (payload: { format: string; payload: { name: string }[] }) => ({
  format: payload.format,
  payload: payload.payload.map((f) => ({ name: f.name })),
});

test("the record names the payload's files instead of holding its text; the Operation names them too, get shows the payload as given", async () => {
  const a = start();
  const op = ok(await createJob(a, 'job-1', { inlinePayload: twoFiles() }));
  expect(op.response['@type']).toBe(IMPORT_JOB_TYPE);
  expect(op.response.inlinePayload).toEqual({
    format: 'IMPORT_JOB_FORMAT_MANUAL_CSV',
    payload: [{ name: 'vmInfo.csv' }, { name: 'other.csv' }],
  });
  expect(ok(await call(a, 'GET', `${BASE}/importJobs/job-1`)).inlinePayload).toEqual(twoFiles());
  expect(ok(await call(a, 'GET', `${BASE}/importJobs/job-1?view=IMPORT_JOB_VIEW_BASIC`)).inlinePayload).toBeUndefined();
  const listed = ok(await call(a, 'GET', `${BASE}/importJobs?view=IMPORT_JOB_VIEW_FULL`)).importJobs;
  expect(listed.map((j: any) => j.inlinePayload)).toEqual([twoFiles()]);

  expect(Object.values(payloadFolders())).toEqual([[b64(GOOD_VM_INFO), b64(OTHER_VM_INFO)]]);
  const record = await storedRecord(jobName('job-1'));
  expect(record!.job.inlinePayload).toEqual({ format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv' }, { name: 'other.csv' }] });
  expect(JSON.stringify(record)).not.toContain(b64(GOOD_VM_INFO));
});

test('a restart keeps the payload: the same answer, and it validates and runs from it', async () => {
  ok(await createJob(start(), 'job-1', { inlinePayload: twoFiles() }));
  ok(await createJob(app!, 'job-2', { inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: b64(GOOD_VM_INFO) }] } }));
  const a = await restart();
  expect(ok(await call(a, 'GET', `${BASE}/importJobs/job-1`)).inlinePayload).toEqual(twoFiles());
  const [validated, ready] = await act(a, 'job-2', 'validate');
  expect(validated.error).toBeUndefined();
  expect(ready.state).toBe('IMPORT_JOB_STATE_READY');
  const [, done] = await act(a, 'job-2', 'run');
  expect(done.state).toBe('IMPORT_JOB_STATE_COMPLETED');
  // GOOD_VM_INFO's two machines.
  expect(done.executionReport.framesReported).toBe(2);
});

test("deleting the job removes its payload's text; a new job of the same name has its own", async () => {
  const a = start();
  ok(await createJob(a, 'job-1', { inlinePayload: twoFiles() }));
  ok(await createJob(a, 'job-2', { inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: b64(OTHER_VM_INFO) }] } }));
  ok(await call(a, 'DELETE', `${BASE}/importJobs/job-1`));
  expect(Object.values(payloadFolders())).toEqual([[b64(OTHER_VM_INFO)]]);
  ok(await createJob(a, 'job-1', { inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: b64(GOOD_VM_INFO) }] } }));
  expect(Object.values(payloadFolders()).sort()).toEqual([[b64(GOOD_VM_INFO)], [b64(OTHER_VM_INFO)]].sort());
  ok(await call(a, 'DELETE', `${BASE}/importJobs/job-1`));
  ok(await call(a, 'DELETE', `${BASE}/importJobs/job-2`));
  expect(payloadFolders()).toEqual({});
});

test('a patch of the payload replaces its text (the old goes), a patch of displayName keeps it, a patch clearing the payload removes it', async () => {
  const a = start();
  ok(await createJob(a, 'job-1', { inlinePayload: twoFiles() }));
  const one = { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: b64(OTHER_VM_INFO) }] };
  const patched = ok(await call(a, 'PATCH', `${BASE}/importJobs/job-1?updateMask=inlinePayload`, { inlinePayload: one }));
  expect(patched.response.inlinePayload).toEqual(named(one));
  expect(Object.values(payloadFolders())).toEqual([[b64(OTHER_VM_INFO)]]);

  const renamed = ok(await call(a, 'PATCH', `${BASE}/importJobs/job-1?updateMask=displayName`, { displayName: 'renamed' }));
  expect(renamed.response.inlinePayload).toEqual(named(one));
  expect(renamed.response.displayName).toBe('renamed');
  expect(Object.values(payloadFolders())).toEqual([[b64(OTHER_VM_INFO)]]);

  // A patch refused (the payload is no base64) leaves the stored text as it was.
  const bad = { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: 'not base64!' }] };
  googleError(await call(a, 'PATCH', `${BASE}/importJobs/job-1?updateMask=inlinePayload`, { inlinePayload: bad }), 400, 'INVALID_ARGUMENT');
  expect(Object.values(payloadFolders())).toEqual([[b64(OTHER_VM_INFO)]]);
  expect(ok(await call(a, 'GET', `${BASE}/importJobs/job-1`)).inlinePayload).toEqual(one);

  const cleared = ok(await call(a, 'PATCH', `${BASE}/importJobs/job-1?updateMask=inlinePayload`, {}));
  expect(cleared.response.inlinePayload).toBeUndefined();
  expect(payloadFolders()).toEqual({});
});

test('a create refused (the job exists) or replayed (the same requestId) leaves no second copy of the text', async () => {
  const a = start();
  const rid = '7b0e3c52-1d3f-4f5b-8c9d-0123456789ab';
  const first = ok(await createJob(a, 'job-1', { inlinePayload: twoFiles() }, `&requestId=${rid}`));
  const again = ok(await createJob(a, 'job-1', { inlinePayload: twoFiles() }, `&requestId=${rid}`));
  expect(again.name).toBe(first.name);
  googleError(await createJob(a, 'job-1', { inlinePayload: twoFiles() }), 409, 'ALREADY_EXISTS');
  expect(Object.values(payloadFolders())).toEqual([[b64(GOOD_VM_INFO), b64(OTHER_VM_INFO)]]);
});

test('text no record names (a kill -9 between its write and the commit) is swept at start-up; a named one stays', async () => {
  ok(await createJob(start(), 'job-1', { inlinePayload: twoFiles() }));
  await app!.close();
  app = undefined;
  const stray = path.join(dataDir, 'inline-payloads', `${'ab'.repeat(20)}-0123456789abcdef`);
  fs.mkdirSync(stray);
  fs.writeFileSync(path.join(stray, '0'), b64(OTHER_VM_INFO));
  const a = start();
  await a.ready();
  expect(Object.values(payloadFolders())).toEqual([[b64(GOOD_VM_INFO), b64(OTHER_VM_INFO)]]);
  expect(ok(await call(a, 'GET', `${BASE}/importJobs/job-1`)).inlinePayload).toEqual(twoFiles());
});

test("the console's job list and job page show each inline file's size from the record, without reading its text", async () => {
  const a = start();
  ok(await createJob(a, 'job-1', { inlinePayload: twoFiles() }));
  // The texts on disk are replaced by a short one: a read of them would show 3 bytes each.
  const root = path.join(dataDir, 'inline-payloads');
  for (const folder of fs.readdirSync(root))
    for (const file of fs.readdirSync(path.join(root, folder))) fs.writeFileSync(path.join(root, folder, file), 'QUFB');
  const sizes = [
    { name: 'vmInfo.csv', bytes: Buffer.byteLength(GOOD_VM_INFO) },
    { name: 'other.csv', bytes: Buffer.byteLength(OTHER_VM_INFO) },
  ];
  const listed = ok(await call(a, 'GET', '/emulator/v1/console/importJobs')).importJobs;
  expect(listed.map((j: any) => j.payload)).toEqual([{ format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', files: sizes }]);
  expect(ok(await call(a, 'GET', `/emulator/v1/console/${jobName('job-1')}`)).payload).toEqual({ format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', files: sizes });
});
