/**
 * The merged ranges of a sheet. They come after the rows in the sheet's XML, but the reader needs
 * them before the first row (a merged header cell means the sheet cannot be read), so they are found
 * by a fast byte-level pass over the inflated sheet that also enforces the caps and the CRC before
 * any row is delivered. A caller may read the same workbook several times; a sheet scanned once is
 * not scanned again (a small cache keyed by the part's bytes).
 */
import * as zlib from 'node:zlib';
import type { ZipSource } from '../zip-source';
import { XlsxError } from './errors';
import { inflateEntry, type InflateBudget } from './zip';
import { attr } from './xml-scanner';
import type { ZipEntry } from './zip';

/** Merged ranges of recently scanned sheets, least recently used first. */
const PRESCANS = new Map<string, string[]>();
const PRESCANS_KEPT = 32;

/** The merged ranges (`A1:B1`, ...) of the sheet part `e`, at most 10,000. */
export async function prescanMerges(zip: ZipSource, e: ZipEntry, budget: InflateBudget): Promise<{ merges: string[] }> {
  // The key binds the part's name, sizes, declared CRC and the CRC of its compressed bytes; the row
  // pass still enforces the caps and the CRC, and refuses a DOCTYPE before any row.
  let dataCrc = 0;
  for (const v of zip.views(e.dataOffset, e.dataOffset + e.compressedSize)) dataCrc = zlib.crc32(v, dataCrc);
  const key = `${e.name}\u0000${e.compressedSize}\u0000${e.uncompressedSize}\u0000${e.crc32}\u0000${dataCrc}`;
  const known = PRESCANS.get(key);
  if (known) {
    PRESCANS.delete(key);
    PRESCANS.set(key, known);
    return { merges: known.slice() };
  }
  const result = await scanMerges(zip, e, budget);
  PRESCANS.set(key, result.merges.slice());
  if (PRESCANS.size > PRESCANS_KEPT) PRESCANS.delete(PRESCANS.keys().next().value as string);
  return result;
}

async function scanMerges(zip: ZipSource, e: ZipEntry, budget: InflateBudget): Promise<{ merges: string[] }> {
  const merges: string[] = [];
  const needle = Buffer.from('<mergeCell ');
  const needlePrefixed = Buffer.from(':mergeCell ');
  let carry = Buffer.alloc(0);
  let first = true;
  for await (const piece of inflateEntry(zip, e, budget)) {
    if (first) {
      first = false;
      const head = piece.subarray(0, 4096).toString('latin1');
      if (head.includes('<!DOCTYPE') || head.includes('<!ENTITY')) {
        throw new XlsxError(`${e.name} carries a DOCTYPE or other declaration (<!...>): document type and entity declarations are refused`, 'DOCTYPE');
      }
    }
    const buf = carry.length > 0 ? Buffer.concat([carry, piece]) : piece;
    for (const n of [needle, needlePrefixed]) {
      let at = buf.indexOf(n);
      while (at !== -1) {
        const end = buf.indexOf(0x3e /* > */, at);
        if (end === -1) break;
        const ref = attr(buf.toString('latin1', at + n.length, end), 'ref');
        if (ref && merges.length < 10_000) merges.push(ref);
        at = buf.indexOf(n, end);
      }
    }
    // Keep a short tail so a tag split across pieces is still found (a mergeCell tag is short).
    const tail = Math.max(0, buf.length - 256);
    const lastLt = buf.lastIndexOf(0x3c, buf.length - 1);
    const cut = lastLt >= tail ? lastLt : buf.length;
    carry = Buffer.from(buf.subarray(cut));
  }
  // The scan's bytes are given back: the row pass inflates the same bytes again and counts them,
  // so a sheet counts once against the workbook's total.
  budget.used -= e.uncompressedSize;
  return { merges };
}
