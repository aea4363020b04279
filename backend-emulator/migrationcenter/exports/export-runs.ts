/**
 * `:run` of an export job (assets export jobs, report export jobs): one execution, written in the
 * background, that ends with files behind signed download URLs.
 *
 *   :run   -> the job gets a new execution {executionId, startTime} in `recentExecutions`, and a
 *             not-done Operation; the family's `produce` streams the files
 *          -> the execution gets endTime, expireTime and result {outputFiles, signedUris} (or
 *             result.error), in the transaction that ends the Operation with the Run...Response
 *
 * One execution runs at a time per job (a second `:run` meanwhile is FAILED_PRECONDITION). An
 * execution, its files and its URLs expire together, EXECUTION_LIFETIME_MS after it ends; a job
 * lists only executions that have not expired, at most MAX_RECENT_EXECUTIONS (older files go when
 * a new run starts and at start-up). A stop (cancel, shutdown, deletion of the job, restart)
 * leaves the execution ended with `result.error` and no files.
 *
 * The run in progress is a record of its own (`migrationcenter.exportRuns`, keyed by the job's
 * name: the Operation and the execution), so that the job's wire shape holds nothing private.
 */
import { randomUUID } from 'crypto';
import { GoogleApiError, RPC_CODES, failedPrecondition, type StatusName } from '../../errors';
import { WorkEnd, type Operation, type OperationControl, type RecoveryHook, type ServiceOperations } from '../../operations/operations';
import { requestHash } from '../../operations/request-ids';
import type { Store } from '../../store/store';
import { COLLECTIONS } from '../names';
import { checkRequestId } from '../request-id-rule';
import type { NamedResource, ResourceCollection } from '../resource-collection';
import type { DownloadUrls } from './download-urls';
import type { ExportFiles } from './export-files';
import type { TableWriter, WrittenTable } from './table-files';

/**
 * How long an execution's files and signed URLs last after it ends. Google's is not published
 * ("Expiration time for the export and artifacts"): choose 24 hours.
 */
export const EXECUTION_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Executions a job keeps (the newest); older ones' files go. Google's number is not published. */
export const MAX_RECENT_EXECUTIONS = 5;

/** The execution fields both export job kinds share (AssetsExportJobExecution, ReportExportExecution). */
export interface ExportExecution {
  executionId: string;
  startTime: string;
  endTime?: string;
  expireTime?: string;
  result?: {
    error?: { code: number; message: string };
    outputFiles?: { entries: OutputFile[] };
    signedUris?: { signedUris: Array<{ file: string; uri: string }> };
  };
  [field: string]: unknown;
}

export interface OutputFile {
  csvOutputFile: { columnsCount: number; rowCount: number; signedUri: { file: string; uri: string } };
  fileSizeBytes: string;
}

export interface ExportJobWire extends NamedResource {
  recentExecutions?: ExportExecution[];
}

/** The run in progress of a job (COLLECTIONS.exportRuns). */
interface RunRecord {
  operation: string;
  executionId: string;
}

/** Where a run writes its files. */
export interface ExportOutput {
  /** A CSV file of the execution with this header. */
  csv(file: string, columns: readonly string[]): TableWriter;
}

/** What a family adds to the mechanics: what a run writes and how its execution reads. */
export interface ExportKind<W extends ExportJobWire> {
  /** The Operation response's `@type` and the field that holds the execution in it. */
  responseType: string;
  responseField: string;
  /** Refuses a run that cannot start (FAILED_PRECONDITION naming why), inside the run's transaction. */
  checkRunnable?(job: W): void;
  /**
   * Writes the execution's files, reading page by page and checking `signal` between pages;
   * returns the files and the execution fields it learnt (`requestedAssetCount`).
   */
  produce(job: W, output: ExportOutput, ctl: OperationControl): Promise<{ files: WrittenTable[]; fields?: Record<string, unknown> }>;
  /** Fields an execution carries in each phase (`progressPercentage` of report exports). */
  phaseFields?(phase: 'running' | 'succeeded' | 'failed'): Record<string, unknown>;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The code an execution's `result.error` carries for a stop, from the message the operations module gives (work.ts). */
function stopCode(message: string): number {
  const status: StatusName = message.startsWith('cancelled:') ? 'CANCELLED' : message.startsWith('interrupted:') ? 'ABORTED' : 'INTERNAL';
  return RPC_CODES[status];
}

export class ExportRuns<W extends ExportJobWire> {
  constructor(
    private readonly store: Store,
    private readonly ops: ServiceOperations,
    private readonly jobs: ResourceCollection<W>,
    private readonly files: ExportFiles,
    private readonly urls: DownloadUrls,
    private readonly kind: ExportKind<W>,
    private readonly nowMs: () => number = Date.now,
  ) {}

  // ------------------------------------------------------------------ reads

  /** The job as answered: executions that expired are left out. */
  visible(job: W): W {
    if (!job.recentExecutions) return job;
    const now = this.nowMs();
    const live = job.recentExecutions.filter((e) => !isExpired(e, now));
    if (live.length === job.recentExecutions.length) return job;
    const { recentExecutions: _all, ...rest } = job;
    return (live.length > 0 ? { ...rest, recentExecutions: live } : rest) as W;
  }

  /** Whether a job's execution still has `file` to download (not expired, ended with that file). */
  hasFile(job: W, executionId: string, file: string): boolean {
    const execution = this.visible(job).recentExecutions?.find((e) => e.executionId === executionId);
    return execution?.result?.signedUris?.signedUris.some((s) => s.file === file) ?? false;
  }

  // ------------------------------------------------------------------ :run

  /** `:run` (`origin`: where the caller reached the emulator, for the download URLs). */
  run(name: string, location: string, requestId: unknown, origin: string): Operation {
    const checkedRequest = checkRequestId(requestId);
    const hash = requestHash('run', name, {});
    const dropped: string[] = [];
    const op = this.ops.writeStarting(
      { parent: location, target: name, verb: 'run', responseType: this.kind.responseType, requestId: checkedRequest, requestHash: hash },
      () => {
        const job = this.jobs.get(name);
        const running = this.store.get<RunRecord>(COLLECTIONS.exportRuns, name);
        if (running) {
          throw failedPrecondition(
            `Export job ${name} is running execution ${running.executionId} (Operation ${running.operation}); run it again once that Operation is done.`,
          );
        }
        this.kind.checkRunnable?.(job);
        const now = this.nowMs();
        const execution: ExportExecution = { executionId: randomUUID(), startTime: iso(now), ...this.kind.phaseFields?.('running') };
        const kept = (job.recentExecutions ?? []).filter((e) => !isExpired(e, now));
        const recent = [...kept, execution].slice(-MAX_RECENT_EXECUTIONS);
        for (const e of job.recentExecutions ?? []) if (!recent.includes(e)) dropped.push(e.executionId);
        this.store.put(this.jobs.spec.storeCollection, name, { ...job, recentExecutions: recent });
        const started = this.ops.start({
          parent: location,
          target: name,
          verb: 'run',
          responseType: this.kind.responseType,
          work: (ctl) => this.work(name, execution, origin, ctl),
          state: {
            during: `execution ${execution.executionId} of export job ${name} was running`,
            activity: 'export',
            resource: `Export job ${name}`,
            gone: () => new GoogleApiError('ABORTED', `Export job ${name} was deleted while execution ${execution.executionId} ran.`),
            failed: (message) => this.fail(name, started.name, execution, message),
          },
        });
        this.store.put<RunRecord>(COLLECTIONS.exportRuns, name, { operation: started.name, executionId: execution.executionId });
        return started;
      },
    );
    // Executions the job no longer lists take their files with them (after the commit).
    for (const id of dropped) this.files.removeExecution(name, id);
    return op;
  }

  private async work(name: string, execution: ExportExecution, origin: string, ctl: OperationControl): Promise<WorkEnd> {
    const job = this.ownJob(name, ctl.name);
    const writers: TableWriter[] = [];
    const output: ExportOutput = {
      csv: (file, columns) => {
        const writer = this.files.csv(name, execution.executionId, file, columns);
        writers.push(writer);
        return writer;
      },
    };
    let produced: Awaited<ReturnType<ExportKind<W>['produce']>>;
    try {
      produced = await this.kind.produce(job, output, ctl);
    } catch (err) {
      for (const writer of writers) writer.abort();
      throw err;
    }
    const end = this.nowMs();
    const expires = end + EXECUTION_LIFETIME_MS;
    const signed = produced.files.map((f) => ({ file: f.file, uri: this.urls.sign(origin, name, execution.executionId, f.file, expires) }));
    const finished: ExportExecution = {
      ...execution,
      ...this.kind.phaseFields?.('succeeded'),
      ...produced.fields,
      endTime: iso(end),
      expireTime: iso(expires),
      result: {
        outputFiles: {
          entries: produced.files.map((f, i) => ({
            csvOutputFile: { columnsCount: f.columnsCount, rowCount: f.rowCount, signedUri: signed[i] },
            fileSizeBytes: String(f.sizeBytes),
          })),
        },
        signedUris: { signedUris: signed },
      },
    };
    return new WorkEnd(() => this.writeExecution(name, ctl.name, finished), undefined, { [this.kind.responseField]: finished });
  }

  /** The job this run belongs to; ABORTED when it was deleted (or its run record is another's). */
  private ownJob(name: string, operation: string): W {
    const job = this.jobs.find(name);
    const run = this.store.get<RunRecord>(COLLECTIONS.exportRuns, name);
    if (!job || run?.operation !== operation) throw new GoogleApiError('ABORTED', `Export job ${name} was deleted while its export ran.`);
    return job;
  }

  /** Replaces the execution in the job and drops the run record (inside the Operation's end transaction). */
  private writeExecution(name: string, operation: string, execution: ExportExecution): void {
    const job = this.ownJob(name, operation);
    const recent = (job.recentExecutions ?? []).map((e) => (e.executionId === execution.executionId ? execution : e));
    this.store.put(this.jobs.spec.storeCollection, name, { ...job, recentExecutions: recent });
    this.store.delete(COLLECTIONS.exportRuns, name);
  }

  /** A stopped execution: ended with `result.error`, its files gone. */
  private fail(name: string, operation: string, execution: ExportExecution, message: string): void {
    const now = this.nowMs();
    this.writeExecution(name, operation, {
      ...execution,
      ...this.kind.phaseFields?.('failed'),
      endTime: iso(now),
      expireTime: iso(now + EXECUTION_LIFETIME_MS),
      result: { error: { code: stopCode(message), message } },
    });
    this.files.removeExecution(name, execution.executionId);
  }

  // ------------------------------------------------------------------ delete, recovery, sweep

  /** Inside a delete's transaction: the run record goes with the job (its work is aborted after the commit). */
  forget(name: string): boolean {
    return this.store.delete(COLLECTIONS.exportRuns, name);
  }

  /** After a delete committed: the job's work stops and its files go. */
  afterDelete(name: string, hadRun: boolean): void {
    if (hadRun) this.ops.abortTarget(name, 'deleted');
    if (!this.jobs.find(name)) this.files.removeJob(name);
  }

  /** This family's part in start-up recovery: runs a stopped emulator left unfinished end failed. */
  readonly recovery: RecoveryHook = {
    inProgress: () =>
      this.store
        .list<RunRecord>(COLLECTIONS.exportRuns)
        .filter((e) => e.key.includes(`/${this.jobs.spec.segment}/`))
        .map((e) => ({ target: e.key, operation: e.value.operation })),
    markInterrupted: (key) => {
      const run = this.store.get<RunRecord>(COLLECTIONS.exportRuns, key)!;
      const message = `interrupted: the emulator stopped while execution ${run.executionId} of export job ${key} was running`;
      const job = this.jobs.find(key);
      const execution = job?.recentExecutions?.find((e) => e.executionId === run.executionId);
      if (job && execution) this.fail(key, run.operation, execution, message);
      else this.store.delete(COLLECTIONS.exportRuns, key);
      return message;
    },
  };

  /** Start-up: files of executions no job lists any more (deleted, expired, interrupted) go. */
  sweep(): number {
    const now = this.nowMs();
    const keep = new Map<string, Set<string>>();
    for (const { key, value } of this.store.list<W>(this.jobs.spec.storeCollection)) {
      const ids = (value.recentExecutions ?? []).filter((e) => !isExpired(e, now) && e.result?.signedUris).map((e) => e.executionId);
      keep.set(key, new Set(ids));
    }
    return this.files.sweep(keep);
  }
}

function isExpired(execution: ExportExecution, now: number): boolean {
  return execution.expireTime !== undefined && Date.parse(execution.expireTime) <= now;
}
