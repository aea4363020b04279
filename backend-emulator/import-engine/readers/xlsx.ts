/**
 * The streaming XLSX (Office Open XML workbook) reader.
 *
 * Why not exceljs' WorkbookReader: it inflates zip entries through `unzipper` with no bound on the
 * inflated size (a zip bomb fills memory or the temp directory), it spools every worksheet that
 * precedes `sharedStrings.xml` in the archive to a temp file (Excel writes the sheets first), and it
 * finds sheets by the `sheetN.xml` naming convention instead of the workbook's relationships. This
 * reader keeps exceljs' model (stream the sheet XML, deliver rows) with every bound explicit:
 *
 * 1. Zip: the workbook's compressed bytes are kept as the pieces they arrived in (never joined),
 *    in memory up to 8 MiB and in an unlinked temp file beyond (zip-source.ts), and read through
 *    the central directory. The pipeline's `maxFileBytes` (100 MiB by default) bounds them. Only stored and deflated entries are accepted; encrypted, multi-disk and
 *    overlapping entries are refused.
 * 2. Inflate: each entry is inflated as a stream of 256 KiB pieces, never whole. Its inflated size may
 *    not exceed what the central directory declares, the per-entry cap (`maxEntryBytes`) nor the
 *    workbook's remaining total (`maxTotalBytes`); an entry declaring more than a cap is refused
 *    before a byte is inflated, an entry lying about its size is stopped one byte past its claim.
 *    The CRC-32 is checked.
 * 3. XML: a small pull scanner that understands exactly what SpreadsheetML needs (elements,
 *    attributes, text, CDATA, comments, the five predefined entities and character references).
 *    A DOCTYPE (and so any ENTITY declaration) is refused: no entity is ever expanded. Text held for
 *    one value and any unfinished markup are bounded (`maxTokenChars`).
 * 4. Sheets are read in the order the caller asks (`sheetOrder`), unrequested sheets are never
 *    inflated. Each sheet is inflated twice: a fast byte scan (caps, CRC, merged ranges, which come
 *    after the rows in the XML; remembered for the pipeline's later passes over the same workbook)
 *    and the row pass. Rows are delivered in batches with the sheet's own row numbers; empty rows
 *    are skipped, a row holding more text than `maxRowBytes` is skipped with an ERROR. Shared strings, inline strings, booleans, numbers,
 *    date-formatted numbers (as `Date`, 1900 and 1904 systems), ISO dates and error values are
 *    decoded; a formula cell gives its cached value with a WARNING.
 */
import { TextDecoder } from 'node:util';
import * as zlib from 'node:zlib';
import { isEmptyCell, normaliseHeader } from '../columns';
import { error, info, warning, type ImportError } from '../report';
import { MemoryZipSource, SPOOL_THRESHOLD_BYTES, collectZip, type ZipSource } from './zip-source';
import { sharedStringBuilder, type SharedStringTable } from './shared-strings';
import type { CellValue, Reader, ReaderContext, ReaderEvent, ReaderRowIssue } from '../types';

// ---------------------------------------------------------------------------------------------
// Limits and errors
// ---------------------------------------------------------------------------------------------

export interface XlsxLimits {
  /** Largest inflated size of one zip entry (a sheet, the shared strings). Default 1 GiB. */
  maxEntryBytes: number;
  /** Largest inflated size of all entries read from one workbook, both passes counted once. Default 2 GiB. */
  maxTotalBytes: number;
  /** Most entries in the archive. Default 10,000. */
  maxEntries: number;
  /** Longest unfinished markup or text value held while scanning, in characters. Default 1 MiB. */
  maxTokenChars: number;
  /** Most shared strings. Default 10,000,000. */
  maxSharedStrings: number;
  /** Largest inflated shared strings part: the strings are held while the sheets are read. Default 256 MiB. */
  maxSharedStringsBytes: number;
  /** A shared strings part inflating to more than this is held in a temp file, not memory. Default 8 MiB. */
  spoolSharedStringsAboveBytes: number;
}

export const DEFAULT_XLSX_LIMITS: XlsxLimits = {
  maxEntryBytes: 1024 * 1024 * 1024,
  maxTotalBytes: 2 * 1024 * 1024 * 1024,
  maxEntries: 10_000,
  maxTokenChars: 1024 * 1024,
  maxSharedStrings: 10_000_000,
  maxSharedStringsBytes: 256 * 1024 * 1024,
  spoolSharedStringsAboveBytes: 8 * 1024 * 1024,
};

export type XlsxErrorCode = 'NOT_A_WORKBOOK' | 'LEGACY_OR_ENCRYPTED' | 'CORRUPT_ZIP' | 'UNSUPPORTED_ZIP' | 'TOO_LARGE' | 'BAD_XML' | 'DOCTYPE' | 'MISSING_PART';

/** A problem with the workbook as a whole; the reader turns it into a file error. */
export class XlsxError extends Error {
  constructor(
    message: string,
    readonly code: XlsxErrorCode,
  ) {
    super(message);
    this.name = 'XlsxError';
  }
}

function mib(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  return `${n} bytes`;
}

// ---------------------------------------------------------------------------------------------
// Zip (central directory, stored and deflated entries)
// ---------------------------------------------------------------------------------------------

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

function readU64(buf: Buffer, at: number): number {
  const v = buf.readBigUInt64LE(at);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new XlsxError('the zip archive declares an impossible size', 'CORRUPT_ZIP');
  return Number(v);
}

/** The table of a workbook without shared strings. */
const EMPTY_TABLE: SharedStringTable = { count: 0, get: () => undefined, close: () => undefined };

/** A Buffer as a ZipSource (tests and callers holding a whole workbook). */
function zipSourceOf(input: Buffer | ZipSource): ZipSource {
  return Buffer.isBuffer(input) ? new MemoryZipSource([input]) : input;
}

/** Parses the central directory of the archive. Keys are lower-cased entry names (OPC part names ignore case). */
export function readZipDirectory(input: Buffer | ZipSource, limits: XlsxLimits): Map<string, ZipEntry> {
  const bytes = zipSourceOf(input);
  const total = bytes.length;
  const head = bytes.range(0, 8);
  if (head.length >= 8 && head.readUInt32BE(0) === 0xd0cf11e0 && head.readUInt32BE(4) === 0xa1b11ae1) {
    throw new XlsxError(
      'the file is a legacy .xls workbook or a password-protected workbook (an OLE compound file), not an .xlsx: save it as an unprotected .xlsx',
      'LEGACY_OR_ENCRYPTED',
    );
  }
  if (total < 22 || head.readUInt32LE(0) !== SIG_LOCAL) {
    throw new XlsxError('the file is not an .xlsx workbook (not a zip archive)', 'NOT_A_WORKBOOK');
  }
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
  if (e < 0) throw new XlsxError('the zip archive is truncated or corrupt: no end of central directory', 'CORRUPT_ZIP');
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
      throw new XlsxError('the zip archive is corrupt: a Zip64 end of central directory is announced but missing', 'CORRUPT_ZIP');
    }
    const at = readU64(locator, 8);
    const rec = bytes.range(at, at + 56);
    if (rec.length < 56 || rec.readUInt32LE(0) !== SIG_EOCD64) {
      throw new XlsxError('the zip archive is corrupt: bad Zip64 end of central directory', 'CORRUPT_ZIP');
    }
    count = readU64(rec, 32);
    cdSize = readU64(rec, 40);
    cdOffset = readU64(rec, 48);
  }
  if (diskNo !== 0 || cdDisk !== 0) throw new XlsxError('multi-part (spanned) zip archives are not supported', 'UNSUPPORTED_ZIP');
  if (count > limits.maxEntries) {
    throw new XlsxError(`the archive holds ${count} entries, more than the ${limits.maxEntries} accepted`, 'TOO_LARGE');
  }
  if (cdOffset + cdSize > total) throw new XlsxError('the zip archive is truncated: the central directory lies past its end', 'CORRUPT_ZIP');

  const cd = bytes.range(cdOffset, cdOffset + cdSize);
  const entries = new Map<string, ZipEntry>();
  const spans: Array<[number, number]> = [];
  let p = 0;
  for (let n = 0; n < count; n++) {
    if (p + 46 > cd.length || cd.readUInt32LE(p) !== SIG_CENTRAL) {
      throw new XlsxError('the zip archive is corrupt: bad central directory entry', 'CORRUPT_ZIP');
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
    if (nameEnd + extraLen + commentLen > cd.length) throw new XlsxError('the zip archive is corrupt: entry runs past the end', 'CORRUPT_ZIP');
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
            usize = readU64(cd, q);
            q += 8;
          }
          if (csize === 0xffffffff && q + 8 <= end) {
            csize = readU64(cd, q);
            q += 8;
          }
          if (offset === 0xffffffff && q + 8 <= end) offset = readU64(cd, q);
          found = true;
          break;
        }
        x += 4 + size;
      }
      if (!found) throw new XlsxError(`the zip archive is corrupt: entry ${name} lacks its Zip64 sizes`, 'CORRUPT_ZIP');
    }
    p = nameEnd + extraLen + commentLen;
    if (name.endsWith('/')) continue; // a directory
    const key = name.toLowerCase();
    if (entries.has(key)) throw new XlsxError(`the zip archive holds the part ${name} twice`, 'CORRUPT_ZIP');
    if ((flags & 0x1) !== 0) throw new XlsxError(`the part ${name} is encrypted: save the workbook without a password`, 'LEGACY_OR_ENCRYPTED');
    const local = bytes.range(offset, offset + 30);
    if (local.length < 30 || local.readUInt32LE(0) !== SIG_LOCAL) {
      throw new XlsxError(`the zip archive is corrupt: bad local header for ${name}`, 'CORRUPT_ZIP');
    }
    const dataOffset = offset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
    if (dataOffset + csize > total) throw new XlsxError(`the zip archive is truncated: ${name} runs past its end`, 'CORRUPT_ZIP');
    spans.push([offset, dataOffset + csize]);
    entries.set(key, { name, method, flags, crc32: crc, compressedSize: csize, uncompressedSize: usize, localHeaderOffset: offset, dataOffset });
  }
  // Overlapping entries (one compressed stream shared by many names) are a known zip-bomb trick.
  spans.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i][0] < spans[i - 1][1]) throw new XlsxError('the zip archive is corrupt: entries overlap', 'CORRUPT_ZIP');
  }
  return entries;
}

/** Tracks the inflated bytes of one workbook against its total cap. */
export class InflateBudget {
  used = 0;
  constructor(readonly limits: XlsxLimits) {}
}

const PIECE = 256 * 1024;

/**
 * Inflates one entry as a stream of Buffers of at most 256 KiB, enforcing the declared size, the
 * per-entry cap and the workbook's total cap, and checking the CRC-32 at the end.
 */
export async function* inflateEntry(zip: ZipSource, entry: ZipEntry, budget: InflateBudget): AsyncGenerator<Buffer> {
  const { limits } = budget;
  const label = entry.name;
  if (entry.uncompressedSize > limits.maxEntryBytes) {
    throw new XlsxError(
      `${label} would inflate to ${entry.uncompressedSize} bytes, more than the ${mib(limits.maxEntryBytes)} accepted for one part (zip bomb?)`,
      'TOO_LARGE',
    );
  }
  if (budget.used + entry.uncompressedSize > limits.maxTotalBytes) {
    throw new XlsxError(`the workbook would inflate to more than the ${mib(limits.maxTotalBytes)} accepted in total (zip bomb?)`, 'TOO_LARGE');
  }
  const pieces = (): Iterable<Buffer> => zip.views(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  const cap = entry.uncompressedSize;
  let produced = 0;
  let crc = 0;
  const take = (out: Buffer): void => {
    produced += out.length;
    budget.used += out.length;
    if (produced > cap) {
      throw new XlsxError(`${label} inflates past the ${cap} bytes its zip header declares: the archive is corrupt or hostile (zip bomb?)`, 'TOO_LARGE');
    }
    crc = zlib.crc32(out, crc);
  };
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.uncompressedSize) throw new XlsxError(`the zip archive is corrupt: stored part ${label} has two sizes`, 'CORRUPT_ZIP');
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
      if (e instanceof XlsxError) throw e;
      throw new XlsxError(`${label} cannot be inflated: ${(e as Error).message}`, 'CORRUPT_ZIP');
    } finally {
      if (!inflater.destroyed) inflater.destroy();
    }
  } else {
    throw new XlsxError(`${label} uses zip compression method ${entry.method}; only stored and deflated parts are supported`, 'UNSUPPORTED_ZIP');
  }
  if (produced !== cap) {
    throw new XlsxError(`${label} inflates to ${produced} bytes but its zip header declares ${cap}: the archive is corrupt`, 'CORRUPT_ZIP');
  }
  if (crc >>> 0 !== entry.crc32 >>> 0) throw new XlsxError(`${label} fails its CRC-32 check: the archive is corrupt`, 'CORRUPT_ZIP');
}

/** Decodes the inflated pieces as UTF-8 text (UTF-16 when a byte order mark says so). */
async function* decodeText(pieces: AsyncIterable<Buffer>, label: string): AsyncGenerator<string> {
  let decoder: TextDecoder | undefined;
  for await (const piece of pieces) {
    if (!decoder) {
      const utf16 = piece.length >= 2 && ((piece[0] === 0xff && piece[1] === 0xfe) || (piece[0] === 0xfe && piece[1] === 0xff));
      decoder = new TextDecoder(utf16 ? (piece[0] === 0xff ? 'utf-16le' : 'utf-16be') : 'utf-8', { fatal: true });
    }
    let text: string;
    try {
      text = decoder.decode(piece, { stream: true });
    } catch {
      throw new XlsxError(`${label} is not valid UTF-8 text`, 'BAD_XML');
    }
    if (text.length > 0) yield text;
  }
  if (decoder) {
    let tail: string;
    try {
      tail = decoder.decode();
    } catch {
      throw new XlsxError(`${label} is not valid UTF-8 text`, 'BAD_XML');
    }
    if (tail.length > 0) yield tail;
  }
}

// ---------------------------------------------------------------------------------------------
// XML pull scanner
// ---------------------------------------------------------------------------------------------

export interface XmlHandler {
  /**
   * `name` is the local name (prefix removed); the raw attribute text is `src.slice(from, to)`
   * (given as a range so that handlers which ignore attributes, or read them in place, allocate
   * nothing).
   */
  open(name: string, src: string, from: number, to: number, selfClosing: boolean): void;
  close(name: string): void;
  /** Text (entities decoded) is delivered only while `wantText()` is true. */
  wantText(): boolean;
  text(value: string): void;
}

const ENTITY = /&(?:#(\d{1,7})|#x([0-9a-fA-F]{1,6})|(lt|gt|amp|quot|apos));|&/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes the predefined entities and character references; any other `&` is a file error. */
export function decodeEntities(s: string, where: string): string {
  if (s.indexOf('&') === -1) return s;
  return s.replace(ENTITY, (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name) return NAMED[name];
    if (dec !== undefined || hex !== undefined) {
      const cp = dec !== undefined ? parseInt(dec, 10) : parseInt(hex!, 16);
      if (cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
        throw new XlsxError(`${where} holds an invalid character reference ${whole}`, 'BAD_XML');
      }
      return String.fromCodePoint(cp);
    }
    throw new XlsxError(`${where} uses an undeclared entity or a bare "&": entities are never expanded`, 'BAD_XML');
  });
}

/** `_x000D_` escapes of SpreadsheetML strings. */
function decodeOoxmlEscapes(s: string): string {
  if (s.indexOf('_x') === -1) return s;
  return s.replace(/_x([0-9A-Fa-f]{4})_/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/**
 * The local name of the tag name at `s[from, to)`. The names of a sheet's cells and rows come back
 * as constants, without slicing.
 */
function tagName(s: string, from: number, to: number): string {
  const len = to - from;
  if (len === 1) {
    switch (s.charCodeAt(from)) {
      case 99:
        return 'c';
      case 118:
        return 'v';
      case 116:
        return 't';
      case 102:
        return 'f';
      case 114:
        return 'r';
      default:
        break;
    }
  } else if (len === 3 && s.charCodeAt(from) === 114 && s.charCodeAt(from + 1) === 111 && s.charCodeAt(from + 2) === 119) return 'row';
  else if (len === 2 && s.charCodeAt(from) === 105 && s.charCodeAt(from + 1) === 115) return 'is';
  return localName(s.slice(from, to));
}

function localName(qname: string): string {
  const c = qname.indexOf(':');
  return c === -1 ? qname : qname.slice(c + 1);
}

/** Reads one attribute from raw attribute text (`r="A1" t="s"`); undefined when absent. */
export function attr(attrs: string, name: string): string | undefined {
  let i = 0;
  const len = attrs.length;
  while (i < len) {
    const eq = attrs.indexOf('=', i);
    if (eq === -1) return undefined;
    const key = attrs.slice(i, eq).trim();
    let q = eq + 1;
    while (q < len && (attrs.charCodeAt(q) === 32 || attrs.charCodeAt(q) === 9 || attrs.charCodeAt(q) === 10 || attrs.charCodeAt(q) === 13)) q++;
    const quote = attrs[q];
    if (quote !== '"' && quote !== "'") return undefined;
    const end = attrs.indexOf(quote, q + 1);
    if (end === -1) return undefined;
    if (key === name || localName(key) === name) return decodeEntities(attrs.slice(q + 1, end), `attribute ${name}`);
    i = end + 1;
  }
  return undefined;
}

/** Finds the `>` closing a start tag, skipping quoted attribute values; -1 when not yet in `s`. */
function findTagEnd(s: string, from: number): number {
  const len = s.length;
  let i = from;
  while (i < len) {
    const c = s.charCodeAt(i);
    if (c === 62 /* > */) return i;
    if (c === 34 /* " */ || c === 39 /* ' */) {
      const close = s.indexOf(c === 34 ? '"' : "'", i + 1);
      if (close === -1) return -1;
      i = close + 1;
    } else i++;
  }
  return -1;
}

export class XmlScanner {
  private pending = '';
  private textParts: string[] = [];
  private textLen = 0;
  private started = false;

  constructor(
    private readonly handler: XmlHandler,
    private readonly where: string,
    private readonly maxTokenChars: number,
  ) {}

  private addText(raw: string, cdata: boolean): void {
    if (raw.length === 0 || !this.handler.wantText()) return;
    this.textLen += raw.length;
    if (this.textLen > this.maxTokenChars) {
      throw new XlsxError(`${this.where} holds a text value longer than ${this.maxTokenChars} characters`, 'TOO_LARGE');
    }
    this.textParts.push(cdata ? raw : decodeEntities(raw, this.where));
  }

  private flushText(): void {
    if (this.textParts.length === 0) return;
    const t = this.textParts.length === 1 ? this.textParts[0] : this.textParts.join('');
    this.textParts = [];
    this.textLen = 0;
    this.handler.text(t);
  }

  feed(chunk: string): void {
    let s = this.pending.length > 0 ? this.pending + chunk : chunk;
    this.pending = '';
    if (!this.started) {
      if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
      if (s.length > 0) this.started = true;
    }
    const h = this.handler;
    const len = s.length;
    let i = 0;
    while (i < len) {
      const lt = s.indexOf('<', i);
      if (lt === -1) {
        // Text up to the end of the chunk. Keep a possibly split entity (`&am`) for the next chunk.
        const amp = s.lastIndexOf('&');
        if (amp >= i && s.indexOf(';', amp) === -1 && len - amp < 12) {
          this.addText(s.slice(i, amp), false);
          this.pending = s.slice(amp);
        } else {
          this.addText(s.slice(i), false);
        }
        return;
      }
      if (lt > i) this.addText(s.slice(i, lt), false);
      if (lt + 1 >= len) {
        this.pending = s.slice(lt);
        return;
      }
      const c = s.charCodeAt(lt + 1);
      if (c === 47 /* / */) {
        const gt = s.indexOf('>', lt + 2);
        if (gt === -1) return this.keep(s, lt);
        this.flushText();
        const last = s.charCodeAt(gt - 1);
        const raw = s.slice(lt + 2, gt);
        h.close(localName(last <= 32 ? raw.trim() : raw));
        i = gt + 1;
      } else if (c === 63 /* ? */) {
        const end = s.indexOf('?>', lt + 2);
        if (end === -1) return this.keep(s, lt);
        i = end + 2;
      } else if (c === 33 /* ! */) {
        if (s.startsWith('<!--', lt)) {
          const end = s.indexOf('-->', lt + 4);
          if (end === -1) return this.keep(s, lt);
          i = end + 3;
        } else if (s.startsWith('<![CDATA[', lt)) {
          const end = s.indexOf(']]>', lt + 9);
          if (end === -1) return this.keep(s, lt);
          this.addText(s.slice(lt + 9, end), true);
          i = end + 3;
        } else if (len - lt < 9) {
          return this.keep(s, lt); // `<!-`, `<![CDA`, `<!DOC`: wait for the rest
        } else {
          throw new XlsxError(`${this.where} carries a DOCTYPE or other declaration (<!...>): document type and entity declarations are refused`, 'DOCTYPE');
        }
      } else {
        const gt = findTagEnd(s, lt + 1);
        if (gt === -1) return this.keep(s, lt);
        this.flushText();
        let end = gt;
        const selfClosing = s.charCodeAt(gt - 1) === 47;
        if (selfClosing) end = gt - 1;
        let n = lt + 1;
        while (n < end) {
          const ch = s.charCodeAt(n);
          if (ch === 32 || ch === 9 || ch === 10 || ch === 13) break;
          n++;
        }
        const name = tagName(s, lt + 1, n);
        h.open(name, s, n, n < end ? end : n, selfClosing);
        if (selfClosing) h.close(name);
        i = gt + 1;
      }
    }
  }

  private keep(s: string, from: number): void {
    if (s.length - from > this.maxTokenChars) {
      throw new XlsxError(`${this.where} holds markup longer than ${this.maxTokenChars} characters`, 'TOO_LARGE');
    }
    this.pending = s.slice(from);
  }

  end(): void {
    if (this.pending.trim().length > 0 && this.pending.indexOf('<') !== -1) {
      throw new XlsxError(`${this.where} ends in the middle of an element`, 'BAD_XML');
    }
    this.flushText();
  }
}

async function scanXml(zip: ZipSource, entry: ZipEntry, budget: InflateBudget, handler: XmlHandler): Promise<void> {
  const scanner = new XmlScanner(handler, entry.name, budget.limits.maxTokenChars);
  for await (const text of decodeText(inflateEntry(zip, entry, budget), entry.name)) scanner.feed(text);
  scanner.end();
}

// ---------------------------------------------------------------------------------------------
// Workbook parts: relationships, workbook, shared strings, styles
// ---------------------------------------------------------------------------------------------

export interface SheetInfo {
  name: string;
  /** Zip entry name of the sheet part. */
  part: string;
  state: 'visible' | 'hidden' | 'veryHidden';
}

interface Relationship {
  id: string;
  type: string;
  target: string;
}

function resolvePart(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/');
  parts.pop();
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

function relsPathOf(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

/** Custom number formats that show a date or a time: y, m, d, h or s outside quotes, brackets and escapes. */
export function isDateFormat(code: string): boolean {
  const stripped = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[(?:h+|m+|s+)\]/gi, 'h')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/_.|\*./g, '');
  return /[ymdhs]/i.test(stripped) && !/^[#0.,%\s;E+-]*$/i.test(stripped);
}

/** Built-in number formats that are dates or times (ECMA-376 part 1, 18.8.30, and the CJK ranges). */
function isBuiltinDateFormat(id: number): boolean {
  return (id >= 14 && id <= 22) || (id >= 27 && id <= 36) || (id >= 45 && id <= 47) || (id >= 50 && id <= 58);
}

/** Merged ranges of recently scanned sheets (see `prescanSheet`), least recently used first. */
const PRESCANS = new Map<string, string[]>();

export class XlsxWorkbook {
  readonly sheets: SheetInfo[] = [];
  date1904 = false;
  sharedStrings: SharedStringTable = EMPTY_TABLE;
  /** Per cell style index (`s`): true when its number format shows a date. */
  dateStyles: boolean[] = [];
  readonly budget: InflateBudget;
  private sharedStringsPart?: string;
  private stylesPart?: string;

  private constructor(
    readonly zip: ZipSource,
    readonly entries: Map<string, ZipEntry>,
    readonly limits: XlsxLimits,
  ) {
    this.budget = new InflateBudget(limits);
  }

  static async open(input: Buffer | ZipSource, limits: XlsxLimits = DEFAULT_XLSX_LIMITS): Promise<XlsxWorkbook> {
    const zip = zipSourceOf(input);
    const wb = new XlsxWorkbook(zip, readZipDirectory(zip, limits), limits);
    await wb.load();
    return wb;
  }

  entry(part: string): ZipEntry | undefined {
    return this.entries.get(part.toLowerCase());
  }

  private async rels(part: string): Promise<Relationship[]> {
    const e = this.entry(relsPathOf(part));
    if (!e) return [];
    const out: Relationship[] = [];
    await scanXml(this.zip, e, this.budget, {
      open: (name, src, from, to) => {
        const attrs = src.slice(from, to);
        if (name === 'Relationship') {
          const mode = attr(attrs, 'TargetMode');
          if (mode === 'External') return;
          out.push({ id: attr(attrs, 'Id') ?? '', type: attr(attrs, 'Type') ?? '', target: attr(attrs, 'Target') ?? '' });
        }
      },
      close: () => undefined,
      wantText: () => false,
      text: () => undefined,
    });
    return out;
  }

  private async load(): Promise<void> {
    const root = await this.rels('');
    const doc = root.find((r) => r.type.endsWith('/officeDocument'));
    const workbookPart = doc ? resolvePart('', doc.target) : 'xl/workbook.xml';
    const wbEntry = this.entry(workbookPart);
    if (!wbEntry) throw new XlsxError('the archive is not a workbook: it has no xl/workbook.xml part', 'MISSING_PART');
    const rels = await this.rels(workbookPart);
    const byId = new Map(rels.map((r) => [r.id, r]));
    const declared: Array<{ name: string; rid: string; state: string }> = [];
    await scanXml(this.zip, wbEntry, this.budget, {
      open: (name, src, from, to) => {
        if (name !== 'sheet' && name !== 'workbookPr') return;
        const attrs = src.slice(from, to);
        if (name === 'sheet') {
          declared.push({ name: attr(attrs, 'name') ?? '', rid: attr(attrs, 'id') ?? '', state: attr(attrs, 'state') ?? 'visible' });
        } else if (name === 'workbookPr') {
          const d = attr(attrs, 'date1904');
          this.date1904 = d === '1' || d === 'true';
        }
      },
      close: () => undefined,
      wantText: () => false,
      text: () => undefined,
    });
    for (const d of declared) {
      const rel = byId.get(d.rid);
      // Chart sheets and dialog sheets have other relationship types: they hold no rows.
      if (!rel || !rel.type.endsWith('/worksheet')) continue;
      const state = d.state === 'hidden' || d.state === 'veryHidden' ? d.state : 'visible';
      this.sheets.push({ name: d.name, part: resolvePart(workbookPart, rel.target), state });
    }
    const ss = rels.find((r) => r.type.endsWith('/sharedStrings'));
    this.sharedStringsPart = ss ? resolvePart(workbookPart, ss.target) : this.entry('xl/sharedStrings.xml') ? 'xl/sharedStrings.xml' : undefined;
    const st = rels.find((r) => r.type.endsWith('/styles'));
    this.stylesPart = st ? resolvePart(workbookPart, st.target) : this.entry('xl/styles.xml') ? 'xl/styles.xml' : undefined;
  }

  /** Reads the shared strings and the date styles; call once before reading sheets. */
  async loadStringsAndStyles(): Promise<void> {
    if (this.stylesPart) {
      const e = this.entry(this.stylesPart);
      if (e) await this.loadStyles(e);
    }
    if (this.sharedStringsPart) {
      const e = this.entry(this.sharedStringsPart);
      if (e && e.uncompressedSize > this.limits.maxSharedStringsBytes) {
        throw new XlsxError(
          `the shared strings part would inflate to ${e.uncompressedSize} bytes, more than the ${mib(this.limits.maxSharedStringsBytes)} accepted (they are held while the sheets are read)`,
          'TOO_LARGE',
        );
      }
      if (e) await this.loadSharedStrings(e);
    }
  }

  private async loadStyles(e: ZipEntry): Promise<void> {
    const custom = new Map<number, boolean>();
    const xfFormats: number[] = [];
    let inCellXfs = false;
    await scanXml(this.zip, e, this.budget, {
      open: (name, src, from, to) => {
        const attrs = name === 'numFmt' || name === 'xf' ? src.slice(from, to) : '';
        if (name === 'numFmt') {
          const id = Number(attr(attrs, 'numFmtId'));
          if (Number.isInteger(id)) custom.set(id, isDateFormat(attr(attrs, 'formatCode') ?? ''));
        } else if (name === 'cellXfs') inCellXfs = true;
        else if (name === 'xf' && inCellXfs) xfFormats.push(Number(attr(attrs, 'numFmtId') ?? '0'));
      },
      close: (name) => {
        if (name === 'cellXfs') inCellXfs = false;
      },
      wantText: () => false,
      text: () => undefined,
    });
    this.dateStyles = xfFormats.map((id) => (custom.has(id) ? custom.get(id)! : isBuiltinDateFormat(id)));
  }

  /** Reads the shared strings into a table held until the last sheet is read (see shared-strings.ts). */
  private async loadSharedStrings(e: ZipEntry): Promise<void> {
    const out = sharedStringBuilder(e.uncompressedSize, this.limits.spoolSharedStringsAboveBytes);
    let depthSi = false;
    let inT = false;
    let inRPh = 0;
    let parts: string[] = [];
    const max = this.limits.maxSharedStrings;
    await scanXml(this.zip, e, this.budget, {
      open: (name, _src, _from, _to, selfClosing) => {
        if (name === 'si') {
          depthSi = true;
          parts = [];
        } else if (name === 't' && depthSi && inRPh === 0 && !selfClosing) inT = true;
        else if (name === 'rPh' && !selfClosing) inRPh++;
      },
      close: (name) => {
        if (name === 't') inT = false;
        else if (name === 'rPh') inRPh = Math.max(0, inRPh - 1);
        else if (name === 'si') {
          depthSi = false;
          if (out.count >= max) throw new XlsxError(`the workbook holds more than ${max} shared strings`, 'TOO_LARGE');
          out.push(decodeOoxmlEscapes(parts.length === 1 ? parts[0] : parts.join('')));
          parts = [];
        }
      },
      wantText: () => inT,
      text: (t) => {
        parts.push(t);
      },
    }).catch((err: unknown) => {
      out.abort();
      throw err;
    });
    this.sharedStrings = out.finish();
  }

  /** Releases what the workbook holds outside memory (a spooled shared-string table). */
  close(): void {
    this.sharedStrings.close();
  }

  /** A fast byte-level pass over a sheet: enforces the caps and the CRC, and collects merged ranges. */
  async prescanSheet(sheet: SheetInfo): Promise<{ merges: string[] }> {
    const e = this.entry(sheet.part);
    if (!e) throw new XlsxError(`the sheet "${sheet.name}" has no part ${sheet.part} in the archive`, 'MISSING_PART');
    // The import pipeline reads a workbook up to three times (validation, then the two join passes
    // of execution): a sheet scanned once is not scanned again. The key binds the part's name,
    // sizes, declared CRC and the CRC of its compressed bytes; the row pass still enforces the caps
    // and the CRC, and refuses a DOCTYPE before any row.
    let dataCrc = 0;
    for (const v of this.zip.views(e.dataOffset, e.dataOffset + e.compressedSize)) dataCrc = zlib.crc32(v, dataCrc);
    const key = `${e.name}\u0000${e.compressedSize}\u0000${e.uncompressedSize}\u0000${e.crc32}\u0000${dataCrc}`;
    const known = PRESCANS.get(key);
    if (known) {
      PRESCANS.delete(key);
      PRESCANS.set(key, known);
      return { merges: known.slice() };
    }
    const result = await this.scanMerges(e);
    PRESCANS.set(key, result.merges.slice());
    if (PRESCANS.size > 32) PRESCANS.delete(PRESCANS.keys().next().value as string);
    return result;
  }

  private async scanMerges(e: ZipEntry): Promise<{ merges: string[] }> {
    const merges: string[] = [];
    const needle = Buffer.from('<mergeCell ');
    const needlePrefixed = Buffer.from(':mergeCell ');
    let carry = Buffer.alloc(0);
    let first = true;
    for await (const piece of inflateEntry(this.zip, e, this.budget)) {
      if (first) {
        first = false;
        const head = piece.subarray(0, 4096).toString('latin1');
        if (head.includes('<!DOCTYPE') || head.includes('<!ENTITY')) {
          throw new XlsxError(`${e.name} carries a DOCTYPE or other declaration (<!...>): document type and entity declarations are refused`, 'DOCTYPE');
        }
      }
      const buf = carry.length > 0 ? Buffer.concat([carry, piece]) : piece;
      for (const n of [needle, needlePrefixed]) {
        let at = buf.indexOf(n);
        while (at !== -1) {
          const end = buf.indexOf(0x3e /* > */, at);
          if (end === -1) break;
          const ref = attr(buf.toString('latin1', at + n.length, end), 'ref');
          if (ref && merges.length < 10_000) merges.push(ref);
          at = buf.indexOf(n, end);
        }
      }
      // Keep a short tail so a tag split across pieces is still found (a mergeCell tag is short).
      const tail = Math.max(0, buf.length - 256);
      const lastLt = buf.lastIndexOf(0x3c, buf.length - 1);
      const cut = lastLt >= tail ? lastLt : buf.length;
      carry = Buffer.from(buf.subarray(cut));
    }
    // Both passes count against the total: the row pass inflates the same bytes again.
    this.budget.used -= e.uncompressedSize;
    return { merges };
  }

  /** Streams the rows of a sheet in batches; see `SheetRowReader`. */
  async *rows(sheet: SheetInfo, batchRows = 1000, maxRowChars = Number.MAX_SAFE_INTEGER): AsyncGenerator<SheetBatch> {
    const e = this.entry(sheet.part);
    if (!e) throw new XlsxError(`the sheet "${sheet.name}" has no part ${sheet.part} in the archive`, 'MISSING_PART');
    const reader = new SheetRowReader(this, sheet.name, maxRowChars);
    const scanner = new XmlScanner(reader, `sheet "${sheet.name}"`, this.limits.maxTokenChars);
    for await (const text of decodeText(inflateEntry(this.zip, e, this.budget), e.name)) {
      scanner.feed(text);
      if (reader.batch.rows.length >= batchRows) yield reader.takeBatch();
    }
    scanner.end();
    if (reader.batch.rows.length > 0) yield reader.takeBatch();
  }
}

// ---------------------------------------------------------------------------------------------
// Sheet rows
// ---------------------------------------------------------------------------------------------

export interface SheetBatch {
  rows: CellValue[][];
  rowNumbers: number[];
  issues: ReaderRowIssue[];
}

export const MAX_COLUMNS = 16384;
export const MAX_ROWS = 1048576;

/** `A` -> 0, `AB` -> 27; -1 when the reference has no letters. */
export function columnIndex(ref: string): number {
  let n = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c >= 65 && c <= 90) n = n * 26 + (c - 64);
    else if (c >= 97 && c <= 122) n = n * 26 + (c - 96);
    else break;
  }
  return i === 0 ? -1 : n - 1;
}

/** The `r` attribute of a row tag's attribute text `s[from, to)`, as text; undefined when absent. */
function rowNumberAttr(s: string, from: number, to: number): string | undefined {
  let i = from;
  while (i < to) {
    const eq = s.indexOf('=', i);
    if (eq === -1 || eq >= to) return undefined;
    let q = eq + 1;
    while (q < to && s.charCodeAt(q) <= 32) q++;
    const quote = s.charCodeAt(q);
    const end = s.indexOf(quote === 39 ? "'" : '"', q + 1);
    if (end === -1 || end >= to) return undefined;
    let k = i;
    while (k < eq && s.charCodeAt(k) <= 32) k++;
    let ke = eq;
    while (ke > k && s.charCodeAt(ke - 1) <= 32) ke--;
    if (ke - k === 1 && s.charCodeAt(k) === 114) return s.slice(q + 1, end);
    i = end + 1;
  }
  return undefined;
}

/** `columnIndex` of `s.slice(from, to)`, without the slice. */
function columnIndexAt(s: string, from: number, to: number): number {
  let n = 0;
  let i = from;
  for (; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c >= 65 && c <= 90) n = n * 26 + (c - 64);
    else if (c >= 97 && c <= 122) n = n * 26 + (c - 96);
    else break;
  }
  return i === from ? -1 : n - 1;
}

/** A non-negative decimal integer of `s.slice(from, to)`; -1 when it is not one. */
function intAt(s: string, from: number, to: number): number {
  if (to <= from || to - from > 9) return -1;
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

export function columnName(index: number): string {
  let n = index + 1;
  let s = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    s = String.fromCharCode(65 + r) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

const EXCEL_EPOCH_1900 = Date.UTC(1899, 11, 30);
const EXCEL_EPOCH_1904 = Date.UTC(1904, 0, 1);

/** Excel serial date -> Date (UTC wall clock; serials carry no zone). */
export function excelSerialToDate(serial: number, date1904: boolean): Date {
  const base = date1904 ? EXCEL_EPOCH_1904 : EXCEL_EPOCH_1900;
  return new Date(base + Math.round(serial * 86_400_000));
}

function clipText(s: string, max = 48): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

const RANK = { ERROR: 3, WARNING: 2, INFO: 1 } as const;

/**
 * One issue per row (the pipeline keys reader issues by row number): several cell issues of one
 * row become one entry with the highest severity, their texts joined.
 */
export function combineIssues(issues: readonly ImportError[]): ImportError {
  if (issues.length === 1) return issues[0];
  let severity = issues[0].severity;
  for (const i of issues) if (RANK[i.severity] > RANK[severity]) severity = i.severity;
  const shown = issues.slice(0, 5).map((i) => i.errorDetails);
  if (issues.length > 5) shown.push(`and ${issues.length - 5} more`);
  return { severity, errorDetails: shown.join('; ') };
}

/** Turns the sheet XML events into rows; an XmlHandler. */
class SheetRowReader implements XmlHandler {
  batch: SheetBatch = { rows: [], rowNumbers: [], issues: [] };
  private inSheetData = false;
  private row: CellValue[] | null = null;
  private rowNumber = 0;
  private rowIssues: ImportError[] = [];
  /** Characters of the current row's text values; past `maxRowChars` the row is dropped. */
  private rowChars = 0;
  private rowTooLong = false;
  private nextCol = 0;
  // current cell
  private inCell = false;
  private cellCol = 0;
  private cellType = '';
  private cellStyle = -1;
  private cellValue: string | null = null;
  private cellFormula: string | null = null;
  private inlineParts: string[] | null = null;
  private capture: 'v' | 'f' | 't' | null = null;
  private inIs = false;
  private inRPh = 0;

  constructor(
    private readonly wb: XlsxWorkbook,
    private readonly sheetName: string,
    private readonly maxRowChars: number,
  ) {}

  takeBatch(): SheetBatch {
    const b = this.batch;
    this.batch = { rows: [], rowNumbers: [], issues: [] };
    return b;
  }

  wantText(): boolean {
    return this.capture !== null;
  }

  text(value: string): void {
    if (this.capture === 'v') this.cellValue = this.cellValue === null ? value : this.cellValue + value;
    else if (this.capture === 'f') this.cellFormula = this.cellFormula === null ? value : this.cellFormula + value;
    else if (this.capture === 't' && this.inlineParts) this.inlineParts.push(value);
  }

  open(name: string, src: string, from: number, to: number, selfClosing: boolean): void {
    if (!this.inSheetData) {
      if (name === 'sheetData') this.inSheetData = !selfClosing;
      return;
    }
    switch (name) {
      case 'c': {
        if (this.row === null) this.startRow(undefined);
        this.inCell = true;
        this.cellType = '';
        this.cellStyle = -1;
        this.cellValue = null;
        this.cellFormula = null;
        this.inlineParts = null;
        let col = this.nextCol;
        // One pass over the attributes, in place: r, t, s.
        const attrs = src;
        let i = from;
        const len = to;
        while (i < len) {
          const eq = attrs.indexOf('=', i);
          if (eq === -1 || eq >= len) break;
          let q = eq + 1;
          while (q < len && attrs.charCodeAt(q) <= 32) q++;
          const quote = attrs.charCodeAt(q);
          const end = attrs.indexOf(quote === 39 ? "'" : '"', q + 1);
          if (end === -1 || end >= len) break;
          // The key without allocating: a one-letter name after optional spaces.
          let k = i;
          while (k < eq && attrs.charCodeAt(k) <= 32) k++;
          let ke = eq;
          while (ke > k && attrs.charCodeAt(ke - 1) <= 32) ke--;
          if (ke - k === 1) {
            const key = attrs.charCodeAt(k);
            if (key === 114 /* r */) {
              const c = columnIndexAt(attrs, q + 1, end);
              if (c >= 0) col = c;
            } else if (key === 116 /* t */) {
              this.cellType = end - q - 1 === 1 && attrs.charCodeAt(q + 1) === 115 ? 's' : attrs.slice(q + 1, end);
            } else if (key === 115 /* s */) this.cellStyle = intAt(attrs, q + 1, end);
          }
          i = end + 1;
        }
        if (col >= MAX_COLUMNS) {
          throw new XlsxError(`sheet "${this.sheetName}" has a cell beyond column XFD (row ${this.rowNumber})`, 'BAD_XML');
        }
        this.cellCol = col;
        this.nextCol = col + 1;
        if (selfClosing) this.inCell = false; // an empty (styled) cell
        return;
      }
      case 'v':
        if (this.inCell && !selfClosing) {
          this.capture = 'v';
          this.cellValue = '';
        }
        return;
      case 'f':
        if (this.inCell) {
          if (this.cellFormula === null) this.cellFormula = '';
          if (!selfClosing) this.capture = 'f';
        }
        return;
      case 'is':
        if (this.inCell) {
          this.inIs = true;
          this.inlineParts = [];
        }
        return;
      case 'rPh':
        if (!selfClosing) this.inRPh++;
        return;
      case 't':
        if (this.inIs && this.inRPh === 0 && !selfClosing) this.capture = 't';
        return;
      case 'row': {
        const r = rowNumberAttr(src, from, to);
        this.startRow(r);
        if (selfClosing) this.row = null; // an empty row
        return;
      }
      default:
        return;
    }
  }

  private startRow(r: string | undefined): void {
    let n = r !== undefined ? Number(r) : this.rowNumber + 1;
    if (!Number.isInteger(n) || n < 1 || n > MAX_ROWS) {
      throw new XlsxError(`sheet "${this.sheetName}" has an invalid row number "${clipText(String(r))}"`, 'BAD_XML');
    }
    if (n <= this.rowNumber) n = this.rowNumber + 1; // rows out of order: keep counting forward
    this.rowNumber = n;
    this.row = [];
    this.rowIssues = [];
    this.rowChars = 0;
    this.rowTooLong = false;
    this.nextCol = 0;
  }

  close(name: string): void {
    if (!this.inSheetData) return;
    switch (name) {
      case 'v':
      case 'f':
      case 't':
        this.capture = null;
        return;
      case 'is':
        this.inIs = false;
        return;
      case 'rPh':
        this.inRPh = Math.max(0, this.inRPh - 1);
        return;
      case 'c':
        if (this.inCell) this.endCell();
        this.inCell = false;
        return;
      case 'row':
        this.endRow();
        return;
      case 'sheetData':
        if (this.row !== null) this.endRow();
        this.inSheetData = false;
        return;
      default:
        return;
    }
  }

  private endCell(): void {
    const row = this.row!;
    const col = this.cellCol;
    let value: CellValue;
    const raw = this.cellValue;
    switch (this.cellType) {
      case 's': {
        if (raw === null || raw === '') {
          value = undefined;
          break;
        }
        const idx = Number(raw);
        const s = this.wb.sharedStrings.get(idx);
        if (s === undefined) {
          this.rowIssues.push(error(`cell ${columnName(col)}${this.rowNumber} refers to shared string ${clipText(raw)}, which the workbook does not hold`));
          value = undefined;
        } else value = s;
        break;
      }
      case 'inlineStr':
        value = this.inlineParts ? decodeOoxmlEscapes(this.inlineParts.join('')) : (raw ?? undefined);
        break;
      case 'str':
        value = raw === null ? undefined : decodeOoxmlEscapes(raw);
        break;
      case 'b':
        value = raw === null || raw === '' ? undefined : raw.trim() === '1' || raw.trim().toLowerCase() === 'true';
        break;
      case 'e':
        if (raw !== null && raw !== '') {
          this.rowIssues.push(warning(`cell ${columnName(col)}${this.rowNumber} holds the error value ${clipText(raw)}; it is read as empty`));
        }
        value = undefined;
        break;
      case 'd': {
        if (raw === null || raw === '') {
          value = undefined;
          break;
        }
        const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(raw) ? raw : `${raw}Z`);
        value = Number.isFinite(d.getTime()) ? d : raw;
        break;
      }
      default: {
        if (raw === null || raw === '') {
          value = undefined;
          break;
        }
        const n = Number(raw);
        if (!Number.isFinite(n) || raw.trim() === '') value = raw;
        else if (this.cellStyle >= 0 && this.wb.dateStyles[this.cellStyle]) value = excelSerialToDate(n, this.wb.date1904);
        else value = n;
      }
    }
    if (this.cellFormula !== null) {
      const f = this.cellFormula.length > 0 ? ` (=${clipText(this.cellFormula, 40)})` : '';
      if (value === undefined)
        this.rowIssues.push(warning(`cell ${columnName(col)}${this.rowNumber} holds a formula${f} without a cached value; it is read as empty`));
      else this.rowIssues.push(warning(`cell ${columnName(col)}${this.rowNumber} holds a formula${f}; its cached value is used, the formula is not evaluated`));
    }
    if (typeof value === 'string') {
      this.rowChars += value.length;
      if (this.rowChars > this.maxRowChars && !this.rowTooLong) {
        this.rowTooLong = true;
        row.length = 0; // stop holding the row's values
      }
    }
    if (this.rowTooLong) return;
    while (row.length < col) row.push(undefined);
    row[col] = value;
  }

  private endRow(): void {
    const row = this.row;
    this.row = null;
    if (row === null) return;
    if (this.rowTooLong) {
      this.batch.issues.push({
        rowNumber: this.rowNumber,
        issue: error(`the row holds more than ${this.maxRowChars} characters of text; it is skipped`),
      });
      return;
    }
    let empty = true;
    for (let i = 0; i < row.length; i++) {
      if (!isEmptyCell(row[i])) {
        empty = false;
        break;
      }
    }
    // An empty row is skipped; a problem found in it (an error value) is still worth a word.
    if (this.rowIssues.length > 0) this.batch.issues.push({ rowNumber: this.rowNumber, issue: combineIssues(this.rowIssues) });
    if (empty) return;
    this.batch.rows.push(row);
    this.batch.rowNumbers.push(this.rowNumber);
  }
}

// ---------------------------------------------------------------------------------------------
// The Reader plugged into the import pipeline
// ---------------------------------------------------------------------------------------------

/** Parses `A1:C3` into 1-based row bounds. */
export function rangeRows(ref: string): { top: number; bottom: number; left: number; right: number } | undefined {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d+)(?::\$?([A-Za-z]{1,3})\$?(\d+))?$/.exec(ref.trim());
  if (!m) return undefined;
  const top = Number(m[2]);
  const bottom = m[4] ? Number(m[4]) : top;
  const left = columnIndex(m[1]);
  const right = m[3] ? columnIndex(m[3]) : left;
  return { top: Math.min(top, bottom), bottom: Math.max(top, bottom), left: Math.min(left, right), right: Math.max(left, right) };
}

/**
 * A batch as events in sheet row order: the issues of rows not delivered (skipped empty or too
 * long rows) go out as `rowIssue` events between the rows around them.
 */
function* inRowOrder(rows: CellValue[][], rowNumbers: number[], issues: ReaderRowIssue[]): Generator<ReaderEvent> {
  const delivered = new Set(rowNumbers);
  const own = new Map<number, ReaderRowIssue>();
  const loose: ReaderRowIssue[] = [];
  for (const is of issues) {
    if (delivered.has(is.rowNumber)) own.set(is.rowNumber, is);
    else loose.push(is);
  }
  loose.sort((a, b) => a.rowNumber - b.rowNumber);
  let from = 0;
  const slice = (to: number): ReaderEvent | undefined => {
    if (to <= from) return undefined;
    const nums = rowNumbers.slice(from, to);
    const mine = nums.flatMap((n) => (own.has(n) ? [own.get(n)!] : []));
    const ev: ReaderEvent = { type: 'rows', firstRow: nums[0], rows: rows.slice(from, to), rowNumbers: nums, issues: mine.length > 0 ? mine : undefined };
    from = to;
    return ev;
  };
  let i = 0;
  for (const is of loose) {
    while (i < rowNumbers.length && rowNumbers[i] < is.rowNumber) i++;
    const ev = slice(i);
    if (ev) yield ev;
    yield { type: 'rowIssue', rowNumber: is.rowNumber, issue: is.issue };
  }
  const last = slice(rowNumbers.length);
  if (last) yield last;
}

export interface XlsxReaderOptions {
  /**
   * The sheets to read, in this order (the machines' sheet first). Sheet names match case-blind,
   * ignoring surrounding spaces. Sheets not listed are not read; they are named in one INFO.
   */
  sheetOrder: readonly RegExp[];
  /** Sheets the workbook must have: without one, the file gets a fatal ERROR naming it. */
  requiredSheets?: ReadonlyArray<{ test: RegExp; name: string }>;
  limits?: Partial<XlsxLimits>;
  /** Rows per `rows` event. Default 1000. */
  batchRows?: number;
  /** Workbooks larger than this are read from an unlinked temp file, not memory. Default 8 MiB. */
  spoolAboveBytes?: number;
}

function fatal(message: string): ReaderEvent {
  return { type: 'fileIssue', issue: error(message), fatal: true };
}

/**
 * A Reader for workbooks: one `table` event per requested sheet (with `sheet` set to its name),
 * its header being the sheet's first non-empty row. Workbook-level problems (not a zip, zip bomb,
 * DOCTYPE, corrupt parts) become a fatal file issue naming the sheet when one is concerned.
 */
export function createXlsxReader(options: XlsxReaderOptions): Reader {
  const limits: XlsxLimits = { ...DEFAULT_XLSX_LIMITS, ...(options.limits ?? {}) };
  const batchRows = options.batchRows ?? 1000;
  return async function* xlsxReader(bytes: AsyncIterable<Buffer>, ctx: ReaderContext): AsyncGenerator<ReaderEvent> {
    const zip = await collectZip(bytes, options.spoolAboveBytes ?? SPOOL_THRESHOLD_BYTES);
    const opened: XlsxWorkbook[] = [];
    try {
      yield* readWorkbook(zip, ctx, (wb) => opened.push(wb));
    } finally {
      for (const wb of opened) wb.close();
      zip.close();
    }
  };

  /** `opened` is told of the workbook as soon as it exists, so that the caller closes it in every case. */
  async function* readWorkbook(zip: ZipSource, ctx: ReaderContext, opened: (wb: XlsxWorkbook) => void): AsyncGenerator<ReaderEvent> {
    let wb: XlsxWorkbook;
    try {
      wb = await XlsxWorkbook.open(zip, limits);
      opened(wb);
      await wb.loadStringsAndStyles();
    } catch (e) {
      if (e instanceof XlsxError) {
        yield fatal(e.message);
        return;
      }
      throw e;
    }
    const missing = (options.requiredSheets ?? []).filter((r) => !wb.sheets.some((s) => r.test.test(s.name.trim())));
    if (missing.length > 0) {
      const have = wb.sheets.map((s) => `"${s.name}"`).join(', ') || 'none';
      yield fatal(
        `the workbook has no ${missing.map((m) => `"${m.name}"`).join(', ')} sheet; ${missing.length > 1 ? 'they are' : 'it is'} required (sheets: ${have})`,
      );
      return;
    }
    // Requested sheets in the requested order; the rest are named once.
    const picked: SheetInfo[] = [];
    const used = new Set<SheetInfo>();
    for (const re of options.sheetOrder) {
      for (const s of wb.sheets) {
        if (!used.has(s) && re.test(s.name.trim())) {
          picked.push(s);
          used.add(s);
        }
      }
    }
    const ignored = wb.sheets.filter((s) => !used.has(s)).map((s) => s.name);
    if (ignored.length > 0) {
      const names = ignored.length > 12 ? `${ignored.slice(0, 12).join(', ')} and ${ignored.length - 12} more` : ignored.join(', ');
      yield { type: 'fileIssue', issue: info(`sheets not read by this format: ${names}`), fatal: false };
    }
    // A pass that uses only some tables says so (`ReaderContext.tables`): the other sheets are
    // then not inflated at all.
    const wants = ctx.tables;
    for (const sheet of picked) {
      if (ctx.signal?.aborted) return;
      if (wants && !wants(sheet.name)) continue;
      const where = `sheet "${sheet.name}"`;
      try {
        const { merges } = await wb.prescanSheet(sheet);
        let header: string[] | null = null;
        let headerRow = 0;
        const headerMerges: string[] = [];
        const dataMerges: string[] = [];
        let skipSheet = false;
        for await (const batch of wb.rows(sheet, batchRows, ctx.maxRowBytes)) {
          if (skipSheet) continue;
          let start = 0;
          if (header === null) {
            if (batch.rows.length === 0) {
              // issues of skipped empty rows before the header
              for (const is of batch.issues) yield { type: 'rowIssue', rowNumber: is.rowNumber, issue: is.issue };
              continue;
            }
            headerRow = batch.rowNumbers[0];
            header = batch.rows[0].map((v) => (v === undefined || v === null ? '' : v instanceof Date ? v.toISOString() : String(v)));
            start = 1;
            for (const m of merges) {
              const r = rangeRows(m);
              if (r && r.top <= headerRow && r.bottom >= headerRow) headerMerges.push(m);
              else dataMerges.push(m);
            }
            if (headerMerges.length > 0) {
              yield {
                type: 'fileIssue',
                issue: error(
                  `${where}: header row ${headerRow} has merged cells (${headerMerges.slice(0, 5).join(', ')}): each column needs its own header cell; the sheet is not read`,
                ),
                fatal: false,
              };
              skipSheet = true;
              continue;
            }
            const headerIssues = batch.issues.filter((is) => is.rowNumber === headerRow);
            for (const is of headerIssues) {
              yield { type: 'fileIssue', issue: { ...is.issue, errorDetails: `${where}, header row ${headerRow}: ${is.issue.errorDetails}` }, fatal: false };
            }
            const blank = header.findIndex((h, i) => normaliseHeader(h) === '' && header!.slice(i + 1).some((x) => normaliseHeader(x) !== ''));
            if (blank !== -1) {
              yield {
                type: 'fileIssue',
                issue: warning(`${where}: header cell ${columnName(blank)}${headerRow} is empty; that column is not read`),
                fatal: false,
              };
            }
            yield { type: 'table', header, headerRow, sheet: sheet.name };
            if (dataMerges.length > 0) {
              yield {
                type: 'fileIssue',
                issue: warning(
                  `${where}: merged cells ${dataMerges.slice(0, 5).join(', ')}${dataMerges.length > 5 ? ` and ${dataMerges.length - 5} more` : ''}: only the first cell of a merged range holds its value`,
                ),
                fatal: false,
              };
            }
          }
          const rows = start === 0 ? batch.rows : batch.rows.slice(start);
          // Cells a sheet leaves out are empty cells, not missing fields: rows are padded to the header.
          const width = header.length;
          for (const row of rows) while (row.length < width) row.push(undefined);
          const rowNumbers = start === 0 ? batch.rowNumbers : batch.rowNumbers.slice(start);
          const issues = start === 0 ? batch.issues : batch.issues.filter((is) => is.rowNumber !== headerRow);
          yield* inRowOrder(rows, rowNumbers, issues);
        }
        if (header === null && !skipSheet) {
          yield { type: 'table', header: [], headerRow: 1, sheet: sheet.name };
        }
      } catch (e) {
        if (e instanceof XlsxError) {
          yield fatal(`${where}: ${e.message}`);
          return;
        }
        throw e;
      }
    }
  }
}
