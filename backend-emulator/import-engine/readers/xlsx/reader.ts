/**
 * The workbook Reader: one `table` event per requested sheet, its header being the sheet's first
 * non-empty row, then its rows in batches. It decides what a table is (header row, merged header
 * cells refused, blank header cells, padding to the header) and turns workbook-level problems (not a
 * zip, zip bomb, DOCTYPE, corrupt parts) into a fatal file issue naming the sheet concerned. Which
 * sheets to read, in which order, and which of them a given read needs are the caller's choice.
 */
import { normaliseHeader } from '../../columns';
import { error, info, warning } from '../../report';
import type { Reader, ReaderContext, ReaderEvent } from '../../types';
import { SPOOL_THRESHOLD_BYTES, collectZip, type ZipSource } from '../zip-source';
import { columnName, rangeRows } from './cell-refs';
import { ZipError } from '../zip/errors';
import { DEFAULT_XLSX_LIMITS, type XlsxLimits } from './limits';
import { inRowOrder } from './row-order';
import { XlsxWorkbook, type SheetInfo } from './workbook';

export interface XlsxReaderOptions {
  /**
   * The sheets to read, in this order (the caller's choice: a format lists first the sheet the
   * others refer to). Sheet names match case-blind,
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
      if (e instanceof ZipError) {
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
    // A caller that needs only some of the tables from this read says so (`ReaderContext.tables`):
    // the other sheets are then not inflated at all.
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
        if (e instanceof ZipError) {
          yield fatal(`${where}: ${e.message}`);
          return;
        }
        throw e;
      }
    }
  }
}
