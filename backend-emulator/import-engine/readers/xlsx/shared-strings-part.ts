/**
 * Reads a workbook's shared strings part (`sharedStrings.xml`) into a table: the text of each `si`
 * (rich text runs joined, phonetic runs left out, `_xHHHH_` escapes decoded), bounded in count and
 * size. Where the table lives (memory or a temp file) is shared-strings.ts' job.
 */
import { sharedStringBuilder, type SharedStringTable } from '../shared-strings';
import type { ZipSource } from '../zip-source';
import { decodeOoxmlEscapes } from './cell-text';
import { XlsxError } from './errors';
import type { InflateBudget } from './zip';
import { mib, type XlsxLimits } from './limits';
import { scanXml } from './part-xml';
import type { ZipEntry } from './zip';

export type { SharedStringTable };

/** The table of a workbook without shared strings. */
export const EMPTY_TABLE: SharedStringTable = { count: 0, get: () => undefined, close: () => undefined };

/** Reads the shared strings into a table held until the last sheet is read (see shared-strings.ts). */
export async function readSharedStrings(zip: ZipSource, e: ZipEntry, budget: InflateBudget, limits: XlsxLimits): Promise<SharedStringTable> {
  if (e.uncompressedSize > limits.maxSharedStringsBytes) {
    throw new XlsxError(
      `the shared strings part would inflate to ${e.uncompressedSize} bytes, more than the ${mib(limits.maxSharedStringsBytes)} accepted (they are held while the sheets are read)`,
      'TOO_LARGE',
    );
  }
  const out = sharedStringBuilder(e.uncompressedSize, limits.spoolSharedStringsAboveBytes);
  let depthSi = false;
  let inT = false;
  let inRPh = 0;
  let parts: string[] = [];
  const max = limits.maxSharedStrings;
  await scanXml(zip, e, budget, {
    open: (name, _src, _from, _to, selfClosing) => {
      if (name === 'si') {
        depthSi = true;
        parts = [];
      } else if (name === 't' && depthSi && inRPh === 0 && !selfClosing) inT = true;
      else if (name === 'rPh' && !selfClosing) inRPh++;
    },
    close: (name) => {
      if (name === 't') inT = false;
      else if (name === 'rPh') inRPh = Math.max(0, inRPh - 1);
      else if (name === 'si') {
        depthSi = false;
        if (out.count >= max) throw new XlsxError(`the workbook holds more than ${max} shared strings`, 'TOO_LARGE');
        out.push(decodeOoxmlEscapes(parts.length === 1 ? parts[0] : parts.join('')));
        parts = [];
      }
    },
    wantText: () => inT,
    text: (t) => {
      parts.push(t);
    },
  }).catch((err: unknown) => {
    out.abort();
    throw err;
  });
  return out.finish();
}
