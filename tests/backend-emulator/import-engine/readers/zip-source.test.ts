/**
 * Where the workbook's compressed bytes live while it is read: in memory while small, else in an
 * unlinked temp file. Both must give back exactly the bytes that came in, over any range.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { FileZipSource, MemoryZipSource, collectZip } from '../../../../backend-emulator/import-engine/readers/zip-source';

async function* chunks(data: Buffer, sizes: number[]): AsyncGenerator<Buffer> {
  let at = 0;
  for (let i = 0; at < data.length; i++) {
    const n = sizes[i % sizes.length];
    yield data.subarray(at, at + n);
    at += n;
  }
}

const data = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919 + (i >> 9)) % 251));

test.each([
  ['in memory (under the threshold)', 1_000_000, MemoryZipSource],
  ['spooled to a temp file (over the threshold)', 10_000, FileZipSource],
])('%s: every range and every run of views gives back the bytes that came in', async (_name, threshold, kind) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-zipsrc-'));
  const source = await collectZip(chunks(data, [1, 4096, 65_537, 0, 333]), threshold, dir);
  try {
    expect(source).toBeInstanceOf(kind);
    expect(source.length).toBe(data.length);
    // The temp file is unlinked at once: nothing is left in the folder, even before close().
    expect(fs.readdirSync(dir)).toEqual([]);
    for (const [a, b] of [
      [0, 1],
      [0, data.length],
      [4095, 4098],
      [65_000, 200_001],
      [data.length - 3, data.length + 10],
      [-5, 3],
      [10, 10],
    ]) {
      const expected = data.subarray(Math.max(0, a), Math.min(data.length, b));
      expect(source.range(a, b).equals(expected)).toBe(true);
      expect(Buffer.concat([...source.views(a, b)]).equals(expected)).toBe(true);
    }
    // Views are bounded pieces, never the whole file at once.
    expect(Math.max(...[...source.views(0, data.length)].map((v) => v.length))).toBeLessThanOrEqual(kind === FileZipSource ? 256 * 1024 : 65_537);
  } finally {
    source.close();
    source.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a stream of tiny pieces is kept in pieces of about 64 KiB (each piece is one write to the inflater)', async () => {
  const source = await collectZip(chunks(data, [7]), 1_000_000);
  expect(source).toBeInstanceOf(MemoryZipSource);
  // 7-byte pieces, gathered up to the first multiple of 7 past 65,536 (65,541), then the rest.
  expect((source as MemoryZipSource).parts.map((p) => p.length)).toEqual([65_541, 65_541, 65_541, 65_541, 37_836]);
  expect(source.range(0, data.length).equals(data)).toBe(true);
});

// Pieces of 70,000 bytes: larger than the 64 KiB under which collectZip gathers pieces, so the
// first one is over the tests' 10,000-byte threshold and starts the spooling.
async function* failing(midway: () => void = () => {}): AsyncGenerator<Buffer> {
  yield Buffer.alloc(70_000);
  yield Buffer.alloc(70_000);
  midway();
  throw new Error('connection reset');
}

test('a stream that fails while spooling removes the temp file and passes the error on', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-zipsrc-'));
  await expect(collectZip(failing(), 10_000, dir)).rejects.toThrow('connection reset');
  expect(fs.readdirSync(dir)).toEqual([]);
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * The descriptors this process holds open on files under `dir` (Linux: /proc/self/fd). Only those:
 * the worker runs other test files' work too, whose descriptors come and go meanwhile.
 */
function openFilesUnder(dir: string): string[] {
  return fs.readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = fs.readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(dir + path.sep) ? [target] : [];
    } catch {
      return []; // closed between the listing and the read
    }
  });
}

const procFd = fs.existsSync('/proc/self/fd');
(procFd ? test : test.skip)(
  `a stream that fails while spooling leaves no descriptor open on its temp file${procFd ? '' : ' [SKIPPED: no /proc/self/fd here]'}`,
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-zipsrc-'));
    // The check can see: a file opened under dir is listed until it is closed.
    const probe = fs.openSync(path.join(dir, 'probe'), 'w');
    expect(openFilesUnder(dir)).toEqual([path.join(dir, 'probe')]);
    fs.closeSync(probe);
    fs.rmSync(path.join(dir, 'probe'));
    let spooling: string[] = [];
    await expect(
      collectZip(
        failing(() => (spooling = openFilesUnder(dir))),
        10_000,
        dir,
      ),
    ).rejects.toThrow('connection reset');
    expect(spooling).toHaveLength(1); // 140,000 bytes over the 10,000 limit: spooled to a file under dir
    expect(openFilesUnder(dir)).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  },
);

test('when no temp file can be made, a large workbook is held in memory instead, bytes intact', async () => {
  const source = await collectZip(chunks(data, [4096]), 10_000, path.join(os.tmpdir(), 'gnl-no-such-dir', 'deeper'));
  expect(source).toBeInstanceOf(MemoryZipSource);
  expect(source.range(0, data.length).equals(data)).toBe(true);
  source.close();
});
