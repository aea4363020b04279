/**
 * The set of machine keys an import has seen, with the row of each: what reports duplicates and
 * child rows that name no machine. A payload of a million machines would hold a million strings
 * in a Map (about 90 bytes each, with the Map's own tables); this holds a 64-bit hash of each key
 * and its row number in one typed array, 12 bytes a slot, so the strings themselves are never
 * kept.
 *
 * The table's memory is what a large import pays for, more than its hashing: a new slot lands at
 * a random place, and the first write to each page of a new table is a page fault (a costly one
 * in a virtual machine). So a slot's three numbers sit side by side (one cache line for a lookup,
 * not three), and the table is filled to three quarters before it doubles, not to half: a table
 * for 600,000 keys is 12 MB, not 24, and its growths touch 24 MB, not 48. Measured in a fresh
 * process, 600,000 keys went from about 13,000 page faults and 0.4 CPU-s to 6,500 and 0.25 CPU-s
 * (docs/benchmarks.md, issue 27). Linear probing at that load passes about 2.7 taken slots per
 * key, the growths' re-inserts included: neighbours, mostly in the same cache line.
 *
 * Two different keys with the same 64-bit hash would be taken for one. For n keys that happens
 * with a probability of about n² / 2^65: once in 37 million imports of a million machines. The
 * result would be a false "duplicate" error, or a child row naming a missing machine passing.
 */
import { hashId } from './util';

const INITIAL_SLOTS = 1024;
/** Numbers per slot: the hash's two halves, then the row (0: empty). */
const STRIDE = 3;
/** The table doubles once this share of its slots is taken. */
const MAX_LOAD = 0.75;

export class KeySet {
  /** Slot i: `table[3i]` and `table[3i + 1]` the key's hash, `table[3i + 2]` its row (0 marks an empty slot). */
  private table: Uint32Array;
  private mask: number;
  /** Keys held when the table doubles. */
  private limit: number;
  private count = 0;

  constructor(capacity = 0) {
    let slots = INITIAL_SLOTS;
    while (slots * MAX_LOAD < capacity) slots *= 2;
    this.table = new Uint32Array(slots * STRIDE);
    this.mask = slots - 1;
    this.limit = Math.floor(slots * MAX_LOAD);
  }

  get size(): number {
    return this.count;
  }

  /** The row recorded for `key`, or undefined. */
  get(key: string): number | undefined {
    const row = this.table[this.slotOf(hashId(key), hashHi(key)) * STRIDE + 2];
    return row === 0 ? undefined : row;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** Records `key` at `row` (a positive row number) unless it is already there. */
  set(key: string, row = 1): void {
    this.firstRow(key, row);
  }

  /**
   * Records `key` at `row` and returns undefined, or, when the key is already there, returns the
   * row it was recorded at and changes nothing: the duplicate check in one lookup.
   */
  firstRow(key: string, row: number): number | undefined {
    if (!(row > 0)) throw new RangeError('row numbers start at 1');
    if (this.count >= this.limit) this.grow();
    return this.insert(hashId(key), hashHi(key), row);
  }

  private insert(lo: number, hi: number, row: number): number | undefined {
    const t = this.table;
    const at = this.slotOf(lo, hi) * STRIDE;
    if (t[at + 2] !== 0) return t[at + 2];
    t[at] = lo;
    t[at + 1] = hi;
    t[at + 2] = row;
    this.count++;
    return undefined;
  }

  /** The slot holding the hash (lo, hi), or the empty slot where it would go: linear probing. */
  private slotOf(lo: number, hi: number): number {
    const t = this.table;
    const mask = this.mask;
    let i = lo & mask;
    for (; t[i * STRIDE + 2] !== 0; i = (i + 1) & mask) {
      const at = i * STRIDE;
      if (t[at] === lo && t[at + 1] === hi) break;
    }
    return i;
  }

  private grow(): void {
    const old = this.table;
    const slots = (this.mask + 1) * 2;
    this.table = new Uint32Array(slots * STRIDE);
    this.mask = slots - 1;
    this.limit = Math.floor(slots * MAX_LOAD);
    this.count = 0;
    for (let at = 0; at < old.length; at += STRIDE) if (old[at + 2] !== 0) this.insert(old[at], old[at + 1], old[at + 2]);
  }
}

/** A second 32-bit hash, independent of `hashId` (FNV-1a): multiply-rotate with a murmur3 finaliser; together 64 bits. */
function hashHi(s: string): number {
  let h = 0x9747b28c ^ s.length;
  for (let i = 0; i < s.length; i++) {
    h = Math.imul(h ^ s.charCodeAt(i), 0x5bd1e995);
    h = (h << 13) | (h >>> 19);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
