/**
 * Where a workbook's compressed bytes live while it is read. A zip is read through its central
 * directory at the end, so its bytes must stay reachable for random access until the last sheet is
 * read. Small workbooks stay in memory as the pieces they arrived in (runs of tiny pieces
 * gathered); a larger one is spooled to an unlinked temp file and read back with positional reads,
 * so that memory does not grow with the size of the workbook (a 100,000-VM RVTools export is about 60 MiB compressed).
 */
import * as os from 'node:os';
import { closeQuietly, openUnlinkedTempFile, readAll, writeAll } from './temp-file';

export interface ZipSource {
  readonly length: number;
  /** Bytes [start, end) as one Buffer. */
  range(start: number, end: number): Buffer;
  /** Bytes [start, end) as Buffers of at most a few hundred KiB, in order. */
  views(start: number, end: number): Iterable<Buffer>;
  /** Releases what holds the bytes (a temp file); idempotent. */
  close(): void;
}

/** The workbook's bytes in memory as the pieces they arrived in: never joined into one Buffer. */
export class MemoryZipSource implements ZipSource {
  readonly length: number;
  private readonly starts: number[] = [];

  constructor(readonly parts: readonly Buffer[]) {
    let n = 0;
    for (const p of parts) {
      this.starts.push(n);
      n += p.length;
    }
    this.length = n;
  }

  private pieceAt(at: number): number {
    let lo = 0;
    let hi = this.parts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  range(start: number, end: number): Buffer {
    const from = Math.max(0, start);
    const to = Math.min(this.length, end);
    if (to <= from) return Buffer.alloc(0);
    const i = this.pieceAt(from);
    const off = from - this.starts[i];
    if (off + (to - from) <= this.parts[i].length) return this.parts[i].subarray(off, off + (to - from));
    return Buffer.concat([...this.views(from, to)], to - from);
  }

  *views(start: number, end: number): Generator<Buffer> {
    let at = Math.max(0, start);
    const to = Math.min(this.length, end);
    if (to <= at) return;
    let i = this.pieceAt(at);
    while (at < to && i < this.parts.length) {
      const piece = this.parts[i];
      const off = at - this.starts[i];
      const take = Math.min(piece.length - off, to - at);
      if (take > 0) yield piece.subarray(off, off + take);
      at += take;
      i++;
    }
  }

  close(): void {}
}

const READ_PIECE = 256 * 1024;

/** The workbook's bytes in a temp file that is already unlinked: it vanishes with the descriptor. */
export class FileZipSource implements ZipSource {
  private fd: number | undefined;

  constructor(
    fd: number,
    readonly length: number,
  ) {
    this.fd = fd;
  }

  range(start: number, end: number): Buffer {
    const from = Math.max(0, start);
    const to = Math.min(this.length, end);
    if (to <= from) return Buffer.alloc(0);
    if (this.fd === undefined) throw new Error('the workbook was closed');
    const out = Buffer.allocUnsafe(to - from);
    readAll(this.fd, out, from, out.length);
    return out;
  }

  *views(start: number, end: number): Generator<Buffer> {
    const to = Math.min(this.length, end);
    for (let at = Math.max(0, start); at < to; at += READ_PIECE) yield this.range(at, Math.min(to, at + READ_PIECE));
  }

  close(): void {
    if (this.fd === undefined) return;
    closeQuietly(this.fd);
    this.fd = undefined;
  }
}

/** Workbooks up to this size stay in memory; larger ones are spooled. */
export const SPOOL_THRESHOLD_BYTES = 8 * 1024 * 1024;

/**
 * Pieces smaller than this are gathered before they are kept: the inflater is fed the kept pieces
 * as they are, and each write to it is a round trip to zlib's thread pool (a stream that arrived a
 * byte at a time would be inflated in a byte per round trip).
 */
const SMALL_PIECE_BYTES = 64 * 1024;

/** Gathers runs of small pieces into pieces of about SMALL_PIECE_BYTES; large pieces pass as they are. */
async function* gatherSmallPieces(bytes: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let small: Buffer[] = [];
  let smallBytes = 0;
  for await (const b of bytes) {
    if (b.length === 0) continue;
    if (b.length >= SMALL_PIECE_BYTES) {
      if (smallBytes > 0) yield Buffer.concat(small, smallBytes);
      small = [];
      smallBytes = 0;
      yield b;
      continue;
    }
    small.push(b);
    smallBytes += b.length;
    if (smallBytes >= SMALL_PIECE_BYTES) {
      yield Buffer.concat(small, smallBytes);
      small = [];
      smallBytes = 0;
    }
  }
  if (smallBytes > 0) yield Buffer.concat(small, smallBytes);
}

/**
 * Collects a byte stream into a ZipSource: in memory while it is small, then in a temp file
 * (created with mode 0600 and unlinked at once, so nothing is left behind even by a crash). When
 * no temp file can be made or written (a read-only or full temp dir), the workbook stays in
 * memory, as before spooling existed: bounded by the caller's file size limit.
 */
export async function collectZip(bytes: AsyncIterable<Buffer>, threshold = SPOOL_THRESHOLD_BYTES, dir = os.tmpdir()): Promise<ZipSource> {
  const parts: Buffer[] = [];
  let held = 0;
  let fd: number | undefined;
  let written = 0;
  let spooling = threshold >= 0;
  try {
    for await (const b of gatherSmallPieces(bytes)) {
      if (fd !== undefined) {
        try {
          written += writeAll(fd, b, written);
          continue;
        } catch {
          // The temp dir filled up: read what was spooled back, hold the rest in memory.
          parts.push(...new FileZipSource(fd, written).views(0, written), b);
          closeQuietly(fd);
          fd = undefined;
          spooling = false;
          continue;
        }
      }
      parts.push(b);
      held += b.length;
      if (!spooling || held <= threshold) continue;
      fd = openUnlinkedTempFile(dir, 'workbook');
      if (fd === undefined) {
        spooling = false;
        continue;
      }
      try {
        for (const p of parts) written += writeAll(fd, p, written);
        parts.length = 0;
      } catch {
        closeQuietly(fd);
        fd = undefined;
        written = 0;
        spooling = false;
      }
    }
  } catch (err) {
    if (fd !== undefined) closeQuietly(fd);
    throw err;
  }
  return fd === undefined ? new MemoryZipSource(parts) : new FileZipSource(fd, written);
}
