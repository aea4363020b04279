/**
 * Hostile input over a real socket (127.0.0.1) to an emulator in this process (so that the test
 * sees the server's own Object.prototype): each request gets a clear 4xx in the Google error shape,
 * the server stays up, and the stored state is unchanged. Import payloads that are hostile (an XLSX
 * zip bomb, XML entity expansion, a 50 MB CSV field, too many files) end in a report, never a crash.
 *
 * The in-process tests of tests/backend-emulator/errors.test.ts (malformed JSON, content type, body limit,
 * `__proto__` keys on setIamPolicy) stay where they are; this file covers every body-taking route
 * family over HTTP and the cases they do not.
 */
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import { startEmulator, type RunningEmulator } from '../../backend-emulator';
import { validateOutput } from '../../schemas';
import { bombPart, handWorkbook, sheetXml, vInfoXml } from '../../support/xlsx-build';
import { watchInflation } from '../support/reachability';
import { useImportWorkers } from '../../backend-emulator/migrationcenter/import-jobs/import-thread';

jest.setTimeout(120_000);

const NS = 'projects/p1/locations/global';
const MC = 'projects/p1/locations/us-central1';
/** Created in beforeAll: an import job's assetSource must name an existing source. */
const SOURCE = `${MC}/sources/s1`;
const EP1 = `${NS}/endpointPolicies/ep1`;
const MATCHER = { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY', metadataLabels: [{ labelName: 'app', labelValue: 'web' }] } };
const VM_HEADER = 'MachineId,MachineName,PrimaryIPAddress,AllocatedProcessorCoreCount,MemoryGiB,OsName';
const b64 = (data: string | Buffer) => Buffer.from(data).toString('base64');
const inline = (files: Record<string, string | Buffer>, format = 'IMPORT_JOB_FORMAT_MANUAL_CSV') => ({
  format,
  payload: Object.entries(files).map(([name, data]) => ({ name, data: b64(data) })),
});

let emu: RunningEmulator;
let storageDir: string;
const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();

interface Res {
  status: number;
  body: any;
  raw: string;
}

/** One request over a fresh connection; `chunks` sends the body in pieces without Content-Length. */
function send(method: string, urlPath: string, options: { body?: string | Buffer; headers?: Record<string, string>; chunks?: number } = {}): Promise<Res> {
  const url = new URL(emu.url);
  const headers: Record<string, string> = {
    ...(options.body !== undefined && !options.headers ? { 'content-type': 'application/json' } : {}),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: urlPath, method, headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        const raw = Buffer.concat(parts).toString('utf8');
        let body: unknown = raw;
        try {
          body = raw ? JSON.parse(raw) : undefined;
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, body, raw });
      });
    });
    req.setTimeout(60_000, () => req.destroy(new Error(`${method} ${urlPath.slice(0, 100)}: no answer in 60 s`)));
    req.on('error', reject);
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    if (body && options.chunks) {
      const size = Math.ceil(body.length / options.chunks);
      for (let at = 0; at < body.length; at += size) req.write(body.subarray(at, at + size));
      req.end();
    } else req.end(body);
  });
}

const json = (method: string, urlPath: string, value?: unknown) => send(method, urlPath, value === undefined ? {} : { body: JSON.stringify(value) });

/** Asserts the Google error shape, exactly, and returns the error. */
function googleError(res: Res, code: number, status: string): { code: number; message: string; status: string; details: any[] } {
  if (res.status !== code || res.body?.error?.status !== status) throw new Error(`expected ${code} ${status}, got ${res.status}: ${res.raw.slice(0, 500)}`);
  expect(Object.keys(res.body)).toEqual(['error']);
  expect(Object.keys(res.body.error).sort()).toEqual(['code', 'details', 'message', 'status']);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe('string');
  expect(Array.isArray(res.body.error.details)).toBe(true);
  return res.body.error;
}

function field(error: { details: any[] }): string | undefined {
  return error.details.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest')?.fieldViolations?.[0]?.field;
}

function ok(res: Res): any {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${res.raw.slice(0, 500)}`);
  return res.body;
}

/** Everything a refused request must leave as it was. */
async function snapshot(): Promise<string> {
  const urls = [
    `/v1/${NS}/endpointPolicies`,
    `/v1/${EP1}:getIamPolicy?options.requestedPolicyVersion=3`,
    `/emulator/v1/iamHistory?resource=${encodeURIComponent(EP1)}`,
    `/v1/${NS}/operations`,
    `/v1alpha1/${MC}/importJobs?view=FULL`,
    `/v1alpha1/${MC}/sources`,
    `/v1alpha1/${MC}/assets`,
    `/v1alpha1/${MC}/operations`,
  ];
  const parts = [];
  for (const u of urls) parts.push(ok(await send('GET', u)));
  return JSON.stringify(parts);
}

async function waitOperation(name: string, timeoutMs = 60_000): Promise<any> {
  const t0 = Date.now();
  for (;;) {
    const op = ok(await send('GET', `/v1alpha1/${name}`));
    if (op.done) return op;
    if (Date.now() - t0 > timeoutMs) throw new Error(`operation ${name} not done after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Creates and validates a job; returns it with its validation finished. */
async function validatedJob(id: string, body: Record<string, unknown>): Promise<any> {
  ok(await json('POST', `/v1alpha1/${MC}/importJobs?importJobId=${id}`, { assetSource: SOURCE, ...body }));
  const op = ok(await json('POST', `/v1alpha1/${MC}/importJobs/${id}:validate`, {}));
  await waitOperation(op.name);
  return ok(await send('GET', `/v1alpha1/${MC}/importJobs/${id}`));
}

beforeAll(async () => {
  storageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-hostile-storage-'));
  emu = await startEmulator({ host: '127.0.0.1', port: 0, inMemory: true, logLevel: 'silent', storageDir });
  ok(await json('POST', `/v1/${NS}/endpointPolicies?endpointPolicyId=ep1`, { type: 'SIDECAR_PROXY', endpointMatcher: MATCHER, labels: { env: 'test' } }));
  ok(await json('POST', `/v1/${EP1}:setIamPolicy`, { policy: { bindings: [{ role: 'roles/viewer', members: ['user:alice@example.com'] }] } }));
  ok(await json('POST', `/v1alpha1/${MC}/sources?sourceId=s1`, { displayName: 'Source one' }));
  ok(
    await json('POST', `/v1alpha1/${MC}/importJobs?importJobId=base`, {
      displayName: 'base',
      assetSource: SOURCE,
      inlinePayload: inline({ 'vmInfo.csv': `${VM_HEADER}\nm-1,web-1,10.0.0.1,2,8,Ubuntu\n` }),
    }),
  );
});

afterAll(async () => {
  await emu?.close();
  fs.rmSync(storageDir, { recursive: true, force: true });
});

afterEach(async () => {
  // The server is up and nothing polluted the prototypes it uses.
  expect(ok(await send('GET', '/healthz'))).toEqual({ status: 'ok' });
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
});

// ---------------------------------------------------------------------------------------------

/** Every route family that takes a body. */
const BODY_ROUTES: Array<[string, string, string]> = [
  ['setIamPolicy', 'POST', `/v1/${EP1}:setIamPolicy`],
  ['testIamPermissions', 'POST', `/v1/${EP1}:testIamPermissions`],
  ['endpoint policy create', 'POST', `/v1/${NS}/endpointPolicies?endpointPolicyId=new-ep`],
  ['endpoint policy patch', 'PATCH', `/v1/${EP1}?updateMask=description`],
  ['import job create', 'POST', `/v1alpha1/${MC}/importJobs?importJobId=new-job`],
  ['import job patch', 'PATCH', `/v1alpha1/${MC}/importJobs/base?updateMask=displayName`],
  ['import job :validate', 'POST', `/v1alpha1/${MC}/importJobs/base:validate`],
  ['source create', 'POST', `/v1alpha1/${MC}/sources?sourceId=new-source`],
  ['seed', 'POST', '/emulator/v1/seed'],
];

const deepObject = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const deepArray = (n: number) => '['.repeat(n) + ']'.repeat(n);
const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

/** Bodies refused as INVALID_ARGUMENT whatever the route, with the start of their message. */
const BAD_BODIES: Array<[string, string | Buffer, RegExp]> = [
  ['truncated JSON', '{"displayName":', /^Invalid JSON payload received/],
  ['unquoted keys', '{bad: json}', /^Invalid JSON payload received/],
  ['single quotes', "{'displayName': 'x'}", /^Invalid JSON payload received/],
  ['trailing garbage', '{"displayName":"x"}}', /^Invalid JSON payload received/],
  ['a raw NUL byte inside a string', bytes('{"displayName":"a', [0], 'b"}'), /^Invalid JSON payload received/],
  ['invalid UTF-8 (0xFF)', bytes('{"displayName":"a', [0xff, 0xfe], 'b"}'), /^Invalid JSON payload received\. The body is not valid UTF-8/],
  ['overlong UTF-8 (C0 80)', bytes('{"displayName":"a', [0xc0, 0x80], 'b"}'), /not valid UTF-8/],
  ['a UTF-8 encoded surrogate (ED A0 80)', bytes('{"displayName":"a', [0xed, 0xa0, 0x80], 'b"}'), /not valid UTF-8/],
  ['a truncated UTF-8 sequence at the end', bytes('{"displayName":"a"}', [0xe2, 0x82]), /not valid UTF-8/],
  ['an escaped unpaired surrogate', '{"displayName":"a\\ud800b"}', /unpaired UTF-16 surrogate/],
  ['an escaped unpaired low surrogate in a key', '{"labels":{"a\\udc00":"b"}}', /unpaired UTF-16 surrogate/],
  ['__proto__ as a JSON key', '{"__proto__":{"polluted":"yes"}}', /^Invalid JSON payload received/],
  ['__proto__ as a label key', '{"labels":{"__proto__":{"polluted":"yes"}}}', /^Invalid JSON payload received/],
  ['__proto__ with a string value', '{"labels":{"__proto__":"x"}}', /^Invalid JSON payload received/],
  ['constructor.prototype', '{"labels":{"constructor":{"prototype":{"polluted":"yes"}}}}', /^Invalid JSON payload received/],
  ['a list', '[1,2,3]', /^Invalid JSON payload received\. Expected an object/],
  ['a string', '"text"', /^Invalid JSON payload received\. Expected an object/],
  ['a list nested 10,000 deep', deepArray(10_000), /^Invalid JSON payload received\. The body nests objects and lists deeper than 100 levels\.$/],
];

describe('malformed bodies on every route family: 400 INVALID_ARGUMENT, state unchanged', () => {
  test.each(BODY_ROUTES)('%s', async (_name, method, url) => {
    const before = await snapshot();
    for (const [what, body, message] of BAD_BODIES) {
      const res = await send(method, url, { body });
      let error;
      try {
        error = googleError(res, 400, 'INVALID_ARGUMENT');
      } catch (err) {
        throw new Error(`${what}: ${(err as Error).message}`, { cause: err });
      }
      expect([what, error.message]).toEqual([what, expect.stringMatching(message)]);
    }
    expect(await snapshot()).toBe(before);
  });
});

describe('JSON nested 10,000 (and 1,000,000) deep inside a field: 400 INVALID_ARGUMENT for its depth (over 100 levels), before it is parsed', () => {
  const cases: Array<[string, string, string, string]> = [
    ['setIamPolicy policy', 'POST', `/v1/${EP1}:setIamPolicy`, `{"policy":${deepObject(10_000)}}`],
    ['setIamPolicy bindings', 'POST', `/v1/${EP1}:setIamPolicy`, `{"policy":{"bindings":${deepArray(10_000)}}}`],
    ['endpoint policy matcher', 'POST', `/v1/${NS}/endpointPolicies?endpointPolicyId=deep`, `{"type":"SIDECAR_PROXY","endpointMatcher":${deepObject(10_000)}}`],
    ['import job labels', 'POST', `/v1alpha1/${MC}/importJobs?importJobId=deep`, `{"assetSource":"${SOURCE}","labels":${deepObject(10_000)}}`],
    [
      'import job labels, 1,000,000 deep (under the 32 MiB limit)',
      'POST',
      `/v1alpha1/${MC}/importJobs?importJobId=deep`,
      `{"assetSource":"${SOURCE}","labels":${deepArray(1_000_000)}}`,
    ],
    ['seed', 'POST', '/emulator/v1/seed', `{"endpointPolicies":${deepArray(10_000)}}`],
  ];
  test.each(cases)('%s', async (_name, method, url, body) => {
    const before = await snapshot();
    const error = googleError(await send(method, url, { body }), 400, 'INVALID_ARGUMENT');
    expect(error.message).toBe('Invalid JSON payload received. The body nests objects and lists deeper than 100 levels.');
    expect(await snapshot()).toBe(before);
  });
});

describe('content types and sizes', () => {
  test('a content type other than JSON (or none) is 400 INVALID_ARGUMENT naming it, on every route family', async () => {
    const before = await snapshot();
    const types = [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/octet-stream',
      undefined,
    ];
    for (const [, method, url] of BODY_ROUTES) {
      for (const type of types) {
        const res = await send(method, url, { body: '{"displayName":"x"}', headers: type ? { 'content-type': type } : {} });
        const error = googleError(res, 400, 'INVALID_ARGUMENT');
        expect(error.message).toContain(type ?? '(none)');
      }
    }
    expect(await snapshot()).toBe(before);
  });

  test('bodies over the limit are 413 INVALID_ARGUMENT giving the limit, with or without Content-Length; state unchanged', async () => {
    const before = await snapshot();
    const MiB = 1024 * 1024;
    const cases: Array<[string, string, number, number]> = [
      ['POST', `/v1/${EP1}:setIamPolicy`, MiB + 1, MiB],
      ['POST', `/v1/${NS}/endpointPolicies?endpointPolicyId=big`, 2 * MiB, MiB],
      ['POST', `/v1alpha1/${MC}/importJobs?importJobId=big`, 33 * MiB, 32 * MiB],
      ['POST', '/emulator/v1/seed', 65 * MiB, 64 * MiB],
    ];
    for (const [method, url, size, limit] of cases) {
      const body = `{"displayName":"${'a'.repeat(size)}"}`;
      for (const chunks of [0, 16]) {
        const error = googleError(await send(method, url, { body, chunks }), 413, 'INVALID_ARGUMENT');
        expect(error.message).toBe(`Request payload size exceeds the limit: ${limit} bytes.`);
      }
    }
    expect(await snapshot()).toBe(before);
  });
});

describe('NUL characters', () => {
  test('an escaped \\u0000 in an id, a label, a member or a role is refused by the schema; state unchanged', async () => {
    const before = await snapshot();
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', `/v1/${NS}/endpointPolicies?endpointPolicyId=a%00b`, { type: 'SIDECAR_PROXY', endpointMatcher: MATCHER }, 'endpointPolicyId'],
      [
        'POST',
        `/v1/${NS}/endpointPolicies?endpointPolicyId=nul`,
        { type: 'SIDECAR_PROXY', endpointMatcher: MATCHER, labels: { 'a\u0000': 'b' } },
        'endpointPolicy.labels.a\u0000',
      ],
      [
        'POST',
        `/v1/${EP1}:setIamPolicy`,
        { policy: { bindings: [{ role: 'roles/viewer', members: ['user:a\u0000@example.com'] }] } },
        'policy.bindings[0].members[0]',
      ],
      ['POST', `/v1/${EP1}:setIamPolicy`, { policy: { bindings: [{ role: 'roles/\u0000', members: ['user:a@example.com'] }] } }, 'policy.bindings[0].role'],
      [
        'POST',
        `/v1alpha1/${MC}/importJobs?importJobId=nul`,
        { assetSource: SOURCE, labels: { env: 'a\u0000' }, inlinePayload: inline({ 'vmInfo.csv': 'x' }) },
        'labels.env',
      ],
      [
        'POST',
        `/v1alpha1/${MC}/importJobs?importJobId=nul`,
        { assetSource: SOURCE, inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: 'QQ\u0000==' }] } },
        'inlinePayload.payload[0].data',
      ],
    ];
    for (const [method, url, body, name] of cases) {
      const error = googleError(await json(method, url, body), 400, 'INVALID_ARGUMENT');
      expect(field(error)).toBe(name);
    }
    expect(await snapshot()).toBe(before);
  });

  test('in free text (displayName, description) an escaped \\u0000 is a character like any other: stored and returned as sent, as proto3 JSON does', async () => {
    ok(
      await json('POST', `/v1alpha1/${MC}/importJobs?importJobId=nul-text`, {
        displayName: 'a\u0000b',
        assetSource: SOURCE,
        inlinePayload: inline({ 'vmInfo.csv': 'x' }),
      }),
    );
    expect(ok(await send('GET', `/v1alpha1/${MC}/importJobs/nul-text`)).displayName).toBe('a\u0000b');
    ok(await send('DELETE', `/v1alpha1/${MC}/importJobs/nul-text`));
  });
});

describe('prototype keys', () => {
  test('constructor, prototype, toString, hasOwnProperty, valueOf as label keys and as resource ids are ordinary names', async () => {
    const names = ['constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
    const labels = Object.fromEntries(names.map((n) => [n.toLowerCase(), n.toLowerCase()]));
    for (const id of names) {
      const ep = ok(await json('POST', `/v1/${NS}/endpointPolicies?endpointPolicyId=${id}`, { type: 'SIDECAR_PROXY', endpointMatcher: MATCHER, labels }));
      expect(ep.response.labels).toEqual(labels);
      ok(
        await json('POST', `/v1/${NS}/endpointPolicies/${id}:setIamPolicy`, {
          policy: { bindings: [{ role: 'roles/viewer', members: ['user:a@example.com'] }] },
        }),
      );
      expect(ok(await send('GET', `/v1/${NS}/endpointPolicies/${id}:getIamPolicy`)).bindings).toEqual([
        { role: 'roles/viewer', members: ['user:a@example.com'] },
      ]);
      ok(await json('POST', `/v1alpha1/${MC}/sources?sourceId=${id.toLowerCase()}`, { displayName: id }));
      ok(
        await json('POST', `/v1alpha1/${MC}/importJobs?importJobId=${id.toLowerCase()}`, {
          labels,
          assetSource: `${MC}/sources/${id.toLowerCase()}`,
          inlinePayload: inline({ 'vmInfo.csv': 'x' }),
        }),
      );
      expect(ok(await send('GET', `/v1alpha1/${MC}/importJobs/${id.toLowerCase()}`)).labels).toEqual(labels);
    }
    const list = ok(await send('GET', `/v1/${NS}/endpointPolicies`)).endpointPolicies.map((p: { name: string }) => p.name.split('/').pop());
    expect(list).toEqual(expect.arrayContaining(names));
    for (const id of names) {
      ok(await send('DELETE', `/v1/${NS}/endpointPolicies/${id}`));
      ok(await send('DELETE', `/v1alpha1/${MC}/importJobs/${id.toLowerCase()}`));
      ok(await send('DELETE', `/v1alpha1/${MC}/sources/${id.toLowerCase()}`));
    }
  });

  test('__proto__ and constructor in query parameters, filters, orderBy and path segments: refused or inert', async () => {
    const before = await snapshot();
    // No request message has such fields: Google's front end refuses them, and so does the emulator's.
    for (const query of [
      '__proto__[polluted]=yes',
      'constructor[prototype][polluted]=yes',
      '__proto__.polluted=yes',
      '__proto__=x',
      'constructor=y',
      'prototype=z',
    ]) {
      googleError(await send('GET', `/v1alpha1/${MC}/importJobs?${query}`), 400, 'INVALID_ARGUMENT');
      googleError(await send('GET', `/v1/${NS}/endpointPolicies?${query}`), 400, 'INVALID_ARGUMENT');
    }
    expect(ok(await send('GET', `/v1alpha1/${MC}/importJobs?filter=${encodeURIComponent('labels.__proto__ = yes')}`)).importJobs ?? []).toEqual([]);
    expect(ok(await send('GET', `/v1alpha1/${MC}/importJobs?filter=${encodeURIComponent('labels.constructor:*')}`)).importJobs ?? []).toEqual([]);
    googleError(await send('GET', `/v1alpha1/${MC}/importJobs?orderBy=${encodeURIComponent('labels.__proto__')}`), 400, 'INVALID_ARGUMENT');
    googleError(await send('GET', `/v1alpha1/${MC}/importJobs?orderBy=${encodeURIComponent('__proto__')}`), 400, 'INVALID_ARGUMENT');
    googleError(await send('GET', '/v1/projects/__proto__/locations/global/endpointPolicies'), 400, 'INVALID_ARGUMENT');
    googleError(await json('POST', `/v1/${NS}/endpointPolicies/__proto__:setIamPolicy`, { policy: {} }), 400, 'INVALID_ARGUMENT');
    googleError(
      await json('POST', `/v1/${NS}/endpointPolicies?endpointPolicyId=__proto__`, { type: 'SIDECAR_PROXY', endpointMatcher: MATCHER }),
      400,
      'INVALID_ARGUMENT',
    );
    googleError(await json('POST', '/emulator/v1/seed', { constructor: [] }), 400, 'INVALID_ARGUMENT');
    for (const name of ['constructor', '__proto__', 'toString']) {
      expect(field(googleError(await json('POST', `/v1/${EP1}:setIamPolicy`, { policy: {}, updateMask: name }), 400, 'INVALID_ARGUMENT'))).toBe('updateMask');
      expect(field(googleError(await json('PATCH', `/v1/${EP1}?updateMask=${name}`, { description: 'x' }), 400, 'INVALID_ARGUMENT'))).toBe('updateMask');
      expect(field(googleError(await json('PATCH', `/v1alpha1/${MC}/importJobs/base?updateMask=${name}`, { displayName: 'x' }), 400, 'INVALID_ARGUMENT'))).toBe(
        'updateMask',
      );
      expect(field(googleError(await json('PATCH', `/v1alpha1/${MC}/sources/s1?updateMask=${name}`, { displayName: 'x' }), 400, 'INVALID_ARGUMENT'))).toBe(
        'updateMask',
      );
      expect(field(googleError(await send('GET', `/v1alpha1/${MC}/importJobs?filter=${encodeURIComponent(`${name} = x`)}`), 400, 'INVALID_ARGUMENT'))).toBe(
        'filter',
      );
      expect(field(googleError(await send('GET', `/v1alpha1/${MC}/assets?filter=${encodeURIComponent(`${name}:x`)}`), 400, 'INVALID_ARGUMENT'))).toBe('filter');
      expect(field(googleError(await send('GET', `/v1alpha1/${MC}/sources?orderBy=${name}`), 400, 'INVALID_ARGUMENT'))).toBe('orderBy');
    }
    expect(await snapshot()).toBe(before);
  });

  test('prototype keys inside imported files (label keys of the tags files, column names): no pollution, labels kept as data', async () => {
    const files = {
      'vmInfo.csv': `${VM_HEADER},__proto__,constructor\nm-proto,vm-proto,10.0.0.9,2,8,Ubuntu,{"polluted":1},x\n`,
      'tagInfo.csv': 'MachineId,Key,Value\nm-proto,constructor,c\nm-proto,prototype,p\nm-proto,__proto__,polluted\n',
    };
    // Manual CSV: __proto__ is not a valid label key (row error); the others are ordinary labels.
    const manual = await validatedJob('proto-manual', { inlinePayload: inline(files) });
    const tagErrors = manual.validationReport.fileValidations.find((f: { fileName: string }) => f.fileName === 'tagInfo.csv').rowErrors;
    expect(tagErrors.map((r: { rowNumber: number }) => r.rowNumber)).toEqual([4]);
    // The AWS export converts tag keys to label keys: run it and read the asset back.
    const aws = await validatedJob('proto-aws', { inlinePayload: inline(files, 'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV') });
    // The files hold no error the AWS export refuses, so the job is READY and the run always happens.
    expect({ state: aws.state, report: aws.validationReport }).toMatchObject({ state: 'IMPORT_JOB_STATE_READY' });
    const run = ok(await json('POST', `/v1alpha1/${MC}/importJobs/proto-aws:run`, {}));
    await waitOperation(run.name);
    const assets = ok(await send('GET', `/v1alpha1/${MC}/assets`)).assets as Array<{ attributes: Record<string, string>; labels: Record<string, string> }>;
    const asset = assets.find((a) => a.attributes.MachineId === 'm-proto')!;
    expect(Object.getPrototypeOf(asset.labels)).toBe(Object.prototype);
    expect(asset.labels).toMatchObject({ constructor: 'c', prototype: 'p' });
    for (const id of ['proto-manual', 'proto-aws']) ok(await send('DELETE', `/v1alpha1/${MC}/importJobs/${id}?force=true`));
  });
});

describe('resource names: .., %2F, bad escapes, very long segments', () => {
  const longId = 'a'.repeat(101);
  const cases: Array<[string, string, string, number, string]> = [
    ['.. as an endpoint policy id (IAM write)', 'POST', `/v1/${NS}/endpointPolicies/..:setIamPolicy`, 400, 'INVALID_ARGUMENT'],
    ['%2F inside an endpoint policy id (IAM write)', 'POST', `/v1/${NS}/endpointPolicies/a%2F..%2Fep1:setIamPolicy`, 400, 'INVALID_ARGUMENT'],
    ['%2e%2e as an endpoint policy id', 'GET', `/v1/${NS}/endpointPolicies/%2e%2e:getIamPolicy`, 400, 'INVALID_ARGUMENT'],
    ['%2F inside an endpoint policy id (patch)', 'PATCH', `/v1/${NS}/endpointPolicies/..%2Fep1?updateMask=description`, 400, 'INVALID_ARGUMENT'],
    ['%2F in the project', 'GET', '/v1/projects/p1%2F..%2Fp2/locations/global/endpointPolicies', 400, 'INVALID_ARGUMENT'],
    ['.. as the location', 'POST', `/v1alpha1/projects/p1/locations/../importJobs?importJobId=x`, 400, 'INVALID_ARGUMENT'],
    ['%2F inside an import job id (get)', 'GET', `/v1alpha1/${MC}/importJobs/a%2F..%2Fbase`, 404, 'NOT_FOUND'],
    ['%2F inside an import job id (patch)', 'PATCH', `/v1alpha1/${MC}/importJobs/a%2F..%2Fbase?updateMask=displayName`, 404, 'NOT_FOUND'],
    ['%2F inside an import job id (delete)', 'DELETE', `/v1alpha1/${MC}/importJobs/..%2Fbase?force=true`, 404, 'NOT_FOUND'],
    ['%2F inside an import job id (validate)', 'POST', `/v1alpha1/${MC}/importJobs/..%2Fbase:validate`, 404, 'NOT_FOUND'],
    ['%2F inside a source id (delete)', 'DELETE', `/v1alpha1/${MC}/sources/..%2Fs1`, 404, 'NOT_FOUND'],
    ['%2F inside an operation id (cancel)', 'POST', `/v1alpha1/${MC}/operations/..%2Fx:cancel`, 404, 'NOT_FOUND'],
    ['a malformed percent escape', 'GET', '/v1/projects/%zz/locations/global/endpointPolicies', 400, 'INVALID_ARGUMENT'],
    ['an id of 101 characters', 'GET', `/v1/${NS}/endpointPolicies/${longId}`, 400, 'INVALID_ARGUMENT'],
    ['an id of 101 characters (IAM write)', 'POST', `/v1/${NS}/endpointPolicies/${longId}:setIamPolicy`, 400, 'INVALID_ARGUMENT'],
    ['a project of 10,000 characters', 'GET', `/v1/projects/${'p'.repeat(10_000)}/locations/global/endpointPolicies`, 400, 'INVALID_ARGUMENT'],
    [
      'a URL of 20,000 characters (over the 16 KiB HTTP header limit)',
      'GET',
      `/v1/projects/${'p'.repeat(20_000)}/locations/global/endpointPolicies`,
      431,
      'INVALID_ARGUMENT',
    ],
    ['an importJobId of 64 characters', 'POST', `/v1alpha1/${MC}/importJobs?importJobId=${'j'.repeat(64)}`, 400, 'INVALID_ARGUMENT'],
    ['a requestId of 10,000 characters', 'POST', `/v1alpha1/${MC}/importJobs?importJobId=rid&requestId=${'r'.repeat(10_000)}`, 400, 'INVALID_ARGUMENT'],
    ['a storage path leaving its bucket', 'POST', `/v1alpha1/${MC}/importJobs?importJobId=escape`, 400, 'INVALID_ARGUMENT'],
  ];
  test.each(cases)('%s: the Google error shape, state unchanged', async (_name, method, url, code, status) => {
    const before = await snapshot();
    const body = url.includes('importJobId=escape')
      ? { gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://bucket/../../etc/passwd' } }
      : method === 'POST' && url.includes('importJobs?')
        ? { inlinePayload: inline({ 'vmInfo.csv': 'x' }) }
        : method === 'POST' && url.endsWith(':setIamPolicy')
          ? { policy: { bindings: [{ role: 'roles/viewer', members: ['user:mallory@example.com'] }] } }
          : method === 'PATCH'
            ? url.startsWith('/v1alpha1')
              ? { displayName: 'x' }
              : { description: 'x' }
            : method === 'POST'
              ? {}
              : undefined;
    googleError(await json(method, url, body), code, status);
    expect(await snapshot()).toBe(before);
  });

  test('a header over the limit is 431 in the Google shape too', async () => {
    const error = googleError(await send('GET', `/v1/${NS}/endpointPolicies`, { headers: { 'x-padding': 'x'.repeat(20_000) } }), 431, 'INVALID_ARGUMENT');
    expect(error.message).toMatch(/16 KiB/);
  });
});

describe('unknown fields are refused (INVALID_ARGUMENT naming the field), as Google refuses them; output-only fields are ignored', () => {
  const cases: Array<[string, string, string, unknown, string]> = [
    ['setIamPolicy, top level', 'POST', `/v1/${EP1}:setIamPolicy`, { policy: {}, foo: 1 }, ''],
    ['setIamPolicy, policy', 'POST', `/v1/${EP1}:setIamPolicy`, { policy: { foo: 1 } }, 'policy'],
    [
      'setIamPolicy, binding',
      'POST',
      `/v1/${EP1}:setIamPolicy`,
      { policy: { bindings: [{ role: 'roles/viewer', members: ['user:a@example.com'], foo: 1 }] } },
      'policy.bindings[0]',
    ],
    [
      'setIamPolicy, condition',
      'POST',
      `/v1/${EP1}:setIamPolicy`,
      { policy: { version: 3, bindings: [{ role: 'roles/viewer', members: ['user:a@example.com'], condition: { expression: 'true', title: 't', foo: 1 } }] } },
      'policy.bindings[0].condition',
    ],
    // Google names the message that lacks the field (empty for the request itself), and the name in the message text.
    ['testIamPermissions', 'POST', `/v1/${EP1}:testIamPermissions`, { permissions: [], foo: 1 }, ''],
    [
      'endpoint policy create',
      'POST',
      `/v1/${NS}/endpointPolicies?endpointPolicyId=unknown`,
      { type: 'SIDECAR_PROXY', endpointMatcher: MATCHER, foo: 1 },
      'endpoint_policy',
    ],
    ['endpoint policy patch', 'PATCH', `/v1/${EP1}?updateMask=description`, { description: 'x', foo: 1 }, 'endpoint_policy'],
    ['import job create', 'POST', `/v1alpha1/${MC}/importJobs?importJobId=unknown`, { foo: 1, inlinePayload: inline({ 'vmInfo.csv': 'x' }) }, 'import_job'],
    [
      'import job create, inlinePayload',
      'POST',
      `/v1alpha1/${MC}/importJobs?importJobId=unknown`,
      { inlinePayload: { ...inline({ 'vmInfo.csv': 'x' }), foo: 1 } },
      'import_job.inline_payload',
    ],
    [
      'import job create, payload file',
      'POST',
      `/v1alpha1/${MC}/importJobs?importJobId=unknown`,
      { inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: 'QQ==', foo: 1 }] } },
      'import_job.inline_payload.payload[0]',
    ],
    [
      'import job create, gcsPayload',
      'POST',
      `/v1alpha1/${MC}/importJobs?importJobId=unknown`,
      { gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://b/o', foo: 1 } },
      'import_job.gcs_payload',
    ],
    ['import job patch', 'PATCH', `/v1alpha1/${MC}/importJobs/base?updateMask=displayName`, { displayName: 'x', foo: 1 }, 'import_job'],
    ['import job :validate', 'POST', `/v1alpha1/${MC}/importJobs/base:validate`, { foo: 1 }, ''],
    ['import job :run', 'POST', `/v1alpha1/${MC}/importJobs/base:run`, { foo: 1 }, ''],
    ['source create', 'POST', `/v1alpha1/${MC}/sources?sourceId=unknown`, { foo: 1 }, 'source'],
    ['operation :cancel', 'POST', `/v1alpha1/${MC}/operations/some-op:cancel`, { foo: 1 }, ''],
    ['seed, unknown section', 'POST', '/emulator/v1/seed', { foo: [] }, 'foo'],
  ];
  test.each(cases)('%s', async (_name, method, url, body, name) => {
    const before = await snapshot();
    const error = googleError(await json(method, url, body), 400, 'INVALID_ARGUMENT');
    // ProtoJSON leaves out an empty `field` (the request message itself): read it as "".
    expect(error.details[0].fieldViolations.map((v: { field?: string }) => v.field ?? '')).toContain(name);
    expect(error.message).toContain('foo');
    expect(await snapshot()).toBe(before);
  });

  test('output-only fields in a body are ignored (name, createTime, updateTime, state, reports)', async () => {
    const ep = ok(
      await json('POST', `/v1/${NS}/endpointPolicies?endpointPolicyId=outputs`, {
        type: 'SIDECAR_PROXY',
        endpointMatcher: MATCHER,
        name: 'projects/x/locations/y/endpointPolicies/z',
        createTime: '2000-01-01T00:00:00Z',
      }),
    );
    expect(ep.response.name).toBe(`${NS}/endpointPolicies/outputs`);
    expect(ep.response.createTime).not.toBe('2000-01-01T00:00:00Z');
    const job = ok(
      await json('POST', `/v1alpha1/${MC}/importJobs?importJobId=outputs`, {
        assetSource: SOURCE,
        state: 'IMPORT_JOB_STATE_COMPLETED',
        createTime: '2000-01-01T00:00:00Z',
        validationReport: { jobErrors: [] },
        inlinePayload: inline({ 'vmInfo.csv': 'x' }),
      }),
    );
    expect(job.response.state).toBe('IMPORT_JOB_STATE_PENDING');
    expect(job.response.validationReport).toBeUndefined();
    ok(await send('DELETE', `/v1/${NS}/endpointPolicies/outputs`));
    ok(await send('DELETE', `/v1alpha1/${MC}/importJobs/outputs`));
  });
});

// ---------------------------------------------------------------------------------------------
// Hostile payloads: the job ends in a report, the server stays up, a bomb is refused before it inflates.

describe('hostile RVTools XLSX workbooks as inline payloads', () => {
  // The inflaters are watched in this thread: the imports run here, not in an import worker.
  beforeAll(() => useImportWorkers(false));
  afterAll(() => useImportWorkers(true));
  const head =
    '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>VM</t></is></c></row>';
  const tail = '</sheetData></worksheet>';
  const laughs =
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
    '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]>';
  const KiB = 1024;
  /** Each case: its workbook, the file error expected, and the most bytes it may inflate before the refusal. */
  const cases: Array<[string, () => Buffer, RegExp, number]> = [
    // Refused on the declared size: only the workbook's small XML parts are inflated.
    ['a zip bomb declaring its size (a sheet of 3 GiB)', () => handWorkbook([['vInfo', bombPart(head, 16, tail, 3 * 1024 ** 3)]]), /zip bomb/, 64 * KiB],
    // Stopped at the first inflated piece past the 4 KiB claimed: a few pieces of the 2 GiB.
    ['a zip bomb lying about its size (2 GiB declared as 4 KiB)', () => handWorkbook([['vInfo', bombPart(head, 2048, tail, 4096)]]), /zip bomb/, 4096 * KiB],
    [
      'XML entity expansion (billion laughs) in the sheet',
      () => handWorkbook([['vInfo', laughs + sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>&lol4;</t></is></c></row>').replace(/^<\?xml[^>]*>/, '')]]),
      /DOCTYPE/,
      64 * KiB,
    ],
    [
      'XML entity expansion in the shared strings',
      () =>
        handWorkbook([['vInfo', vInfoXml([])]], {
          sharedStringsXml: `${laughs}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&lol4;</t></si></sst>`,
        }),
      /DOCTYPE/,
      64 * KiB,
    ],
    ['random bytes named .xlsx', () => Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)), /./, 0],
  ];
  // The bytes inflated are counted, not weighed: a count the machine's load cannot move. How long
  // these take and how much memory they use is measured by `npm run bench -- hostile`.
  test.each(cases)('%s: FAILED_VALIDATION with a file error, refused before inflating the bomb', async (name, build, message, maxInflated) => {
    const workbook = build();
    const id = `xlsx-${cases.findIndex((c) => c[0] === name)}`;
    // The emulator runs in this process: its reader's inflaters are the ones watched.
    const inflation = watchInflation();
    const job = await validatedJob(id, {
      inlinePayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX', payload: [{ name: 'RVTools_export_all.xlsx', data: b64(workbook) }] },
    }).finally(inflation.restore);
    expect(job.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
    const fileErrors = job.validationReport.fileValidations[0].fileErrors as Array<{ severity: string; errorDetails: string }>;
    expect(fileErrors[0]).toEqual({ severity: 'ERROR', errorDetails: expect.stringMatching(message) });
    expect(validateOutput('ValidationReport', job.validationReport)).toEqual([]);
    // The payload is in memory (base64) anyway; nothing near the inflated sizes (GiB) is produced.
    // (The watch saw this validation's inflaters: only random bytes reach none.)
    expect(inflation.inflatedBytes() > 0).toBe(maxInflated > 0);
    expect(inflation.inflatedBytes()).toBeLessThanOrEqual(maxInflated);
    ok(await send('DELETE', `/v1alpha1/${MC}/importJobs/${id}`));
  });
});

describe('a CSV field of 50 MB, streamed from a storage payload file', () => {
  test('the row is reported and skipped, the rows around it are read', async () => {
    const dir = path.join(storageDir, 'bucket', 'big');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'vmInfo.csv');
    const fd = fs.openSync(file, 'w');
    fs.writeSync(fd, `${VM_HEADER}\nm-1,web-1,10.0.0.1,2,8,Ubuntu\nm-2,"`);
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    for (let i = 0; i < 50; i++) fs.writeSync(fd, chunk);
    fs.writeSync(fd, '",10.0.0.2,2,8,Ubuntu\nm-3,web-3,10.0.0.3,2,8,Ubuntu\n');
    fs.closeSync(fd);
    expect(fs.statSync(file).size).toBeGreaterThan(50 * 1024 * 1024);
    const job = await validatedJob('big-field', { gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://bucket/big/vmInfo.csv' } });
    expect(job.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
    const rowErrors = job.validationReport.fileValidations[0].rowErrors as Array<{ rowNumber: number; errors: Array<{ errorDetails: string }> }>;
    expect(rowErrors.map((r) => r.rowNumber)).toEqual([3]);
    expect(rowErrors[0].errors[0].errorDetails).toMatch(/longer than 1 MiB/);
    ok(await send('DELETE', `/v1alpha1/${MC}/importJobs/big-field`));
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('many inline payload files', () => {
  test('10,000 files: 400 INVALID_ARGUMENT naming inlinePayload.payload (at most 1,000), state unchanged', async () => {
    const before = await snapshot();
    const payload = Array.from({ length: 10_000 }, (_, i) => ({ name: `f${i}.csv`, data: b64('a,b\n1,2\n') }));
    const error = googleError(
      await json('POST', `/v1alpha1/${MC}/importJobs?importJobId=many`, {
        assetSource: SOURCE,
        inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload },
      }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(field(error)).toBe('inlinePayload.payload');
    expect(await snapshot()).toBe(before);
  });

  test('1,000 files (the most accepted): validated into one report', async () => {
    const payload = Array.from({ length: 1_000 }, (_, i) => ({ name: `file-${i}.csv`, data: b64(`${VM_HEADER}\nm-${i},vm-${i},10.0.0.1,2,8,Ubuntu\n`) }));
    const job = await validatedJob('thousand', { inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload } });
    expect(['IMPORT_JOB_STATE_READY', 'IMPORT_JOB_STATE_FAILED_VALIDATION']).toContain(job.state);
    expect(validateOutput('ValidationReport', job.validationReport)).toEqual([]);
    expect(job.validationReport.fileValidations).toHaveLength(1_000);
    ok(await send('DELETE', `/v1alpha1/${MC}/importJobs/thousand`));
  });
});
