/** Small helpers shared by the pipeline and the format mappings. */

import { hasLoneSurrogate } from '../unicode';

/**
 * A copy of `s` in storage of its own, that does not keep alive the (large) string it was sliced
 * from. Reader batches are decoded into one string per batch, and V8 keeps substrings of 13
 * characters or more as views of their parent, so any cell kept for long (a shared string of a
 * workbook, a label held until its machine is built) would pin the whole batch. The UTF-8 round
 * trip is the fast copy; it would replace a lone surrogate (which an XLSX `_xD800_` escape can
 * produce) with U+FFFD, so such strings are copied through JSON, which keeps them.
 */
export function flat(s: string): string {
  if (s.length < 13) return s;
  return hasLoneSurrogate(s) ? (JSON.parse(JSON.stringify(s)) as string) : Buffer.from(s, 'utf8').toString('utf8');
}

/** FNV-1a 32-bit hash of the UTF-16 code units (the key index's first 32 bits). */
export function hashId(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const GIB = 1024 * 1024 * 1024;

/** GiB -> int64 bytes as a decimal string (the wire form of int64). */
export function gibToBytes(gib: number): string {
  const n = Math.round(Math.max(0, gib) * GIB);
  if (!Number.isSafeInteger(n)) return BigInt(n).toString();
  // Two small-integer halves print faster than one large double (a million rows, two per asset).
  const hi = Math.floor(n / 1e9);
  const lo = n - hi * 1e9;
  return hi === 0 ? String(lo) : String(hi) + String(lo).padStart(9, '0');
}

/** The last path segment of a file name (either separator): what recognition looks at. */
export function baseName(name: string): string {
  const parts = name.split(/[\\/]/);
  return parts[parts.length - 1] ?? name;
}
