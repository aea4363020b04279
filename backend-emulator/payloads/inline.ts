/**
 * Inline payloads: `inlinePayload.payload[] = {name, data}`, where `data` is base64 (the real
 * API's `bytes` field in JSON). Only base64 is accepted (the schema refuses anything else); each
 * file is decoded when the engine opens it, not when the job is read, and as a stream: a slice of
 * the text at a time, so a large inline file is never a second copy in memory, and the reader
 * gets chunks it can yield between (one decoded buffer of the whole file was read in one go).
 */
import { Readable } from 'stream';
import type { PayloadFile } from './types';

export interface InlineFile {
  name: string;
  data: string;
}

/** Base64 characters decoded per chunk: a multiple of 4 (whole groups), 192 KiB of bytes. */
const BASE64_CHUNK_CHARS = 256 * 1024;

/** Size in bytes of the decoded base64 text, computed without decoding it. */
export function decodedBase64Size(data: string): number {
  const clean = data.replace(/=+$/, '');
  return Math.floor((clean.length * 3) / 4);
}

/** The bytes of base64 `data` as a stream of chunks, each decoded when the reader asks for it. */
export function base64Stream(data: string): Readable {
  function* chunks(): Generator<Buffer> {
    for (let at = 0; at < data.length; at += BASE64_CHUNK_CHARS) yield Buffer.from(data.slice(at, at + BASE64_CHUNK_CHARS), 'base64');
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** The payload files of an inline payload; `open()` decodes that file's base64 on each call. */
export function inlinePayloadFiles(files: readonly InlineFile[]): PayloadFile[] {
  return files.map(({ name, data }) => ({
    name,
    size: decodedBase64Size(data),
    open: () => base64Stream(data),
    origin: { kind: 'base64', data },
  }));
}
