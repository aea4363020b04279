/**
 * The request thread's side of the body worker (body-worker.ts): one worker thread per emulator,
 * started at the first large body that needs it and ended after IDLE_MS without one (it holds a V8
 * heap of its own), or when the emulator closes. Bodies are read one after the other, in the order
 * they come. A worker that dies fails the bodies it held (500 INTERNAL) and the next body starts a
 * new one.
 */
import * as path from 'path';
import type { Worker } from 'worker_threads';
import { GoogleApiError, internal } from '../errors';
import { ownsItsBuffer } from '../garbage-collection';
import { startWorker } from '../worker-threads';
import type { BodyReadRequest, BodyReadResult, BodyRefusal } from './body-worker-protocol';
import type { LargeBytesFacts } from './large-bytes';
import type { BodyNames } from './unknown-names';

const WORKER_ENTRY = path.join(__dirname, 'body-worker');

/** How long an idle body worker is kept: a few large bodies in a row share one. */
const IDLE_MS = 5_000;

/**
 * The body worker's young generation, capped as the import worker's is: its work is a few large
 * strings, which V8 keeps in its old generation anyway.
 */
const YOUNG_GENERATION_MB = 8;

/** The refusal thrown in the worker, as the request thread throws it. */
function refusalError(refusal: BodyRefusal): Error {
  if (refusal.kind === 'google') return new GoogleApiError(refusal.status, refusal.message, refusal.details, refusal.httpCode);
  if (refusal.kind === 'syntax') return new SyntaxError(refusal.message);
  return internal(`The request body could not be read: ${refusal.message}`);
}

interface Pending {
  resolve: (read: { value: unknown; texts: LargeBytesFacts[] }) => void;
  reject: (err: Error) => void;
}

export class BodyWorker {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  /** `folder`: where the worker writes the large fields' texts (read at each body: it may be made lazily). */
  constructor(private readonly folder: () => string) {}

  /** Reads `bytes` (moved to the worker: the buffer is unusable here afterwards), refusing the names `names` lacks. */
  read(
    bytes: Buffer,
    googlePath: string | undefined,
    fields: readonly string[],
    names: BodyNames | undefined,
  ): Promise<{ value: unknown; texts: LargeBytesFacts[] }> {
    if (this.closed) return Promise.reject(internal('The emulator is shutting down.'));
    const worker = this.started();
    const id = this.nextId++;
    // The buffer's own memory moves to the worker (no copy); one that shares its memory is copied first.
    const buffer = ownsItsBuffer(bytes) ? bytes.buffer : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const request: BodyReadRequest = { id, bytes: buffer as ArrayBuffer, googlePath, fields, folder: this.folder(), names };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage(request, [request.bytes]);
    });
  }

  private started(): Worker {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (!this.worker) {
      const worker = startWorker(WORKER_ENTRY, { resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
      worker.on('message', (result: BodyReadResult) => this.settle(result));
      worker.on('error', (err) => this.lost(worker, err));
      worker.on('exit', (code) => this.lost(worker, new Error(`the body worker exited with code ${code}`)));
      this.worker = worker;
    }
    this.worker.ref();
    return this.worker;
  }

  private settle(result: BodyReadResult): void {
    const pending = this.pending.get(result.id);
    this.pending.delete(result.id);
    if (this.pending.size === 0) this.idle();
    if (!pending) return;
    if ('refusal' in result) pending.reject(refusalError(result.refusal));
    else pending.resolve({ value: result.value, texts: result.texts });
  }

  /** No body in the worker: it no longer holds the process open, and ends after IDLE_MS. */
  private idle(): void {
    const worker = this.worker;
    if (!worker) return;
    worker.unref();
    this.idleTimer = setTimeout(() => {
      if (this.worker === worker && this.pending.size === 0) {
        this.worker = undefined;
        void worker.terminate();
      }
    }, IDLE_MS);
    this.idleTimer.unref();
  }

  private lost(worker: Worker, err: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    for (const pending of this.pending.values()) pending.reject(internal(`The request body could not be read: ${err.message}`));
    this.pending.clear();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    for (const pending of this.pending.values()) pending.reject(internal('The emulator is shutting down.'));
    this.pending.clear();
    if (worker) await worker.terminate();
  }
}
