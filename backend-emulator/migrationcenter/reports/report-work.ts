/**
 * The computation of a report's summary, after its create has answered: the report is stored
 * PENDING with a record naming the Operation that computes it (COLLECTIONS.reportRuns), and the
 * Operation ends together with the report's final state (SUCCEEDED with the summary, or FAILED),
 * as an import job's run does (operations/work.ts).
 *
 * Where the summary is computed: on a file-backed store, in the import worker, on a second
 * connection with every read in one snapshot (report-snapshot.ts): the request thread is free the
 * whole time. On an in-memory store (which no second connection can open), or with import workers
 * off, on the request thread in one go, after the create has answered: the same synchronous SQL
 * as before, only no longer inside the create's request (an in-memory store holds test-sized
 * inventories).
 *
 * Stops: a deleted report (or its config, deleted with force) stops its computation, and its
 * Operation ends ABORTED; `:cancel` ends it CANCELLED and the report FAILED; a shutdown ends it
 * ABORTED and the report FAILED; a report a stopped process left PENDING is marked FAILED at the
 * next start (`recovery`), its Operation ABORTED (docs/migration-center.md).
 */
import { GoogleApiError } from '../../errors';
import type { Store } from '../../store/store';
import { WorkEnd, interruptedMessage, type Operation, type RecoveryHook, type ServiceOperations, type WorkState } from '../../operations/operations';
import { summarizeReportInWorker } from '../import-jobs/import-thread';
import { COLLECTIONS, TYPES } from '../names';
import { reportSummary, type SummaryInputs } from './report-summary';
import type { ReportWire } from './reports';

/** The record of a PENDING report's computation: the Operation that computes it. */
interface ReportRun {
  operation: string;
}

let heldSummaries: SharedArrayBuffer | undefined;

/**
 * Tests only: the summaries computed in a worker from now on (`cell`; undefined: no longer) open
 * their snapshot, set the cell's Int32 to HOLD_SNAPSHOT_OPEN, and wait until it is
 * HOLD_RELEASED before they read the assets (report-snapshot.ts).
 */
export function holdReportSummaries(cell: SharedArrayBuffer | undefined): void {
  heldSummaries = cell;
}

export class ReportWork {
  constructor(
    private readonly store: Store,
    private readonly ops: ServiceOperations,
    private readonly now: () => string,
  ) {}

  /**
   * Inside the create's transaction, the PENDING report stored: starts the computation of its
   * summary and records its Operation (not done) beside it.
   */
  start(report: ReportWire, location: string, inputs: SummaryInputs): Operation {
    const name = report.name;
    const op = this.ops.start({
      parent: location,
      target: name,
      verb: 'create',
      responseType: TYPES.report,
      work: async (ctl) => {
        const summary = await this.compute(inputs, ctl.signal);
        const finished: ReportWire = { ...this.pending(name, op.name), updateTime: this.now(), state: 'SUCCEEDED', summary };
        return new WorkEnd(() => this.end(name, op.name, finished), undefined, { ...finished });
      },
      state: this.stopState(name, () => op.name),
    });
    this.store.put<ReportRun>(COLLECTIONS.reportRuns, name, { operation: op.name });
    return op;
  }

  /** Inside a report's delete: its computation, if any, is forgotten now and stopped once the delete has committed. */
  forget(name: string): void {
    if (!this.store.delete(COLLECTIONS.reportRuns, name)) return;
    // After the commit (a microtask runs once the synchronous transaction is over), and only if the report is gone.
    queueMicrotask(() => {
      if (!this.store.has(COLLECTIONS.reports, name)) this.ops.abortTarget(name, 'deleted');
    });
  }

  /** Inside a report config's delete (with force): the computations of its reports. */
  forgetUnder(config: string): void {
    for (const { key } of this.store.list<ReportRun>(COLLECTIONS.reportRuns, { prefix: `${config}/reports/` })) this.forget(key);
  }

  /** This family's part in start-up recovery: reports a stopped emulator left PENDING end FAILED. */
  readonly recovery: RecoveryHook = {
    inProgress: () => this.store.list<ReportRun>(COLLECTIONS.reportRuns).map((e) => ({ target: e.key, operation: e.value.operation })),
    markInterrupted: (name) => {
      const message = interruptedMessage(DURING);
      const report = this.store.get<ReportWire>(COLLECTIONS.reports, name);
      if (report?.state === 'PENDING') this.store.put<ReportWire>(COLLECTIONS.reports, name, { ...report, updateTime: this.now(), state: 'FAILED' });
      this.store.delete(COLLECTIONS.reportRuns, name);
      return message;
    },
  };

  private async compute(inputs: SummaryInputs, signal: AbortSignal): Promise<Record<string, unknown>> {
    const lent = this.store.lendSecondConnection();
    if (lent) {
      const inWorker = summarizeReportInWorker({ database: lent.database, inputs, hold: heldSummaries }, { signal, onWorkerDone: lent.giveBack });
      if (inWorker) return inWorker;
      lent.giveBack();
    }
    signal.throwIfAborted();
    return reportSummary(inputs, this.store.assets);
  }

  /** The report, still PENDING and still computed by `operation`; otherwise it was deleted meanwhile. */
  private pending(name: string, operation: string): ReportWire {
    const report = this.store.get<ReportWire>(COLLECTIONS.reports, name);
    if (!report || report.state !== 'PENDING' || this.store.get<ReportRun>(COLLECTIONS.reportRuns, name)?.operation !== operation) throw gone(name);
    return report;
  }

  /** Inside the Operation's end transaction: the report's final state. */
  private end(name: string, operation: string, report: ReportWire): void {
    this.pending(name, operation);
    this.store.put<ReportWire>(COLLECTIONS.reports, name, report);
    this.store.delete(COLLECTIONS.reportRuns, name);
  }

  private stopState(name: string, operation: () => string): WorkState {
    return {
      during: DURING,
      activity: 'report generation',
      resource: `Report ${name}`,
      gone: () => gone(name),
      failed: () => {
        const report = this.pending(name, operation());
        this.end(name, operation(), { ...report, updateTime: this.now(), state: 'FAILED' });
      },
    };
  }
}

const DURING = 'this report was PENDING';

function gone(name: string): GoogleApiError {
  return new GoogleApiError('ABORTED', `Report ${name} was deleted while its summary was being computed.`);
}
