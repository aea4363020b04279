/**
 * Writers of export tables: a header and rows of cells, streamed to a file as they come (an
 * export of 600,000 assets is never held in memory), counted (rows, columns, bytes) for the
 * execution's `outputFiles`.
 *
 * CSV follows RFC 4180: CRLF line ends; a cell holding a comma, a quote, a line break, or
 * leading or trailing spaces is quoted, with its quotes doubled. An absent cell is empty. The
 * header is not counted in `rowCount`.
 */
import * as fs from 'fs';
import { once } from 'events';
import { OWNER_ONLY_FILE } from '../../private-files';

/** A cell: text, a number, a boolean, or absent (empty). */
export type Cell = string | number | boolean | undefined;

/** What one written file holds, for `CsvOutputFile` / `XlsxOutputFile` and `fileSizeBytes`. */
export interface WrittenTable {
  /** The file's name (`inventory.csv`), the name its signed URL gives it. */
  file: string;
  columnsCount: number;
  rowCount: number;
  sizeBytes: number;
}

export interface TableWriter {
  /** Appends rows (one call per page of the source: one write, and a wait while the disk catches up). */
  writeRows(rows: readonly (readonly Cell[])[]): Promise<void>;
  /** Finishes the file (flushed, under its final name) and says what it holds. */
  close(): Promise<WrittenTable>;
  /** Drops the file (a stopped export leaves nothing half written). */
  abort(): void;
}

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

export function csvCell(value: Cell): string {
  if (value === undefined) return '';
  const text = String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly Cell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * A CSV file written under `{path}.part` and renamed to `path` when closed: a reader of the
 * folder never sees a partial file under the final name.
 */
export class CsvFileWriter implements TableWriter {
  private readonly stream: fs.WriteStream;
  private readonly partPath: string;
  private rows = 0;
  private bytes = 0;
  private failure: Error | undefined;

  constructor(
    private readonly path: string,
    private readonly file: string,
    private readonly columns: readonly string[],
  ) {
    this.partPath = `${path}.part`;
    // Only the owner's, as every file of the data dir.
    this.stream = fs.createWriteStream(this.partPath, { flags: 'w', mode: OWNER_ONLY_FILE });
    this.stream.on('error', (err) => {
      this.failure = err;
    });
    this.push(csvLine(columns));
  }

  /** Writes `text`; false when the stream's buffer is full (wait for 'drain'). */
  private push(text: string): boolean {
    this.bytes += Buffer.byteLength(text);
    return this.stream.write(text);
  }

  async writeRows(rows: readonly (readonly Cell[])[]): Promise<void> {
    if (this.failure) throw this.failure;
    if (rows.length === 0) return;
    let text = '';
    for (const row of rows) text += csvLine(row);
    this.rows += rows.length;
    if (!this.push(text)) await once(this.stream, 'drain');
  }

  async close(): Promise<WrittenTable> {
    if (this.failure) throw this.failure;
    await new Promise<void>((resolve, reject) => {
      this.stream.once('error', reject);
      this.stream.end(() => resolve());
    });
    fs.renameSync(this.partPath, this.path);
    return { file: this.file, columnsCount: this.columns.length, rowCount: this.rows, sizeBytes: this.bytes };
  }

  abort(): void {
    this.stream.destroy();
    fs.rmSync(this.partPath, { force: true });
  }
}
