/**
 * A1-style cell references: column letters to indexes and back, ranges (`A1:C3`), and the sheet
 * bounds (XFD, 1,048,576 rows). The in-place variants read a reference from a slice of the sheet's
 * XML without allocating, which matters on the hot path of a 100,000-row sheet.
 */

export const MAX_COLUMNS = 16384;
export const MAX_ROWS = 1048576;

/** `A` -> 0, `AB` -> 27; -1 when the reference has no letters. */
export function columnIndex(ref: string): number {
  let n = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c >= 65 && c <= 90) n = n * 26 + (c - 64);
    else if (c >= 97 && c <= 122) n = n * 26 + (c - 96);
    else break;
  }
  return i === 0 ? -1 : n - 1;
}

/** `columnIndex` of `s.slice(from, to)`, without the slice. */
export function columnIndexAt(s: string, from: number, to: number): number {
  let n = 0;
  let i = from;
  for (; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c >= 65 && c <= 90) n = n * 26 + (c - 64);
    else if (c >= 97 && c <= 122) n = n * 26 + (c - 96);
    else break;
  }
  return i === from ? -1 : n - 1;
}

/** A non-negative decimal integer of `s.slice(from, to)`; -1 when it is not one. */
export function intAt(s: string, from: number, to: number): number {
  if (to <= from || to - from > 9) return -1;
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

export function columnName(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

/** Parses `A1:C3` into 1-based row bounds. */
export function rangeRows(ref: string): { top: number; bottom: number; left: number; right: number } | undefined {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d+)(?::\$?([A-Za-z]{1,3})\$?(\d+))?$/.exec(ref.trim());
  if (!m) return undefined;
  const top = Number(m[2]);
  const bottom = m[4] ? Number(m[4]) : top;
  const left = columnIndex(m[1]);
  const right = m[3] ? columnIndex(m[3]) : left;
  return { top: Math.min(top, bottom), bottom: Math.max(top, bottom), left: Math.min(left, right), right: Math.max(left, right) };
}
