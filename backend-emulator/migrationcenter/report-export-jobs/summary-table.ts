/**
 * The CSV of a report export: the report's summary as `field,value` rows, one per leaf of the
 * `ReportSummary` message in its order, the field named by its path (`allAssetsStats.totalAssets`,
 * `groupFindings[0].preferenceSetFindings[1].displayName`). Google's layout of a report export is
 * not published; this one holds every value of the summary and no other (docs/migration-center.md).
 * An empty list or object has no leaf, so no row: as ProtoJSON leaves it out of the summary too.
 */
import type { Cell } from '../exports/table-files';

export const SUMMARY_FILE = 'report-summary.csv';
export const SUMMARY_COLUMNS = ['field', 'value'] as const;

/** Every leaf of `value` under `path`, in order, as a `[path, value]` row. */
export function summaryRows(value: unknown, path = ''): Cell[][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => summaryRows(item, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => summaryRows(item, path ? `${path}.${key}` : key));
  }
  if (value === undefined || value === null) return [];
  return [[path, value as Cell]];
}
