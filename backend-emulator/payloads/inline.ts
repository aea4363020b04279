/**
 * Inline payloads: `inlinePayload.payload[] = {name, data}`, where `data` is base64 (the real
 * API's `bytes` field in JSON). Only base64 is accepted (the schema refuses anything else: no
 * whitespace, `=` only at the end); each file is decoded when the engine opens it, not when the
 * job is read, and as a stream: a slice of the text at a time, so a large inline file is never a
 * second copy in memory, and the reader gets chunks it can yield between.
 *
 * An import job keeps its inline files' base64 text in files of its own, apart from its record
 * (import-jobs/inline-payload-files.ts): such a file is opened by path and decoded as it is read,
 * by whichever thread reads it, so the text never passes through the request thread after the
 * create. A payload whose `data` is still in the job's record (a seeded job, a data dir written by
 * an earlier version) is decoded from that text as before.
 */
import * as fs from 'fs';
import { Readable, Transform, pipeline, type TransformCallback } from 'stream';
import { decodedBase64Size } from '../../schemas/base64';
import type { PayloadFile } from './types';

export { decodedBase64Size };

export interface InlineFile {
  name: string;
  data: string;
}

/** An inline file whose base64 text is in a file on disk (`path`); `size` is the decoded size. */
export interface StoredInlineFile {
  name: string;
  path: string;
  size: number;
}

/** Base64 characters decoded per chunk: a multiple of 4 (whole groups), 192 KiB of bytes. */
const BASE64_CHUNK_CHARS = 256 * 1024;

/** The bytes of base64 `data` as a stream of chunks, each decoded when the reader asks for it. */
export function base64Stream(data: string): Readable {
  function* chunks(): Generator<Buffer> {
    for (let at = 0; at < data.length; at += BASE64_CHUNK_CHARS) yield Buffer.from(data.slice(at, at + BASE64_CHUNK_CHARS), 'base64');
  }
  return Readable.from(chunks(), { objectMode: false });
}

/**
 * Decodes base64 text as it streams through: each chunk's whole 4-character groups are decoded,
 * the rest waits for the next chunk (a read may end anywhere), the last partial group at the end.
 */
export class Base64Decoder extends Transform {
  private rest = '';

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const text = this.rest + chunk.toString('latin1');
    const whole = text.length - (text.length % 4);
    this.rest = text.slice(whole);
    done(null, whole > 0 ? Buffer.from(text.slice(0, whole), 'base64') : undefined);
  }

  override _flush(done: TransformCallback): void {
    done(null, this.rest.length > 0 ? Buffer.from(this.rest, 'base64') : undefined);
  }
}

/**
 * The bytes of the base64 text in the file at `path`, decoded a read at a time. A read error
 * reaches the reader through the decoder; a reader that stops early (cancel) closes the file.
 * `pipeline` owns both ends, so neither leaves an error without a listener in the thread.
 */
export function base64FileStream(path: string): Readable {
  return pipeline(fs.createReadStream(path, { highWaterMark: BASE64_CHUNK_CHARS }), new Base64Decoder(), () => undefined);
}

/**
 * The payload files of an inline payload; `open()` decodes that file's base64 on each call, from
 * the text in hand or from its file on disk.
 */
export function inlinePayloadFiles(files: ReadonlyArray<InlineFile | StoredInlineFile>): PayloadFile[] {
  return files.map((file) =>
    'path' in file
      ? { name: file.name, size: file.size, open: () => base64FileStream(file.path), origin: { kind: 'base64File', path: file.path } }
      : { name: file.name, size: decodedBase64Size(file.data), open: () => base64Stream(file.data), origin: { kind: 'base64', data: file.data } },
  );
}
