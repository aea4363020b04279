/**
 * One row of a payload read back, for whoever reads a report (the console's opened row error):
 * the header of its table and its cells, found by the report's file name (an archive's entry as
 * `<zip>/<entry path>`), sheet (workbooks) and row number. Google's ImportRowError carries no cell
 * values, so this reads the stored file again: streamed up to the row, then the read stops.
 */
import type { Readable } from 'stream';
import { expandArchives } from './archives';
import { FORMATS } from './formats';
import { DEFAULTS } from './pipeline';
import { csvReader } from './readers/csv';
import { guardedBytes } from './source';
import type { CellValue, ImportJobFormat, PayloadFile } from './types';
import { toWireFormat } from '../../schemas/aliases';

export interface RowLocation {
  /** The file as the report names it. */
  fileName: string;
  /** The workbook sheet (xlsxError.sheet); absent for CSV files. */
  sheet?: string;
  rowNumber: number;
}

export interface RowCells {
  /** The table's header (the column names), as the file has it. */
  header: string[];
  /** The row's cells, by column (shorter than the header when the row ends early). */
  cells: CellValue[];
}

/**
 * The file, whose opened stream is destroyed when `signal` aborts: a read waiting for bytes (a
 * storage download that stalls) ends then, instead of at the next byte that may never come.
 */
function abortable(file: PayloadFile, signal: AbortSignal | undefined): PayloadFile {
  if (!signal) return file;
  return {
    ...file,
    open: () => {
      signal.throwIfAborted();
      const stream = file.open() as Partial<Readable>;
      signal.addEventListener('abort', () => stream.destroy?.(signal.reason instanceof Error ? signal.reason : new Error('aborted')), { once: true });
      return stream as Readable;
    },
  };
}

/** The row at `where`, or undefined when the file, sheet or row is not there (or cannot be read). */
export async function readRowCells(format: string, files: readonly PayloadFile[], where: RowLocation, signal?: AbortSignal): Promise<RowCells | undefined> {
  const definition = FORMATS[toWireFormat(format) as ImportJobFormat];
  if (!definition) return undefined;
  const expanded = await expandArchives(
    definition,
    files.map((f) => abortable(f, signal)),
    { maxFileBytes: DEFAULTS.maxFileBytes, signal },
  );
  try {
    const file = expanded.files.find((f) => f.name === where.fileName);
    if (!file) return undefined;
    const reader = definition.reader ?? csvReader;
    const ctx = {
      fileName: file.name,
      maxRowBytes: DEFAULTS.maxRowBytes,
      ...(where.sheet !== undefined ? { tables: (sheet: string) => sheet === where.sheet } : {}),
    };
    let header: string[] | undefined;
    for await (const ev of reader(guardedBytes(file, DEFAULTS.maxFileBytes, { bytes: 0 }), ctx)) {
      signal?.throwIfAborted();
      if (ev.type === 'table') {
        header = where.sheet === undefined || ev.sheet === where.sheet ? ev.header : undefined;
        if (header && ev.headerRow === where.rowNumber) return { header, cells: ev.header };
      } else if (ev.type === 'rows' && header) {
        const at = ev.rowNumbers ? ev.rowNumbers.indexOf(where.rowNumber) : where.rowNumber - ev.firstRow;
        if (at >= 0 && at < ev.rows.length) return { header, cells: ev.rows[at] };
        const last = ev.rowNumbers ? ev.rowNumbers[ev.rowNumbers.length - 1] : ev.firstRow + ev.rows.length - 1;
        if (last > where.rowNumber) return undefined; // passed it: the row was skipped (a row issue), no cells
      } else if (ev.type === 'fileIssue' && ev.fatal) {
        return undefined;
      }
    }
    return undefined;
  } catch (e) {
    if (signal?.aborted) throw e;
    return undefined; // a file that no longer reads: nothing to show
  } finally {
    expanded.close();
  }
}
