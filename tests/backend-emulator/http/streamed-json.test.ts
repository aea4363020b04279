/**
 * Answers holding strings kept in files (http/streamed-json.ts, http/file-string.ts): their bytes
 * are the JSON text JSON.stringify writes of the same value with each file's text in its place,
 * in pieces around the files, and the stream of them reads each file a chunk at a time.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Writable } from 'stream';
import { pipeline } from 'stream/promises';
import { FileString } from '../../../backend-emulator/http/file-string';
import { StreamedProtoJson, jsonPieces } from '../../../backend-emulator/http/streamed-json';
import { tempDir } from '../../support/migrationcenter';
import { closedUnder, descriptorsUnder, procFdTest } from '../../support/descriptors';

let dir: string;
let opened: FileString[];
beforeEach(() => {
  dir = tempDir('streamed-json-');
  opened = [];
});
afterEach(async () => {
  for (const file of opened) await file.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

let count = 0;
/** `text` written to a file of its own, opened. */
async function fileOf(text: string): Promise<FileString> {
  const file = path.join(dir, String(count++));
  fs.writeFileSync(file, text, 'latin1');
  const opened1 = await FileString.open(file);
  opened.push(opened1);
  return opened1;
}

/** Base64 text of `bytes` pseudo-random bytes (the same for the same arguments). */
function base64Of(bytes: number, seed = 1): string {
  const out = Buffer.alloc(bytes);
  let x = seed;
  for (let i = 0; i < bytes; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out.toString('base64');
}

/** The bytes of the pieces, each file's read whole. */
async function piecesText(pieces: Array<Buffer | FileString>): Promise<string> {
  const parts: Buffer[] = [];
  for (const piece of pieces) parts.push(Buffer.isBuffer(piece) ? piece : await piece.readInto(Buffer.alloc(piece.size), 0, piece.size));
  return Buffer.concat(parts).toString('utf8');
}

/**
 * A response that holds each chunk written to it until a later turn and copies it only then,
 * before calling back (as a socket may hold a chunk until the kernel took it): a buffer written
 * into again before its write's callback would show here.
 */
class SlowResponse extends Writable {
  readonly chunks: Buffer[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error) => void): void {
    setImmediate(() => {
      this.chunks.push(Buffer.from(chunk));
      done();
    });
  }
}

/** The answer's bytes as written to a response by its stream (read as fastify reads it: piped to a sink). */
async function streamed(answer: StreamedProtoJson): Promise<{ length: number; text: string; chunks: number }> {
  const response = new SlowResponse();
  const { length, stream } = answer.body(response);
  await pipeline(stream, new Writable({ write: (_chunk, _encoding, done) => done(new Error('the stream carries no data of its own')) }));
  return { length, text: Buffer.concat(response.chunks).toString('utf8'), chunks: response.chunks.length };
}

describe('jsonPieces', () => {
  it("writes what JSON.stringify writes of the value with each file's text in its place", async () => {
    const a = base64Of(100);
    const b = base64Of(200_000, 2);
    const fa = await fileOf(a);
    const fb = await fileOf(b);
    const value = (x: unknown, y: unknown) => ({
      name: 'projects/p/locations/l/importJobs/j',
      labels: { 'k"ey': 'välue\n' },
      skipped: undefined,
      list: [1, undefined, 'two', { deep: [x] }],
      when: new Date(Date.UTC(2026, 10, 26)),
      inlinePayload: {
        format: 'F',
        payload: [
          { name: 'a.csv', data: x },
          { name: 'b.csv', data: y },
          { name: 'c.csv', data: 'in the record' },
        ],
      },
    });
    expect(await piecesText(jsonPieces(value(fa, fb)))).toBe(JSON.stringify(value(a, b)));
  });

  it('writes a file as the whole value, as an item, and next to another file', async () => {
    const a = base64Of(10);
    const b = base64Of(11, 3);
    const fa = await fileOf(a);
    const fb = await fileOf(b);
    expect(await piecesText(jsonPieces(fa))).toBe(JSON.stringify(a));
    expect(await piecesText(jsonPieces([fa, fb, null]))).toBe(JSON.stringify([a, b, null]));
    // Base64's URL-safe alphabet needs no escaping either.
    const urlSafe = '-_-_AZaz09==';
    expect(await piecesText(jsonPieces({ data: await fileOf(urlSafe) }))).toBe(`{"data":"-_-_AZaz09=="}`);
  });

  it('leaves a value without files to JSON.stringify, in one piece', () => {
    const value = { a: [1, { b: 'c' }], d: undefined };
    const pieces = jsonPieces(value);
    expect(pieces).toHaveLength(1);
    expect((pieces[0] as Buffer).toString()).toBe('{"a":[1,{"b":"c"}]}');
  });
});

describe('StreamedProtoJson', () => {
  it('writes the bytes of its text, the length it says, a large file a chunk at a time', async () => {
    // 1.4 MB of text: six chunks of 256 KiB read from the open file (over 64 KiB: not read whole)
    // into two buffers in turn, each written into again only once the response called back.
    const big = base64Of(1_000_000);
    const small = base64Of(30);
    const answer = StreamedProtoJson.of(
      {
        importJobs: [
          { name: 'x', data: await fileOf(big) },
          { name: 'y', data: await fileOf(small) },
        ],
      },
      opened,
    );
    const { length, text, chunks } = await streamed(answer);
    const expected = JSON.stringify({
      importJobs: [
        { name: 'x', data: big },
        { name: 'y', data: small },
      ],
    });
    expect(text).toBe(expected);
    expect(length).toBe(Buffer.byteLength(expected));
    expect(chunks).toBeGreaterThanOrEqual(6);
  });

  it('leaves out a file of no text, as ProtoJSON leaves out an empty string', async () => {
    const answer = StreamedProtoJson.of({ payload: [{ name: 'empty.csv', data: await fileOf('') }], state: 'STATE_UNSPECIFIED' }, opened);
    expect((await streamed(answer)).text).toBe('{"payload":[{"name":"empty.csv"}]}');
  });

  it('fails its stream, without throwing, when a file holds less than when it was opened', async () => {
    const file = path.join(dir, 'shrinks');
    fs.writeFileSync(file, base64Of(300_000));
    const text = await FileString.open(file);
    opened.push(text);
    fs.truncateSync(file, 1000);
    await expect(streamed(StreamedProtoJson.of({ data: text }, [text]))).rejects.toThrow(/ended at byte 1000/);
  });

  procFdTest('closes its files once its stream has ended, and when it is destroyed before', async () => {
    const first = await fileOf(base64Of(500_000));
    expect(descriptorsUnder(dir)).toBe(1);
    await streamed(StreamedProtoJson.of({ data: first }, [first]));
    await closedUnder(dir);

    const second = await fileOf(base64Of(500_000, 5));
    const { stream } = StreamedProtoJson.of({ data: second }, [second]).body(new SlowResponse());
    stream.destroy();
    await closedUnder(dir);
  });
});
