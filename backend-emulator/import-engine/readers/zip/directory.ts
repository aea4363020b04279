/**
 * Reads a zip archive's central directory (with ZIP64 records) into its entries, refusing what a
 * workbook or an import archive never needs and what zip bombs rely on: legacy OLE files, multi-disk
 * archives, too many entries, encrypted entries, duplicate names and overlapping entries. It reads
 * only the directory and local headers; the entries' bytes are inflated by inflate.ts.
 */
import { MemoryZipSource, type ZipSource } from '../zip-source';
import type { ZipDialect } from './errors';
import type { ZipLimits } from './limits';

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
  /** Offset of the entry's data, resolved from its local header. */
  dataOffset: number;
}

const SIG_EOCD = 0x06054b50;
const SIG_EOCD64 = 0x06064b50;
const SIG_EOCD64_LOCATOR = 0x07064b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_LOCAL = 0x04034b50;

function readU64(buf: Buffer, at: number, d: ZipDialect): number {
  const v = buf.readBigUInt64LE(at);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw d.fail('the zip archive declares an impossible size', 'CORRUPT_ZIP');
  return Number(v);
}

/** A Buffer as a ZipSource (tests and callers holding a whole workbook). */
export function zipSourceOf(input: Buffer | ZipSource): ZipSource {
  return Buffer.isBuffer(input) ? new MemoryZipSource([input]) : input;
}

/**
 * Parses the central directory of the archive, in its order. Keys are the entry names, lower-cased
 * when the dialect is case-blind (OPC part names ignore case). Directories are left out.
 */
export function readZipDirectory(input: Buffer | ZipSource, limits: ZipLimits, d: ZipDialect): Map<string, ZipEntry> {
  const bytes = zipSourceOf(input);
  const total = bytes.length;
  const head = bytes.range(0, 8);
  if (d.oleMessage && head.length >= 8 && head.readUInt32BE(0) === 0xd0cf11e0 && head.readUInt32BE(4) === 0xa1b11ae1) {
    throw d.fail(d.oleMessage, 'LEGACY_OR_ENCRYPTED');
  }
  if (total < 22 || head.readUInt32LE(0) !== SIG_LOCAL) throw d.fail(d.notZip, 'NOT_A_ZIP');
  // End of central directory: the last 22 bytes plus at most a 65,535-byte comment.
  const tailStart = Math.max(0, total - 22 - 65535);
  const tail = bytes.range(tailStart, total);
  let e = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail[i] === 0x50 && tail.readUInt32LE(i) === SIG_EOCD) {
      e = i;
      break;
    }
  }
  if (e < 0) throw d.fail('the zip archive is truncated or corrupt: no end of central directory', 'CORRUPT_ZIP');
  const eocd = tailStart + e;
  const diskNo = tail.readUInt16LE(e + 4);
  const cdDisk = tail.readUInt16LE(e + 6);
  let count = tail.readUInt16LE(e + 10);
  let cdSize = tail.readUInt32LE(e + 12);
  let cdOffset = tail.readUInt32LE(e + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    const loc = eocd - 20;
    const locator = bytes.range(loc, loc + 20);
    if (loc < 0 || locator.length < 20 || locator.readUInt32LE(0) !== SIG_EOCD64_LOCATOR) {
      throw d.fail('the zip archive is corrupt: a Zip64 end of central directory is announced but missing', 'CORRUPT_ZIP');
    }
    const at = readU64(locator, 8, d);
    const rec = bytes.range(at, at + 56);
    if (rec.length < 56 || rec.readUInt32LE(0) !== SIG_EOCD64) {
      throw d.fail('the zip archive is corrupt: bad Zip64 end of central directory', 'CORRUPT_ZIP');
    }
    count = readU64(rec, 32, d);
    cdSize = readU64(rec, 40, d);
    cdOffset = readU64(rec, 48, d);
  }
  if (diskNo !== 0 || cdDisk !== 0) throw d.fail('multi-part (spanned) zip archives are not supported', 'UNSUPPORTED_ZIP');
  if (count > limits.maxEntries) {
    throw d.fail(`the archive holds ${count} entries, more than the ${limits.maxEntries} accepted`, 'TOO_LARGE');
  }
  if (cdOffset + cdSize > total) throw d.fail('the zip archive is truncated: the central directory lies past its end', 'CORRUPT_ZIP');

  const cd = bytes.range(cdOffset, cdOffset + cdSize);
  const entries = new Map<string, ZipEntry>();
  const spans: Array<[number, number]> = [];
  let p = 0;
  for (let n = 0; n < count; n++) {
    if (p + 46 > cd.length || cd.readUInt32LE(p) !== SIG_CENTRAL) {
      throw d.fail('the zip archive is corrupt: bad central directory entry', 'CORRUPT_ZIP');
    }
    const flags = cd.readUInt16LE(p + 8);
    const method = cd.readUInt16LE(p + 10);
    const crc = cd.readUInt32LE(p + 16);
    let csize = cd.readUInt32LE(p + 20);
    let usize = cd.readUInt32LE(p + 24);
    const nameLen = cd.readUInt16LE(p + 28);
    const extraLen = cd.readUInt16LE(p + 30);
    const commentLen = cd.readUInt16LE(p + 32);
    let offset = cd.readUInt32LE(p + 42);
    const nameEnd = p + 46 + nameLen;
    if (nameEnd + extraLen + commentLen > cd.length) throw d.fail('the zip archive is corrupt: entry runs past the end', 'CORRUPT_ZIP');
    const name = cd.toString((flags & 0x800) !== 0 ? 'utf8' : 'latin1', p + 46, nameEnd);
    // Zip64 extended information: the 64-bit values of the fields that hold 0xFFFFFFFF, in order.
    if (usize === 0xffffffff || csize === 0xffffffff || offset === 0xffffffff) {
      let x = nameEnd;
      const extraEnd = nameEnd + extraLen;
      let found = false;
      while (x + 4 <= extraEnd) {
        const id = cd.readUInt16LE(x);
        const size = cd.readUInt16LE(x + 2);
        if (id === 0x0001) {
          let q = x + 4;
          const end = q + size;
          // The ZIP64 extra field holds, in this order, only the sizes the entry marked 0xffffffff.
          if (usize === 0xffffffff && q + 8 <= end) {
            usize = readU64(cd, q, d);
            q += 8;
          }
          if (csize === 0xffffffff && q + 8 <= end) {
            csize = readU64(cd, q, d);
            q += 8;
          }
          if (offset === 0xffffffff && q + 8 <= end) offset = readU64(cd, q, d);
          found = true;
          break;
        }
        x += 4 + size;
      }
      if (!found) throw d.fail(`the zip archive is corrupt: entry ${name} lacks its Zip64 sizes`, 'CORRUPT_ZIP');
    }
    p = nameEnd + extraLen + commentLen;
    if (name.endsWith('/')) continue; // a directory
    const key = d.caseBlind ? name.toLowerCase() : name;
    if (entries.has(key)) throw d.fail(`the zip archive holds the ${d.member} ${name} twice`, 'CORRUPT_ZIP');
    if ((flags & 0x1) !== 0) throw d.fail(`the ${d.member} ${name} is encrypted: ${d.encryptedHint}`, 'LEGACY_OR_ENCRYPTED');
    const local = bytes.range(offset, offset + 30);
    if (local.length < 30 || local.readUInt32LE(0) !== SIG_LOCAL) {
      throw d.fail(`the zip archive is corrupt: bad local header for ${name}`, 'CORRUPT_ZIP');
    }
    const dataOffset = offset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
    if (dataOffset + csize > total) throw d.fail(`the zip archive is truncated: ${name} runs past its end`, 'CORRUPT_ZIP');
    spans.push([offset, dataOffset + csize]);
    entries.set(key, { name, method, flags, crc32: crc, compressedSize: csize, uncompressedSize: usize, localHeaderOffset: offset, dataOffset });
  }
  // Overlapping entries (one compressed stream shared by many names) are a known zip-bomb trick.
  spans.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i][0] < spans[i - 1][1]) throw d.fail('the zip archive is corrupt: entries overlap', 'CORRUPT_ZIP');
  }
  return entries;
}
