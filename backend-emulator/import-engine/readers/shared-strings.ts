/**
 * A workbook's shared-string table, held while its sheets are read.
 *
 * An XLSX keeps its text once, in `sharedStrings.xml`, and cells refer to it by index, so the whole
 * table must stay reachable until the last sheet is read: in a 100,000-VM RVTools export, about
 * 900,000 strings (every VM name, UUID, IP and MAC address), which as JavaScript strings would make
 * memory grow with the inventory. A small table stays in memory. A large one is written as UTF-8
 * to an unlinked temp file with one 4-byte offset per string in memory, and read back through a
 * small cache of 64 KiB blocks: sheets refer to strings roughly in the order they were written
 * (writers add a string to the table when a row first uses it), so nearly every lookup is served by
 * a cached block, and repeated values (an OS, a host, a power state) by a small cache of decoded
 * strings. Memory then grows by 4 bytes per string instead of about 50.
 */
import * as os from 'node:os';
import { hasLoneSurrogate } from '../../unicode';
import { flat } from '../util';
import { closeQuietly, openUnlinkedTempFile, readAll, writeAll } from './temp-file';

const BLOCK = 64 * 1024;
const CACHED_BLOCKS = 64;
/** Decoded strings kept for repeated lookups (the same OS, host or power state on every row), direct-mapped by index. */
const RECENT = 8192;
const WRITE_BUFFER = 1024 * 1024;

export interface SharedStringTable {
  readonly count: number;
  /** String `index`, or undefined when the table has no such index. */
  get(index: number): string | undefined;
  /** Releases the temp file, if any; idempotent. */
  close(): void;
}

/** Builds a table string by string (in index order), then `finish()` hands it over for lookups. */
export interface SharedStringBuilder {
  readonly count: number;
  push(text: string): void;
  finish(): SharedStringTable;
  /** Drops what was built (on an error while reading the table). */
  abort(): void;
}

/**
 * A builder for a table whose XML part inflates to `declaredBytes`: spooled to a temp file in
 * `dir` when that is more than `spoolAboveBytes` and a temp file can be made, else in memory.
 */
export function sharedStringBuilder(declaredBytes: number, spoolAboveBytes: number, dir = os.tmpdir()): SharedStringBuilder {
  if (declaredBytes > spoolAboveBytes) {
    const fd = openUnlinkedTempFile(dir, 'shared-strings');
    if (fd !== undefined) return new SpooledStrings(fd);
  }
  return new MemoryStrings();
}

class MemoryStrings implements SharedStringBuilder, SharedStringTable {
  private readonly strings: string[] = [];

  get count(): number {
    return this.strings.length;
  }

  push(text: string): void {
    this.strings.push(flat(text));
  }

  finish(): SharedStringTable {
    return this;
  }

  abort(): void {}

  get(index: number): string | undefined {
    return Number.isInteger(index) ? this.strings[index] : undefined;
  }

  close(): void {}
}

class SpooledStrings implements SharedStringBuilder, SharedStringTable {
  private fd: number | undefined;
  /** `offsets[i]` .. `offsets[i + 1]`: the file bytes of string i. */
  private offsets = new Uint32Array(1024);
  private n = 0;
  /** Strings the file cannot carry (lone surrogates), by index. */
  private readonly odd = new Map<number, string>();
  private pending: Buffer | undefined = Buffer.allocUnsafe(WRITE_BUFFER);
  private pendingLength = 0;
  private fileLength = 0;
  /** Cached blocks, oldest first (evicted in that order: lookups move forward through the file). */
  private readonly blocks = new Map<number, { bytes: Buffer; length: number }>();
  private lastIndex = -1;
  private lastBlock: { bytes: Buffer; length: number } | undefined;
  private readonly recentTags = new Int32Array(RECENT).fill(-1);
  private readonly recent: string[] = new Array<string>(RECENT);

  constructor(fd: number) {
    this.fd = fd;
  }

  get count(): number {
    return this.n;
  }

  push(text: string): void {
    if (this.n + 2 > this.offsets.length) {
      const next = new Uint32Array(this.offsets.length * 2);
      next.set(this.offsets);
      this.offsets = next;
    }
    let bytes = 0;
    // UTF-8 cannot carry a lone surrogate (an `_xD800_` escape can make one): such strings stay in memory.
    if (hasLoneSurrogate(text)) this.odd.set(this.n, flat(text));
    else bytes = this.append(text);
    this.offsets[this.n + 1] = this.offsets[this.n] + bytes;
    this.n++;
  }

  private append(text: string): number {
    const pending = this.pending!;
    const need = Buffer.byteLength(text, 'utf8');
    if (this.pendingLength + need > pending.length) this.flush();
    if (need > pending.length) {
      this.fileLength += writeAll(this.fd!, Buffer.from(text, 'utf8'), this.fileLength);
      return need;
    }
    this.pendingLength += pending.write(text, this.pendingLength, 'utf8');
    return need;
  }

  private flush(): void {
    if (this.pendingLength === 0) return;
    this.fileLength += writeAll(this.fd!, this.pending!, this.fileLength, this.pendingLength);
    this.pendingLength = 0;
  }

  finish(): SharedStringTable {
    this.flush();
    this.pending = undefined;
    this.offsets = this.offsets.slice(0, this.n + 1);
    return this;
  }

  abort(): void {
    this.close();
  }

  get(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.n) return undefined;
    const slot = index & (RECENT - 1);
    if (this.recentTags[slot] === index) return this.recent[slot];
    const text = this.decode(index);
    this.recentTags[slot] = index;
    this.recent[slot] = text;
    return text;
  }

  private decode(index: number): string {
    const odd = this.odd.get(index);
    if (odd !== undefined) return odd;
    const from = this.offsets[index];
    const to = this.offsets[index + 1];
    if (to === from) return '';
    const first = (from / BLOCK) | 0;
    if ((((to - 1) / BLOCK) | 0) === first) {
      const block = this.block(first);
      return block.bytes.toString('utf8', from - first * BLOCK, to - first * BLOCK);
    }
    // A string across blocks (or longer than one): read on its own.
    const bytes = Buffer.allocUnsafe(to - from);
    readAll(this.descriptor(), bytes, from, bytes.length);
    return bytes.toString('utf8');
  }

  private block(index: number): { bytes: Buffer; length: number } {
    if (index === this.lastIndex) return this.lastBlock!;
    const cached = this.blocks.get(index);
    if (cached) {
      this.lastIndex = index;
      this.lastBlock = cached;
      return cached;
    }
    let entry: { bytes: Buffer; length: number };
    if (this.blocks.size >= CACHED_BLOCKS) {
      const oldest = this.blocks.keys().next().value as number;
      entry = this.blocks.get(oldest)!;
      this.blocks.delete(oldest);
    } else entry = { bytes: Buffer.allocUnsafe(BLOCK), length: 0 };
    entry.length = Math.min(BLOCK, this.fileLength - index * BLOCK);
    readAll(this.descriptor(), entry.bytes, index * BLOCK, entry.length);
    this.blocks.set(index, entry);
    this.lastIndex = index;
    this.lastBlock = entry;
    return entry;
  }

  private descriptor(): number {
    if (this.fd === undefined) throw new Error('the shared strings were closed');
    return this.fd;
  }

  close(): void {
    if (this.fd === undefined) return;
    closeQuietly(this.fd);
    this.fd = undefined;
    this.blocks.clear();
    this.lastIndex = -1;
    this.lastBlock = undefined;
    this.recent.fill('');
    this.recentTags.fill(-1);
  }
}
