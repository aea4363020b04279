/**
 * The one import pipeline. For a format definition it
 * 1. recognises each payload file by its name (and header where names are ambiguous) as one of
 *    the format's file kinds, or reports "unknown file name" (job error when the file belongs to
 *    another format);
 * 2. streams each file through the format's reader (the shared CSV reader by default), files of
 *    the kind other kinds refer to first;
 * 3. binds the header to the kind's column template and checks each row: presence, type, range,
 *    the kind's rules;
 * 4. checks cross-file rules: the key column is unique, references name an existing key;
 * 5. reports job, file and row errors in the wire shape, at most `maxRowErrorsPerFile` rows per
 *    file (`partialReport`).
 *
 * Execution runs the same passes and hands valid rows to the format's asset mapping. Memory is
 * bounded: the key index (a 64-bit hash and a row number per machine id) plus, while joining child
 * rows to machines, their folded form: in memory up to `joinMemoryBytes` of child source data,
 * in a temp database beyond (child-store.ts).
 */
import { archiveMemberOf, expandArchives, withArchiveReports, type ArchiveMember } from './archives';
import { nameTells, readAsOf } from './content-kind';
import type { Asset, AssetSink } from './asset';
import { clip, isEmptyCell, normaliseHeader, PARSERS, type CellParser } from './columns';
import { csvReader } from './readers/csv';
import {
  error,
  info,
  warning,
  type ExecutionReport,
  type FileValidationReport,
  type ImportError,
  type ImportRowError,
  type Severity,
  type ValidationReport,
} from './report';
import { guardedBytes, SourceError, type GuardStats } from './source';
import { childStore, type ChildStore } from './child-store';
import { KeySet } from './key-set';
import { baseName } from './util';
import type {
  CellValue,
  ColumnSpec,
  EngineOptions,
  FileKind,
  FormatDefinition,
  PayloadFile,
  ReaderEvent,
  ReaderRowIssue,
  RowRecord,
  RowReporter,
} from './types';

export const DEFAULTS = {
  maxRowErrorsPerFile: 1000,
  maxFileBytes: 100 * 1024 * 1024,
  maxRowBytes: 1024 * 1024,
  sinkBatchSize: 1000,
  joinMemoryBytes: 16 * 1024 * 1024,
} as const;

type Options = Required<Omit<EngineOptions, 'signal' | 'onProgress' | 'archiveLimits'>> & Pick<EngineOptions, 'signal' | 'onProgress' | 'archiveLimits'>;

function resolveOptions(o: EngineOptions = {}): Options {
  const pick = (v: number | undefined, d: number, min: number) => (typeof v === 'number' && v >= min ? v : d);
  return {
    maxRowErrorsPerFile: pick(o.maxRowErrorsPerFile, DEFAULTS.maxRowErrorsPerFile, 0),
    maxFileBytes: pick(o.maxFileBytes, DEFAULTS.maxFileBytes, 0),
    maxRowBytes: pick(o.maxRowBytes, DEFAULTS.maxRowBytes, 16),
    sinkBatchSize: Math.floor(pick(o.sinkBatchSize, DEFAULTS.sinkBatchSize, 1)),
    joinMemoryBytes: pick(o.joinMemoryBytes, DEFAULTS.joinMemoryBytes, 1),
    signal: o.signal,
    onProgress: o.onProgress,
    archiveLimits: o.archiveLimits,
  };
}

export { baseName };

/** Collects the issues of one row; allocation-free for clean rows. */
class RowIssues implements RowReporter {
  list: ImportError[] | null = null;
  hasError = false;
  reset(): void {
    this.list = null;
    this.hasError = false;
  }
  add(severity: Severity, errorDetails: string): void {
    (this.list ??= []).push({ errorDetails, severity });
    if (severity === 'ERROR') this.hasError = true;
  }
  error(message: string): void {
    this.add('ERROR', message);
  }
  warning(message: string): void {
    this.add('WARNING', message);
  }
  info(message: string): void {
    this.add('INFO', message);
  }
}

interface BoundColumn {
  spec: ColumnSpec;
  name: string;
  /** Position in the header. */
  index: number;
  /** Position in the kind's columns (and in the record constructor's value array). */
  slot: number;
  parse: CellParser;
  requiredValue: boolean;
}

interface Binding {
  kind: FileKind;
  columns: BoundColumn[];
  headerLength: number;
  /** Builds a record from values in the kind's column order (all columns, absent ones undefined). */
  Record: new (values: unknown[]) => RowRecord;
  identity: { name: number; uuid: number; title: number };
  issues: ImportError[];
  fatal: boolean;
}

function matchesColumn(spec: ColumnSpec, normalised: string): boolean {
  if (spec.name.toLowerCase() === normalised) return true;
  return (spec.aliases ?? []).some((a) => normaliseHeader(a) === normalised);
}

/**
 * Binds a header to a kind's columns; reports duplicates, missing and unknown columns. `table`
 * names the header's own file or sheet in the messages: one kind can read files of several names
 * (CMDB's `cmdb_ci_linux_server.csv` is read as servers), and the user fixes the file they have.
 */
export function bindHeader(kind: FileKind, header: readonly CellValue[], table = kind.title): Binding {
  const issues: ImportError[] = [];
  const normalised = header.map((h) => normaliseHeader(h === null || h === undefined ? '' : String(h)));
  const columns: BoundColumn[] = [];
  const taken = new Map<number, string>();
  let fatal = false;
  for (const spec of kind.columns) {
    const found: number[] = [];
    normalised.forEach((h, i) => {
      if (h !== '' && matchesColumn(spec, h)) found.push(i);
    });
    if (found.length > 1) {
      issues.push(error(`the column ${spec.name} appears ${found.length} times in the header (positions ${found.map((i) => i + 1).join(', ')})`));
      fatal = true;
    }
    if (found.length === 0) {
      if (spec.presence === 'required') {
        const hint = spec.missingHint ? `: ${spec.missingHint}` : '';
        issues.push(error(`the required column ${spec.name} is missing from the header of ${table}${hint}`));
        fatal = true;
      } else if (spec.presence === 'recommended') {
        const hint = spec.missingHint ? `: ${spec.missingHint}` : '';
        issues.push(warning(`the column ${spec.name} is missing from the header of ${table}; it is recommended${hint}`));
      }
      continue;
    }
    taken.set(found[0], spec.name);
    columns.push({
      spec,
      name: spec.name,
      index: found[0],
      slot: kind.columns.indexOf(spec),
      parse: PARSERS[spec.type],
      requiredValue: spec.presence === 'required' && !spec.allowEmpty,
    });
  }
  // Unnamed cells after the last named one are what a spreadsheet re-save leaves (formatted empty
  // columns): ignored without a word. An unnamed column between named ones is worth an INFO.
  let lastNamed = -1;
  normalised.forEach((h, i) => {
    if (h !== '') lastNamed = i;
  });
  normalised.forEach((h, i) => {
    if (taken.has(i) || kind.columns.some((c) => h !== '' && matchesColumn(c, h))) return;
    const raw = String(header[i] ?? '');
    if (h === '') {
      if (i < lastNamed || header.length === 1) issues.push(info(`the column at position ${i + 1} has no name; it is ignored`));
    } else {
      issues.push(info(`the column "${clip(raw.trim())}" is not part of the ${kind.title} template; it is ignored`));
    }
  });
  const indexOf = (name: string | undefined) => (name ? (columns.find((c) => c.name === name)?.index ?? -1) : -1);
  return {
    kind,
    columns,
    headerLength: header.length,
    Record: recordConstructor(kind),
    identity: { name: indexOf(kind.identity?.name), uuid: indexOf(kind.identity?.uuid), title: indexOf(kind.identity?.title) },
    issues,
    fatal,
  };
}

const constructors = new WeakMap<FileKind, new (values: unknown[]) => RowRecord>();

/**
 * A constructor assigning every column of `kind` by name, in order: all records of a kind share one
 * object shape. (Cloning a template object and assigning by computed keys costs ~50x more per row.)
 * The generated code only holds the column names, JSON-escaped.
 */
function recordConstructor(kind: FileKind): new (values: unknown[]) => RowRecord {
  let ctor = constructors.get(kind);
  if (!ctor) {
    const body = kind.columns.map((c, i) => `this[${JSON.stringify(c.name)}] = v[${i}];`).join('\n');
    ctor = new Function('v', body) as unknown as new (values: unknown[]) => RowRecord;
    constructors.set(kind, ctor);
  }
  return ctor;
}

interface KeyIndex {
  ids: KeySet;
  /** False once a file of the key kind could not be read to its end: references are then not checked. */
  complete: boolean;
}

interface FileRun {
  file: PayloadFile;
  base: string;
  /** Set when the file is an entry of an archive (its row errors say so). */
  member?: ArchiveMember;
  report: FileValidationReport;
  /** Candidate kinds by name; empty for unrecognised files (never read). */
  kinds: FileKind[];
  /** Kind index used to order files (the kind others refer to first). */
  order: number;
  skip: boolean;
  bytes: number;
  listedError: boolean;
  overflowNoted: boolean;
  refNoteDone: boolean;
  /** The name says nothing: settleKinds recognises the file by its header, or reports the name. */
  byContent: boolean;
}

type PassMode = 'validate' | 'execute' | 'build';

interface Pass {
  mode: PassMode;
  /** Machine rows become assets in this pass (execution without child files, or the build pass). */
  emitMachines: boolean;
  /** Execution with child files: valid child rows are folded into this store, and taken from it by the build pass. */
  children?: ChildStore<unknown>;
  /** The build pass reads only the machine tables of a file. */
  only?: 'machines';
}

export class ImportRun {
  readonly options: Options;
  readonly jobErrors: ImportError[] = [];
  readonly files: FileRun[] = [];
  private readonly keys = new Map<string, KeyIndex>();
  private readonly presentKinds = new Set<string>();
  totalRows = 0;
  frames = 0;
  private progressRows = 0;
  private sink?: AssetSink<unknown>;
  /** Built assets not yet written, each as the sink's `prepare` made it (or as built, without one). */
  private pending: unknown[] = [];
  /** The readers' state across the files of this run (ReaderContext.runState). */
  private readonly readerState = new Map<string, unknown>();

  constructor(
    readonly definition: FormatDefinition,
    payload: readonly PayloadFile[],
    options?: EngineOptions,
    readonly otherFormatHint?: (base: string) => { format: string; label: string } | undefined,
    /** Archives the payload had (expanded into `payload` by archives.ts): with one, an empty payload is not "no files". */
    archiveCount = 0,
  ) {
    this.options = resolveOptions(options);
    if (!Array.isArray(payload) || (payload.length === 0 && archiveCount === 0)) {
      this.jobErrors.push(error('the import job has no payload files'));
      return;
    }
    const mixed = new Map<string, string>();
    payload.forEach((file) => {
      const name = typeof file?.name === 'string' ? file.name : '';
      // A workbook recognised by its content (archives.ts) is read as if named `<name>.xlsx`.
      const readAs = readAsOf(file);
      const base = readAs ?? baseName(name);
      const kinds = definition.fileKinds.filter((k) => k.fileName.test(base));
      const run: FileRun = {
        file,
        base,
        member: archiveMemberOf(file),
        report: { fileName: name, rowErrors: [], partialReport: false, fileErrors: [] },
        kinds,
        order: kinds.length ? Math.min(...kinds.map((k) => definition.fileKinds.indexOf(k))) : Number.MAX_SAFE_INTEGER,
        skip: kinds.length === 0,
        bytes: 0,
        listedError: false,
        overflowNoted: false,
        refNoteDone: false,
        byContent: false,
      };
      this.files.push(run);
      if (readAs !== undefined) {
        run.report.fileErrors.push(
          info(`"${clip(baseName(name))}" is read as a workbook (.xlsx): its name does not say what it is, and its content is a workbook`),
        );
      }
      if (kinds.length > 0) return;
      const other = otherFormatHint?.(base);
      if (other) {
        mixed.set(other.format, other.label);
        run.report.fileErrors.push(error(`"${clip(base)}" is a file of the ${other.label} format (${other.format}), not of ${definition.label}`));
      } else if (/\.(gz|tgz|7z|rar)$/i.test(base)) {
        run.report.fileErrors.push(
          error(`"${clip(base)}" is an archive of a kind that is not read (only .zip is); upload the files it contains (${this.titles()})`),
        );
      } else if (!nameTells(definition, base)) {
        run.byContent = true; // settleKinds reads its header
      } else {
        run.report.fileErrors.push(error(`unknown file name "${clip(base)}": ${definition.label} accepts ${this.titles()}`));
      }
    });
    if (mixed.size > 0) {
      const list = [...mixed].map(([f, l]) => `${l} (${f})`).join(', ');
      this.jobErrors.push(
        error(`the payload mixes formats: the job is ${definition.label} (${definition.format}) but has files of ${list}; one import job takes one format`),
      );
    }
  }

  private titles(): string {
    return this.definition.fileKinds.map((k) => k.title).join(', ');
  }

  /** Header-based recognition for names several kinds share, duplicate files, missing required kinds. */
  private async settleKinds(): Promise<void> {
    for (const run of this.files) if (run.byContent) await this.recogniseByHeader(run);
    for (const run of this.files) {
      if (run.skip || run.kinds.length < 2 || run.kinds.some((k) => k.sheetName)) continue;
      const header = await this.peekHeader(run);
      const norm = header?.map((h) => normaliseHeader(String(h ?? ''))) ?? [];
      const chosen =
        run.kinds.find((k) => k.headerMatch?.(norm)) ??
        run.kinds.find((k) => !k.headerMatch && k.columns.filter((c) => c.presence === 'required').every((c) => norm.some((h) => matchesColumn(c, h))));
      if (chosen) {
        run.kinds = [chosen];
        run.order = this.definition.fileKinds.indexOf(chosen);
      } else if (header) {
        run.skip = true;
        run.report.fileErrors.push(
          error(`"${clip(run.base)}" matches ${run.kinds.map((k) => k.title).join(' and ')} by name but its header fits none of them`),
        );
      }
    }
    const firstOfKind = new Map<string, FileRun>();
    for (const run of this.files) {
      if (run.skip || run.kinds.length !== 1) continue;
      const kind = run.kinds[0];
      this.presentKinds.add(kind.kind);
      const first = firstOfKind.get(kind.kind);
      if (first && !kind.multiple) {
        run.skip = true;
        run.report.fileErrors.push(error(`a second ${kind.title} ("${clip(first.file.name)}" is the first); an import takes one ${kind.title}`));
      } else if (!first) firstOfKind.set(kind.kind, run);
    }
    for (const run of this.files) if (!run.skip && run.kinds.length > 1) run.kinds.forEach((k) => this.presentKinds.add(k.kind));
    for (const kind of this.definition.fileKinds) {
      if (kind.required && !this.presentKinds.has(kind.kind)) {
        this.jobErrors.push(error(`${kind.title} is required in every ${this.definition.label} import, and the payload has none`));
      }
    }
  }

  /**
   * A file whose name says nothing (`vminfo-1`): the table kind whose columns its header fits best
   * (every required column present, the most columns matched, no tie). The name still wins when it
   * tells: only files the constructor could not place come here.
   */
  private async recogniseByHeader(run: FileRun): Promise<void> {
    run.byContent = false;
    const header = await this.peekHeader(run);
    const norm = header?.map((h) => normaliseHeader(String(h ?? ''))) ?? [];
    let best: FileKind | undefined;
    let bestScore = 0;
    let tie = false;
    for (const k of this.definition.fileKinds) {
      const required = k.columns.filter((c) => c.presence === 'required');
      if (k.sheetName || required.length === 0 || norm.length === 0) continue;
      if (k.headerMatch ? !k.headerMatch(norm) : !required.every((c) => norm.some((h) => matchesColumn(c, h)))) continue;
      const score = k.columns.filter((c) => norm.some((h) => matchesColumn(c, h))).length;
      if (score > bestScore) [best, bestScore, tie] = [k, score, false];
      else if (score === bestScore) tie = true;
    }
    if (!best || tie) {
      run.report.fileErrors.push(error(`unknown file name "${clip(run.base)}": ${this.definition.label} accepts ${this.titles()}`));
      return;
    }
    const shown = run.base;
    // Readers that tell tables apart by file name (the RVTools CSV tabs) see the kind's own name.
    if (best.fileName.test(best.title)) run.base = best.title;
    run.kinds = [best];
    run.skip = false;
    run.order = this.definition.fileKinds.indexOf(best);
    run.report.fileErrors.push(info(`"${clip(shown)}" is read as ${best.title}: its name does not say what it is, and its header is that file's`));
  }

  private async peekHeader(run: FileRun): Promise<CellValue[] | undefined> {
    const reader = this.definition.reader ?? csvReader;
    try {
      const stats: GuardStats = { bytes: 0 };
      for await (const ev of reader(guardedBytes(run.file, this.options.maxFileBytes, stats), { fileName: run.base, maxRowBytes: this.options.maxRowBytes })) {
        if (ev.type === 'table') return ev.header;
        if (ev.type === 'fileIssue' && ev.fatal) return undefined;
      }
    } catch {
      /* reported when the file is read */
    }
    return undefined;
  }

  private orderedFiles(): FileRun[] {
    return this.files.filter((f) => !f.skip).sort((a, b) => a.order - b.order);
  }

  private checkAbort(): void {
    this.options.signal?.throwIfAborted();
  }

  /** The first pass over every file: validation (and, without child files, asset emission). */
  async firstPass<T>(mode: 'validate' | 'execute', sink?: AssetSink<T>): Promise<void> {
    try {
      await this.passes(mode, sink);
    } catch (e) {
      throw e instanceof PassThroughError ? e.original : e;
    }
  }

  private async passes<T>(mode: 'validate' | 'execute', sink?: AssetSink<T>): Promise<void> {
    await this.settleKinds();
    this.sink = sink;
    const files = this.orderedFiles();
    const machineKind = this.definition.assets.machineKind;
    const hasChildren = files.some((f) => f.kinds.some((k) => k.kind !== machineKind));
    if (mode === 'validate' || !hasChildren) {
      // Validation, or execution without child tables: machines become assets as they stream.
      for (const run of files) await this.readFile(run, { mode, emitMachines: mode === 'execute' });
    } else {
      // Execution with child tables: the checking pass also folds valid child rows per machine
      // (machine tables come first, so their keys are known); a second pass over the machine
      // tables only builds each asset with its children. Beyond `joinMemoryBytes` of declared
      // child file sizes, the folded rows are kept in a temp database (child-store.ts).
      const childFiles = files.filter((f) => f.kinds.some((k) => k.kind !== machineKind));
      const childBytes = childFiles.reduce((n, f) => n + (f.file.size ?? 0), 0);
      const children = childStore<unknown>(childBytes, this.options.joinMemoryBytes);
      try {
        for (const run of files) await this.readFile(run, { mode, emitMachines: false, children });
        for (const run of files.filter((f) => f.kinds.some((k) => k.kind === machineKind))) {
          await this.readFile(run, { mode: 'build', emitMachines: true, children, only: 'machines' });
        }
      } finally {
        children.close();
      }
    }
    await this.flushSink(true);
  }

  private async flushSink(final: boolean): Promise<void> {
    if (!this.sink) return;
    const size = this.options.sinkBatchSize;
    let at = 0;
    while (this.pending.length - at >= size || (final && this.pending.length - at > 0)) {
      const batch = this.pending.slice(at, at + size);
      at += batch.length;
      this.checkAbort();
      try {
        await this.sink.write(batch);
      } catch (e) {
        throw new PassThroughError(e);
      }
    }
    this.pending = at === 0 ? this.pending : this.pending.slice(at);
  }

  private fileError(run: FileRun, pass: Pass, issue: ImportError): void {
    if (pass.mode !== 'build') run.report.fileErrors.push(issue);
  }

  /** Whether a sheet of the file holds machine rows (the build pass reads no other). */
  private isMachineSheet(run: FileRun, sheet: string): boolean {
    const machineKind = this.definition.assets.machineKind;
    return run.kinds.some((k) => k.kind === machineKind && k.sheetName?.test(sheet) === true);
  }

  /** Reads one file in one pass. Never throws for file problems; rethrows aborts and sink failures. */
  private async readFile(run: FileRun, pass: Pass): Promise<void> {
    const reader = this.definition.reader ?? csvReader;
    const stats: GuardStats = { bytes: 0 };
    const singleTable = run.kinds.every((k) => !k.sheetName);
    const keyKinds = new Set(run.kinds.filter((k) => k.key).map((k) => k.kind));
    let stoppedEarly = false;
    const state = new TableState(this, run, pass);
    try {
      for await (const ev of reader(guardedBytes(run.file, this.options.maxFileBytes, stats), {
        fileName: run.base,
        maxRowBytes: this.options.maxRowBytes,
        signal: this.options.signal,
        tables: pass.only === 'machines' ? (sheet) => this.isMachineSheet(run, sheet) : undefined,
        runState: this.readerState,
      })) {
        this.checkAbort();
        let go: 'go' | 'stop-table' | 'stop-file';
        if (ev.type === 'rows') {
          go = 'go';
          if (state.active) {
            for (let at = 0; ;) {
              const r = state.rows(ev.firstRow, ev.rows, ev.rowNumbers, ev.issues, at);
              if (this.pending.length >= this.options.sinkBatchSize) await this.flushSink(false);
              if (r.status === 'stop-file' || r.next >= ev.rows.length) {
                go = r.status;
                break;
              }
              at = r.next;
            }
          }
          this.options.onProgress?.({ rowsRead: this.progressRows, file: run.file.name });
        } else if (ev.type === 'fileIssue' && ev.fatal && ev.issue.severity === 'ERROR' && stats.bytes === 0 && run.kinds.every((k) => !k.required)) {
          // A 0-byte file of an optional kind is what PowerShell's Export-Csv writes for an empty
          // list (the Azure script's tagInfo.csv of VMs without tags): no rows, not a broken file.
          this.fileError(run, pass, info(`the file is empty (0 bytes): no ${run.kinds[0].title} rows; an optional file may be empty`));
          go = 'stop-file';
        } else {
          go = this.onEvent(run, pass, state, ev);
        }
        if (go === 'stop-file' || (go === 'stop-table' && singleTable)) {
          stoppedEarly = true;
          break;
        }
      }
      if (!stoppedEarly) state.endTable();
    } catch (e) {
      if (this.options.signal?.aborted) throw this.options.signal.reason ?? e;
      if (e instanceof PassThroughError) throw e;
      stoppedEarly = true;
      const message = e instanceof SourceError ? e.message : `the file could not be read: ${e instanceof Error ? e.message : String(e)}`;
      this.fileError(run, pass, error(message));
    }
    if (pass.mode !== 'build') run.bytes = stats.bytes;
    if (stoppedEarly || state.tableFailed) {
      for (const k of keyKinds) {
        const idx = this.keys.get(k);
        if (idx && pass.mode !== 'build') idx.complete = false;
      }
    }
  }

  private onEvent(run: FileRun, pass: Pass, state: TableState, ev: ReaderEvent): 'go' | 'stop-table' | 'stop-file' {
    switch (ev.type) {
      case 'table':
        return state.startTable(ev.header, ev.sheet);
      case 'fileIssue':
        this.fileError(run, pass, ev.issue);
        return ev.fatal ? 'stop-file' : 'go';
      case 'rowIssue':
        if (!state.active) return 'go';
        return state.readerRowIssue(ev.rowNumber, ev.issue, ev.vmName);
      case 'rows':
        return 'go'; // handled in readFile (it may have to flush the sink between rows)
    }
  }

  // ---- services for TableState ----

  keyIndex(kind: string): KeyIndex | undefined {
    return this.keys.get(kind);
  }

  ensureKeyIndex(kind: string): KeyIndex {
    let idx = this.keys.get(kind);
    if (!idx) {
      idx = { ids: new KeySet(), complete: true };
      this.keys.set(kind, idx);
    }
    return idx;
  }

  kindPresent(kind: string): boolean {
    return this.presentKinds.has(kind);
  }

  pendingCount(): number {
    return this.pending.length;
  }

  countRow(pass: Pass): void {
    if (pass.mode !== 'build') this.totalRows++;
    this.progressRows++;
  }

  /** Records a row error; returns false when the file must stop (validation past the cap). */
  addRowError(run: FileRun, pass: Pass, rowError: ImportRowError, hasError: boolean): boolean {
    if (pass.mode === 'build') return true;
    const max = this.options.maxRowErrorsPerFile;
    const stopAtCap = pass.mode === 'validate';
    const report = run.report;
    if (report.rowErrors.length < max) {
      report.rowErrors.push(rowError);
      if (hasError) run.listedError = true;
      if (report.rowErrors.length === max && run.listedError && stopAtCap) {
        report.partialReport = true;
        report.fileErrors.push(info(`validation of this file stopped after row ${rowError.rowNumber}: the report lists at most ${max} row errors per file`));
        return false;
      }
      return true;
    }
    report.partialReport = true;
    if (!hasError) return true;
    const text = `row ${rowError.rowNumber} has errors that are not listed: the report lists at most ${max} row errors per file`;
    if (stopAtCap) {
      report.fileErrors.push(error(`${text}; validation of this file stopped there`));
      return false;
    }
    if (!run.overflowNoted) {
      run.overflowNoted = true;
      report.fileErrors.push(error(`${text} (later rows with errors were skipped too)`));
    }
    return true;
  }

  emitMachine(pass: Pass, rec: RowRecord, id: string | undefined): void {
    const children = id !== undefined && pass.children ? pass.children.take(id) : undefined;
    const built = this.definition.assets.build(rec, children);
    const sink = this.sink;
    this.pending.push(sink?.prepare ? sink.prepare(built.asset) : built.asset);
    this.frames += built.frames;
  }

  foldChild(pass: Pass, kind: string, rec: RowRecord, ref: string): void {
    const assets = this.definition.assets;
    pass.children!.fold(
      ref,
      () => assets.newChildren(),
      (acc) => assets.addChild(kind, acc, rec),
    );
  }

  validationReport(): ValidationReport {
    return { fileValidations: this.files.map((f) => f.report), jobErrors: this.jobErrors };
  }
}

/** Wraps a failure of the caller's sink (or of the asset mapping) so it is not mistaken for a file problem. */
class PassThroughError extends Error {
  constructor(readonly original: unknown) {
    super('pass-through failure');
  }
}

/** The state of the table being read (one CSV file, or one sheet). */
class TableState {
  active = false;
  tableFailed = false;
  private binding?: Binding;
  private rules: Array<(record: RowRecord, report: RowReporter) => void> = [];
  private readonly issues = new RowIssues();
  private keyCol?: string;
  private keyIdx?: KeyIndex;
  private passKeys?: KeySet;
  private refCol?: string;
  private refIdx?: KeyIndex;
  private checkRefs = false;
  private isMachine = false;
  private sheet?: string;
  private dataRows = 0;

  constructor(
    private readonly run: ImportRun,
    private readonly file: FileRun,
    private readonly pass: Pass,
  ) {}

  /** Ends the current table: a table without a data row is worth a warning. */
  endTable(): void {
    if (this.active && this.dataRows === 0 && this.pass.mode !== 'build') {
      const where = this.sheet === undefined ? 'the file' : `the sheet "${clip(this.sheet)}"`;
      this.file.report.fileErrors.push(warning(`${where} has a header but no data rows`));
    }
    this.active = false;
  }

  startTable(header: CellValue[], sheet?: string): 'go' | 'stop-table' | 'stop-file' {
    this.endTable();
    this.dataRows = 0;
    this.sheet = sheet;
    const reporting = this.pass.mode !== 'build';
    let candidates = this.file.kinds;
    if (sheet !== undefined) candidates = candidates.filter((k) => k.sheetName?.test(sheet));
    if (candidates.length > 1) {
      const norm = header.map((h) => normaliseHeader(String(h ?? '')));
      const byHeader = candidates.find((k) => k.headerMatch?.(norm));
      candidates = byHeader ? [byHeader] : candidates.slice(0, 1);
    }
    const kind = candidates[0];
    if (kind && this.pass.only) {
      const isMachine = kind.kind === this.run.definition.assets.machineKind;
      if ((this.pass.only === 'machines') !== isMachine) return 'stop-table';
    }
    if (!kind) {
      if (sheet !== undefined) {
        if (reporting)
          this.file.report.fileErrors.push(info(`the sheet "${clip(sheet)}" is not used by the ${this.run.definition.label} import; it is ignored`));
        return 'go';
      }
      if (reporting) this.file.report.fileErrors.push(error(`the file does not match any ${this.run.definition.label} template`));
      this.tableFailed = true;
      return 'stop-file';
    }
    const binding = bindHeader(kind, header, sheet === undefined ? this.file.base : kind.title);
    if (reporting) this.file.report.fileErrors.push(...binding.issues);
    if (binding.fatal) {
      this.tableFailed = true;
      return 'stop-table';
    }
    this.binding = binding;
    this.rules = (kind.rules ?? []).map((r) => r.create());
    this.isMachine = kind.kind === this.run.definition.assets.machineKind;
    this.keyCol = kind.key;
    this.keyIdx = kind.key ? (this.pass.mode === 'build' ? this.run.keyIndex(kind.kind) : this.run.ensureKeyIndex(kind.kind)) : undefined;
    this.passKeys = kind.key && this.pass.mode === 'build' ? new KeySet() : undefined;
    this.refCol = kind.references?.column;
    this.refIdx = kind.references ? this.run.keyIndex(kind.references.kind) : undefined;
    this.checkRefs = false;
    if (kind.references) {
      const target = this.run.definition.fileKinds.find((k) => k.kind === kind.references!.kind);
      const title = target?.title ?? kind.references.kind;
      if (this.refIdx && this.refIdx.complete) this.checkRefs = true;
      else if (reporting && !this.file.refNoteDone) {
        this.file.refNoteDone = true;
        const why = this.run.kindPresent(kind.references.kind) ? `${title} could not be read completely` : `the payload has no ${title}`;
        this.file.report.fileErrors.push(info(`${kind.references.column} values were not checked against ${title}: ${why}`));
      }
    }
    this.active = true;
    return 'go';
  }

  readerRowIssue(rowNumber: number, issue: ImportError, vmName = ''): 'go' | 'stop-file' {
    const rowError: ImportRowError = { rowNumber, vmName, vmUuid: '', errors: [issue], ...this.location(rowNumber) };
    if (vmName !== '') rowError.assetTitle = vmName;
    return this.run.addRowError(this.file, this.pass, rowError, issue.severity === 'ERROR') ? 'go' : 'stop-file';
  }

  /** Where the row is, as Google's ImportRowError says it: one of csvError, xlsxError, archiveError (a CSV entry of an archive). */
  private location(rowNumber: number): Pick<ImportRowError, 'csvError' | 'xlsxError' | 'archiveError'> {
    if (this.sheet !== undefined) return { xlsxError: { sheet: this.sheet, rowNumber } };
    const member = this.file.member;
    return member ? { archiveError: { filePath: member.path, csvError: { rowNumber } } } : { csvError: { rowNumber } };
  }

  /**
   * Checks rows from index `from`. Returns the index to resume at when the sink buffer is full
   * (the caller flushes it, so assets do not pile up in memory), or the end of the batch.
   */
  rows(
    firstRow: number,
    rows: CellValue[][],
    rowNumbers: number[] | undefined,
    readerIssues: ReaderRowIssue[] | undefined,
    from = 0,
  ): { status: 'go' | 'stop-file'; next: number } {
    const b = this.binding!;
    const cols = b.columns;
    const ncols = cols.length;
    const headerLength = b.headerLength;
    const Record = b.Record;
    const vals = new Array<unknown>(b.kind.columns.length);
    const nslots = vals.length;
    const issues = this.issues;
    const pass = this.pass;
    const building = pass.mode === 'build';
    let issueMap: Map<number, ImportError> | undefined;
    if (readerIssues) issueMap = new Map(readerIssues.map((i) => [i.rowNumber, i.issue]));

    const flushAt = this.run.options.sinkBatchSize;
    for (let r = from; r < rows.length; r++) {
      if (this.run.pendingCount() >= flushAt) return { status: 'go', next: r };
      const cells = rows[r];
      const rowNumber = rowNumbers ? rowNumbers[r] : firstRow + r;
      // Blank rows (empty lines, rows of empty cells) are skipped and not counted.
      let blank = true;
      for (let c = 0; c < cells.length; c++) {
        if (!isEmptyCell(cells[c])) {
          blank = false;
          break;
        }
      }
      if (blank) continue;
      this.dataRows++;
      this.run.countRow(pass);
      issues.reset();
      const readerIssue = issueMap?.get(rowNumber);
      if (readerIssue) issues.add(readerIssue.severity, readerIssue.errorDetails);
      if (cells.length !== headerLength) {
        if (cells.length > headerLength) {
          let extra = false;
          for (let c = headerLength; c < cells.length; c++) if (!isEmptyCell(cells[c])) extra = true;
          if (extra) issues.error(`the row has ${cells.length} fields but the header has ${headerLength}`);
        } else {
          issues.warning(`the row has ${cells.length} fields but the header has ${headerLength}; the missing fields are taken as empty`);
        }
      }
      for (let s = 0; s < nslots; s++) vals[s] = undefined;
      for (let c = 0; c < ncols; c++) {
        const col = cols[c];
        const raw = cells[col.index];
        if (raw === undefined || isEmptyCell(raw)) {
          if (col.requiredValue) issues.error(`${col.name} is required`);
          continue;
        }
        vals[col.slot] = col.parse(raw, col.spec, issues);
      }
      const rec = new Record(vals);

      // Cross-row and cross-file checks.
      let id: string | undefined;
      if (this.keyCol !== undefined) {
        const v = rec[this.keyCol];
        if (typeof v === 'string') {
          id = v;
          if (building) {
            if (this.passKeys!.has(v)) issues.error('duplicate');
            else this.passKeys!.set(v);
          } else {
            const seen = this.keyIdx!.ids.firstRow(v, rowNumber);
            if (seen !== undefined) issues.error(`${this.keyCol} "${clip(v)}" is a duplicate: row ${seen} has the same ${this.keyCol}`);
          }
        }
      }
      let ref: string | undefined;
      if (this.refCol !== undefined) {
        const v = rec[this.refCol];
        if (typeof v === 'string') {
          ref = v;
          if (this.checkRefs && !this.refIdx!.ids.has(v)) {
            const target = this.run.definition.fileKinds.find((k) => k.kind === b.kind.references!.kind);
            issues.error(`${this.refCol} "${clip(v)}" matches no ${b.kind.references!.column} of ${target?.title ?? b.kind.references!.kind}`);
          }
        }
      }
      for (let k = 0; k < this.rules.length; k++) this.rules[k](rec, issues);

      if (issues.list !== null && !building) {
        const rowError = this.rowError(rowNumber, cells, issues.list);
        if (!this.run.addRowError(this.file, pass, rowError, issues.hasError)) return { status: 'stop-file', next: rows.length };
      }
      if (issues.hasError) continue;

      if (this.isMachine) {
        if (pass.emitMachines) {
          try {
            this.run.emitMachine(pass, rec, id);
          } catch (e) {
            throw new PassThroughError(e);
          }
        }
      } else if (pass.children && !building && ref !== undefined) {
        if (this.refIdx && !this.refIdx.ids.has(ref)) continue;
        this.run.foldChild(pass, b.kind.kind, rec, ref);
      }
    }
    return { status: 'go', next: rows.length };
  }

  private rowError(rowNumber: number, cells: CellValue[], errors: ImportError[]): ImportRowError {
    const id = this.binding!.identity;
    const cell = (i: number) => (i >= 0 && cells[i] !== undefined && cells[i] !== null ? clip(String(cells[i]).trim(), 256) : '');
    const rowError: ImportRowError = {
      rowNumber,
      vmName: cell(id.name),
      vmUuid: cell(id.uuid),
      errors,
      ...this.location(rowNumber),
    };
    const title = cell(id.title) || cell(id.name) || cell(id.uuid);
    if (title) rowError.assetTitle = title;
    return rowError;
  }
}

/** Validation of `files` against one format definition. */
export async function validateWith(
  definition: FormatDefinition,
  files: readonly PayloadFile[],
  options?: EngineOptions,
  hint?: ImportRun['otherFormatHint'],
): Promise<ValidationReport> {
  const expanded = await expand(definition, files, options);
  try {
    const run = new ImportRun(definition, expanded.files, options, hint, expanded.archiveReports.length);
    if (run.files.length > 0 || expanded.archiveReports.length > 0) await run.firstPass('validate');
    const report = run.validationReport();
    return { ...report, fileValidations: withArchiveReports(report.fileValidations, expanded) };
  } finally {
    expanded.close();
  }
}

/** The payload with its archives opened (archives.ts); a payload that is not a list is left to ImportRun. */
async function expand(
  definition: FormatDefinition,
  files: readonly PayloadFile[],
  options?: EngineOptions,
): Promise<Awaited<ReturnType<typeof expandArchives>>> {
  if (!Array.isArray(files)) return { files: files as PayloadFile[], archiveReports: [], close: () => undefined };
  const o = resolveOptions(options);
  return expandArchives(definition, files, { maxFileBytes: o.maxFileBytes, archiveLimits: o.archiveLimits, signal: o.signal });
}

/** Execution of `files` against one format definition: valid rows become assets in `sink`. */
export async function executeWith<T = Asset>(
  definition: FormatDefinition,
  files: readonly PayloadFile[],
  sink: AssetSink<T>,
  options?: EngineOptions,
  hint?: ImportRun['otherFormatHint'],
): Promise<ExecutionReport> {
  const expanded = await expand(definition, files, options);
  try {
    const run = new ImportRun(definition, expanded.files, options, hint, expanded.archiveReports.length);
    if (run.files.length > 0 || expanded.archiveReports.length > 0) await run.firstPass('execute', sink);
    const report = run.validationReport();
    return {
      framesReported: run.frames,
      executionErrors: { ...report, fileValidations: withArchiveReports(report.fileValidations, expanded) },
      totalRowsCount: run.totalRows,
    };
  } finally {
    expanded.close();
  }
}
