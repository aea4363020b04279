/** Payload files for the import engine's tests, built from bytes. */
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
