/**
 * What a payload file is when its name does not say (issue 26): a browser upload or a copy renamed
 * `vminfo-1`, an archive saved without `.zip`. The name wins whenever it tells (it matches a file
 * kind of the format, or ends in a data extension); otherwise the content decides: a zip by its
 * local-header signature (`PK\x03\x04`), a workbook by its `xl/workbook.xml` part, a CSV file by
 * its header row (pipeline.ts, which knows the kinds' columns).
 */
import { guardedBytes } from './source';
import type { FormatDefinition, PayloadFile } from './types';

/**
 * An extension says what a file is (`.csv`, `.zip`, `.docx`), whatever its content: the user named
 * it. Copy counters and dates (`vminfo-1`, `export.2026-11`) are not extensions.
 */
const TELLING_EXTENSION = /\.[a-z0-9]{1,5}$/i;
const COUNTER = /\.\d+$/;

/** Whether a file's base name says what it is for `definition`: then its content is never sniffed. */
export function nameTells(definition: FormatDefinition, base: string): boolean {
  return (TELLING_EXTENSION.test(base) && !COUNTER.test(base)) || definition.fileKinds.some((k) => k.fileName.test(base));
}

const ZIP_SIGNATURE = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** Whether the file starts with a zip local file header (reads 4 bytes; a file that cannot be read is not a zip). */
export async function startsWithZipSignature(file: PayloadFile, maxFileBytes: number): Promise<boolean> {
  const head: Buffer[] = [];
  let got = 0;
  try {
    for await (const piece of guardedBytes(file, maxFileBytes, { bytes: 0 })) {
      head.push(piece);
      got += piece.length;
      if (got >= ZIP_SIGNATURE.length) break;
    }
  } catch {
    return false; // reported when the file is read
  }
  return got >= ZIP_SIGNATURE.length && Buffer.concat(head).subarray(0, ZIP_SIGNATURE.length).equals(ZIP_SIGNATURE);
}

/** The zip part every workbook has: a zip with it is a workbook, not an archive of data files. */
export const WORKBOOK_PART = 'xl/workbook.xml';

/** A payload file recognised by its content, read as if named `readAs`. */
export interface ContentNamedFile extends PayloadFile {
  readAs: string;
}

export function readAsOf(file: PayloadFile | undefined): string | undefined {
  return (file as ContentNamedFile | undefined)?.readAs;
}
