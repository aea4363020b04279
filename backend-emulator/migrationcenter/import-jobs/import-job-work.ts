/**
 * The background work of import jobs (:validate, :run) and their part in restart recovery.
 *
 * The operations module owns the life of each Operation: the work returns a WorkEnd (the job's
 * final state, written in the transaction that ends the Operation), and for a stop (cancel,
 * shutdown, failure, deletion) the WorkState given at start says how the job records it.
 */
import { groupedCount } from '../../counts';
import type { Store } from '../../store/store';
import type { AssetRow } from '../../store/asset-store';
import { failedPrecondition } from '../../errors';
import {
  EMPTY_TYPE,
  WorkEnd,
  interruptedMessage,
  type Operation,
  type OperationControl,
  type RecoveryHook,
  type ServiceOperations,
} from '../../operations/operations';
import { resolvePayload, type JobPayload, type ResolvedPayload, type StorageSettings } from '../../payloads';
import type { ExecutionReport, ValidationReport } from '../../import-engine/report';
import { COLLECTIONS } from '../names';
import { STATE, type ImportJobWire, type StoredJob } from '../types';
import type { Assets } from '../assets/assets';
import { jobSourceDeleted, type Sources } from '../sources/sources';
import type { JobDataFiles } from '../import-data-files/import-data-files';
import type { InlinePayloadFiles } from './inline-payload-files';
import * as engine from './engine';
import {
  JobGone,
  NO_DATA_MESSAGE,
  RUN_PROGRESS,
  emptyValidationReport,
  hasBlockingErrors,
  hasPayload,
  jobError,
  normalizeStored,
  now,
  ordered,
  payloadFormat,
  type RunProgress,
} from './import-job-model';

/**
 * Assets per `:run` transaction: each batch commits with the job's progress record, so
 * a kill leaves whole batches and the job's report counts exactly the assets stored. On a
 * file-backed store the import worker writes them on its own connection (run-writer.ts), and a
 * request's write (not its reads) waits for at most the batch being written; on an in-memory
 * store they are written on the request thread, and every request that arrives during one waits
 * for its transaction: 500 assets make that wait a tenth of what 5,000 made it (50 to 90 ms on a
 * quiet machine, seconds under load), for ten times the commits per run (docs/benchmarks.md,
 * issue 27).
 */
export const RUN_BATCH_SIZE = 500;

export interface ImportJobWorkDeps {
  store: Store;
  ops: ServiceOperations;
  assets: Assets;
  /** The job's `assetSource`, checked in each batch's transaction of a run. */
  sources: Sources;
  storage: () => StorageSettings;
  /** The job's import data files, read beside its payload. */
  dataFiles?: JobDataFiles;
  /** Where jobs' inline payloads are kept, apart from their records. */
  inlineFiles: InlinePayloadFiles;
}

/** Resolves with `promise` unless `signal` fires first (the promise's later failure is swallowed). */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  promise.catch(() => undefined);
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/**
 * An Operation's `statusMessage` while work reads and writes, at most once per `everyMs`: each
 * message is a store write, and the engine reports after every chunk of rows. The first one goes
 * out at once; `flush` writes the last one held back, so the finished Operation says how far the
 * work got, not how far it was at the last write.
 */
function throttledProgress(ctl: OperationControl, everyMs = 500): { tick(message: string): void; flush(): void } {
  let last = -Infinity;
  let held: string | undefined;
  return {
    tick(message) {
      const t = Date.now();
      if (t - last < everyMs) {
        held = message;
        return;
      }
      last = t;
      held = undefined;
      ctl.progress(message);
    },
    flush() {
      if (held !== undefined) ctl.progress(held);
      held = undefined;
    },
  };
}

function abortError(signal: AbortSignal): Error {
  const err = new Error(`aborted: ${String(signal.reason)}`);
  err.name = 'AbortError';
  return err;
}

export class ImportJobWork {
  private readonly store: Store;
  private readonly ops: ServiceOperations;

  constructor(private readonly deps: ImportJobWorkDeps) {
    this.store = deps.store;
    this.ops = deps.ops;
  }

  private find(name: string): StoredJob | undefined {
    return this.store.get<StoredJob>(COLLECTIONS.importJobs, name);
  }

  /** Moves the job to VALIDATING / RUNNING and starts the background work (inside the transaction). */
  start(stored: StoredJob, parent: string, verb: 'validate' | 'run'): Operation {
    const job = stored.job;
    const name = job.name;
    stored.attempt = (stored.attempt ?? 0) + 1;
    if (verb === 'validate') {
      job.state = STATE.VALIDATING;
      delete job.validationReport;
    } else {
      job.state = STATE.RUNNING;
      delete job.executionReport;
      delete job.completeTime;
    }
    job.updateTime = now();
    let operation = '';
    let framesWritten = 0;
    const state = job.state;
    const op = this.ops.start({
      parent,
      target: name,
      verb,
      responseType: EMPTY_TYPE,
      work: (ctl) =>
        verb === 'validate'
          ? this.validateWork(name, ctl)
          : this.runWork(name, parent, ctl, (n) => {
              framesWritten = n;
            }),
      // How the operations module ends this work when it stops early (cancel, shutdown, failure).
      state: {
        during: `this job was ${state}`,
        activity: verb === 'validate' ? 'validation' : 'execution',
        resource: `Import job ${name}`,
        gone: () => new JobGone(name, state),
        failed: (message) =>
          this.writeEnd(name, operation, state, (j) => {
            if (verb === 'validate') {
              j.state = STATE.FAILED_VALIDATION;
              j.validationReport = emptyValidationReport([message]);
            } else {
              j.state = STATE.FAILED;
              j.completeTime = now();
              // The progress record, not what this thread last heard: a run the worker writes
              // may have committed a batch whose `stored` message is still on its way.
              const written = this.store.get<RunProgress>(RUN_PROGRESS, name);
              const framesReported = written?.operation === operation ? written.framesWritten : framesWritten;
              j.executionReport = { framesReported, totalRowsCount: 0, executionErrors: emptyValidationReport([message]) };
            }
          }),
      },
    });
    operation = op.name;
    stored.activeOperation = op.name;
    stored.job = ordered(job);
    this.store.put(COLLECTIONS.importJobs, name, stored);
    if (verb === 'run') this.store.put<RunProgress>(RUN_PROGRESS, name, { operation: op.name, framesWritten: 0 });
    return op;
  }

  /** The job this work belongs to; JobGone when it was deleted or restarted meanwhile. */
  private ownJob(name: string, operation: string, state: string): StoredJob {
    const stored = this.find(name);
    if (!stored || stored.activeOperation !== operation) throw new JobGone(name, state);
    return stored;
  }

  /**
   * `ownJob` for each batch of a run, without reading the job: its run's progress record names the
   * Operation while the run owns the job (written with `activeOperation` at start, deleted with the
   * job, at the run's end and by restart recovery). An inline job's record holds its whole payload,
   * and reading it back for every batch cost more than writing the batch.
   */
  private ownRun(name: string, operation: string, state: string): void {
    if (this.store.get<RunProgress>(RUN_PROGRESS, name)?.operation !== operation) throw new JobGone(name, state);
  }

  /**
   * Writes the job's end state, if the job still belongs to this work, and drops the run's
   * progress record. Runs inside the operations module's end transaction (WorkEnd, WorkState):
   * the job's end and its Operation's commit together.
   */
  private writeEnd(name: string, operation: string, state: string, change: (job: ImportJobWire) => void): void {
    const stored = this.ownJob(name, operation, state);
    change(stored.job);
    stored.job.updateTime = now();
    delete stored.activeOperation;
    stored.job = ordered(stored.job);
    this.store.put(COLLECTIONS.importJobs, name, stored);
    this.store.delete(RUN_PROGRESS, name);
  }

  /**
   * Everything a job's import reads: its payload (inline or gcsPayload) if it has one, then its
   * data files (named by display name; a file with no bytes yet is a job error), in one format.
   */
  async jobData(stored: StoredJob): Promise<ResolvedPayload & { format: string }> {
    const job = stored.job;
    const payload: ResolvedPayload = hasPayload(job) ? await resolvePayload(this.deps.storage(), this.payloadOf(stored)) : { files: [], errors: [] };
    const dataFiles = this.deps.dataFiles;
    if (!dataFiles || dataFiles.count(job.name) === 0) return { ...payload, format: payloadFormat(job) };
    const data = dataFiles.payload(job.name);
    const format = hasPayload(job) ? payloadFormat(job) : (dataFiles.format(job.name) ?? payloadFormat(job));
    return { files: [...payload.files, ...data.files], errors: [...payload.errors, ...data.errors], format };
  }

  /**
   * The job's payload as the payload sources read it: an inline payload kept apart from the record
   * is named by its files on disk (opened, and decoded, by the thread that reads them).
   */
  private payloadOf(stored: StoredJob): JobPayload {
    const { job, inlinePayloadFiles: ref } = stored;
    if (!job.inlinePayload || !ref) return job as JobPayload;
    const names = job.inlinePayload.payload.map((f) => f.name);
    return { inlinePayload: { format: job.inlinePayload.format, payload: this.deps.inlineFiles.files(job.name, names, ref) } };
  }

  private async validateWork(name: string, ctl: OperationControl): Promise<WorkEnd> {
    const signal = ctl.signal;
    const state = STATE.VALIDATING;
    const stored = this.ownJob(name, ctl.name, state);
    const job = stored.job;
    if (!hasPayload(job) && (this.deps.dataFiles?.count(name) ?? 0) === 0) {
      // Created without data (it comes later, as data files): nothing to read is a blocking error.
      return new WorkEnd(() =>
        this.writeEnd(name, ctl.name, state, (j) => {
          j.state = STATE.FAILED_VALIDATION;
          j.validationReport = emptyValidationReport([NO_DATA_MESSAGE]);
        }),
      );
    }
    ctl.progress('reading the payload');
    const { files, errors, format } = await raceAbort(this.jobData(stored), signal);
    let report: ValidationReport;
    if (files.length === 0) {
      report = emptyValidationReport(errors.length > 0 ? errors : ['the payload has no files']);
    } else {
      ctl.progress(`validating ${files.length} file(s)`);
      const status = throttledProgress(ctl);
      const onProgress = ({ rowsRead }: { rowsRead: number }) => status.tick(`validating ${files.length} file(s): ${groupedCount(rowsRead)} rows read`);
      report = await raceAbort(engine.validateImport(format, files, { signal, onProgress }), signal);
      status.flush();
      if (errors.length > 0) report = { ...report, jobErrors: [...errors.map(jobError), ...report.jobErrors] };
    }
    const failed = hasBlockingErrors(report);
    return new WorkEnd(() =>
      this.writeEnd(name, ctl.name, state, (j) => {
        j.state = failed ? STATE.FAILED_VALIDATION : STATE.READY;
        j.validationReport = report;
      }),
    );
  }

  /** `progress` learns how many frames are written (for the failed state's report). */
  private async runWork(name: string, parent: string, ctl: OperationControl, progress: (framesWritten: number) => void): Promise<WorkEnd> {
    const signal = ctl.signal;
    const state = STATE.RUNNING;
    let framesWritten = 0;
    const stored = this.ownJob(name, ctl.name, state);
    const job = stored.job;
    const reporter = job.assetSource ?? name;
    ctl.progress('reading the payload');
    const { files, errors, format } = await raceAbort(this.jobData(stored), signal);
    let report: ExecutionReport;
    if (files.length === 0) {
      report = { framesReported: 0, totalRowsCount: 0, executionErrors: emptyValidationReport(errors.length > 0 ? errors : ['the payload has no files']) };
    } else {
      ctl.progress(`importing ${files.length} file(s)`);
      const status = throttledProgress(ctl);
      const written = (n: number) => {
        framesWritten = n;
        progress(n);
        status.tick(`importing ${files.length} file(s): ${groupedCount(n)} assets written`);
      };
      // Written by the import worker on its own connection when the store is a file and the
      // payload can be read there (run-writer.ts: the same checks and progress record per batch).
      // The connection is lent until the worker is done with it, which a stopped run outlives.
      const lent = this.store.lendSecondConnection();
      const target = lent && { database: lent.database, job: name, operation: ctl.name, parent, reporter, assetSource: job.assetSource };
      const inWorker =
        target &&
        engine.executeImportWriting(format, files, target, {
          signal,
          sinkBatchSize: RUN_BATCH_SIZE,
          onStored: written,
          refusal: (reason) => (reason === 'source' && job.assetSource ? jobSourceDeleted(name, job.assetSource, 'running') : new JobGone(name, state)),
          onWorkerDone: lent.giveBack,
        });
      // Otherwise each asset becomes its stored row as soon as it is built (in the import worker,
      // when the payload can be read there): the batch waiting for its transaction holds rows, not
      // the assets' object graphs. Each batch is written here, in its transaction.
      const write = (rows: AssetRow[]) => {
        if (signal.aborted) throw abortError(signal);
        let n = framesWritten;
        this.store.transaction(() => {
          this.ownRun(name, ctl.name, state);
          // Its source deleted since the run started: FAILED_PRECONDITION here, which ends the
          // run like any other stop (the job FAILED with it as a job error), and this batch's
          // assets are not written naming a source that is gone.
          this.deps.sources.checkJobSource(name, job.assetSource, 'running');
          n += this.deps.assets.upsertRows(parent, reporter, rows);
          this.store.put<RunProgress>(RUN_PROGRESS, name, { operation: ctl.name, framesWritten: n });
        });
        written(n);
      };
      report = await raceAbort(inWorker || engine.executeImportRows(format, files, write, { signal, sinkBatchSize: RUN_BATCH_SIZE }), signal);
      // The writer refreshed them at the run's end, on its connection (run-writer.ts). A write, in
      // its turn: another run's writer may be writing.
      if (inWorker) this.store.transaction(() => this.store.assets.reloadStatistics());
      status.flush();
      if (errors.length > 0)
        report = { ...report, executionErrors: { ...report.executionErrors, jobErrors: [...errors.map(jobError), ...report.executionErrors.jobErrors] } };
    }
    const blocking = report.executionErrors.jobErrors.filter((e) => e.severity === 'ERROR');
    const failed = blocking.length > 0;
    const outcome = failed ? failedPrecondition(`Import job ${name} failed: ${blocking.map((e) => e.errorDetails).join('; ')}`) : undefined;
    return new WorkEnd(
      () =>
        this.writeEnd(name, ctl.name, state, (j) => {
          j.state = failed ? STATE.FAILED : STATE.COMPLETED;
          j.executionReport = report;
          j.completeTime = now();
        }),
      outcome,
    );
  }

  // ------------------------------------------------------------------ recovery

  /**
   * This domain's part in start-up recovery (the operations module drives it, in one
   * transaction): the jobs left VALIDATING or RUNNING, and how one is marked failed.
   */
  readonly recovery: RecoveryHook = {
    inProgress: () =>
      this.store
        .list<StoredJob | ImportJobWire>(COLLECTIONS.importJobs)
        .map((e) => ({ key: e.key, stored: normalizeStored(e.value) }))
        .filter(({ stored }) => stored.job.state === STATE.VALIDATING || stored.job.state === STATE.RUNNING)
        .map(({ key, stored }) => ({ target: key, ...(stored.activeOperation ? { operation: stored.activeOperation } : {}) })),
    markInterrupted: (key) => {
      const stored = normalizeStored(this.store.get<StoredJob | ImportJobWire>(COLLECTIONS.importJobs, key)!);
      const job = stored.job;
      const message = interruptedMessage(`this job was ${job.state}`);
      if (job.state === STATE.VALIDATING) {
        job.state = STATE.FAILED_VALIDATION;
        job.validationReport = emptyValidationReport([message]);
      } else {
        const progress = this.store.get<RunProgress>(RUN_PROGRESS, key);
        job.state = STATE.FAILED;
        job.completeTime = now();
        job.executionReport = { framesReported: progress?.framesWritten ?? 0, totalRowsCount: 0, executionErrors: emptyValidationReport([message]) };
        this.store.delete(RUN_PROGRESS, key);
      }
      job.updateTime = now();
      delete stored.activeOperation;
      stored.job = ordered(job);
      this.store.put(COLLECTIONS.importJobs, key, stored);
      return message;
    },
  };
}
