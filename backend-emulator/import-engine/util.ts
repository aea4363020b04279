/** Small helpers shared by the pipeline and the format mappings. */

/**
 * A copy of `s` that does not keep alive the (large) string it was sliced from. Reader batches are
 * decoded into one string per ~1 MiB; cells are slices of it, so any cell kept for long (an id in
 * the key index, a label held until its machine is built) would pin the whole batch.
 */
export function flat(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

/** FNV-1a 32-bit hash, for partitioning machine ids across join passes. */
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
