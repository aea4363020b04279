/**
 * A report's summary computed off the request thread: in the import worker (import-worker.ts,
 * which runs this for a `report` job), on a second connection to the store's database file,
 * with every read of the assets in one read transaction. The summary is that of the assets of
 * the config's groups at that moment: writes committed meanwhile (an import run, an addAssets)
 * are not in it, and none of them waits for it (WAL keeps the snapshot; the request thread's
 * reads and writes go on beside it).
 */
import { SqliteStore } from '../../store/sqlite-store';
import type { SharedDatabase } from '../../store/store';
import { reportSummary, type SummaryInputs } from './report-summary';

/** A report's summary job, as sent to the worker. */
export interface ReportSummaryJob {
  /** The store's database, lent for the job (Store.lendSecondConnection). */
  database: SharedDatabase;
  inputs: SummaryInputs;
  /**
   * Tests only (reports/report-work.ts `holdReportSummaries`): one Int32 that the job sets to 1
   * once its snapshot is open, then waits until it is set to 2 before it reads the assets.
   */
  hold?: SharedArrayBuffer;
}

/** Cell values of `ReportSummaryJob.hold`. */
export const HOLD_SNAPSHOT_OPEN = 1;
export const HOLD_RELEASED = 2;

/** The job's summary; the worker's thread is held for the whole of it (SQL aggregates, synchronous). */
export function summaryInSnapshot(job: ReportSummaryJob): Record<string, unknown> {
  const store = new SqliteStore({ secondConnection: job.database });
  try {
    return store.readSnapshot(() => {
      if (job.hold) {
        const cell = new Int32Array(job.hold);
        Atomics.store(cell, 0, HOLD_SNAPSHOT_OPEN);
        Atomics.notify(cell, 0);
        while (Atomics.load(cell, 0) !== HOLD_RELEASED) Atomics.wait(cell, 0, HOLD_SNAPSHOT_OPEN);
      }
      return reportSummary(job.inputs, store.assets);
    });
  } finally {
    store.close();
  }
}
