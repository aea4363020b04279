/**
 * The columns each RVTools version added that the importer reads without using, in one table.
 *
 * The templates (rvtools-common.ts) declare the columns RVTools 3.x to 4.5 write, imported or
 * "read and ignored". Later versions add columns to every export; a known column the importer does
 * not use must stay silent (the docs promise it), so each version's additions are listed here, with
 * where they were seen. Only a column no RVTools version writes (a vCenter custom attribute, a
 * user's own column) gets the "unknown column" INFO.
 */

/** One row: the columns a version (or versions) added to some tabs, and the evidence. */
export interface RvToolsVersionColumns {
  versions: string;
  /** The tabs that carry them; `every` for each tab the importer reads. */
  tabs: readonly string[] | 'every';
  columns: readonly string[];
  seen: string;
}

export const RVTOOLS_VERSION_COLUMNS: readonly RvToolsVersionColumns[] = [
  {
    versions: '4.6, 4.7',
    tabs: ['vInfo'],
    columns: [
      'Suspended To Memory',
      'Suspend Interval',
      'Overall Cpu Readiness',
      'Active Memory',
      'Fixed Passthru HotPlug',
      'Op Notification Timeout',
      'Vm Failover In Progress',
      'Customization Info',
      'Guest Detailed Data',
    ],
    seen: 'real RVTools 4.6 and 4.7 exports (issue 26)',
  },
  {
    versions: '4.6, 4.7',
    tabs: 'every',
    columns: ['Backup status', 'ClusterInvariantVMMId'],
    seen: 'real RVTools 4.6 and 4.7 exports, on every tab (issue 26)',
  },
];

/** The version columns of one tab (the names as RVTools writes them). */
export function versionColumnsOf(tab: string): string[] {
  return RVTOOLS_VERSION_COLUMNS.filter((r) => r.tabs === 'every' || r.tabs.includes(tab)).flatMap((r) => [...r.columns]);
}
