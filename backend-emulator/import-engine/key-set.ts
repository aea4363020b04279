/**
 * The set of machine keys an import has seen, with the row of each: what reports duplicates and
 * child rows that name no machine. A payload of a million machines would hold a million strings
 * in a Map (about 90 bytes each, with the Map's own tables); this holds a 64-bit hash of each key
 * and its row number in typed arrays, 12 bytes a slot at most half full, so memory grows by about
 * 24 bytes per machine and the strings themselves are never kept.
 *
 * Two different keys with the same 64-bit hash would be taken for one. For n keys that happens
 * with a probability of about n² / 2^65: once in 37 million imports of a million machines. The
 * result would be a false "duplicate" error, or a child row naming a missing machine passing.
 */
import { hashId } from './util';

const INITIAL_CAPACITY = 1024;

export class KeySet {
  private lo: Uint32Array;
  private hi: Uint32Array;
  /** Row number of the key in each slot; 0 marks an empty slot. */
  private rows: Uint32Array;
  private mask: number;
  private count = 0;

  constructor(capacity = INITIAL_CAPACITY) {
    let size = INITIAL_CAPACITY;
    while (size < capacity * 2) size *= 2;
    this.lo = new Uint32Array(size);
    this.hi = new Uint32Array(size);
    this.rows = new Uint32Array(size);
    this.mask = size - 1;
  }

  get size(): number {
    return this.count;
  }

  /** The row recorded for `key`, or undefined. */
  get(key: string): number | undefined {
    const lo = hashId(key);
    const hi = hashHi(key);
    for (let i = lo & this.mask; this.rows[i] !== 0; i = (i + 1) & this.mask) {
      if (this.lo[i] === lo && this.hi[i] === hi) return this.rows[i];
    }
    return undefined;
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
    if ((this.count + 1) * 2 > this.rows.length) this.grow();
    return this.insert(hashId(key), hashHi(key), row);
  }

  private insert(lo: number, hi: number, row: number): number | undefined {
    let i = lo & this.mask;
    for (; this.rows[i] !== 0; i = (i + 1) & this.mask) {
      if (this.lo[i] === lo && this.hi[i] === hi) return this.rows[i];
    }
    this.lo[i] = lo;
    this.hi[i] = hi;
    this.rows[i] = row;
    this.count++;
    return undefined;
  }

  private grow(): void {
    const { lo, hi, rows } = this;
    const size = rows.length * 2;
    this.lo = new Uint32Array(size);
    this.hi = new Uint32Array(size);
    this.rows = new Uint32Array(size);
    this.mask = size - 1;
    this.count = 0;
    for (let i = 0; i < rows.length; i++) if (rows[i] !== 0) this.insert(lo[i], hi[i], rows[i]);
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
