/**
 * Inflates one zip entry as a stream of bounded pieces, never whole: the declared size, the
 * per-entry cap and the zip's total cap are enforced as bytes come out (an entry lying about
 * its size is stopped one byte past its claim), and the CRC-32 is checked at the end.
 */
import * as zlib from 'node:zlib';
import type { ZipSource } from '../zip-source';
import { ZipError, type ZipDialect } from './errors';
import { mib, type ZipLimits } from './limits';
import type { ZipEntry } from './directory';

/** Tracks the inflated bytes of one zip (a workbook, one read of an archive) against its total cap. */
export class InflateBudget<L extends ZipLimits = ZipLimits> {
  used = 0;
  constructor(
    readonly limits: L,
    readonly dialect: ZipDialect,
  ) {}
}

const PIECE = 256 * 1024;

/**
 * Inflates one entry as a stream of Buffers of at most 256 KiB, enforcing the declared size, the
 * per-entry cap and the workbook's total cap, and checking the CRC-32 at the end.
 */
export async function* inflateEntry(zip: ZipSource, entry: ZipEntry, budget: InflateBudget): AsyncGenerator<Buffer> {
  const { limits, dialect: d } = budget;
  const label = entry.name;
  if (entry.uncompressedSize > limits.maxEntryBytes) {
    throw d.fail(
      `${label} would inflate to ${entry.uncompressedSize} bytes, more than the ${mib(limits.maxEntryBytes)} accepted for one ${d.member} (zip bomb?)`,
      'TOO_LARGE',
    );
  }
  if (budget.used + entry.uncompressedSize > limits.maxTotalBytes) {
    throw d.fail(`${d.whole} would inflate to more than the ${mib(limits.maxTotalBytes)} accepted in total (zip bomb?)`, 'TOO_LARGE');
  }
  const pieces = (): Iterable<Buffer> => zip.views(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  const cap = entry.uncompressedSize;
  let produced = 0;
  let crc = 0;
  const take = (out: Buffer): void => {
    produced += out.length;
    budget.used += out.length;
    if (produced > cap) {
      throw d.fail(`${label} inflates past the ${cap} bytes its zip header declares: the archive is corrupt or hostile (zip bomb?)`, 'TOO_LARGE');
    }
    crc = zlib.crc32(out, crc);
  };
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.uncompressedSize) throw d.fail(`the zip archive is corrupt: stored ${d.member} ${label} has two sizes`, 'CORRUPT_ZIP');
    for (const data of pieces()) {
      for (let at = 0; at < data.length; at += PIECE) {
        const out = data.subarray(at, Math.min(data.length, at + PIECE));
        take(out);
        yield out;
      }
    }
  } else if (entry.method === 8) {
    const inflater = zlib.createInflateRaw({ chunkSize: PIECE });
    const feed = (async () => {
      for (const data of pieces()) {
        for (let at = 0; at < data.length; at += PIECE) {
          if (inflater.destroyed) return;
          const ok = inflater.write(data.subarray(at, Math.min(data.length, at + PIECE)));
          if (!ok) {
            await new Promise<void>((resolve) => {
              const done = (): void => {
                inflater.off('drain', done);
                inflater.off('close', done);
                resolve();
              };
              inflater.once('drain', done);
              inflater.once('close', done);
            });
          }
        }
      }
      if (!inflater.destroyed) inflater.end();
    })();
    feed.catch(() => undefined);
    try {
      for await (const out of inflater as AsyncIterable<Buffer>) {
        take(out);
        yield out;
      }
    } catch (e) {
      if (e instanceof ZipError) throw e;
      throw d.fail(`${label} cannot be inflated: ${(e as Error).message}`, 'CORRUPT_ZIP');
    } finally {
      if (!inflater.destroyed) inflater.destroy();
    }
  } else {
    throw d.fail(`${label} uses zip compression method ${entry.method}; only stored and deflated ${d.members} are supported`, 'UNSUPPORTED_ZIP');
  }
  if (produced !== cap) {
    throw d.fail(`${label} inflates to ${produced} bytes but its zip header declares ${cap}: the archive is corrupt`, 'CORRUPT_ZIP');
  }
  if (crc >>> 0 !== entry.crc32 >>> 0) throw d.fail(`${label} fails its CRC-32 check: the archive is corrupt`, 'CORRUPT_ZIP');
}
