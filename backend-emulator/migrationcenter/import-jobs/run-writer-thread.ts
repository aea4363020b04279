/**
 * The import worker's side of the run's writer thread (run-writer-worker.ts): the import worker
 * reads, checks and builds a run's batches while this thread writes the ones before, so the run
 * uses both of the machine's cores (a batch's SQLite writes cost about as much CPU as all the rest
 * of its work, and its commit waits for the disk besides).
 *
 * At most `maxInFlight` batches are sent and not yet written (in the writer's open transaction,
 * which commits later: run-writer-worker.ts): the import worker waits for the writer beyond that,
 * so the rows held in memory stay bounded however fast it parses. `drain` asks the writer to
 * commit and waits until every batch sent is stored. A refusal or failure of the writer is thrown
 * by the next `write` or `drain`, and fires `stopped` at once: the import worker stops reading on
 * it, rather than at its next batch (which may be far, or never come). `close` stops the writing
 * (the batch under way finishes; a stopped run's open transaction is rolled back, the batches
 * queued are dropped) and resolves once the thread has ended: a run's end is reported only once
 * nothing more of it can be written.
 */
import * as path from 'path';
import * as v8 from 'v8';
import type { Worker } from 'worker_threads';
import { startWorker } from '../../worker-threads';
import { ownsItsBuffer } from '../../garbage-collection';
import type { AssetRow } from '../../store/asset-store';
import { packRows } from './asset-row-batch';
import type { FromRunWriter, RunWriterData, RunWriterHold, ToRunWriter } from './import-worker-protocol';
import { RunRefused, type RunTarget } from './run-writer';

const WRITER_ENTRY = path.join(__dirname, 'run-writer-worker');

/**
 * The writer's young generation, capped: it holds a few batches at a time, and V8's default lets
 * a thread that allocates steadily grow it to tens of MB, which the process's resident memory
 * carries for the whole run (the emulator's peak RSS target is 300 MB).
 */
const WRITER_YOUNG_GENERATION_MB = 8;

export class RunWriterThread {
  private readonly worker: Worker;
  private readonly stop = new Int32Array(new SharedArrayBuffer(4));
  private readonly exited: Promise<void>;
  /** Batches sent and not yet written. */
  private inFlight = 0;
  /** Batches sent and not yet stored (committed). */
  private unstored = 0;
  private closing = false;
  private wake?: () => void;
  /** Why the writer stopped writing before its close (a refusal, a failure, its thread's end). */
  private ended?: Error;
  private readonly endedController = new AbortController();
  /** Fires when the writer stops writing before its close; its reason is why (RunRefused, or the failure). */
  readonly stopped: AbortSignal = this.endedController.signal;

  constructor(
    target: RunTarget,
    private readonly maxInFlight: number,
    private readonly signal: AbortSignal,
    onStored: (framesWritten: number) => void,
    /** The run dropped indexes (committed): the writer builds them at its close, before it ends; told once the drop is committed. */
    onBuilding?: () => void,
    /** The limits of the writer's transactions, if not its own (run-writer-worker.ts). */
    hold?: RunWriterHold,
  ) {
    const data: RunWriterData = { target, stop: this.stop.buffer as SharedArrayBuffer, hold };
    this.worker = startWorker(WRITER_ENTRY, { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: WRITER_YOUNG_GENERATION_MB } });
    this.worker.on('message', (m: FromRunWriter) => {
      if (m.type === 'building') {
        onBuilding?.();
        return;
      }
      if (m.type === 'written') {
        this.inFlight--;
      } else if (m.type === 'stored') {
        this.unstored--;
        onStored(m.framesWritten);
      } else {
        this.end(m.type === 'refused' ? new RunRefused(m.reason) : new Error(m.message));
      }
      this.wakeUp();
    });
    this.worker.on('error', (err) => this.end(err));
    this.exited = new Promise((resolve) =>
      this.worker.once('exit', (code) => {
        this.end(new Error(`the run's writer thread exited (code ${code})`));
        resolve();
      }),
    );
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  private readonly onAbort = () => {
    Atomics.store(this.stop, 0, 1);
    this.wakeUp();
  };

  /** The writer's first end is the one kept (a thread that ends after a refusal still ends refused). */
  private end(err: Error): void {
    if (!this.ended) {
      this.ended = err;
      if (!this.closing) this.endedController.abort(err);
    }
    this.wakeUp();
  }

  private wakeUp(): void {
    this.wake?.();
    this.wake = undefined;
  }

  private async waitWhile(busy: () => boolean): Promise<void> {
    while (busy() && !this.ended && !this.signal.aborted) await new Promise<void>((resolve) => (this.wake = resolve));
    this.signal.throwIfAborted();
    if (this.ended) throw this.ended;
  }

  /** Sends one batch; waits while `maxInFlight` batches are unwritten. */
  async write(rows: AssetRow[]): Promise<void> {
    await this.waitWhile(() => false);
    // Moved, not copied: a copy left the serialized batch for this thread's next collection.
    const bytes = v8.serialize(packRows(rows));
    this.post({ type: 'batch', rows: bytes }, ownsItsBuffer(bytes) ? [bytes.buffer] : []);
    this.inFlight++;
    this.unstored++;
    await this.waitWhile(() => this.inFlight >= this.maxInFlight);
  }

  /** Asks the writer to commit once it has written every batch sent, and waits until they are stored. */
  drain(): Promise<void> {
    if (!this.ended) this.post({ type: 'flush' });
    return this.waitWhile(() => this.unstored > 0);
  }

  /**
   * Stops the writing and waits for the thread's end: the thread first builds the indexes the run
   * dropped (`onBuilding` is told), and with `refreshStatistics` (a run that was not stopped)
   * refreshes the planner's statistics of the assets.
   */
  async close(refreshStatistics = false): Promise<void> {
    this.closing = true;
    this.signal.removeEventListener('abort', this.onAbort);
    // A stopped run's writer does not refresh them; a stop drops the batch under way at once (a
    // run that ends well has none left: drained).
    const refresh = refreshStatistics && !this.signal.aborted;
    if (!refresh) Atomics.store(this.stop, 0, 1);
    this.post({ type: 'close', refreshStatistics: refresh });
    await this.exited;
  }

  private post(message: ToRunWriter, transfer: ArrayBuffer[] = []): void {
    this.worker.postMessage(message, transfer);
  }
}
