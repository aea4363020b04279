/**
 * A large inline payload is read by the body worker, never on the request thread (issue 27,
 * http/large-bytes.ts): a body of LARGE_BODY_BYTES or more of an import job's create or patch is
 * parsed in a worker thread, each payload file's text is written to a file there and moved into
 * the job's payload folder. Seen from the wire, nothing changes but speed: the same job, the same
 * refusals in the same words as for a small body, the same requestId fingerprint. Nothing is left
 * in the data dir's `request-texts` folder once a request is answered.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { FastifyInstance } from 'fastify';
import { LARGE_BODY_BYTES } from '../../../backend-emulator/http/large-bodies';
import { BASE, VM_HEADER, act, b64, call, createJob, csv, googleError, jobName, newApp, ok, tempDir, violations, vmRow } from '../../support/migrationcenter';

/** A vmInfo.csv of `rows` machines; 9,000 rows make about 1.5 MB of base64 (over LARGE_BODY_BYTES). */
const vmInfo = (rows: number, prefix = 'm') => csv(VM_HEADER, ...Array.from({ length: rows }, (_, i) => vmRow(`${prefix}-${i}`, `host-${i}`)));
const LARGE = b64(vmInfo(9_000));
const OTHER_LARGE = b64(vmInfo(9_000, 'n'));
const payload = (data: string, name = 'vmInfo.csv') => ({ format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name, data }] });

let dataDir: string;
let app: FastifyInstance;
beforeEach(() => {
  dataDir = tempDir('mc-large-body-');
  app = newApp({ dataDir, inMemory: false });
});
afterEach(async () => {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const requestTexts = () => fs.readdirSync(path.join(dataDir, 'request-texts'));
const payloadTexts = () => {
  const root = path.join(dataDir, 'inline-payloads');
  return fs.readdirSync(root).flatMap((folder) => fs.readdirSync(path.join(root, folder)).map((f) => fs.readFileSync(path.join(root, folder, f), 'latin1')));
};

test('the fixture is a large body', () => {
  expect(JSON.stringify(payload(LARGE)).length).toBeGreaterThan(LARGE_BODY_BYTES);
});

test('a large create: the job is stored with its payload exactly as sent, imports, and no request text is left', async () => {
  const op = ok(await createJob(app, 'big', { inlinePayload: payload(LARGE) }));
  expect(op.done).toBe(true);
  expect(op.response.inlinePayload).toEqual({ format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv' }] });
  expect(ok(await call(app, 'GET', `${BASE}/importJobs/big`)).inlinePayload).toEqual(payload(LARGE));
  expect(payloadTexts()).toEqual([LARGE]);
  expect(requestTexts()).toEqual([]);
  const [validated, job] = await act(app, 'big', 'validate');
  expect(validated.error).toBeUndefined();
  expect(job.state).toBe('IMPORT_JOB_STATE_READY');
  expect(job.validationReport.fileValidations[0].fileName).toBe('vmInfo.csv');
}, 60_000);

test('a large create in proto spelling (inline_payload) is read by the same ProtoJSON rules', async () => {
  ok(await createJob(app, 'proto', { inline_payload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: LARGE }] } }));
  expect(ok(await call(app, 'GET', `${BASE}/importJobs/proto`)).inlinePayload).toEqual(payload(LARGE));
});

test('the same requestId with the same large body replays the first create; with another body it is refused', async () => {
  const first = ok(await createJob(app, 'rid', { inlinePayload: payload(LARGE) }, '&requestId=4b8e1a52-0c9a-4f5e-9d1b-7a3c2e6f8d10'));
  const again = ok(await createJob(app, 'rid', { inlinePayload: payload(LARGE) }, '&requestId=4b8e1a52-0c9a-4f5e-9d1b-7a3c2e6f8d10'));
  expect(again.name).toBe(first.name);
  const other = await createJob(app, 'rid', { inlinePayload: payload(OTHER_LARGE) }, '&requestId=4b8e1a52-0c9a-4f5e-9d1b-7a3c2e6f8d10');
  expect(other.status).toBeGreaterThanOrEqual(400);
  expect(payloadTexts()).toEqual([LARGE]);
  expect(requestTexts()).toEqual([]);
}, 60_000);

test('a large text that is no base64 is refused as a small one is, naming the field and the rule; nothing is kept', async () => {
  const notBase64 = `${LARGE.slice(0, -4)}!!!!`;
  const large = googleError(await createJob(app, 'bad', { inlinePayload: payload(notBase64) }), 400, 'INVALID_ARGUMENT');
  const small = googleError(await createJob(app, 'bad', { inlinePayload: payload('!!!!') }), 400, 'INVALID_ARGUMENT');
  expect(violations(large)).toEqual(violations(small));
  expect(violations(large)).toEqual([{ field: 'inlinePayload.payload[0].data', description: expect.stringContaining('must be base64-encoded') }]);
  expect(fs.existsSync(path.join(dataDir, 'inline-payloads')) ? payloadTexts() : []).toEqual([]);
  expect(requestTexts()).toEqual([]);
});

test("a large body's other refusals are the small body's, in the same words", async () => {
  const body = JSON.stringify({ assetSource: `${BASE.slice(10)}/sources/src`, inlinePayload: payload(LARGE) });
  const url = `${BASE}/importJobs?importJobId=x`;
  const both = async (edit: (text: string) => string) => {
    const large = await call(app, 'POST', url, edit(body));
    const small = await call(app, 'POST', url, edit(body.replace(LARGE, 'QUFB')));
    expect(large.status).toBe(400);
    expect(large.body).toEqual(small.body);
    return large.body.error;
  };
  // A key given twice.
  expect((await both((t) => t.replace('{"assetSource"', '{"assetSource":"a","assetSource"'))).message).toBe(
    'Invalid JSON payload received. Duplicate field "assetSource".',
  );
  // Malformed JSON (the parser's words name a position, which differs between the two bodies).
  const malformed = (t: string) => `${t.slice(0, -1)},}`;
  const [large, small] = [await call(app, 'POST', url, malformed(body)), await call(app, 'POST', url, malformed(body.replace(LARGE, 'QUFB')))];
  expect(googleError(large, 400, 'INVALID_ARGUMENT').message.replace(/\d+/g, 'N')).toBe(
    googleError(small, 400, 'INVALID_ARGUMENT').message.replace(/\d+/g, 'N'),
  );
  // A name the payload file's message has not (the front end's names, checked once the worker has read the body).
  expect((await both((t) => t.replace('{"name":"vmInfo.csv"', '{"name":"vmInfo.csv","extra":1'))).message).toBe(
    'Invalid JSON payload received. Unknown name "extra" at \'import_job.inline_payload.payload[0]\': Cannot find field.',
  );
  // A string with an unpaired surrogate.
  expect((await both((t) => t.replace('"vmInfo.csv"', '"\\uD800.csv"'))).message).toContain('unpaired UTF-16 surrogate');
  // A forbidden __proto__ key.
  expect((await both((t) => t.replace('{"assetSource"', '{"__proto__":{},"assetSource"'))).status).toBe('INVALID_ARGUMENT');
  // Bytes that are not UTF-8.
  const notUtf8 = await call(app, 'POST', url, Buffer.concat([Buffer.from(body.slice(0, -2)), Buffer.from([0xff]), Buffer.from('"}')]));
  expect(googleError(notUtf8, 400, 'INVALID_ARGUMENT').message).toBe('Invalid JSON payload received. The body is not valid UTF-8.');
  expect(requestTexts()).toEqual([]);
});

test('a large patch of the payload replaces the text; the job imports the new one', async () => {
  ok(await createJob(app, 'p', { inlinePayload: payload(b64(vmInfo(2))) }));
  const patched = ok(await call(app, 'PATCH', `${BASE}/importJobs/p?updateMask=inlinePayload`, { inlinePayload: payload(OTHER_LARGE, 'other.csv') }));
  expect(patched.response.inlinePayload).toEqual({ format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'other.csv' }] });
  expect(ok(await call(app, 'GET', `${BASE}/importJobs/p`)).inlinePayload).toEqual(payload(OTHER_LARGE, 'other.csv'));
  expect(payloadTexts()).toEqual([OTHER_LARGE]);
  expect(requestTexts()).toEqual([]);
});

test('a large body on v1, whose ImportJob has no inline payload, is refused as a small one is', async () => {
  const v1 = (data: string) =>
    call(app, 'POST', `${BASE.replace('v1alpha1', 'v1')}/importJobs?importJobId=v`, { assetSource: 'x', inlinePayload: payload(data) });
  const large = googleError(await v1(LARGE), 400, 'INVALID_ARGUMENT');
  const small = googleError(await v1('QUFB'), 400, 'INVALID_ARGUMENT');
  expect(large).toEqual(small);
  expect(requestTexts()).toEqual([]);
});

test('a job created from a large body survives a restart with its payload', async () => {
  ok(await createJob(app, 'kept', { inlinePayload: payload(LARGE) }));
  await app.close();
  app = newApp({ dataDir, inMemory: false });
  expect(ok(await call(app, 'GET', `${BASE}/importJobs/kept`)).inlinePayload).toEqual(payload(LARGE));
  expect(ok(await call(app, 'GET', jobName('kept').replace(/^/, '/v1alpha1/'))).state).toBe('IMPORT_JOB_STATE_PENDING');
});

test('a text a kill -9 left in request-texts/ (between the worker writing it and the route moving it) is removed at the next start', async () => {
  await app.close();
  fs.writeFileSync(path.join(dataDir, 'request-texts', 'left-by-a-kill'), LARGE);
  app = newApp({ dataDir, inMemory: false });
  expect(requestTexts()).toEqual([]);
});
