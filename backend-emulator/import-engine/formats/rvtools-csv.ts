/**
 * IMPORT_JOB_FORMAT_RVTOOLS_CSV: the VM-inventory-tool (RVTools) tabs exported as separate CSV
 * files, "Export all to csv": `RVTools_tabvInfo.csv` (required), `RVTools_tabvCPU.csv`,
 * `RVTools_tabvMemory.csv`, `RVTools_tabvDisk.csv`, `RVTools_tabvPartition.csv`,
 * `RVTools_tabvNetwork.csv`. Names match case-blind, with or without the `RVTools_tab` prefix and
 * with a ` (1)` copy suffix; the header must then fit the tab (its required columns). The other
 * `RVTools_tab*.csv` files of an "Export all" are accepted and ignored with an INFO.
 * Same columns, rules and assets as the XLSX format: docs/formats/rvtools-csv.md.
 */
import { csvReader } from '../readers/csv';
import { info } from '../report';
import type { FileKind, FormatDefinition, Reader, ReaderEvent } from '../types';
import { RV_TABS, rvtoolsAssets, rvtoolsKinds, rvtoolsReader, type RvChildren, type RvTab } from './rvtools-common';

export const tabFileName = (tab: RvTab): RegExp => new RegExp(`^(?:RVTools_tab)?${tab}(?:\\s*\\(\\d+\\))?\\.csv$`, 'i');

/** Other tabs of an "Export all to csv" (vHost, vSnapshot, ...): accepted, not read. */
export const OTHER_TAB_FILE = new RegExp(`^RVTools_tab(?!(?:${RV_TABS.join('|')})(?:\\s*\\(\\d+\\))?\\.csv$)\\w+(?:\\s*\\(\\d+\\))?\\.csv$`, 'i');

function tabOfFile(fileName: string): RvTab | undefined {
  return RV_TABS.find((t) => tabFileName(t).test(fileName));
}

const tabs = rvtoolsReader(csvReader, (fileName) => tabOfFile(fileName));

/** Ignores the other tabs' files at once (one INFO, nothing read); reads the six tabs. */
export const rvtoolsCsvReader: Reader = async function* (bytes, ctx): AsyncGenerator<ReaderEvent> {
  if (OTHER_TAB_FILE.test(ctx.fileName)) {
    const tab = /^RVTools_tab(\w+)/i.exec(ctx.fileName)?.[1] ?? ctx.fileName;
    yield { type: 'fileIssue', issue: info(`the ${tab} tab is not read by the RVTools CSV import; the file is ignored`), fatal: true };
    return;
  }
  yield* tabs(bytes, ctx);
};

export const rvtoolsCsvKinds: FileKind[] = [
  ...rvtoolsKinds((tab) => ({ title: `RVTools_tab${tab}.csv`, fileName: tabFileName(tab) })),
  {
    kind: 'other-tabs',
    title: 'other RVTools_tab*.csv',
    fileName: OTHER_TAB_FILE,
    required: false,
    multiple: true,
    columns: [],
    description: 'The other tabs of an "Export all to csv" (vHost, vSnapshot, ...): accepted and ignored with an INFO.',
  },
];

export const rvtoolsCsv: FormatDefinition<RvChildren> = {
  format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV',
  label: 'RVTools CSV',
  description:
    'VM-inventory-tool (RVTools) tabs exported as CSV files: RVTools_tabvInfo.csv (required), RVTools_tabvCPU.csv, RVTools_tabvMemory.csv, RVTools_tabvDisk.csv, RVTools_tabvPartition.csv, RVTools_tabvNetwork.csv; other RVTools_tab*.csv files are ignored.',
  fileKinds: rvtoolsCsvKinds,
  reader: rvtoolsCsvReader,
  assets: rvtoolsAssets,
};
