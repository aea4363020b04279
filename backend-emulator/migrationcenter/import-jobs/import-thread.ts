/**
 * Import work off the request thread: a job's validation or run goes to an import worker
 * (import-worker.ts, a worker thread). A run on a file-backed store is written by the worker on
 * its own connection (`executeWritingInWorker`, run-writer.ts): this thread only hears of each
 * batch stored. On an in-memory store, this thread writes the batches of stored rows the worker
 * sends, each in the caller's transaction (`executeInWorker`): requests are answered between
 * batches, however large the payload, inline ones included: batches are small (RUN_BATCH_SIZE,
 * import-job-work.ts), and this thread writes one batch per turn of its event loop (WriteQueue),
 * so a request waits for at most one batch's transaction.
 *
 * Workers are reused: one idle worker is kept for IDLE_WORKER_MS (unreferenced, so it never holds
 * the process open; ended at once when the last emulator closes, importWorkersOpen), with the
 * engine's modules loaded; a second job at the same time starts a
 * second worker, up to MAX_IMPORT_WORKERS at work; a job beyond them waits for one to be done. A
 * process that is one emulator (the CLI) keeps one ready for its whole life
 * (keepImportWorkerReady): started with the process and warmed up, and, once a job's worker has
 * been idle for IDLE_WORKER_MS, started afresh in its place. A job
 * stopped early (cancel, shutdown, a failed write) rejects at once; its worker is told to stop and
 * is terminated if it has not stopped within STOP_GRACE_MS (a worker in the middle of a long
 * synchronous stretch), so it is never handed another job, unless it said its run's writer will
 * build the indexes the run dropped at its end (`building`, sent as soon as the drop is committed,
 * not only at the stop: on a loaded machine the stop's own notice came after the grace, and a
 * worker terminated in the middle of the build left the indexes missing until the store's next
 * open): then its end is waited for.
 */
import * as path from 'path';
import type { Worker } from 'worker_threads';
import { startWorker, WORKER_NICE_STEPS } from '../../worker-threads';
import { portableFile, type PayloadFile, type PortableFile } from '../../payloads';
import type { AssetRow } from '../../store/asset-store';
import type { ExecutionReport, ValidationReport } from '../../import-engine/report';
import type { FromWorker, ImportWorkerData, ToWorker } from './import-worker-protocol';
import type { RunTarget } from './run-writer';
import type { ReportSummaryJob } from '../reports/report-snapshot';

/** How long a stopped job's worker has to end its job before it is terminated. */
export const STOP_GRACE_MS = 1_000;

/**
 * Batches a run's worker may have sent and not seen written: enough that the worker builds ahead
 * while this thread (or the run's writer thread) writes (one batch per turn of the event loop, a
 * message's round trip apart), few enough that the rows waiting in memory stay bounded (8 batches
 * of 500: 4,000 rows, fewer than the two batches of 5,000 of the earlier design). Written, not
 * committed: the writer thread holds its transaction open across many more (run-writer-worker.ts).
 */
export const MAX_BATCHES_IN_FLIGHT = 8;

const WORKER_ENTRY = path.join(__dirname, 'import-worker');

/**
 * The import worker's young generation, capped: parsing allocates steadily, and V8's default lets
 * the worker grow it to tens of MB that stay resident while the worker lives. 16 MB took about
 * 45 MB off the emulator's peak RSS through a 600,000-row :validate and :run, with no measurable
 * change in their CPU time (8 MB saved no more).
 */
const WORKER_YOUNG_GENERATION_MB = 16;

/**
 * The import worker runs IMPORT_NICE_EXTRA steps below the other workers (WORKER_NICE_STEPS), so
 * below a run's writer thread, which it starts (run-writer-thread.ts): in a run the writer is the
 * slower stage, and the run takes its time; the worker, which reads and builds batches faster,
 * waits for it anyway (at most a few batches ahead). When the two want the same core (the other
 * one busy with requests, V8's collector, another program), the writer gets about twice the
 * worker's share of it, and the worker all of a core the writer leaves.
 */
export const IMPORT_NICE_EXTRA = 3;

/**
 * How long the idle worker is kept: jobs that follow each other reuse it, and an emulator that
 * imports nothing for a while does not keep a second V8 heap (nor does a test process keep one per
 * test file: each file loads this module afresh).
 */
export const IDLE_WORKER_MS = 5_000;

/**
 * The most import workers at work at once (validations, runs and report summaries together); a
 * job beyond them waits for one to be done, in the order the jobs came. Each worker is a V8 heap
 * of its own (about 25 MB, 60 MB after a large job): 40 validations of 1.4 MB payloads started at
 * once took the process from 125 MB to 1.15 GB of RSS, and nothing bounded their number. On two
 * cores four are already more than run at the same time.
 */
export const MAX_IMPORT_WORKERS = 4;

/** Workers at work (each job's from its start until its worker is done with it), and the jobs waiting for one. */
let workersAtWork = 0;
const waitingForWorker: Array<() => void> = [];

/** Resolves once the job may have a worker (at once if fewer than MAX_IMPORT_WORKERS are at work); rejects on `signal`. */
function workerSlot(signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  if (workersAtWork < MAX_IMPORT_WORKERS) {
    workersAtWork++;
    return Promise.resolve();
  }
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      const at = waitingForWorker.indexOf(start);
      if (at >= 0) waitingForWorker.splice(at, 1);
      reject(abortError(signal!));
    };
    const start = () => {
      signal?.removeEventListener('abort', onAbort);
      workersAtWork++;
      resolve();
    };
    waitingForWorker.push(start);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A job's worker is done: the next waiting job, if any, gets one. */
function freeWorkerSlot(): void {
  workersAtWork--;
  waitingForWorker.shift()?.();
}

/** How many import workers are at work, and how many jobs wait for one (tests). */
export function importWorkerUse(): { atWork: number; waiting: number } {
  return { atWork: workersAtWork, waiting: waitingForWorker.length };
}

let idle: Worker | undefined;
let idleTimer: NodeJS.Timeout | undefined;
/** Set by keepImportWorkerReady: the idle worker is kept for good, and replaced when a job's worker is lost. */
let keepReady = false;
/** Emulators open that run import jobs (importWorkersOpen); undefined until one says so. */
let openEmulators: number | undefined;

/** No emulator is open any more (one was, and all have closed), and no worker is kept ready. */
function noEmulatorOpen(): boolean {
  return openEmulators === 0 && !keepReady;
}

/**
 * An emulator that runs import jobs is open; the function returned says it closed. Once the last
 * one has closed, the idle worker is ended at once, and a job's worker is ended rather than kept
 * idle when its job stops, instead of IDLE_WORKER_MS later. An unreferenced worker does not hold
 * the process open, but a process that ends must still stop it, and the worker runs at a low
 * priority (WORKER_NICE_STEPS + IMPORT_NICE_EXTRA): under load, a jest worker whose last test file
 * had run an import took longer to end than the 500 ms jest gives it (docs/benchmarks.md,
 * fifteenth session). Ended in close, the stop is paid there.
 */
export function importWorkersOpen(): () => Promise<void> {
  openEmulators = (openEmulators ?? 0) + 1;
  let closed = false;
  return async () => {
    if (closed) return;
    closed = true;
    openEmulators = (openEmulators ?? 1) - 1;
    if (noEmulatorOpen()) await closeIdleImportWorker();
  };
}

/** A new import worker; `ready`: started ahead of any job, it warms up (worker-warm-up.ts). */
function newWorker(ready = false): Worker {
  const workerData: ImportWorkerData = { warmUp: ready };
  return startWorker(WORKER_ENTRY, {
    workerData,
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    niceSteps: WORKER_NICE_STEPS + IMPORT_NICE_EXTRA,
  });
}

/**
 * Keeps one import worker ready for the life of the process, from now on (`keep` false: no longer,
 * and the idle worker is ended now). A new worker costs its first job twice over: its start (a V8
 * isolate, the engine's modules loaded: 0.1 to 0.4 s before the first row), and its code run cold
 * (interpreted until V8 has compiled it: a 600,000-row :validate cost 0.7 CPU-s more in a new
 * worker than in one that had warmed up). The ready worker warms up before any job comes
 * (worker-warm-up.ts). For a process that is one emulator (the CLI), not for one that builds many
 * (tests): the idle worker holds a V8 heap of its own, about 30 MB of RSS once warmed up
 * (docs/benchmarks.md, issue 27).
 */
export function keepImportWorkerReady(keep = true): void {
  keepReady = keep;
  if (keep) replenish();
  else void closeIdleImportWorker();
}

/** With keepReady, starts the ready worker if there is none. */
function replenish(): void {
  if (!keepReady || idle || !workersEnabled) return;
  parkIdle(newWorker(true), true);
}

function takeWorker(): Worker {
  const worker = idle ?? newWorker();
  idle = undefined;
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = undefined;
  worker.ref();
  return worker;
}

function releaseWorker(worker: Worker): void {
  worker.removeAllListeners('message');
  worker.removeAllListeners('error');
  worker.removeAllListeners('exit');
  if (idle || noEmulatorOpen()) {
    void worker.terminate();
    return;
  }
  parkIdle(worker);
}

/**
 * Makes `worker` the idle one, unreferenced. A worker that ran a job is ended after
 * IDLE_WORKER_MS: its heap grew with the job (about 60 MB of RSS after a 600,000-row one, against
 * about 30 MB for a new one warmed up); with keepReady a new ready worker (`fresh`, kept for good)
 * takes its place.
 */
function parkIdle(worker: Worker, fresh = false): void {
  worker.unref();
  worker.once('exit', () => {
    if (idle === worker) idle = undefined;
  });
  worker.once('error', () => undefined);
  idle = worker;
  if (fresh) return;
  idleTimer = setTimeout(() => void closeIdleImportWorker().then(replenish), IDLE_WORKER_MS);
  idleTimer.unref();
}

/** Terminates the idle worker (tests, shutdown); the next job starts a new one. */
export async function closeIdleImportWorker(): Promise<void> {
  const worker = idle;
  idle = undefined;
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = undefined;
  if (worker) await worker.terminate();
}

let workersEnabled = true;

/**
 * Whether import work goes to workers (the default). Off, every import runs on this thread as
 * before: for tests that watch the readers from this thread (the inflaters a zip bomb reaches).
 */
export function useImportWorkers(enabled: boolean): void {
  workersEnabled = enabled;
}

/** The payload in a form a worker can open; undefined when a file can be read only here (or workers are off). */
export function portablePayload(files: readonly PayloadFile[]): PortableFile[] | undefined {
  if (!workersEnabled) return undefined;
  const portable = files.map(portableFile);
  return portable.every((f): f is PortableFile => f !== undefined) ? portable : undefined;
}

function abortError(signal: AbortSignal): Error {
  const err = new Error(`aborted: ${String(signal.reason)}`);
  err.name = 'AbortError';
  return err;
}

interface JobCallbacks {
  signal?: AbortSignal;
  onProgress?: (p: { rowsRead: number; file: string }) => void;
  /** A run's batch of rows, written in its transaction (synchronously); throwing stops the job with that error. */
  onRows?: (rows: AssetRow[]) => void;
  /** A run written by the worker: a batch committed, with the frames written so far. */
  onStored?: (framesWritten: number) => void;
  /** A run written by the worker stopped by a batch's checks: the error the job ends with. */
  refusal?: (reason: 'job' | 'source') => Error;
  /**
   * Once the worker is done with the job: it told its end (its writer thread closed before), or it
   * was terminated. Later than the job's own end when the job was stopped early.
   */
  onWorkerDone?: () => void;
}

/**
 * The batches of a run waiting to be written, written one per turn of the event loop: Node
 * delivers a port's queued messages one after the other in one go, and the immediates queued while
 * handling them all run in the same check phase, so a write per message (or per message's
 * immediate) would write every batch that had arrived before any request waiting behind them is
 * read. An immediate queued from an immediate runs in the following turn, after the poll phase has
 * taken the waiting requests.
 */
export class WriteQueue {
  private readonly batches: AssetRow[][] = [];
  private scheduled = false;

  /** `write` returns false when the job is over: the batches still queued are dropped. */
  constructor(private readonly write: (rows: AssetRow[]) => boolean) {}

  push(rows: AssetRow[]): void {
    this.batches.push(rows);
    this.schedule();
  }

  /**
   * Writes every batch still queued now, in order (a run that failed keeps what it built before
   * its failure, as a run written by the worker does); stops where `write` says the job is over.
   */
  flush(): void {
    while (this.batches.length > 0) {
      if (!this.write(this.batches.shift()!)) {
        this.batches.length = 0;
        return;
      }
    }
  }

  private schedule(): void {
    if (this.scheduled || this.batches.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const rows = this.batches.shift();
      if (!rows) return; // flushed meanwhile
      if (this.write(rows)) this.schedule();
      else this.batches.length = 0;
    });
  }
}

/**
 * Sends one job to a worker once one may start (MAX_IMPORT_WORKERS) and settles with its end; see
 * the module comment for stops. A job stopped while it waits rejects at once and never has a worker.
 */
async function workerJob<R>(job: Extract<ToWorker, { type: 'validate' | 'execute' | 'report' }>, callbacks: JobCallbacks): Promise<R> {
  try {
    await workerSlot(callbacks.signal);
  } catch (err) {
    callbacks.onWorkerDone?.();
    throw err;
  }
  // jobOnWorker calls onWorkerDone exactly once: the slot is freed once.
  return jobOnWorker<R>(job, {
    ...callbacks,
    onWorkerDone: () => {
      freeWorkerSlot();
      callbacks.onWorkerDone?.();
    },
  });
}

/** Sends one job to a worker and settles with its end; `onWorkerDone` runs exactly once, when the worker is done with it. */
function jobOnWorker<R>(job: Extract<ToWorker, { type: 'validate' | 'execute' | 'report' }>, callbacks: JobCallbacks): Promise<R> {
  const { signal } = callbacks;
  let workerDone = callbacks.onWorkerDone;
  const done = () => {
    workerDone?.();
    workerDone = undefined;
  };
  if (signal?.aborted) {
    done();
    return Promise.reject(abortError(signal));
  }
  const worker = takeWorker();
  /** The worker is handed back to the pool (reused or ended): it is done with this job. */
  const release = () => {
    releaseWorker(worker);
    done();
  };
  const terminate = () => void worker.terminate().then(done, done);
  return new Promise<R>((resolve, reject) => {
    let settled = false;
    const post = (message: ToWorker) => worker.postMessage(message);
    const finish = (): boolean => {
      if (settled) return false;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      return true;
    };
    /** The run's writer dropped indexes, and builds them at its end (`building`). */
    let buildsAtEnd = false;
    /** Stops the worker's job; the worker is reused only if it says it stopped in time. */
    const stop = () => {
      post({ type: 'abort' });
      let terminated = false;
      // A run's writer builds the indexes the run dropped (run-writer.ts): bounded work, which a
      // termination would lose (they would wait for the store's next open). Its end is waited for.
      const timer = buildsAtEnd
        ? undefined
        : setTimeout(() => {
            terminated = true;
            terminate();
            replenish();
          }, STOP_GRACE_MS);
      worker.removeAllListeners('message');
      worker.on('message', (m: FromWorker) => {
        if (m.type === 'building') {
          clearTimeout(timer);
          return;
        }
        if (m.type !== 'stopped' && m.type !== 'failed' && m.type !== 'refused' && m.type !== 'validated' && m.type !== 'executed' && m.type !== 'summarized')
          return;
        clearTimeout(timer);
        // Its end can still arrive after the grace ran out: a worker being terminated is never reused.
        if (!terminated) release();
      });
    };
    const onAbort = () => {
      if (!finish()) return;
      stop();
      reject(abortError(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const writes = new WriteQueue((rows) => {
      if (settled) return false;
      try {
        callbacks.onRows!(rows);
      } catch (err) {
        if (finish()) {
          stop();
          reject(err);
        }
        return false;
      }
      post({ type: 'written' });
      return true;
    });
    worker.on('message', (m: FromWorker) => {
      if (settled) return;
      switch (m.type) {
        case 'progress':
          callbacks.onProgress?.({ rowsRead: m.rowsRead, file: m.file });
          return;
        case 'rows':
          writes.push(m.rows);
          return;
        case 'stored':
          callbacks.onStored?.(m.framesWritten);
          return;
        case 'building':
          buildsAtEnd = true;
          return;
        case 'refused':
          if (finish()) {
            release();
            reject(callbacks.refusal?.(m.reason) ?? new Error(`the import worker refused a batch (${m.reason})`));
          }
          return;
        case 'validated':
        case 'executed':
          if (finish()) {
            release();
            resolve(m.report as R);
          }
          return;
        case 'summarized':
          if (finish()) {
            release();
            resolve(m.summary as R);
          }
          return;
        case 'stopped':
        case 'failed':
          // The batches it sent before its failure came first (a port keeps the order).
          if (m.type === 'failed') writes.flush();
          if (finish()) {
            release();
            reject(new Error(m.type === 'failed' ? m.message : 'the import worker stopped'));
          }
          return;
      }
    });
    worker.on('error', (err) => {
      if (finish()) reject(err);
      terminate();
      replenish();
    });
    worker.on('exit', (code) => {
      if (finish()) reject(new Error(`the import worker exited (code ${code}) before the job ended`));
      done();
      replenish();
    });
    post(job);
  });
}

/** Validation of a portable payload in a worker. */
export function validateInWorker(format: string, files: PortableFile[], callbacks: JobCallbacks): Promise<ValidationReport> {
  return workerJob<ValidationReport>({ type: 'validate', format, files }, callbacks);
}

/** A run of a portable payload in a worker: each batch of stored rows comes to `onRows`, in order. */
export function executeInWorker(
  format: string,
  files: PortableFile[],
  sinkBatchSize: number,
  callbacks: JobCallbacks & { onRows: (rows: AssetRow[]) => void },
): Promise<ExecutionReport> {
  return workerJob<ExecutionReport>({ type: 'execute', format, files, sinkBatchSize, maxInFlight: MAX_BATCHES_IN_FLIGHT }, callbacks);
}

/**
 * A run of a portable payload written by the worker itself into the store's database file
 * (`target`, run-writer.ts): `onStored` hears of each batch committed; a batch's failed checks end
 * the job with `refusal`'s error.
 */
export function executeWritingInWorker(
  format: string,
  files: PortableFile[],
  sinkBatchSize: number,
  target: RunTarget,
  callbacks: JobCallbacks & { onStored: (framesWritten: number) => void; refusal: (reason: 'job' | 'source') => Error },
): Promise<ExecutionReport> {
  return workerJob<ExecutionReport>({ type: 'execute', format, files, sinkBatchSize, maxInFlight: MAX_BATCHES_IN_FLIGHT, target }, callbacks);
}

/**
 * A report's summary computed by an import worker on a second connection (reports/report-snapshot.ts);
 * undefined when workers are off (useImportWorkers). A stop rejects at once; the worker, busy in
 * its SQL until the summary is done, is terminated after STOP_GRACE_MS.
 */
export function summarizeReportInWorker(
  job: ReportSummaryJob,
  callbacks: Pick<JobCallbacks, 'signal' | 'onWorkerDone'>,
): Promise<Record<string, unknown>> | undefined {
  if (!workersEnabled) return undefined;
  return workerJob<Record<string, unknown>>({ type: 'report', job }, callbacks);
}
