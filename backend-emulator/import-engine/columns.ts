/**
 * Column templates at work: header matching and the cell parsers of each column type.
 *
 * Header matching forgives case, surrounding spaces, a byte order mark, a trailing `*` and the
 * literal `(optional)` suffix public copies of the templates carry (`PrimaryIPAddress(optional)`).
 * Cell parsers trim the text, return the typed value, and report problems through a RowReporter;
 * they return `undefined` for a value they refuse.
 */
import { isIP } from 'node:net';
import { parseTimestamp } from './timestamps';
import type { CellValue, ColumnSpec, ColumnType, RowReporter } from './types';
import LABELS_SCHEMA from '../../schemas/Labels.schema.json';

/**
 * `  PrimaryIPAddress (Optional) ` -> `primaryipaddress`.
 *
 * The suffixes are taken off from the end, not by regular expressions ending in `$`: those
 * (`/\s*\(\s*optional\s*\)\s*$/`) are tried from every position, each scanning the run of
 * spaces after it, so a header cell of spaces between two letters took n^2 steps: 3 s at 40,000,
 * and a 400,000-space cell kept an import worker computing (the job VALIDATING) until deleted.
 */
export function normaliseHeader(header: string): string {
  let h = header.replace(/^\uFEFF/, '').trim();
  h = withoutOptionalSuffix(h);
  if (h.endsWith('*')) h = h.slice(0, -1);
  return h.trim().toLowerCase();
}

/** `Name (optional)`, any case, spaces anywhere around the word and the parentheses -> `Name`; `text` is trimmed. */
function withoutOptionalSuffix(text: string): string {
  if (!text.endsWith(')')) return text;
  const word = text.slice(0, -1).trimEnd();
  if (!word.toLowerCase().endsWith('optional')) return text;
  const open = word.slice(0, -'optional'.length).trimEnd();
  return open.endsWith('(') ? open.slice(0, -1) : text;
}

/** Keeps report messages short whatever a hostile cell holds. */
export function clip(text: string, max = 64): string {
  const oneLine = text.replace(/[\r\n\t]+/g, ' ');
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}

export function isEmptyCell(raw: CellValue): boolean {
  if (raw === undefined || raw === null) return true;
  if (typeof raw === 'string') {
    if (raw.length === 0) return true;
    const c = raw.charCodeAt(0);
    // Only whitespace-led strings need the (allocating) trim.
    if (c === 32 || c === 9 || c === 13 || c === 10 || c === 0xa0 || c === 0xfeff) return raw.trim().length === 0;
  }
  return false;
}

function text(raw: CellValue): string {
  if (typeof raw === 'string') return raw.trim();
  if (raw instanceof Date) return raw.toISOString();
  return String(raw);
}

const INT = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const MAC_SEP = /^([0-9a-fA-F]{2})([:-])([0-9a-fA-F]{2})\2([0-9a-fA-F]{2})\2([0-9a-fA-F]{2})\2([0-9a-fA-F]{2})\2([0-9a-fA-F]{2})$/;
const MAC_DOT = /^([0-9a-fA-F]{4})\.([0-9a-fA-F]{4})\.([0-9a-fA-F]{4})$/;
const MAC_BARE = /^[0-9a-fA-F]{12}$/;
/** Google label rules: lowercase letters (international ones too), digits, `_` and `-`. */
// Google label rules, from the one schema that states them.
const LABEL_KEY = new RegExp(LABELS_SCHEMA.propertyNames.pattern, 'u');
const LABEL_VALUE = new RegExp(LABELS_SCHEMA.additionalProperties.pattern, 'u');

/**
 * The value of a cell of 1 to 15 ASCII digits (most numeric cells), or -1 for any other text: read
 * without a regular expression, and exactly `Number(s)` (15 digits stay below 2^53).
 */
function plainDigits(s: string): number {
  const n = s.length;
  if (n === 0 || n > 15) return -1;
  let v = 0;
  for (let i = 0; i < n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

function unitText(col: ColumnSpec): string {
  return col.unit ? ` (${col.unit})` : '';
}

function checkRange(n: number, col: ColumnSpec, report: RowReporter): number | undefined {
  if (col.min !== undefined && n < col.min) {
    report.error(`${col.name} must be at least ${col.min}${unitText(col)}, got ${n}`);
    return undefined;
  }
  if (col.max !== undefined && n > col.max) {
    report.error(`${col.name} must be at most ${col.max}${unitText(col)}, got ${n}`);
    return undefined;
  }
  return n;
}

function parseString(raw: CellValue, col: ColumnSpec, report: RowReporter): string | undefined {
  const s = text(raw);
  if (s.length === 0) return undefined;
  const c = s.charCodeAt(0);
  // = + - @ start a formula in spreadsheet programs; the emulator never evaluates cells.
  if (c === 61 || c === 43 || c === 45 || c === 64) {
    report.warning(`${col.name} starts with "${s[0]}" ("${clip(s, 32)}"): it is kept as plain text, not evaluated as a formula`);
  }
  return s;
}

function parseInt_(raw: CellValue, col: ColumnSpec, report: RowReporter): number | undefined {
  if (typeof raw === 'number') {
    if (!Number.isSafeInteger(raw)) {
      report.error(`${col.name} must be a whole number${unitText(col)}, got ${raw}`);
      return undefined;
    }
    return checkRange(raw, col, report);
  }
  const s = text(raw);
  const digits = plainDigits(s);
  const n = digits >= 0 ? digits : INT.test(s) ? Number(s) : NaN;
  if (!Number.isSafeInteger(n)) {
    report.error(`${col.name} must be a whole number${unitText(col)}, got "${clip(s)}"`);
    return undefined;
  }
  return checkRange(n, col, report);
}

function parseNumber(raw: CellValue, col: ColumnSpec, report: RowReporter): number | undefined {
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) {
      report.error(`${col.name} must be a finite number${unitText(col)}, got ${raw}`);
      return undefined;
    }
    return checkRange(raw, col, report);
  }
  const s = text(raw);
  const digits = plainDigits(s);
  const n = digits >= 0 ? digits : NUMBER.test(s) ? Number(s) : NaN;
  if (!Number.isFinite(n)) {
    const hint = /^[+-]?\d+,\d+$/.test(s) ? ' (use a dot as decimal separator)' : '';
    report.error(`${col.name} must be a number${unitText(col)}, got "${clip(s)}"${hint}`);
    return undefined;
  }
  return checkRange(n, col, report);
}

function parseBool(raw: CellValue, col: ColumnSpec, report: RowReporter): boolean | undefined {
  if (typeof raw === 'boolean') return raw;
  if (raw === 0 || raw === 1) return raw === 1;
  const s = text(raw).toLowerCase();
  if (s === '1' || s === 'true') return true;
  if (s === '0' || s === 'false') return false;
  report.error(`${col.name} must be 0, 1, true or false, got "${clip(text(raw))}"`);
  return undefined;
}

function parseTime(raw: CellValue, col: ColumnSpec, report: RowReporter): number | undefined {
  if (raw instanceof Date) {
    const t = raw.getTime();
    if (Number.isFinite(t)) return t;
  }
  const s = text(raw);
  const t = parseTimestamp(s);
  if (!Number.isFinite(t)) {
    report.error(`${col.name} must be a timestamp (ISO 8601 like 2024-01-31T13:30:00Z, or MM/dd/yyyy HH:mm:ss), got "${clip(s)}"`);
    return undefined;
  }
  return t;
}

/** Dotted-quad IPv4 without leading zeros (node:net's rule), checked without a regular expression. */
function isIPv4(s: string): boolean {
  const n = s.length;
  if (n < 7 || n > 15) return false;
  let parts = 0;
  let i = 0;
  while (i < n) {
    const start = i;
    let v = 0;
    while (i < n) {
      const d = s.charCodeAt(i) - 48;
      if (d < 0 || d > 9) break;
      v = v * 10 + d;
      i++;
    }
    const len = i - start;
    if (len === 0 || len > 3 || v > 255 || (len > 1 && s.charCodeAt(start) === 48)) return false;
    parts++;
    if (i === n) break;
    if (s.charCodeAt(i) !== 46 || parts === 4) return false;
    i++;
    if (i === n) return false;
  }
  return parts === 4;
}

function isIpAddress(s: string): boolean {
  return isIPv4(s) || isIP(s) !== 0;
}

function parseIp(raw: CellValue, col: ColumnSpec, report: RowReporter): string | undefined {
  const s = text(raw);
  if (!isIpAddress(s)) {
    report.error(`${col.name} must be an IPv4 or IPv6 address, got "${clip(s)}"`);
    return undefined;
  }
  return s;
}

function parseIpList(raw: CellValue, col: ColumnSpec, report: RowReporter): string[] | undefined {
  const s = text(raw);
  const parts: string[] = [];
  let bad: string | undefined;
  for (let at = 0; at <= s.length;) {
    let end = s.indexOf(';', at);
    if (end === -1) end = s.length;
    let p = s.slice(at, end);
    if (p.length > 0 && (p.charCodeAt(0) <= 32 || p.charCodeAt(p.length - 1) <= 32)) p = p.trim();
    if (p.length > 0) {
      if (isIpAddress(p)) parts.push(p);
      else if (bad === undefined) bad = p;
    }
    at = end + 1;
  }
  if (bad !== undefined) {
    const hint = bad.includes(',') ? ' (separate addresses with ";")' : '';
    report.error(`${col.name} must list IP addresses separated by ";", "${clip(bad)}" is not one${hint}`);
    return undefined;
  }
  return parts;
}

const MAC_CANONICAL = /^[0-9a-f]{2}(?::[0-9a-f]{2}){5}$/;

function parseMac(raw: CellValue, col: ColumnSpec, report: RowReporter): string | undefined {
  const s = text(raw);
  if (MAC_CANONICAL.test(s)) return s;
  let hex: string | undefined;
  let m = MAC_SEP.exec(s);
  if (m) hex = m[1] + m[3] + m[4] + m[5] + m[6] + m[7];
  else if ((m = MAC_DOT.exec(s))) hex = m[1] + m[2] + m[3];
  else if (MAC_BARE.test(s)) hex = s;
  if (hex === undefined) {
    report.error(`${col.name} must be a MAC address like 00:1a:2b:3c:4d:5e, got "${clip(s)}"`);
    return undefined;
  }
  return hex.toLowerCase().match(/../g)!.join(':');
}

function parseLabelKey(raw: CellValue, col: ColumnSpec, report: RowReporter): string | undefined {
  const s = text(raw);
  if (!LABEL_KEY.test(s)) {
    report.error(
      `${col.name} "${clip(s)}" is not a valid label key: 1 to 63 characters, starting with a lowercase letter, made of lowercase letters, digits, "_" and "-"`,
    );
    return undefined;
  }
  return s;
}

function parseLabelValue(raw: CellValue, col: ColumnSpec, report: RowReporter): string | undefined {
  const s = text(raw);
  if (!LABEL_VALUE.test(s)) {
    report.error(`${col.name} "${clip(s)}" is not a valid label value: at most 63 characters, made of lowercase letters, digits, "_" and "-"`);
    return undefined;
  }
  return s;
}

export type CellParser = (raw: CellValue, col: ColumnSpec, report: RowReporter) => unknown;

export const PARSERS: Record<ColumnType, CellParser> = {
  string: parseString,
  int: parseInt_,
  number: parseNumber,
  bool: parseBool,
  timestamp: parseTime,
  ip: parseIp,
  ipList: parseIpList,
  mac: parseMac,
  labelKey: parseLabelKey,
  labelValue: parseLabelValue,
};

/** Plain words for a column type, for the docs and templates. */
export const TYPE_WORDS: Record<ColumnType, string> = {
  string: 'text',
  int: 'whole number',
  number: 'number (dot decimal separator)',
  bool: '0, 1, true or false',
  timestamp: 'timestamp (ISO 8601, `MM/dd/yyyy HH:mm:ss` or `MM/dd/yyyy, HH:mm:ss`; UTC unless a zone is given)',
  ip: 'IPv4 or IPv6 address',
  ipList: 'IP addresses separated by `;`',
  mac: 'MAC address (`00:1a:2b:3c:4d:5e`, `00-1A-...`, `001a.2b3c.4d5e` or 12 hex digits)',
  labelKey: 'label key (Google label rules)',
  labelValue: 'label value (Google label rules; may be empty)',
};
