/**
 * The CSV reader shared by every CSV format.
 *
 * Bytes -> records -> papaparse, in three steps that keep memory flat whatever the input:
 * 1. A byte-level record scanner finds record boundaries (newlines outside quoted fields, with
 *    papaparse's rule that a quote opens a quoted field only at the start of a field). It holds at
 *    most one unfinished record, and never more than `maxRowBytes` of it: a longer record is
 *    dropped as it streams and reported as a row error, so a 50 MB field costs no memory and no
 *    quadratic re-parsing.
 * 2. Whole records are gathered into batches of about 64 KiB (see BATCH_BYTES), checked to be valid
 *    UTF-8 (`buffer.isUtf8`, the same check as `new TextDecoder('utf-8', {fatal: true})`) and
 *    decoded.
 * 3. Each batch goes through papaparse's parser (`Papa.Parser` on the batch text, delimiter `,`,
 *    quote `"`), which takes its no-quote fast path when a batch holds no quote. Because batches end on record
 *    boundaries papaparse never re-parses a partial line.
 *
 * Row numbers count records, the header being row 1, as a spreadsheet shows them: a quoted cell
 * with line breaks stays in its row; empty lines count. LF and CRLF line endings are accepted (also
 * mixed; cells are delivered raw, so the last cell of a CRLF row ends in "\r" until the template's
 * trimming); CR-only files are refused with a file error. A UTF-8 byte order mark is skipped.
 */
import { isUtf8 } from 'node:buffer';
import Papa from 'papaparse';
import { error } from '../report';
import { formatBytes } from '../source';
import type { Reader, ReaderEvent, ReaderRowIssue } from '../types';

/**
 * The scanner is fed pieces of at most SCAN_PIECE_BYTES, and records are parsed as soon as
 * BATCH_BYTES of them are gathered: one piece's records make a batch, about 64 KiB. A batch's
 * text and its cells then live and die in V8's young generation. Batches of 256 KiB were decoded
 * into strings of V8's large-object space (over 128 KiB), each on pages of its own mapped afresh,
 * and their cells outlived a young-generation collection more often: a 600,000-row validation in
 * a worker like the import worker cost about a third more CPU with them, and twice the page faults
 * (docs/benchmarks.md, issue 27).
 */
const BATCH_BYTES = 32 * 1024;
const SCAN_PIECE_BYTES = 64 * 1024;
const NL = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const COMMA = 0x2c;

/** `offset`: position of the segment's first byte in the scanned stream. */
type Segment = { kind: 'data'; buf: Buffer; offset: number } | { kind: 'skip' };

/** Finds record boundaries in a byte stream; see the file comment. */
export class RecordScanner {
  private inQuotes = false;
  /** In a quoted field, the previous piece ended on a quote: escaped or closing depends on the next byte. */
  private pendingQuote = false;
  private prev = NL;
  private carry: Buffer[] = [];
  private carryLen = 0;
  private skipping = false;
  /** Bytes pushed before the current piece, and the offset where the carried partial record starts. */
  private fed = 0;
  private carryStart = 0;

  constructor(private readonly maxRowBytes: number) {}

  /** Feeds a piece no longer than `maxRowBytes`; returns complete records (ending in `\n`) and skipped rows, in order. */
  push(b: Buffer): Segment[] {
    const len = b.length;
    if (len === 0) return [];
    const base = this.fed;
    this.fed += len;
    let first = -1;
    let last = -1;
    if (!this.inQuotes && !this.pendingQuote && b.indexOf(QUOTE) === -1) {
      first = b.indexOf(NL);
      if (first !== -1) last = b.lastIndexOf(NL);
      this.prev = b[len - 1];
    } else {
      let i = 0;
      let inQuotes = this.inQuotes;
      let prev = this.prev;
      if (this.pendingQuote) {
        this.pendingQuote = false;
        if (b[0] === QUOTE) {
          i = 1; // an escaped quote ("") split across pieces
          prev = QUOTE;
        } else {
          inQuotes = false;
        }
      }
      for (; i < len; i++) {
        if (inQuotes) {
          // Inside a quoted field only a quote matters: jump to the next one (a field of 50 MB is
          // searched natively, not byte by byte). `prev` is what the loop would have left.
          const q = b.indexOf(QUOTE, i);
          if (q === -1) {
            prev = b[len - 1];
            break;
          }
          i = q;
          if (i + 1 === len) this.pendingQuote = true;
          else if (b[i + 1] === QUOTE) i++;
          else inQuotes = false;
          prev = QUOTE;
          continue;
        }
        const c = b[i];
        if (c === NL) {
          if (first === -1) first = i;
          last = i;
        } else if (c === QUOTE && (prev === COMMA || prev === NL)) {
          inQuotes = true;
        }
        prev = c;
      }
      this.inQuotes = inQuotes;
      this.prev = prev;
    }

    if (first === -1) {
      // The whole piece continues the current record.
      if (!this.skipping) {
        if (this.carryLen === 0) this.carryStart = base;
        this.carry.push(b);
        this.carryLen += len;
        if (this.carryLen > this.maxRowBytes) this.startSkipping();
      }
      return [];
    }

    const out: Segment[] = [];
    let dataStart = 0;
    if (this.skipping) {
      out.push({ kind: 'skip' });
      this.skipping = false;
      dataStart = first + 1;
    } else if (this.carryLen + first > this.maxRowBytes) {
      out.push({ kind: 'skip' });
      this.carry = [];
      this.carryLen = 0;
      dataStart = first + 1;
    }
    if (last + 1 > dataStart) {
      const head = b.subarray(dataStart, last + 1);
      if (dataStart === 0 && this.carryLen > 0) {
        this.carry.push(head);
        out.push({ kind: 'data', buf: Buffer.concat(this.carry, this.carryLen + head.length), offset: this.carryStart });
      } else {
        out.push({ kind: 'data', buf: head, offset: base + dataStart });
      }
    }
    this.carry = last + 1 < len ? [b.subarray(last + 1)] : [];
    this.carryLen = len - last - 1;
    this.carryStart = base + last + 1;
    return out;
  }

  /** Ends the stream: the last record when the file does not end with a newline. */
  end(): Segment[] {
    if (this.skipping) {
      this.skipping = false;
      return [{ kind: 'skip' }];
    }
    if (this.carryLen === 0) return [];
    const buf = Buffer.concat(this.carry, this.carryLen);
    this.carry = [];
    this.carryLen = 0;
    return [{ kind: 'data', buf, offset: this.carryStart }];
  }

  private startSkipping(): void {
    this.skipping = true;
    this.carry = [];
    this.carryLen = 0;
  }
}

/**
 * Splits whole records (as the scanner delivers them) at their record boundaries, with the
 * scanner's quote rule. Used only for batches papaparse found malformed.
 */
export function splitRecords(b: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let inQuotes = false;
  let prev = NL;
  let start = 0;
  for (let i = 0; i < b.length; i++) {
    const c = b[i];
    if (inQuotes) {
      if (c === QUOTE) {
        if (b[i + 1] === QUOTE) i++;
        else inQuotes = false;
      }
    } else if (c === NL) {
      out.push(b.subarray(start, i + 1));
      start = i + 1;
    } else if (c === QUOTE && (prev === COMMA || prev === NL)) {
      inQuotes = true;
    }
    prev = c;
  }
  if (start < b.length) out.push(b.subarray(start));
  return out;
}

/** Offset of the first byte that breaks UTF-8 (only called once a batch failed `isUtf8`). */
export function firstInvalidUtf8(b: Buffer): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    let need: number;
    let min: number;
    if (c < 0x80) {
      i++;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    if (i + need >= b.length) return i; // truncated sequence
    let cp = c & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const cc = b[i + k];
      if ((cc & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

function quoteMessage(code: string, message: string): string {
  if (code === 'MissingQuotes') return 'a quoted field is not closed (its closing " is missing)';
  if (code === 'InvalidQuotes') {
    return 'a quoted field has characters after its closing quote (write "" for a quote inside a quoted field)';
  }
  return `the row could not be parsed: ${message}`;
}

interface Parsed {
  data: string[][];
  errors: Array<{ row?: number; code: string; message: string }>;
}

function papaParse(buf: Buffer): Parsed {
  let text = buf.toString('utf8');
  // Drop the batch's final line break (papaparse would see one more, empty, row), CR included: a
  // closing quote followed by a CR at the very end of the input is not recognised as closing.
  let end = text.length;
  if (text.charCodeAt(end - 1) === NL) end--;
  if (text.charCodeAt(end - 1) === CR) end--;
  if (end !== text.length) text = text.slice(0, end);
  // papaparse's core parser (`Papa.Parser`, the one its streaming API drives), called directly:
  // going through `Papa.parse(string)` makes V8 promote nearly every parsed row to the old
  // generation (measured: 180 MB promoted for a 40 MB file, against 8 MB this way), which costs
  // more than the parse itself.
  const parser = new Papa.Parser({ delimiter: ',', newline: '\n', quoteChar: '"', escapeChar: '"' });
  return parser.parse(text, 0, false) as Parsed;
}

/**
 * papaparse keeps a malformed quoted field open until it finds a closing quote, possibly rows later.
 * To keep one row per record (and row numbers right), a batch with quote errors is parsed again one
 * record at a time: the damage stays in the row that has it.
 */
function parseRecordByRecord(buf: Buffer): Parsed {
  const data: string[][] = [];
  const errors: Parsed['errors'] = [];
  for (const record of splitRecords(buf)) {
    const r = papaParse(record);
    const row = r.data.length <= 1 ? (r.data[0] ?? ['']) : r.data.flat();
    for (const e of r.errors) errors.push({ row: data.length, code: e.code, message: e.message });
    data.push(row);
  }
  return { data, errors };
}

export const csvReader: Reader = async function* csvReader(bytes, ctx): AsyncGenerator<ReaderEvent> {
  const maxRow = ctx.maxRowBytes;
  const scanner = new RecordScanner(maxRow);
  let parts: Buffer[] = [];
  let partsLen = 0;
  let nextRow = 1;
  let headerDone = false;
  let started = false;
  let bomBytes = 0;
  let batchOffset = 0; // position (after the BOM) of the first byte of the gathered batch

  /** Parses whole records; returns the events. */
  function parse(buf: Buffer): ReaderEvent[] {
    const events: ReaderEvent[] = [];
    let result = papaParse(buf);
    if (result.errors.length > 0) result = parseRecordByRecord(buf);
    // Cells are delivered raw: with CRLF line endings the last cell of an unquoted row ends in "\r",
    // which the column parsers' trimming removes (as they remove any surrounding whitespace).
    const data = result.data;
    const batchFirstRow = nextRow;
    let start = 0;
    if (!headerDone) {
      while (start < data.length && data[start].length === 1 && data[start][0].trim() === '') start++;
      if (start < data.length) {
        const headerRow = batchFirstRow + start;
        if (result.errors.some((e) => e.row === start)) {
          events.push({
            type: 'fileIssue',
            fatal: true,
            issue: error(`the header row (row ${headerRow}) has malformed quotes`),
          });
          nextRow += data.length;
          return events;
        }
        events.push({ type: 'table', header: data[start], headerRow });
        headerDone = true;
        start++;
      }
    }
    if (start < data.length) {
      let issues: ReaderRowIssue[] | undefined;
      const seen = new Set<number>();
      for (const e of result.errors) {
        if (e.row === undefined || e.row < start || seen.has(e.row)) continue;
        seen.add(e.row);
        (issues ??= []).push({ rowNumber: batchFirstRow + e.row, issue: error(quoteMessage(e.code, e.message)) });
      }
      events.push({
        type: 'rows',
        firstRow: batchFirstRow + start,
        rows: start === 0 ? data : data.slice(start),
        ...(issues ? { issues } : {}),
      });
    }
    nextRow += data.length;
    return events;
  }

  /** Decodes and parses the gathered records; a fatal file issue ends the list. */
  function flush(): ReaderEvent[] {
    if (partsLen === 0) return [];
    const buf = parts.length === 1 ? parts[0] : Buffer.concat(parts, partsLen);
    parts = [];
    partsLen = 0;
    if (isUtf8(buf)) return parse(buf);
    const bad = firstInvalidUtf8(buf);
    const offset = batchOffset + bomBytes + Math.max(bad, 0);
    const cut = bad > 0 ? buf.lastIndexOf(NL, bad) : -1;
    const events = cut >= 0 ? parse(buf.subarray(0, cut + 1)) : [];
    events.push({
      type: 'fileIssue',
      fatal: true,
      issue: error(`the file is not valid UTF-8: invalid bytes in row ${nextRow} (byte offset ${offset}); save it as UTF-8`),
    });
    return events;
  }

  function skipped(): ReaderEvent[] {
    const events = flush();
    if (events.some((e) => e.type === 'fileIssue' && e.fatal)) return events;
    if (!headerDone) {
      events.push({
        type: 'fileIssue',
        fatal: true,
        issue: error(`the header row is longer than ${formatBytes(maxRow)}`),
      });
      return events;
    }
    events.push({
      type: 'rowIssue',
      rowNumber: nextRow,
      issue: error(`the row is longer than ${formatBytes(maxRow)}; it was skipped without being read`),
    });
    nextRow++;
    return events;
  }

  function* emit(events: ReaderEvent[]): Generator<ReaderEvent, boolean> {
    for (const e of events) {
      yield e;
      if (e.type === 'fileIssue' && e.fatal) return true;
    }
    return false;
  }

  function handle(segments: Segment[]): ReaderEvent[] {
    const events: ReaderEvent[] = [];
    for (const seg of segments) {
      if (seg.kind === 'data') {
        if (partsLen === 0) batchOffset = seg.offset;
        parts.push(seg.buf);
        partsLen += seg.buf.length;
        if (partsLen >= BATCH_BYTES) events.push(...flush());
      } else {
        events.push(...skipped());
      }
      if (events.some((e) => e.type === 'fileIssue' && e.fatal)) break;
    }
    return events;
  }

  // A failing source (read error, size limit) still lets the whole records read before it through.
  let failure: { error: unknown } | undefined;
  const guarded = (async function* () {
    try {
      yield* bytes;
    } catch (e) {
      failure = { error: e };
    }
  })();
  for await (let piece of guarded) {
    if (!started) {
      if (piece.length === 0) continue;
      started = true;
      if (piece.length >= 3 && piece[0] === 0xef && piece[1] === 0xbb && piece[2] === 0xbf) {
        piece = piece.subarray(3);
        bomBytes = 3;
      }
      const firstNl = piece.indexOf(NL);
      const firstCr = piece.indexOf(CR);
      if (firstNl === -1 && firstCr !== -1 && firstCr < piece.length - 1) {
        yield {
          type: 'fileIssue',
          fatal: true,
          issue: error('the file uses CR-only line endings (classic Mac OS); save it with LF or CRLF line endings'),
        };
        return;
      }
    }
    const step = Math.min(maxRow, SCAN_PIECE_BYTES);
    for (let at = 0; at < piece.length; at += step) {
      const sub = piece.length <= step ? piece : piece.subarray(at, Math.min(piece.length, at + step));
      if (yield* emit(handle(scanner.push(sub)))) return;
    }
  }
  if (failure) {
    if (!(yield* emit(flush()))) throw failure.error;
    return;
  }
  if (yield* emit(handle(scanner.end()))) return;
  if (yield* emit(flush())) return;
  if (!headerDone) {
    yield { type: 'fileIssue', fatal: true, issue: error('the file is empty: it has no header row') };
  }
};
