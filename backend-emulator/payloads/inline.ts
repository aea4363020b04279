/**
 * Inline payloads: `inlinePayload.payload[] = {name, data}`, where `data` is base64 (the real
 * API's `bytes` field in JSON). Only base64 is accepted (the schema refuses anything else); each
 * file is decoded when the engine opens it, not when the job is read.
 */
import { Readable } from 'stream';
import type { PayloadFile } from './types';

export interface InlineFile {
  name: string;
  data: string;
}

/** Size in bytes of the decoded base64 text, computed without decoding it. */
export function decodedBase64Size(data: string): number {
  const clean = data.replace(/=+$/, '');
  return Math.floor((clean.length * 3) / 4);
}

/** The payload files of an inline payload; `open()` decodes that file's base64 on each call. */
export function inlinePayloadFiles(files: readonly InlineFile[]): PayloadFile[] {
  return files.map(({ name, data }) => ({
    name,
    size: decodedBase64Size(data),
    open: () => Readable.from([Buffer.from(data, 'base64')], { objectMode: false }),
  }));
}
