/**
 * Opening a payload file and guarding its bytes before any reader sees them: every chunk becomes a
 * Buffer of at most PIECE_BYTES, the byte count is checked against the size limit, strings that
 * were decoded upstream with replacement characters count as invalid UTF-8, and a failing stream
 * becomes a typed error the pipeline turns into a file error. Nothing here buffers more than one
 * chunk.
 */
import { Readable } from 'node:stream';
import type { PayloadFile } from './types';

/** Readers get pieces of at most this size, so one piece never holds more than one long row. */
export const PIECE_BYTES = 256 * 1024;

export class SourceError extends Error {
  constructor(
    message: string,
    readonly code: 'OPEN_FAILED' | 'READ_FAILED' | 'TOO_LARGE' | 'NOT_UTF8' | 'BAD_CHUNK',
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

function asAsyncIterable(stream: unknown): AsyncIterable<unknown> {
  if (stream && typeof (stream as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
    return stream as AsyncIterable<unknown>;
  }
  if (stream && typeof (stream as NodeJS.ReadableStream).on === 'function') {
    return new Readable({ objectMode: true }).wrap(stream as NodeJS.ReadableStream);
  }
  throw new SourceError('open() did not return a readable stream', 'OPEN_FAILED');
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export interface GuardStats {
  /** Bytes delivered so far. */
  bytes: number;
}

/**
 * Opens `file` and yields its bytes in pieces. Throws SourceError (open failure, read failure,
 * size limit, upstream-decoded invalid text); the stream is destroyed when the consumer stops early.
 */
export async function* guardedBytes(file: PayloadFile, maxBytes: number, stats: GuardStats): AsyncGenerator<Buffer> {
  if (file.size !== undefined && file.size > maxBytes) {
    throw new SourceError(`the file is ${file.size} bytes, larger than the ${formatBytes(maxBytes)} limit for one file`, 'TOO_LARGE');
  }
  let stream: unknown;
  try {
    stream = file.open();
  } catch (e) {
    throw new SourceError(`the file could not be opened: ${errorText(e)}`, 'OPEN_FAILED');
  }
  const iterable = asAsyncIterable(stream);
  const iterator = iterable[Symbol.asyncIterator]();
  try {
    for (;;) {
      let step: IteratorResult<unknown>;
      try {
        step = await iterator.next();
      } catch (e) {
        throw new SourceError(`the file could not be read: ${errorText(e)}`, 'READ_FAILED');
      }
      if (step.done) return;
      const chunk = step.value;
      let buf: Buffer;
      if (Buffer.isBuffer(chunk)) buf = chunk;
      else if (chunk instanceof Uint8Array) buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      else if (typeof chunk === 'string') {
        // Text decoded upstream: a replacement character means the bytes were not valid UTF-8.
        const at = chunk.indexOf('\uFFFD');
        if (at !== -1) {
          throw new SourceError(
            `the file is not valid UTF-8: it contains a replacement character (U+FFFD) at byte ${stats.bytes + Buffer.byteLength(chunk.slice(0, at))}`,
            'NOT_UTF8',
          );
        }
        buf = Buffer.from(chunk, 'utf8');
      } else {
        throw new SourceError('the file stream produced something other than bytes', 'BAD_CHUNK');
      }
      if (stats.bytes + buf.length > maxBytes) {
        const room = maxBytes - stats.bytes;
        for (let at = 0; at < room; at += PIECE_BYTES) {
          const piece = buf.subarray(at, Math.min(room, at + PIECE_BYTES));
          stats.bytes += piece.length;
          yield piece;
        }
        throw new SourceError(`the file is larger than the ${formatBytes(maxBytes)} limit for one file; reading stopped there`, 'TOO_LARGE');
      }
      for (let at = 0; at < buf.length; at += PIECE_BYTES) {
        const piece = at === 0 && buf.length <= PIECE_BYTES ? buf : buf.subarray(at, Math.min(buf.length, at + PIECE_BYTES));
        stats.bytes += piece.length;
        yield piece;
      }
    }
  } finally {
    // Early exit (error, limit, consumer stopped): release the underlying stream.
    try {
      await iterator.return?.();
    } catch {
      /* the stream is already failing; nothing more to release */
    }
    const s = stream as { destroy?: () => void; destroyed?: boolean };
    if (typeof s?.destroy === 'function' && !s.destroyed) {
      try {
        s.destroy();
      } catch {
        /* ignore */
      }
    }
  }
}
