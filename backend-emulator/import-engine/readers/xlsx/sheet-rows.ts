/**
 * Turns the XML events of one worksheet into rows: an XmlHandler that decodes each cell (shared and
 * inline strings, booleans, numbers, date-styled numbers, ISO dates, error values, formulas' cached
 * values), keeps the sheet's own row numbers, skips empty rows and drops a row holding more text
 * than the caller's bound. It hands rows over in batches; what a table is (header, padding) is the
 * reader's business (reader.ts).
 */
import { isEmptyCell } from '../../columns';
import { combineIssues, error, warning, type ImportError } from '../../report';
import type { CellValue, ReaderRowIssue } from '../../types';
import { MAX_COLUMNS, MAX_ROWS, columnIndexAt, columnName, intAt } from './cell-refs';
import { clipText, decodeOoxmlEscapes } from './cell-text';
import { excelSerialToDate } from './date-styles';
import { XlsxError } from './errors';
import type { SharedStringTable } from './shared-strings-part';
import type { XmlHandler } from './xml-scanner';

export interface SheetBatch {
  rows: CellValue[][];
  rowNumbers: number[];
  issues: ReaderRowIssue[];
}

/** What the row reader needs of its workbook to decode cells. */
export interface SheetContext {
  readonly sharedStrings: SharedStringTable;
  /** Per cell style index (`s`): true when its number format shows a date. */
  readonly dateStyles: readonly boolean[];
  readonly date1904: boolean;
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

export class SheetRowReader implements XmlHandler {
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
    private readonly wb: SheetContext,
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
