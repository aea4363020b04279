/**
 * The vocabulary shared by the pipeline, the readers and the format definitions.
 *
 * A format is data plus three small plug points: file kinds (recognition + column template +
 * rules), a reader (bytes -> tables of rows; the CSV reader unless the format brings its own) and
 * an asset mapping (valid rows -> stored assets). The pipeline (pipeline.ts) is the same for all.
 */
import type { Readable } from 'node:stream';
import type { Asset } from './asset';
import type { ImportJobFormat } from '../../schemas/import-job-formats';
import type { ImportError, Severity } from './report';
import type { ArchiveLimits } from './readers/zip/limits';

/**
 * Every `ImportJobFormat` of the API (wire names), implemented or not: the one list of formats
 * lives in schemas/import-job-formats.ts. formats/index.ts says, for each, how it is imported or why
 * it is not.
 */
export { IMPORT_JOB_FORMATS, type ImportJobFormat } from '../../schemas/import-job-formats';

/** One payload file. `open()` may be called more than once (execution reads files again). */
export interface PayloadFile {
  /** The file name; its last path segment is what recognition looks at. */
  name: string;
  /** Size in bytes when known; a file announced larger than `maxFileBytes` is not opened. */
  size?: number;
  open(): NodeJS.ReadableStream | Readable;
}

export interface EngineOptions {
  /** Row errors listed per file before the report is cut (`partialReport`). Default 1000. */
  maxRowErrorsPerFile?: number;
  /** Largest accepted file. Default 100 MiB (104,857,600 bytes), Migration Center's upload limit. */
  maxFileBytes?: number;
  /**
   * Longest accepted row (record) in bytes, and so the longest field. Default 1 MiB. A longer row
   * is reported and skipped without being held in memory.
   */
  maxRowBytes?: number;
  /** Assets per `AssetSink.write` call. Default 1000. */
  sinkBatchSize?: number;
  /**
   * Source bytes of child files (performance, disks, tags) up to which execution folds their rows
   * in memory; beyond, the folded rows are kept in a temp database. Default 16 MiB.
   */
  joinMemoryBytes?: number;
  /**
   * Bounds of a `.zip` payload file (entry count, inflated total, ratio; `maxEntryBytes` defaults
   * to `maxFileBytes`): see readers/zip/limits.ts for the defaults.
   */
  archiveLimits?: Partial<ArchiveLimits>;
  signal?: AbortSignal;
  /** Called after each batch of rows; `rowsRead` grows monotonically over one call. */
  onProgress?: (p: { rowsRead: number; file: string }) => void;
}

/** A cell as a reader delivers it: CSV readers give strings; workbook readers may give typed values. */
export type CellValue = string | number | boolean | Date | null | undefined;

export type ColumnType = 'string' | 'int' | 'number' | 'bool' | 'timestamp' | 'ip' | 'ipList' | 'mac' | 'labelKey' | 'labelValue';

/**
 * - required: the column must be in the header (else a file ERROR) and each row needs a value
 *   (unless `allowEmpty`);
 * - recommended: a missing column is a file WARNING; empty values are fine;
 * - optional: may be missing or empty.
 */
export type Presence = 'required' | 'recommended' | 'optional';

export interface ColumnSpec {
  /** Canonical header, as the template writes it. */
  name: string;
  /** Other accepted headers (matched like the name: case, spaces, `(optional)` ignored). */
  aliases?: readonly string[];
  type: ColumnType;
  presence: Presence;
  /** For a required column: the header is required but a row may leave the value empty. */
  allowEmpty?: boolean;
  unit?: 'GiB' | 'MiB' | 'bytes' | 'percent' | 'cores' | 'operations/s' | 'bytes/s';
  min?: number;
  max?: number;
  description: string;
  /** A value for the template's example row. */
  example?: string;
  /** Added by the reader, never in a file: left out of templates. */
  derived?: boolean;
  /** Appended to the message when the column is missing from a header: how to get it into the file. */
  missingHint?: string;
}

/**
 * A parsed row: canonical column name -> typed value. Strings are trimmed; numbers are numbers;
 * `bool` gives booleans; `timestamp` gives epoch milliseconds (UTC); `ipList` gives string[].
 * Empty cells and absent columns are `undefined`.
 */
export type RowRecord = Record<string, unknown>;

export interface RowReporter {
  error(message: string): void;
  warning(message: string): void;
  info(message: string): void;
}

/** A rule over one row, possibly stateful across the rows of one table (one `create()` per table). */
export interface RowRule {
  id: string;
  severity: Severity;
  description: string;
  create(): (record: RowRecord, report: RowReporter) => void;
}

export interface FileKind {
  /** 'machines' | 'performance' | 'disks' | 'tags' | ... */
  kind: string;
  /** The template's file name, for messages and docs (`vmInfo.csv`). */
  title: string;
  /** Tested against the last path segment of the payload file name. */
  fileName: RegExp;
  /** Workbook readers: which sheet holds this table. */
  sheetName?: RegExp;
  /** When several kinds match one file name, the header decides (first kind whose test passes). */
  headerMatch?: (normalisedHeader: readonly string[]) => boolean;
  /** The job fails (job error) without a file of this kind. */
  required: boolean;
  /** More than one file of this kind is accepted; otherwise a second one is a file error. */
  multiple?: boolean;
  columns: readonly ColumnSpec[];
  /** A unique column: its values identify rows other kinds refer to. */
  key?: string;
  /** Each row must name a `key` value of another kind. */
  references?: { column: string; kind: string };
  /** Columns naming the row in row errors (`vmName`, `vmUuid`, `assetTitle`). */
  identity?: { name?: string; uuid?: string; title?: string };
  rules?: readonly RowRule[];
  description: string;
}

/** One delivered row problem that belongs to a row the reader did deliver (malformed quotes). */
export interface ReaderRowIssue {
  rowNumber: number;
  issue: ImportError;
}

export type ReaderEvent =
  /** Starts a table: a CSV file, or one sheet of a workbook. */
  | { type: 'table'; header: string[]; headerRow: number; sheet?: string }
  /** Consecutive rows `firstRow`, `firstRow + 1`, ... unless `rowNumbers` says otherwise. */
  | { type: 'rows'; firstRow: number; rows: CellValue[][]; rowNumbers?: number[]; issues?: ReaderRowIssue[] }
  /**
   * A row the reader could not deliver (for example longer than `maxRowBytes`) or leaves out (an
   * RVTools child row whose VM is not in vInfo); `vmName` when the reader knows the row's VM.
   */
  | { type: 'rowIssue'; rowNumber: number; issue: ImportError; vmName?: string }
  /** A file problem; `fatal` ends the file. */
  | { type: 'fileIssue'; issue: ImportError; fatal: boolean };

export interface ReaderContext {
  fileName: string;
  maxRowBytes: number;
  signal?: AbortSignal;
  /**
   * For readers of several tables (workbook sheets): the tables the caller needs from this read;
   * others may be skipped unread. The caller decides (the pipeline's build pass needs only the
   * machine sheets); absent, every table the reader was configured for is read.
   */
  tables?: (sheet: string) => boolean;
  /**
   * State a format's reader keeps across the files of one import run (one map per run): the
   * RVTools CSV tabs are separate files but join to the vInfo file read before them.
   */
  runState?: Map<string, unknown>;
}

/**
 * Turns the bytes of one payload file into tables of rows: the generic async iterator the pipeline
 * consumes (`table`, then `rows` batches of `{rowNumber, record}` pairs, plus row and file issues).
 * The byte source is already guarded (size limit, non-byte chunks, stream errors); it throws when
 * the file cannot be read further. Rows come in batches so the per-row cost stays in the checks
 * (one `await` per row would cost as much as parsing the row).
 */
export type Reader = (bytes: AsyncIterable<Buffer>, ctx: ReaderContext) => AsyncIterable<ReaderEvent>;

/** Folds valid rows into assets. `C` is the per-machine accumulator of child rows. */
export interface AssetMapping<C> {
  /** The kind whose rows become assets (one per row), keyed by that kind's `key`. */
  machineKind: string;
  /** An empty accumulator for the child rows (kinds that `reference` the machine kind) of one machine. */
  newChildren(): C;
  /** Folds one valid child row. Keep only what `build` needs: child rows are held until their machine is built. */
  addChild(kind: string, children: C, record: RowRecord): void;
  /** Builds one asset and says how many frames it counts for (see the format's docs). */
  build(machine: RowRecord, children: C | undefined): { asset: Asset; frames: number };
}

export interface FormatDefinition<C = any> {
  format: ImportJobFormat;
  label: string;
  description: string;
  /** In processing order: the kind other kinds refer to comes first. */
  fileKinds: readonly FileKind[];
  /** Default: the shared CSV reader. */
  reader?: Reader;
  assets: AssetMapping<C>;
}
