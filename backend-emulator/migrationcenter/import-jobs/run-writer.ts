/**
 * A run's batches written by the run's writer thread (run-writer-worker.ts, started by the import
 * worker through run-writer-thread.ts), on a connection of its own to the store's database file:
 * the request thread then does no part of a run's writes, and a request waits for none of them
 * (reads go on beside the writer's transaction, WAL; a request's write waits for at most the
 * batch under way and the commit: sqlite-store.ts, `priority`, beginHeldTransaction).
 *
 * The batches go, each whole, into a transaction held open across them (`writeInTransaction`),
 * which the writer thread commits when a request's write waits or at its limits (`commit`), with
 * the checks and the progress record the request thread's batches have (import-job-work.ts): the
 * run still owns the job (its progress record names the run's Operation; the end of the run, a
 * cancel, a deletion and restart recovery each delete or replace that record in their
 * transaction, which waits for the writer's commit), and the job's source still exists, checked
 * as the transaction begins (nothing else writes before it ends). So a kill -9 leaves whole
 * batches, the progress record counts exactly the assets stored, and no batch is written after
 * the job's end was recorded.
 *
 * A large run writes without the four low-cardinality indexes, and without the VM name's and
 * UUID's when its machines come in no order of them, and builds them at its end
 * (DEFER_INDEXES_AFTER_ROWS, KEYS_IN_ORDER): meanwhile their filters and orderings scan the
 * parent's assets, and a kill leaves them to the store's next open, which makes any index missing.
 */
import { SqliteStore } from '../../store/sqlite-store';
import type { AssetRow } from '../../store/asset-store';
import { LOW_CARDINALITY_INDEXES, MACHINE_KEY_INDEXES } from '../../store/sqlite-assets';
import type { SharedDatabase } from '../../store/store';
import { COLLECTIONS } from '../names';
import { RUN_PROGRESS, type RunProgress } from './import-job-model';

/** What a worker needs to write a run's batches (sent with the job, import-worker-protocol.ts). */
export interface RunTarget {
  /** The store's database, lent for the run (Store.lendSecondConnection). */
  database: SharedDatabase;
  job: string;
  operation: string;
  parent: string;
  /** The `sources` every asset gets: the job's assetSource, or the job. */
  reporter: string;
  /** The job's assetSource, checked in each batch's transaction. */
  assetSource?: string;
}

/** Why a batch was not written: the run no longer owns its job, or the job's source was deleted. */
export class RunRefused extends Error {
  constructor(readonly reason: 'job' | 'source') {
    super(reason === 'job' ? 'the run no longer owns its import job' : "the import job's assetSource was deleted");
    this.name = 'RunRefused';
  }
}

/**
 * DEFER_INDEXES_AFTER_ROWS: a run drops the four low-cardinality indexes (sqlite-assets.ts,
 * LOW_CARDINALITY_INDEXES; and those of KEYS_IN_ORDER) in the transaction of the group that takes it to this many assets, and
 * to twice as many as the table held when it started, and builds them at its end
 * (`buildMissingIndexes`). Measured (the writer alone, 600,000 full-shape rows, load 5 to 11): the
 * writes took 4.9 to 6.3 CPU-s without them against 8.1 to 8.9 s with them, and their build
 * 1.8 to 2.6 s (about 0.45 s each, a fifth of it the table's scan). So an asset written without them
 * saves about 5 us and the build costs about 3 us per asset in the table: it pays once the run
 * writes, after the drop, about twice what it had written before it. The conditions bound the
 * loss of a run that ends right after the drop to a build of at most one and a half times its
 * assets (0.1 s at 20,000), and keep a small run into a large table from sorting the whole table.
 */
export const DEFER_INDEXES_AFTER_ROWS = 20_000;

/**
 * KEYS_IN_ORDER: a run drops the index of the VM name or UUID (sqlite-assets.ts,
 * MACHINE_KEY_INDEXES) with the four when fewer than this share of its rows so far had a key
 * above the row before's. Keys in order (`host-1`, `host-2`, ...: 0.99 even as strings) append at
 * the tree's end, cheap to keep. Random keys (VMware UUIDs, unordered names: about half) land on
 * random leaves: measured (the writer alone, 600,000 rows of random UUIDs and names, load 5), the
 * writes took 30.9 CPU-s with both indexes against 12.6 s without, and their build 1.5 s. Ordered
 * keys: 5.8 s against 4.6 s, for a build of 1.4 s at the run's end, where the other core idles.
 */
export const KEYS_IN_ORDER = 0.75;

/** How often a run's rows came with a VM name (or UUID) above the row before's, until it decides what to drop. */
class KeyOrder {
  private last: string | undefined;
  private ascending = 0;
  private compared = 0;

  constructor(readonly field: 'vmName' | 'vmUuid') {}

  count(rows: AssetRow[]): void {
    for (const row of rows) {
      const key = row[this.field];
      if (key === undefined || key === null) continue;
      if (this.last !== undefined) {
        this.compared++;
        if (key > this.last) this.ascending++;
      }
      this.last = key;
    }
  }

  /** The keys came in no order (rows without the field count for nothing: an index of few keys costs little). */
  get random(): boolean {
    return this.compared >= DEFER_INDEXES_AFTER_ROWS / 2 && this.ascending < KEYS_IN_ORDER * this.compared;
  }
}

export class RunWriter {
  private readonly store: SqliteStore;
  /** The frames committed: what the progress record holds. */
  private framesWritten = 0;
  /** The assets the table held when the run started (DEFER_INDEXES_AFTER_ROWS). */
  private readonly assetsBefore: number;
  /** This run dropped its indexes (the transaction that dropped them committed). */
  private indexesDropped = false;
  /** The order of the VM names and UUIDs written so far, until the indexes are dropped. */
  private readonly keyOrders = MACHINE_KEY_INDEXES.map(([, , field]) => new KeyOrder(field));
  /**
   * The transaction held open (sqlite-store.ts, beginHeldTransaction): when it began, the frames
   * written after each of its batches, and whether it dropped the indexes.
   */
  private open?: { began: number; frames: number[]; droppedIndexes: boolean };

  constructor(private readonly target: RunTarget) {
    this.store = new SqliteStore({ secondConnection: target.database });
    this.assetsBefore = this.store.assets.count();
  }

  /** Writes one batch in a transaction of its own with the run's progress record; returns the frames written so far. Throws RunRefused. */
  write(rows: AssetRow[]): number {
    return this.writeBatches([rows])[0];
  }

  /**
   * Writes whole batches in one transaction (one commit, one wait for the disk), with the run's
   * progress record; returns the frames written after each batch. Nothing of them is written if
   * one fails. Throws RunRefused.
   */
  writeBatches(batches: AssetRow[][]): number[] {
    try {
      for (const rows of batches) this.writeInTransaction(rows);
      return this.commit();
    } catch (err) {
      this.rollback();
      throw err;
    }
  }

  /**
   * Writes one batch in the transaction the run holds open, begun (in its turn, with the checks)
   * if none is: the batch is stored once `commit` has committed it. A batch that fails rolls the
   * whole transaction back (no savepoint per batch: a savepoint copies every page the transaction
   * had dirtied before it to its sub-journal when the batch changes it again, which took back all
   * that the long transaction saved), and throws. Throws RunRefused at the begin (the run no longer
   * owns the job, or the source is gone): nothing is open then. The checks hold for the whole
   * transaction: the writes that change what they read (the end of the run, a cancel, a deletion,
   * restart recovery) wait for its commit.
   */
  writeInTransaction(rows: AssetRow[]): void {
    const open = this.open ?? this.begin();
    const frames = open.frames.length > 0 ? open.frames[open.frames.length - 1] : this.framesWritten;
    const total = frames + rows.length;
    const dropped = this.indexesDropped || open.droppedIndexes;
    if (!dropped) for (const order of this.keyOrders) order.count(rows);
    const dropIndexes = !dropped && total >= DEFER_INDEXES_AFTER_ROWS && total >= 2 * this.assetsBefore;
    const toDrop = dropIndexes ? this.indexesToDrop() : [];
    try {
      // In the batch's transaction: a batch that fails drops nothing.
      if (dropIndexes) this.store.assets.dropIndexes(toDrop);
      this.store.assets.upsert(this.target.parent, this.target.reporter, Date.now(), rows);
    } catch (err) {
      this.rollback();
      throw err;
    }
    if (dropIndexes) open.droppedIndexes = true;
    open.frames.push(total);
  }

  private begin(): NonNullable<RunWriter['open']> {
    const { job, operation, assetSource } = this.target;
    this.store.beginHeldTransaction();
    try {
      if (this.store.get<RunProgress>(RUN_PROGRESS, job)?.operation !== operation) throw new RunRefused('job');
      if (assetSource !== undefined && !this.store.has(COLLECTIONS.sources, assetSource)) throw new RunRefused('source');
    } catch (err) {
      this.store.endHeldTransaction(false);
      throw err;
    }
    this.open = { began: Date.now(), frames: [], droppedIndexes: false };
    return this.open;
  }

  /**
   * Commits the open transaction with the run's progress record counting its batches; returns the
   * frames written after each of them (none: nothing was open). A commit that fails keeps nothing
   * of the transaction, and throws.
   */
  commit(): number[] {
    const open = this.open;
    if (!open) return [];
    this.open = undefined;
    if (!this.store.heldTransactionOpen) {
      // SQLite rolled the whole of it back (a failure such as a full disk): nothing to commit.
      this.store.endHeldTransaction(false);
      return [];
    }
    const { job, operation } = this.target;
    const framesWritten = open.frames.length > 0 ? open.frames[open.frames.length - 1] : this.framesWritten;
    try {
      this.store.put<RunProgress>(RUN_PROGRESS, job, { operation, framesWritten });
    } catch (err) {
      this.store.endHeldTransaction(false);
      throw err;
    }
    this.store.endHeldTransaction(true);
    this.framesWritten = framesWritten;
    if (open.droppedIndexes) this.indexesDropped = true;
    return open.frames;
  }

  /** Rolls the open transaction back, if one is: its batches are not stored (a stopped run's). */
  rollback(): void {
    if (!this.open) return;
    this.open = undefined;
    this.store.endHeldTransaction(false);
  }

  /** The open transaction, if any: how many batches it holds, and how long ago it began (ms). */
  get openTransaction(): { batches: number; rows: number; ageMs: number } | undefined {
    const open = this.open;
    if (!open) return undefined;
    const last = open.frames.length > 0 ? open.frames[open.frames.length - 1] : this.framesWritten;
    return { batches: open.frames.length, rows: last - this.framesWritten, ageMs: Date.now() - open.began };
  }

  /** A request's write waits for this connection's transaction (sqlite-store.ts, requestWriteWaiting). */
  get requestWriteWaiting(): boolean {
    return this.store.requestWriteWaiting;
  }

  /** Another run's writer waits for its turn to write (sqlite-store.ts, anotherWriterWaiting). */
  get anotherWriterWaiting(): boolean {
    return this.store.anotherWriterWaiting;
  }

  /** Resolves once a request's write waits or another run's writer waits for its turn, or after `ms`. */
  whenAskedToCommit(ms: number): Promise<unknown> {
    return this.store.whenAskedToCommit(ms);
  }

  /** The four low-cardinality indexes, and the VM name's and UUID's if their keys came in no order (KEYS_IN_ORDER). */
  private indexesToDrop(): string[] {
    const keyed = MACHINE_KEY_INDEXES.filter((_, i) => this.keyOrders[i].random).map(([name]) => name);
    return [...keyed, ...LOW_CARDINALITY_INDEXES.map(([name]) => name)];
  }

  /** The indexes this run dropped are still to be built. */
  get indexesToBuild(): boolean {
    return this.indexesDropped;
  }

  /**
   * Builds the indexes the database lacks (this run dropped them, or a run before it could not
   * build them), each in a transaction of its own: a request's write waits for one index's build
   * (sqlite-store.ts, `priority`), not for all. Called at the run's end whatever ended it
   * (run-writer-worker.ts). An index it cannot build is left to the store's next open.
   */
  buildMissingIndexes(): void {
    for (const name of this.store.assets.missingDeferrableIndexes()) this.store.transaction(() => this.store.assets.buildIndex(name));
    this.indexesDropped = false;
  }

  /** The planner's statistics of the assets, refreshed once the run's last batch is written (the writer does not refresh them as the table grows). */
  refreshStatistics(): void {
    // In a transaction, so in this connection's turn: outside one, its ANALYZE waited for SQLite's
    // lock in the busy handler, which another run's writer, beginning again as it committed, left it
    // only by chance, and the run's end waited for it (up to the busy timeout).
    this.store.transaction(() => this.store.assets.refreshStatistics());
  }

  close(): void {
    this.rollback();
    this.store.close();
  }
}
