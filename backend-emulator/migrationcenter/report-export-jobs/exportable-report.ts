/**
 * What a report export needs of a report: its name and its summary (the wire `ReportSummary`).
 * The reports family owns reports; this is the one seam the export jobs read them through.
 */
import type { Reports } from '../reports/reports';

export interface ExportableReport {
  name: string;
  /** The report's `summary`; absent while the report is not generated. */
  summary?: Record<string, unknown>;
}

export interface ReportReader {
  /** The report of that name; undefined when there is none. */
  report(name: string): ExportableReport | undefined;
}

/** The reports family's reports, as an export reads them. */
export function reportReader(reports: Reports): ReportReader {
  return {
    report: (name) => {
      const report = reports.find(name);
      return report ? { name: report.name, ...(report.summary ? { summary: report.summary as Record<string, unknown> } : {}) } : undefined;
    },
  };
}
