/**
 * A run's batches written by the run's writer thread (run-writer-worker.ts, started by the import
 * worker through run-writer-thread.ts), on a connection of its own to the store's database file:
 * the request thread then does no part of a run's writes, and a request waits for none of them
 * (reads go on beside the writer's transaction, WAL; a request's write waits for at most the
 * group of batches under way: sqlite-store.ts, `priority`).
 *
 * Each group of batches (at most 4, each whole) commits in one transaction with the checks and
 * the progress record the request thread's batches have (import-job-work.ts): the run still owns
 * the job (its progress record names the run's Operation; the end of the run, a cancel, a
 * deletion and restart recovery each delete or replace that record in their transaction, which
 * waits for the writer's group), and
 * the job's source still exists. So a kill -9 leaves whole batches, the progress record counts
 * exactly the assets stored, and no batch is written after the job's end was recorded.
 */
import { SqliteStore } from '../../store/sqlite-store';
import type { AssetRow } from '../../store/asset-store';
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

export class RunWriter {
  private readonly store: SqliteStore;
  private framesWritten = 0;

  constructor(private readonly target: RunTarget) {
    this.store = new SqliteStore({ secondConnection: target.database });
  }

  /** Writes one batch with the run's progress record; returns the frames written so far. Throws RunRefused. */
  write(rows: AssetRow[]): number {
    return this.writeBatches([rows])[0];
  }

  /**
   * Writes whole batches in one transaction (one commit, one wait for the disk), with the run's
   * progress record; returns the frames written after each batch. Throws RunRefused.
   */
  writeBatches(batches: AssetRow[][]): number[] {
    const { job, operation, assetSource } = this.target;
    const after: number[] = [];
    let n = this.framesWritten;
    this.store.transaction(() => {
      if (this.store.get<RunProgress>(RUN_PROGRESS, job)?.operation !== operation) throw new RunRefused('job');
      if (assetSource !== undefined && !this.store.has(COLLECTIONS.sources, assetSource)) throw new RunRefused('source');
      const time = Date.now();
      for (const rows of batches) {
        this.store.assets.upsert(this.target.parent, this.target.reporter, time, rows);
        n += rows.length;
        after.push(n);
      }
      this.store.put<RunProgress>(RUN_PROGRESS, job, { operation, framesWritten: n });
    });
    this.framesWritten = n;
    return after;
  }

  /** The planner's statistics of the assets, refreshed once the run's last batch is written (the writer does not refresh them as the table grows). */
  refreshStatistics(): void {
    this.store.assets.refreshStatistics();
  }

  close(): void {
    this.store.close();
  }
}
