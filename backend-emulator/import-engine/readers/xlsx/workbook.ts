/**
 * An open workbook: its zip directory, its sheets (found through the workbook's relationships, in
 * the workbook's order), the 1904 date system flag, and once loaded its shared strings and date
 * styles. It hands out one sheet at a time: the merged ranges (merges.ts) and the rows in batches
 * (sheet-rows.ts). Unrequested sheets are never inflated.
 */
import type { ZipSource } from '../zip-source';
import { readDateStyles } from './date-styles';
import { XlsxError } from './errors';
import { workbookBudget, inflateEntry, type InflateBudget } from './zip';
import { DEFAULT_XLSX_LIMITS, type XlsxLimits } from './limits';
import { prescanMerges } from './merges';
import { readRelationships, resolvePart, type Relationship } from './package-parts';
import { decodeText, scanXml } from './part-xml';
import { EMPTY_TABLE, readSharedStrings, type SharedStringTable } from './shared-strings-part';
import { SheetRowReader, type SheetBatch } from './sheet-rows';
import { XmlScanner, attr } from './xml-scanner';
import { readZipDirectory, zipSourceOf, type ZipEntry } from './zip';

export interface SheetInfo {
  name: string;
  /** Zip entry name of the sheet part. */
  part: string;
  state: 'visible' | 'hidden' | 'veryHidden';
}

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
    this.budget = workbookBudget(limits);
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

  private rels(part: string): Promise<Relationship[]> {
    return readRelationships(this.zip, (p) => this.entry(p), this.budget, part);
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
      if (e) this.dateStyles = await readDateStyles(this.zip, e, this.budget);
    }
    if (this.sharedStringsPart) {
      const e = this.entry(this.sharedStringsPart);
      if (e) this.sharedStrings = await readSharedStrings(this.zip, e, this.budget, this.limits);
    }
  }

  /** Releases what the workbook holds outside memory (a spooled shared-string table). */
  close(): void {
    this.sharedStrings.close();
  }

  /** A fast byte-level pass over a sheet: enforces the caps and the CRC, and collects merged ranges. */
  async prescanSheet(sheet: SheetInfo): Promise<{ merges: string[] }> {
    return prescanMerges(this.zip, this.sheetEntry(sheet), this.budget);
  }

  /** Streams the rows of a sheet in batches; see `SheetRowReader`. */
  async *rows(sheet: SheetInfo, batchRows = 1000, maxRowChars = Number.MAX_SAFE_INTEGER): AsyncGenerator<SheetBatch> {
    const e = this.sheetEntry(sheet);
    const reader = new SheetRowReader(this, sheet.name, maxRowChars);
    const scanner = new XmlScanner(reader, `sheet "${sheet.name}"`, this.limits.maxTokenChars);
    for await (const text of decodeText(inflateEntry(this.zip, e, this.budget), e.name)) {
      scanner.feed(text);
      if (reader.batch.rows.length >= batchRows) yield reader.takeBatch();
    }
    scanner.end();
    if (reader.batch.rows.length > 0) yield reader.takeBatch();
  }

  private sheetEntry(sheet: SheetInfo): ZipEntry {
    const e = this.entry(sheet.part);
    if (!e) throw new XlsxError(`the sheet "${sheet.name}" has no part ${sheet.part} in the archive`, 'MISSING_PART');
    return e;
  }
}
