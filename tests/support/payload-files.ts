/** Payload files for the import engine's tests: from strings and buffers, cut into pieces, or generated. */
import { Readable } from 'stream';
import type { PayloadFile } from '../../backend-emulator/import-engine';

/**
 * A payload file whose stream delivers `bytes` cut at the given offsets (taken modulo the length,
 * deduplicated): readers must give the same result however their input arrives.
 */
export function chunkedFile(name: string, bytes: Uint8Array, cuts: number[] = []): PayloadFile {
  const buf = Buffer.from(bytes);
  const points = [...new Set(cuts.map((c) => c % (buf.length + 1)))].sort((a, b) => a - b);
  return {
    name,
    size: buf.length,
    open: () => {
      const parts: Buffer[] = [];
      let at = 0;
      for (const p of [...points, buf.length]) {
        if (p > at) parts.push(buf.subarray(at, p));
        at = Math.max(at, p);
      }
      return Readable.from(parts);
    },
  };
}

/** A payload file over fixed content, delivered in chunks of `chunk` bytes (default: one chunk). */
export function memFile(name: string, content: string | Buffer, chunk?: number): PayloadFile {
  const buf = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return {
    name,
    size: buf.length,
    open: () => {
      if (!chunk) return Readable.from([buf]);
      const parts: Buffer[] = [];
      for (let at = 0; at < buf.length; at += chunk) parts.push(buf.subarray(at, at + chunk));
      return Readable.from(parts);
    },
  };
}

/** A payload file over bytes in memory, opened as a stream of 64 KiB pieces. */
export function bufferFile(name: string, data: Buffer | string): PayloadFile {
  return memFile(name, data, 64 * 1024);
}

/** A generated stream: `head`, then `count` repetitions of `unit`, then `tail`, produced lazily. */
export function generatedFile(name: string, head: string, unit: Buffer | string, count: number, tail = ''): PayloadFile {
  const u = typeof unit === 'string' ? Buffer.from(unit) : unit;
  return {
    name,
    open: () => {
      let i = -1;
      return new Readable({
        read() {
          if (i === -1) this.push(Buffer.from(head));
          else if (i < count) this.push(u);
          else if (i === count) this.push(Buffer.from(tail));
          else this.push(null);
          i++;
        },
      });
    },
  };
}
