/**
 * What a report export needs of a report: its name and its summary (the wire `ReportSummary`).
 * The reports family owns reports; this is the one seam the export jobs read them through.
 *
 * Until that family is registered, reports are read from the store collection it keeps them in
 * (`migrationcenter.reports`, keyed by the report's name, the wire Report as value): what
 * `storedReports` does. Once it is, the family builds this from `scope.later('reports')`.
 */
import type { Store } from '../../store/store';
import { COLLECTIONS } from '../names';

export interface ExportableReport {
  name: string;
  /** The report's `summary`; absent while the report is not generated. */
  summary?: Record<string, unknown>;
}

export interface ReportReader {
  /** The report of that name; undefined when there is none. */
  report(name: string): ExportableReport | undefined;
}

/** Reports as the reports family stores them (see above). */
export function storedReports(store: Store): ReportReader {
  return {
    report: (name) => {
      const report = store.get<{ name: string; summary?: Record<string, unknown> }>(COLLECTIONS.reports, name);
      return report ? { name: report.name, ...(report.summary ? { summary: report.summary } : {}) } : undefined;
    },
  };
}
