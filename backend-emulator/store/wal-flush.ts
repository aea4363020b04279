/**
 * The group commit of a durable store's first connection (the request thread's): its commits do
 * not wait for the disk (`synchronous = NORMAL` in WAL: a commit is in the OS's page cache, which
 * kill -9 does not touch), and this module then makes them durable, one fsync of the WAL file for
 * all the commits made meanwhile, on libuv's thread pool rather than on the request thread.
 *
 * The request thread waited for the disk in every commit before (one fsync per request: 85% of
 * the thread's wall time under setIamPolicy on a data dir, docs/benchmarks.md). Now the requests
 * that arrive together commit one after the other without waiting, and their answers wait
 * together for one fsync (http/flushed-answers.ts: no answer leaves before what it may show is
 * on disk).
 *
 * An fsync starts in the turn of the event loop after the first commit it covers (setImmediate:
 * the requests read in the same turn commit first and share it), and one at a time: the commits
 * made while one runs are covered by the next, started as soon as it ends.
 *
 * A failed fsync is final: Linux may drop the pages a failed fsync could not write and report the
 * next fsync a success, and SQLite's WAL frames are chained by their checksums, so a lost frame
 * takes every later commit with it at the next recovery. From then on nothing this store
 * commits can be promised durable: every wait for a flush fails with that error.
 */
import * as fs from 'fs';
import * as path from 'path';
import { syncPathSync } from '../fs-sync';

/** How a flush reaches the disk: fs's, or a test's seam that delays, counts or fails fsyncs. */
export interface FileSync {
  fsync(fd: number, callback: (err: NodeJS.ErrnoException | null) => void): void;
  fsyncSync(fd: number): void;
}

export const FILE_SYNC: FileSync = { fsync: fs.fsync, fsyncSync: fs.fsyncSync };

/** A promise with its settle functions, shared by every answer that waits for the same fsync. */
interface Flush {
  promise: Promise<void>;
  resolve(): void;
  reject(err: Error): void;
}

function newFlush(): Flush {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Nobody may wait for it (no answer was made meanwhile): its failure is not unhandled.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

export class WalFlush {
  /** Commits noted (a count, not an identity: an fsync covers every commit noted before it starts). */
  private committed = 0;
  /** Commits on disk. */
  private flushed = 0;
  /** The fsync under way: the commits it covers, and the answers that wait for it. */
  private running?: { through: number; flush: Flush };
  /** The answers that wait for commits the fsync under way does not cover. */
  private next?: Flush;
  private scheduled = false;
  private failure?: Promise<void>;
  private readonly fd: number;
  private closed = false;

  /**
   * `walFile` exists (SQLite made it when the connection first read): it stays while the
   * connection is open. `onFailure` hears of a failed fsync when it happens, once (the answers
   * that wait for it get it too, but none may be waiting).
   */
  constructor(
    walFile: string,
    private readonly sync: FileSync = FILE_SYNC,
    private readonly onFailure?: (err: Error) => void,
  ) {
    // fsync flushes the file's pages, whoever wrote them; opened for writing (never written here)
    // because Windows flushes only a file opened so.
    this.fd = fs.openSync(walFile, 'r+');
    // The WAL file's own name in its folder: SQLite syncs the folder when it creates the file, at
    // its first sync, which a commit of this connection no longer makes.
    try {
      syncPathSync(path.dirname(walFile));
    } catch {
      // Windows opens no folder: its file system keeps a file's entry with the file.
    }
  }

  /** A commit of the connection: it is owed a flush, which starts in the next turn unless one runs. */
  committedOne(): void {
    this.committed++;
    if (this.running === undefined) this.schedule();
  }

  /**
   * Undefined when every commit noted is on disk; else a promise resolved once they all are, or
   * rejected if an fsync failed (then always).
   */
  whenFlushed(): Promise<void> | undefined {
    if (this.failure !== undefined) return this.failure;
    if (this.flushed === this.committed) return undefined;
    const running = this.running;
    if (running !== undefined && running.through === this.committed) return running.flush.promise;
    this.next ??= newFlush();
    return this.next.promise;
  }

  /** Flushes what is owed now, on this thread (before the database closes), and lets go of the file. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.failure === undefined && this.flushed !== this.committed) {
      try {
        this.sync.fsyncSync(this.fd);
        this.done(this.committed, this.running?.flush);
        this.done(this.committed, this.next);
        this.next = undefined;
      } catch (err) {
        this.fail(err as Error, this.running?.flush);
      }
    }
    // An fsync under way still uses the descriptor: it closes when that one ends.
    if (this.running === undefined) fs.closeSync(this.fd);
  }

  private schedule(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.start();
    });
  }

  private start(): void {
    if (this.closed || this.failure !== undefined || this.running !== undefined || this.flushed === this.committed) return;
    const through = this.committed;
    const flush = this.next ?? newFlush();
    this.next = undefined;
    this.running = { through, flush };
    this.sync.fsync(this.fd, (err) => {
      this.running = undefined;
      if (this.closed) fs.closeSync(this.fd);
      if (err) return this.fail(err, flush);
      this.done(through, flush);
      if (this.flushed !== this.committed) this.schedule();
    });
  }

  private done(through: number, flush: Flush | undefined): void {
    if (through > this.flushed) this.flushed = through;
    flush?.resolve();
  }

  /** Rejects the answers waiting (for `running`, and for the next fsync) and every later wait. */
  private fail(err: Error, running: Flush | undefined): void {
    if (this.failure !== undefined) return;
    const failure = new Error(
      `The data dir's WAL could not be written to disk (fsync: ${err.message}); nothing written since can be promised durable: restart the emulator.`,
      {
        cause: err,
      },
    );
    this.failure = Promise.reject(failure);
    this.failure.catch(() => undefined);
    running?.reject(failure);
    this.next?.reject(failure);
    this.next = undefined;
    this.onFailure?.(failure);
  }
}
