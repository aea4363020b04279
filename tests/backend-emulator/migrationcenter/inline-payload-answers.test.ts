/**
 * The FULL view of an import job whose inline payload's text is kept in files (issue 27): the
 * answer is streamed, its JSON made around the payload's `data` values and each file's bytes
 * spliced in as it is sent (http/streamed-json.ts), never read into a string on the request thread.
 *
 * The bytes are the JSON the view answered when it held the text: a job not yet validated has no
 * report, and `inlinePayload` is an ImportJob's last field, so its FULL answer is its BASIC answer
 * with `"inlinePayload":` and the payload exactly as the create sent it after the last field. The
 * expectations are made that way, from the body sent, through inject and through a socket. The
 * files are opened before the answer is made: a patch or delete in between is read again, a
 * payload missing from the data dir is a clean error, and no file is left open.
 */
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import type { FastifyInstance } from 'fastify';
import { FileString } from '../../../backend-emulator/http/file-string';
import { InlinePayloadFiles } from '../../../backend-emulator/migrationcenter/import-jobs/inline-payload-files';
import {
  BASE,
  GOOD_VM_INFO,
  PARENT,
  VM_HEADER,
  b64,
  call,
  createJob,
  csv,
  googleError,
  jobName,
  newApp,
  ok,
  tempDir,
  vmRow,
} from '../../support/migrationcenter';
import { closedUnder, descriptorsUnder, procFdTest } from '../../support/descriptors';

interface Payload {
  format: string;
  payload: Array<{ name: string; data: string }>;
}

const FORMAT = 'IMPORT_JOB_FORMAT_MANUAL_CSV';

/** A few hundred bytes of base64. */
const SMALL: Payload = { format: FORMAT, payload: [{ name: 'vmInfo.csv', data: b64(GOOD_VM_INFO) }] };

/**
 * 1.9 MB of base64 in the first file (over 64 KiB: streamed from the open file, 256 KiB at a time),
 * a small file, and one in base64's URL-safe alphabet (bytes fb ff bf: `-_-_`).
 */
const LARGE: Payload = {
  format: FORMAT,
  payload: [
    { name: 'vmInfo.csv', data: b64(csv(VM_HEADER, ...Array.from({ length: 7000 }, (_, i) => vmRow(`m-${i}`, `vm-${i}`)))) },
    { name: 'small.csv', data: b64(GOOD_VM_INFO) },
    { name: 'url-safe.csv', data: Buffer.from([0xfb, 0xff, 0xbf]).toString('base64url') },
  ],
};

const OTHER: Payload = { format: FORMAT, payload: [{ name: 'other.csv', data: b64(csv(VM_HEADER, vmRow('m-9', 'app-9'))) }] };

let dataDir: string;
let app: FastifyInstance | undefined;
beforeEach(() => {
  dataDir = tempDir('mc-inline-answers-');
});
afterEach(async () => {
  jest.restoreAllMocks();
  await app?.close();
  app = undefined;
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const start = () => (app = newApp({ dataDir, inMemory: false }));
const payloadsRoot = () => path.join(dataDir, 'inline-payloads');

/** The FULL answer's expected text: the BASIC answer's with the payload as sent after its last field. */
function fullText(basicText: string, sent: Payload): string {
  expect(basicText.endsWith('}')).toBe(true);
  return `${basicText.slice(0, -1)},"inlinePayload":${JSON.stringify(sent)}}`;
}

/** `actual` is `expected`, byte for byte; a difference is shown where it starts (the texts are megabytes long). */
function expectText(actual: string, expected: string): void {
  if (actual === expected) return;
  let at = 0;
  while (at < actual.length && actual[at] === expected[at]) at++;
  throw new Error(
    `the texts differ at character ${at} of ${expected.length} (got ${actual.length}):\n  expected …${expected.slice(Math.max(0, at - 80), at + 80)}\n  got      …${actual.slice(Math.max(0, at - 80), at + 80)}`,
  );
}

async function basicText(a: FastifyInstance, id: string, version = 'v1alpha1'): Promise<string> {
  const res = await call(a, 'GET', `/${version}/${jobName(id)}?view=IMPORT_JOB_VIEW_BASIC`);
  ok(res);
  return res.raw;
}

test('a FULL get answers the JSON it answered before, for a small and a large payload; BASIC is unchanged', async () => {
  const a = start();
  ok(await createJob(a, 'small', { inlinePayload: SMALL }));
  ok(await createJob(a, 'large', { inlinePayload: LARGE }));
  for (const [id, sent] of [
    ['small', SMALL],
    ['large', LARGE],
  ] as const) {
    const basic = await basicText(a, id);
    // BASIC: the job's own fields, no payload.
    expect(Object.keys(JSON.parse(basic))).toEqual(['name', 'createTime', 'updateTime', 'state', 'assetSource']);
    for (const query of ['', '?view=IMPORT_JOB_VIEW_FULL', '?view=FULL', '?view=2']) {
      const full = await call(a, 'GET', `${BASE}/importJobs/${id}${query}`);
      expect(full.status).toBe(200);
      expectText(full.raw, fullText(basic, sent));
      expect(full.headers['content-length']).toBe(String(Buffer.byteLength(full.raw)));
      expect(full.headers['content-type']).toBe('application/json; charset=utf-8');
    }
  }
});

test('a payload file of no text shows its name only, as ProtoJSON leaves out an empty string', async () => {
  const a = start();
  const sent: Payload = { format: FORMAT, payload: [{ name: 'empty.csv', data: '' }, ...SMALL.payload] };
  ok(await createJob(a, 'job', { inlinePayload: sent }));
  const full = await call(a, 'GET', `${BASE}/importJobs/job`);
  const expected = { format: FORMAT, payload: [{ name: 'empty.csv' }, ...SMALL.payload] };
  expectText(full.raw, `${(await basicText(a, 'job')).slice(0, -1)},"inlinePayload":${JSON.stringify(expected)}}`);
});

test('a FULL list answers the JSON it answered before, its page token after the jobs', async () => {
  const a = start();
  ok(await createJob(a, 'a-large', { inlinePayload: LARGE }));
  ok(await createJob(a, 'b-small', { inlinePayload: SMALL }));
  ok(await createJob(a, 'c-none', {}));
  const basic = ok(await call(a, 'GET', `${BASE}/importJobs?orderBy=name`)).importJobs as unknown[];
  const withPayload = (job: unknown, sent?: Payload) => (sent ? fullText(JSON.stringify(job), sent) : JSON.stringify(job));
  const full = await call(a, 'GET', `${BASE}/importJobs?orderBy=name&view=IMPORT_JOB_VIEW_FULL`);
  expectText(full.raw, `{"importJobs":[${withPayload(basic[0], LARGE)},${withPayload(basic[1], SMALL)},${withPayload(basic[2])}]}`);
  expect(full.headers['content-length']).toBe(String(Buffer.byteLength(full.raw)));

  const page = await call(a, 'GET', `${BASE}/importJobs?orderBy=name&view=IMPORT_JOB_VIEW_FULL&pageSize=2`);
  const token = page.body.nextPageToken as string;
  expect(typeof token).toBe('string');
  expectText(page.raw, `{"importJobs":[${withPayload(basic[0], LARGE)},${withPayload(basic[1], SMALL)}],"nextPageToken":${JSON.stringify(token)}}`);
  const rest = await call(a, 'GET', `${BASE}/importJobs?orderBy=name&view=IMPORT_JOB_VIEW_FULL&pageSize=2&pageToken=${encodeURIComponent(token)}`);
  expectText(rest.raw, `{"importJobs":[${withPayload(basic[2])}]}`);
});

procFdTest('v1 has no inlinePayload: its FULL get answers without it, and leaves no file open', async () => {
  const a = start();
  ok(await createJob(a, 'large', { inlinePayload: LARGE }));
  const v1 = await call(a, 'GET', `/v1/${jobName('large')}`);
  expect(v1.status).toBe(200);
  // A job not yet validated: nothing else differs between its two views.
  expectText(v1.raw, await basicText(a, 'large', 'v1'));
  expect(v1.raw).not.toContain('inlinePayload');
  const listed = await call(a, 'GET', `/v1/${PARENT}/importJobs?view=IMPORT_JOB_VIEW_FULL`);
  expectText(listed.raw, `{"importJobs":[${await basicText(a, 'large', 'v1')}]}`);
  await closedUnder(payloadsRoot());
});

test('HEAD of a FULL get: the length of the GET, no body', async () => {
  const a = start();
  ok(await createJob(a, 'large', { inlinePayload: LARGE }));
  const expected = fullText(await basicText(a, 'large'), LARGE);
  const head = await a.inject({ method: 'HEAD', url: `${BASE}/importJobs/large` });
  expect(head.statusCode).toBe(200);
  expect(head.headers['content-length']).toBe(String(Buffer.byteLength(expected)));
  expect(head.body).toBe('');
});

describe('through a socket', () => {
  let url: string;
  beforeEach(async () => {
    url = await start().listen({ host: '127.0.0.1', port: 0 });
    ok(await createJob(app!, 'large', { inlinePayload: LARGE }));
    ok(await createJob(app!, 'small', { inlinePayload: SMALL }));
  });

  /** A GET's status, headers and body bytes over HTTP/1.1. */
  function get(pathAndQuery: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      http
        .get(`${url}${pathAndQuery}`, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        })
        .on('error', reject);
    });
  }

  procFdTest(
    'the bytes, with their Content-Length (not chunked), and no file left open',
    async () => {
      for (const [id, sent] of [
        ['large', LARGE],
        ['small', SMALL],
      ] as const) {
        const res = await get(`${BASE}/importJobs/${id}`);
        expect(res.status).toBe(200);
        expectText(res.body.toString('utf8'), fullText(await basicText(app!, id), sent));
        expect(res.headers['content-length']).toBe(String(res.body.length));
        expect(res.headers['transfer-encoding']).toBeUndefined();
      }
      await closedUnder(payloadsRoot());
    },
    60_000,
  );

  procFdTest(
    'HEAD: the length of the GET, no body, the file neither read nor left open',
    async () => {
      const expected = fullText(await basicText(app!, 'large'), LARGE);
      const reads = jest.spyOn(FileString.prototype, 'readInto');
      const head = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = http.request(`${url}${BASE}/importJobs/large`, { method: 'HEAD' }, (res) => {
          res.resume();
          res.on('end', () => resolve(res));
        });
        req.on('error', reject);
        req.end();
      });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(expected)));
      await closedUnder(payloadsRoot());
      // The response ended without a body: the payload's file is never read for it.
      expect(reads).not.toHaveBeenCalled();
      expectText((await get(`${BASE}/importJobs/large`)).body.toString('utf8'), expected);
    },
    60_000,
  );

  procFdTest(
    'a client that hangs up mid-answer: the files are closed, and the next answer is whole',
    async () => {
      // 8 MB of text: more than the socket's buffers hold while the client reads nothing.
      const huge: Payload = { format: FORMAT, payload: [{ name: 'huge.csv', data: Buffer.alloc(6_000_000, 'gnl,').toString('base64') }] };
      ok(await createJob(app!, 'huge', { inlinePayload: huge }));
      const openMidAnswer = await new Promise<number>((resolve, reject) => {
        const req = http.get(`${url}${BASE}/importJobs/huge`, (res) => {
          res.once('data', () => {
            res.pause();
            // Counted while the answer is under way (its file open, waiting for the client to read on).
            const open = descriptorsUnder(payloadsRoot());
            req.destroy();
            resolve(open);
          });
        });
        req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
      });
      expect(openMidAnswer).toBe(1);
      await closedUnder(payloadsRoot());
      const res = await get(`${BASE}/importJobs/huge`);
      expectText(res.body.toString('utf8'), fullText(await basicText(app!, 'huge'), huge));
      await closedUnder(payloadsRoot());
    },
    60_000,
  );
});

describe('a payload changed while its files are opened', () => {
  const originalOpen = InlinePayloadFiles.prototype.open;

  /** Runs `meanwhile` each time the FULL view opens a payload file, before it opens it (the first `times` times). */
  function beforeOpening(meanwhile: () => Promise<void>, times = 1): void {
    let left = times;
    jest.spyOn(InlinePayloadFiles.prototype, 'open').mockImplementation(async function (this: InlinePayloadFiles, ...args) {
      if (left-- > 0) await meanwhile();
      return originalOpen.apply(this, args);
    });
  }

  test('deleted: the get answers NOT_FOUND, the list leaves the job out', async () => {
    const a = start();
    ok(await createJob(a, 'job', { inlinePayload: LARGE }));
    ok(await createJob(a, 'kept', { inlinePayload: SMALL }));
    const kept = fullText(await basicText(a, 'kept'), SMALL);
    beforeOpening(async () => void ok(await call(a, 'DELETE', `${BASE}/importJobs/job`)));
    googleError(await call(a, 'GET', `${BASE}/importJobs/job`), 404, 'NOT_FOUND');

    ok(await createJob(a, 'job', { inlinePayload: LARGE }));
    beforeOpening(async () => void ok(await call(a, 'DELETE', `${BASE}/importJobs/job`)));
    expectText((await call(a, 'GET', `${BASE}/importJobs?view=IMPORT_JOB_VIEW_FULL`)).raw, `{"importJobs":[${kept}]}`);
  });

  test('replaced by a patch: the get answers the new payload', async () => {
    const a = start();
    ok(await createJob(a, 'job', { inlinePayload: LARGE }));
    beforeOpening(async () => void ok(await call(a, 'PATCH', `${BASE}/importJobs/job?updateMask=inlinePayload`, { inlinePayload: OTHER })));
    const full = await call(a, 'GET', `${BASE}/importJobs/job`);
    expectText(full.raw, fullText(await basicText(a, 'job'), OTHER));
  });

  test('replaced at every reading: ABORTED after three, and the next get answers', async () => {
    const a = start();
    ok(await createJob(a, 'job', { inlinePayload: LARGE }));
    let n = 0;
    beforeOpening(async () => {
      const next = n++ % 2 === 0 ? OTHER : SMALL;
      ok(await call(a, 'PATCH', `${BASE}/importJobs/job?updateMask=inlinePayload`, { inlinePayload: next }));
    }, 3);
    const error = googleError(await call(a, 'GET', `${BASE}/importJobs/job`), 409, 'ABORTED');
    expect(error.message).toContain(`import job ${jobName('job')} was replaced or deleted while it was read (3 times)`);
    // The third patch put OTHER.
    expectText((await call(a, 'GET', `${BASE}/importJobs/job`)).raw, fullText(await basicText(a, 'job'), OTHER));
  });

  test('deleted once opened: the answer is the text that was opened, whole', async () => {
    const a = start();
    ok(await createJob(a, 'job', { inlinePayload: LARGE }));
    const expected = fullText(await basicText(a, 'job'), LARGE);
    jest.spyOn(InlinePayloadFiles.prototype, 'open').mockImplementation(async function (this: InlinePayloadFiles, ...args) {
      const opened = await originalOpen.apply(this, args);
      // Once the last file is open, a delete commits and removes them: the open files are still read whole.
      if (args[2] === LARGE.payload.length - 1) ok(await call(a, 'DELETE', `${BASE}/importJobs/job`));
      return opened;
    });
    expectText((await call(a, 'GET', `${BASE}/importJobs/job`)).raw, expected);
  });

  procFdTest('missing from the data dir for the record as it is: INTERNAL, before any byte of the answer, and the emulator goes on', async () => {
    const a = start();
    ok(await createJob(a, 'job', { inlinePayload: LARGE }));
    expect(descriptorsUnder(payloadsRoot())).toBe(0);
    for (const folder of fs.readdirSync(payloadsRoot())) fs.rmSync(path.join(payloadsRoot(), folder, '1'));
    const error = googleError(await call(a, 'GET', `${BASE}/importJobs/job`), 500, 'INTERNAL');
    expect(error.message).toContain('The inline payload text of an import job is missing');
    // The payload's first file was opened before the second was missing: closed again.
    await closedUnder(payloadsRoot());
    expect(JSON.parse(await basicText(a, 'job')).name).toBe(jobName('job'));
  });
});
