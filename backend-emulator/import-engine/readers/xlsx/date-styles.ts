/**
 * Which cells hold dates. A workbook stores a date as a number (days since 1900 or 1904) and says
 * it is a date only through the number format of the cell's style: this module reads the styles
 * part into one flag per cell style, and turns a date serial into a Date.
 */
import type { ZipSource } from '../zip-source';
import type { InflateBudget } from './zip';
import { scanXml } from './part-xml';
import { attr } from './xml-scanner';
import type { ZipEntry } from './zip';

/** Custom number formats that show a date or a time: y, m, d, h or s outside quotes, brackets and escapes. */
export function isDateFormat(code: string): boolean {
  const stripped = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[(?:h+|m+|s+)\]/gi, 'h')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/_.|\*./g, '');
  return /[ymdhs]/i.test(stripped) && !/^[#0.,%\s;E+-]*$/i.test(stripped);
}

/** Built-in number formats that are dates or times (ECMA-376 part 1, 18.8.30, and the CJK ranges). */
function isBuiltinDateFormat(id: number): boolean {
  return (id >= 14 && id <= 22) || (id >= 27 && id <= 36) || (id >= 45 && id <= 47) || (id >= 50 && id <= 58);
}

/** Reads the styles part: per cell style index (a cell's `s`), true when its number format shows a date. */
export async function readDateStyles(zip: ZipSource, e: ZipEntry, budget: InflateBudget): Promise<boolean[]> {
  const custom = new Map<number, boolean>();
  const xfFormats: number[] = [];
  let inCellXfs = false;
  await scanXml(zip, e, budget, {
    open: (name, src, from, to) => {
      const attrs = name === 'numFmt' || name === 'xf' ? src.slice(from, to) : '';
      if (name === 'numFmt') {
        const id = Number(attr(attrs, 'numFmtId'));
        if (Number.isInteger(id)) custom.set(id, isDateFormat(attr(attrs, 'formatCode') ?? ''));
      } else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) xfFormats.push(Number(attr(attrs, 'numFmtId') ?? '0'));
    },
    close: (name) => {
      if (name === 'cellXfs') inCellXfs = false;
    },
    wantText: () => false,
    text: () => undefined,
  });
  return xfFormats.map((id) => (custom.has(id) ? custom.get(id)! : isBuiltinDateFormat(id)));
}

const EXCEL_EPOCH_1900 = Date.UTC(1899, 11, 30);
const EXCEL_EPOCH_1904 = Date.UTC(1904, 0, 1);

/** Excel serial date -> Date (UTC wall clock; serials carry no zone). */
export function excelSerialToDate(serial: number, date1904: boolean): Date {
  const base = date1904 ? EXCEL_EPOCH_1904 : EXCEL_EPOCH_1900;
  return new Date(base + Math.round(serial * 86_400_000));
}
