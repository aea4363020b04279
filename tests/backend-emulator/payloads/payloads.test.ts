/** Payload sources as units: inline base64 decoding, gs:// parsing, the bucket-folder rule, local listing. */
import * as fs from 'fs';
import * as path from 'path';
import type { Readable } from 'stream';
import { decodedBase64Size, inlinePayloadFiles, parseGsPath, resolvePayload, storagePathProblem, usesRemoteStorage } from '../../../backend-emulator/payloads';
import { Base64Decoder } from '../../../backend-emulator/payloads/inline';
import { tempDir } from '../../support/migrationcenter';

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks).toString('utf8');
}

describe('inline payloads', () => {
  test('files are decoded when opened, each open starts again, size is known without decoding', async () => {
    const data = Buffer.from('MachineId\nm-1\n').toString('base64');
    const [file] = inlinePayloadFiles([{ name: 'vmInfo.csv', data }]);
    expect(file.name).toBe('vmInfo.csv');
    expect(file.size).toBe(14);
    expect(await text(file.open())).toBe('MachineId\nm-1\n');
    expect(await text(file.open())).toBe('MachineId\nm-1\n');
  });

  test.each(['', 'YQ==', 'YWI=', 'YWJj', 'YWJjZA=='])('decodedBase64Size(%j) matches the decoded length', (b64) => {
    expect(decodedBase64Size(b64)).toBe(Buffer.from(b64, 'base64').length);
  });

  test("a file holding the base64 text (how an import job keeps it) decodes to the same bytes, whatever the read's boundaries", async () => {
    // 700,001 bytes: its base64 (933,336 characters, padded) spans several reads of the file.
    const bytes = Buffer.from(Array.from({ length: 700_001 }, (_, i) => (i * 7919) % 256));
    const dir = tempDir('inline-file-');
    try {
      for (const [name, data] of [
        ['padded', bytes.toString('base64')],
        ['url-safe, unpadded', bytes.toString('base64url')],
      ]) {
        const file = path.join(dir, name);
        fs.writeFileSync(file, data);
        const [payloadFile] = inlinePayloadFiles([{ name: 'vmInfo.csv', path: file, size: bytes.length }]);
        const chunks: Buffer[] = [];
        for await (const c of payloadFile.open()) chunks.push(Buffer.from(c));
        expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
        expect(payloadFile.origin).toEqual({ kind: 'base64File', path: file });
      }
      // Split by hand at every offset of a group: the decoder keeps the rest for the next chunk.
      const data = Buffer.from('abcdefg').toString('base64');
      for (let cut = 0; cut <= data.length; cut++) {
        const decoder = new Base64Decoder();
        const out: Buffer[] = [];
        decoder.on('data', (c: Buffer) => out.push(c));
        decoder.write(Buffer.from(data.slice(0, cut)));
        decoder.end(Buffer.from(data.slice(cut)));
        await new Promise((r) => decoder.on('end', r));
        expect(Buffer.concat(out).toString()).toBe('abcdefg');
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('gs:// paths', () => {
  test.each([
    ['gs://bucket/a/b.csv', { bucket: 'bucket', object: 'a/b.csv', isPrefix: false }],
    ['gs://bucket/a/', { bucket: 'bucket', object: 'a/', isPrefix: true }],
    ['gs://bucket/', { bucket: 'bucket', object: '', isPrefix: true }],
    ['gs://bucket', { bucket: 'bucket', object: '', isPrefix: true }],
  ])('parseGsPath(%s)', (p, expected) => {
    expect(parseGsPath(p)).toEqual(expected);
  });

  test('not gs://', () => {
    expect(parseGsPath('s3://bucket/x')).toBeUndefined();
    expect(storagePathProblem({ storageDir: '/tmp' }, 'http://x')).toMatch(/gs:\/\//);
  });

  test('remote storage is chosen by endpoint or STORAGE_EMULATOR_HOST', () => {
    expect(usesRemoteStorage({ storageDir: '/x' }, {})).toBe(false);
    expect(usesRemoteStorage({ storageDir: '/x', storageEndpoint: 'http://h' }, {})).toBe(true);
    expect(usesRemoteStorage({ storageDir: '/x' }, { STORAGE_EMULATOR_HOST: 'http://h/storage/v1' })).toBe(true);
  });
});

describe('local storage', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('mc-payloads-');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('a prefix lists every file below it in name order, named relative to the prefix', async () => {
    fs.mkdirSync(path.join(dir, 'b', 'p', 'sub'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'b', 'p', 'vmInfo.csv'), 'v');
    fs.writeFileSync(path.join(dir, 'b', 'p', 'diskInfo.csv'), 'dd');
    fs.writeFileSync(path.join(dir, 'b', 'p', 'sub', 'perfInfo.csv'), 'ppp');
    fs.writeFileSync(path.join(dir, 'b', 'outside-prefix.csv'), 'x');
    const { files, errors } = await resolvePayload({ storageDir: dir }, { gcsPayload: { format: 'F', path: 'gs://b/p/' } });
    expect(errors).toEqual([]);
    expect(files.map((f) => [f.name, f.size])).toEqual([
      ['diskInfo.csv', 2],
      ['sub/perfInfo.csv', 3],
      ['vmInfo.csv', 1],
    ]);
    expect(await text(files[1].open() as Readable)).toBe('ppp');
  });

  test('the whole bucket, a missing bucket, a missing object', async () => {
    fs.mkdirSync(path.join(dir, 'b'));
    fs.writeFileSync(path.join(dir, 'b', 'vmInfo.csv'), 'v');
    expect((await resolvePayload({ storageDir: dir }, { gcsPayload: { format: 'F', path: 'gs://b' } })).files.map((f) => f.name)).toEqual(['vmInfo.csv']);
    expect((await resolvePayload({ storageDir: dir }, { gcsPayload: { format: 'F', path: 'gs://nob/x.csv' } })).errors).toEqual([
      'object gs://nob/x.csv not found',
    ]);
    expect((await resolvePayload({ storageDir: dir }, { gcsPayload: { format: 'F', path: 'gs://nob/' } })).errors).toEqual([
      'no object found under gs://nob/: bucket nob not found',
    ]);
  });

  test('a symbolic link to a folder outside the bucket is refused at create and skipped with an error at read', async () => {
    const outside = tempDir('mc-outside-');
    try {
      fs.mkdirSync(path.join(dir, 'b', 'p'), { recursive: true });
      fs.writeFileSync(path.join(outside, 'secret.csv'), 's');
      fs.writeFileSync(path.join(dir, 'b', 'p', 'vmInfo.csv'), 'v');
      expect(storagePathProblem({ storageDir: dir }, 'gs://b/p/')).toBeUndefined();
      fs.symlinkSync(outside, path.join(dir, 'b', 'p', 'escape'));
      expect(storagePathProblem({ storageDir: dir }, 'gs://b/p/escape/secret.csv')).toMatch(/symbolic link/);
      const { files, errors } = await resolvePayload({ storageDir: dir }, { gcsPayload: { format: 'F', path: 'gs://b/p/' } });
      expect(files.map((f) => f.name)).toEqual(['vmInfo.csv']);
      expect(errors).toEqual(['object gs://b/p/escape points outside its bucket folder']);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  test('a dangling symbolic link pointing outside is refused at create', () => {
    fs.mkdirSync(path.join(dir, 'b'));
    fs.symlinkSync('/nonexistent-target-dir/x', path.join(dir, 'b', 'dangling'));
    expect(storagePathProblem({ storageDir: dir }, 'gs://b/dangling/vmInfo.csv')).toMatch(/symbolic link/);
  });
});

describe('a bucket folder that is a symbolic link', () => {
  // The object rule above held, but the bucket folder itself was taken as it resolved: a link
  // `<storageDir>/evil -> /` made gs://evil/etc/passwd a payload the job read.
  let dir: string;
  let outside: string;
  beforeEach(() => {
    dir = tempDir('mc-storage-');
    outside = tempDir('mc-outside-');
    fs.writeFileSync(path.join(outside, 'vmInfo.csv'), 'MachineId\nsecret\n');
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });
  const REFUSED = 'must stay inside the storage folder: its bucket folder is a symbolic link that points outside it';

  test('pointing outside the storage folder: refused at create, for an object and a prefix', () => {
    fs.symlinkSync(outside, path.join(dir, 'evil'));
    expect(storagePathProblem({ storageDir: dir }, 'gs://evil/vmInfo.csv')).toBe(REFUSED);
    expect(storagePathProblem({ storageDir: dir }, 'gs://evil/')).toBe(REFUSED);
    expect(storagePathProblem({ storageDir: dir }, 'gs://evil')).toBe(REFUSED);
  });

  test('made a link after the job was created: nothing is read', async () => {
    fs.mkdirSync(path.join(dir, 'later'));
    expect(storagePathProblem({ storageDir: dir }, 'gs://later/vmInfo.csv')).toBeUndefined();
    fs.rmdirSync(path.join(dir, 'later'));
    fs.symlinkSync(outside, path.join(dir, 'later'));
    for (const gcsPath of ['gs://later/vmInfo.csv', 'gs://later/']) {
      expect(await resolvePayload({ storageDir: dir }, { gcsPayload: { format: 'F', path: gcsPath } })).toEqual({
        files: [],
        errors: [`path ${gcsPath} ${REFUSED}`],
      });
    }
  });

  test('dangling, pointing outside: refused at create (it could be made to resolve later)', () => {
    fs.symlinkSync(path.join(outside, 'not-yet'), path.join(dir, 'soon'));
    expect(storagePathProblem({ storageDir: dir }, 'gs://soon/vmInfo.csv')).toBe(REFUSED);
  });

  test('naming another bucket of the storage folder: read as that bucket', async () => {
    fs.mkdirSync(path.join(dir, 'real'));
    fs.writeFileSync(path.join(dir, 'real', 'vmInfo.csv'), 'v');
    fs.symlinkSync(path.join(dir, 'real'), path.join(dir, 'alias'));
    fs.symlinkSync('real', path.join(dir, 'relative'));
    for (const bucket of ['alias', 'relative']) {
      expect(storagePathProblem({ storageDir: dir }, `gs://${bucket}/vmInfo.csv`)).toBeUndefined();
      const { files, errors } = await resolvePayload({ storageDir: dir }, { gcsPayload: { format: 'F', path: `gs://${bucket}/vmInfo.csv` } });
      expect([files.map((f) => f.name), errors]).toEqual([['vmInfo.csv'], []]);
    }
  });
});
