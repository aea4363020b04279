/**
 * Real exports as the tools write them (issue 16): one case per shape, each a fixture under
 * tests/fixtures (workbooks are built from a fixture folder of CSV tabs at test time, so nothing
 * binary is committed). The REST test (tests/backend-emulator/migrationcenter/real-exports-rest.test.ts)
 * and the `validate` command test (tests/backend-emulator/commands/validate-real-exports.test.ts)
 * run the same cases.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportJobFormat } from '../../backend-emulator/import-engine';
import { buildWorkbook, handWorkbook, inlineRow, sheetsFromCsvFixture, type SheetSpec } from '../../support/xlsx-build';
import {
  awsZipUnnamed,
  manualCsvMisnamed,
  manualCsvUnnamed,
  noCreationDate,
  orphanRows,
  orphanTabOnly,
  rvtools47Columns,
  rvtoolsCsvUnnamed,
  rvtoolsUnnamed,
  tieBreakers,
} from './rvtools-quirks';

export const FIXTURES = join(__dirname, '..', 'fixtures');

export interface NamedBytes {
  name: string;
  data: Buffer;
}

export interface RealExportCase {
  name: string;
  format: ImportJobFormat;
  files(): Promise<NamedBytes[]>;
  /** Whether the report has an ERROR (FAILED_VALIDATION over REST, exit 1 from validate). */
  blocking: boolean;
  /** Assets a run makes (valid cases). */
  machines?: number;
  /** Texts the report contains (each in one issue). */
  says: string[];
  /** Texts it must not contain. */
  never?: string[];
}

function folder(dir: string): () => Promise<NamedBytes[]> {
  return async () => {
    const path = join(FIXTURES, dir);
    return readdirSync(path)
      .sort()
      .map((name) => ({ name, data: readFileSync(join(path, name)) }));
  };
}

/** A user's own sheet in front of the RVTools sheets, and unnamed trailing header cells in every tab (a re-save). */
async function workbookWithSummary(dir: string): Promise<NamedBytes[]> {
  const tabs = sheetsFromCsvFixture(dir).map((s): SheetSpec => ({ ...s, rows: s.rows.map((r, i) => (i === 0 ? [...r, '', '', ''] : r)) }));
  const summary: SheetSpec = {
    name: 'Summary',
    rows: [
      ['Inventory of', 'vc01.example.com'],
      ['VMs', 3],
    ],
  };
  return [{ name: 'RVTools_export_all.xlsx', data: await buildWorkbook([summary, ...tabs]) }];
}

/** A vInfo sheet whose dimension claims a million rows, with empty formatted rows after the data (Excel, LibreOffice). */
async function hugeDimension(): Promise<NamedBytes[]> {
  const header = ['VM', 'CPUs', 'Memory', 'VM ID', 'Datacenter'];
  const data = [inlineRow(1, header), inlineRow(2, ['web-01', 2, 4096, 'vm-1', 'DC1']), inlineRow(3, ['web-02', 4, 8192, 'vm-2', 'DC1'])].join('');
  let empty = '';
  for (let r = 4; r <= 20_000; r++) empty += `<row r="${r}" s="1" customFormat="1"><c r="A${r}" s="1"/><c r="E${r}" s="1"/></row>`;
  const xml =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
    `<dimension ref="A1:XFD1048576"/><sheetData>${data}${empty}</sheetData></worksheet>`;
  return [{ name: 'resaved.xlsx', data: handWorkbook([['vInfo', xml]]) }];
}

const SCRIPT_GAPS = {
  diskTotals: (s: string) => `TotalDiskAllocatedGiB and TotalDiskUsedGiB are empty or 0: the ${s} script does not compute them`,
  diskUse: (s: string) => `UsedInGib is empty: the ${s} script cannot see inside a disk`,
  fallback: (s: string) => `SizeInGib 52.5 is what the ${s} script writes when it cannot read a disk's size`,
};

export const REAL_EXPORT_CASES: RealExportCase[] = [
  // ---- RVTools ----
  {
    name: 'RVTools 4.x CSV tabs: vCPU without VM ID (VM + Datacenter + Host), vPartition by VM UUID, vDisk by VM ID + server',
    format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV',
    files: folder('rvtools/csv-4x-partial-keys'),
    blocking: false,
    machines: 3,
    says: ['1 row of VM templates skipped'],
    never: ['matches no VM'],
  },
  {
    name: 'RVTools CSV tabs: rows no shared key matches, a name two VMs share',
    format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV',
    files: folder('rvtools/csv-unmatched'),
    blocking: true,
    says: [
      // no vCPU row joins a VM, so ghost-01 stays an error; a unique name needs no datacenter
      'the row matches no VM of vInfo: tried VM "ghost-01" (RVTools_tabvCPU.csv row 2; no row of this tab matches a VM of vInfo)',
      // app-01 names two VMs: the datacenter both tabs carry breaks the tie, and names none
      'the row matches no VM of vInfo: tried VM "app-01" (names several VMs); then VM "app-01" + Datacenter "DC-North"',
      'the row matches no VM of vInfo: tried VM "app-01" (names several VMs)',
    ],
  },
  {
    name: 'RVTools 4.x workbook: a Summary sheet before vInfo, unnamed trailing header cells, children without VM ID',
    format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
    files: () => workbookWithSummary('rvtools/csv-4x-partial-keys'),
    blocking: false,
    machines: 3,
    says: ['sheets not read by this format: Summary'],
    never: ['matches no VM', 'has no name', 'fields but the header has'],
  },
  {
    name: 'RVTools workbook re-saved: a dimension of a million rows, empty formatted rows',
    format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
    files: hugeDimension,
    blocking: false,
    machines: 2,
    says: [],
    never: ['fields but the header has'],
  },
  // ---- RVTools, issue 26 (fixtures of tests/support/rvtools-quirks.ts) ----
  {
    name: 'RVTools workbook filtered by hand: vPartition rows for VMs vInfo lacks are WARNINGs and left out',
    format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
    files: orphanRows,
    blocking: false,
    machines: 2,
    says: [
      'the row matches no VM of vInfo: tried VM UUID "50120000-0000-4000-8000-000000000901"; then VM "vcsa-01" (sheet "vPartition" row 3): its VM is not in vInfo, the row is left out',
      'tried VM UUID "50120000-0000-4000-8000-000000000902"; then VM "backup-proxy" (sheet "vPartition" row 5)',
    ],
  },
  {
    name: 'RVTools workbook whose vCPU sheet names no VM of vInfo: its rows stay errors',
    format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
    files: orphanTabOnly,
    blocking: true,
    says: ['the row matches no VM of vInfo: tried VM "other-01" (sheet "vCPU" row 2; no row of this tab matches a VM of vInfo)'],
  },
  {
    name: 'RVTools anonymised workbook: vCPU with only VM, Datacenter and Host, hosts differing from vInfo',
    format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
    files: tieBreakers,
    blocking: false,
    machines: 3,
    says: [],
    never: ['matches no VM'],
  },
  {
    name: 'RVTools workbook with the "no creation date" placeholder (the epoch in local time)',
    format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
    files: noCreationDate,
    blocking: false,
    machines: 5,
    says: ['sheet "vInfo": 3 rows have a Creation date within 14 hours of 1970-01-01T00:00:00Z'],
    never: ['is not a date'],
  },
  {
    name: 'RVTools 4.7 workbook: the columns 4.6 and 4.7 added are silent, a custom attribute gets the INFO',
    format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
    files: rvtools47Columns,
    blocking: false,
    machines: 2,
    says: ['the column "owner" is not part of the'],
    never: ['"Suspended To Memory" is not part', '"Guest Detailed Data" is not part', '"Backup status" is not part', '"ClusterInvariantVMMId" is not part'],
  },
  {
    name: 'Files whose names say nothing: a workbook saved as rvtools-export-1',
    format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
    files: rvtoolsUnnamed,
    blocking: false,
    machines: 2,
    says: ['"rvtools-export-1" is read as a workbook (.xlsx): its name does not say what it is, and its content is a workbook'],
    never: ['unknown file name'],
  },
  {
    name: 'Files whose names say nothing: RVTools CSV tabs saved as vinfo-export and partitions-export',
    format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV',
    files: async () => rvtoolsCsvUnnamed(),
    blocking: false,
    machines: 2,
    says: ['"vinfo-export" is read as RVTools_tabvInfo.csv', '"partitions-export" is read as RVTools_tabvPartition.csv'],
    never: ['unknown file name'],
  },
  {
    name: 'Files whose names say nothing: the AWS zip downloaded as vm-aws-import-files',
    format: 'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV',
    files: async () => awsZipUnnamed(),
    blocking: false,
    machines: 3,
    says: ['"vm-aws-import-files" is read as a .zip archive: its name does not say what it is, and it starts with a zip signature (PK\\x03\\x04)'],
    never: ['unknown file name'],
  },
  {
    name: 'Files whose names say nothing: manual templates saved as vminfo-1 and diskinfo-1',
    format: 'IMPORT_JOB_FORMAT_MANUAL_CSV',
    files: async () => manualCsvUnnamed(),
    blocking: false,
    machines: 2,
    says: ['"vminfo-1" is read as vmInfo.csv: its name does not say what it is, and its header is that file\'s', '"diskinfo-1" is read as diskInfo.csv'],
    never: ['unknown file name'],
  },
  {
    name: 'The name wins when it tells: vmInfo.csv content saved as diskInfo.csv is read as diskInfo.csv',
    format: 'IMPORT_JOB_FORMAT_MANUAL_CSV',
    files: async () => manualCsvMisnamed(),
    blocking: true,
    says: ['the required column SizeInGib is missing from the header of diskInfo.csv'],
    never: ['is read as'],
  },
  // ---- AWS ----
  {
    name: 'AWS script 1.4.1 (StratoZone): str(datetime) with and without zone, quoted "MM/DD/YYYY, HH:MM:SS", 0 disk totals, 52.5 fallback, no tagInfo.csv',
    format: 'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV',
    files: folder('aws/script-1.4.1'),
    blocking: false,
    machines: 2,
    says: [SCRIPT_GAPS.diskTotals('AWS'), SCRIPT_GAPS.diskUse('AWS'), SCRIPT_GAPS.fallback('AWS'), 'OsName and OsVersion are empty'],
  },
  {
    name: 'AWS script 1.5.x: +00:00 timestamps, PrimaryMACAddress, empty memory metrics',
    format: 'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV',
    files: folder('aws/script-1.5'),
    blocking: false,
    machines: 2,
    says: ['AvailableMemoryBytes and MemoryUtilizationPercentage are empty: AWS does not measure memory use', SCRIPT_GAPS.fallback('AWS')],
  },
  // ---- Azure ----
  {
    name: 'Azure script 1.4.1 under Windows PowerShell: "1/15/2023 9:30:00 AM" dates, CRLF, every field quoted, 0-byte tagInfo.csv',
    format: 'IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV',
    files: folder('azure/script-1.4.1'),
    blocking: false,
    machines: 2,
    says: ['the file is empty (0 bytes): no tagInfo.csv rows; an optional file may be empty', SCRIPT_GAPS.diskTotals('Azure'), SCRIPT_GAPS.fallback('Azure')],
  },
  {
    name: 'Azure script 1.5.2 in Cloud Shell: LF, every field quoted, +00:00 dates, MemoryUtilizationPercentage',
    format: 'IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV',
    files: folder('azure/script-1.5.2'),
    blocking: false,
    machines: 1,
    says: [SCRIPT_GAPS.diskUse('Azure')],
  },
  {
    name: 'Azure: an empty vmInfo.csv stays an error (it is required)',
    format: 'IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV',
    files: async () => [{ name: 'vmInfo.csv', data: Buffer.alloc(0) }],
    blocking: true,
    says: ['the file is empty: it has no header row'],
  },
  // ---- Manual templates ----
  {
    name: "Manual templates with the template's (optional) header suffixes",
    format: 'IMPORT_JOB_FORMAT_MANUAL_CSV',
    files: folder('manual-csv/valid/optional-suffixes'),
    blocking: false,
    machines: 2,
    says: [],
    never: ['is not part of the', 'appears 2 times'],
  },
  {
    name: 'Manual templates: both spellings of one column are one column (so twice is a duplicate)',
    format: 'IMPORT_JOB_FORMAT_MANUAL_CSV',
    files: folder('manual-csv/invalid/both-spellings'),
    blocking: true,
    says: ['the column PrimaryIPAddress appears 2 times in the header (positions 3, 4)'],
  },
  // ---- CMDB ----
  {
    name: 'ServiceNow list exports: table-named files, all quoted, CRLF and tabs in quotes, display classes, no sys_id, disks by name, netgear named',
    format: 'IMPORT_JOB_FORMAT_CMDB',
    files: folder('cmdb/servicenow-list'),
    blocking: false,
    machines: 2,
    says: ['cmdb_ci_netgear.csv is a ServiceNow export of table cmdb_ci_netgear (network gear), not servers: not read'],
  },
  {
    name: 'ServiceNow base table cmdb_ci.csv with column labels: rows of other classes skipped',
    format: 'IMPORT_JOB_FORMAT_CMDB',
    files: folder('cmdb/servicenow-base-table'),
    blocking: false,
    machines: 2,
    says: ['the row is of class "IP Router", not a server: it is skipped'],
  },
  {
    name: 'ServiceNow list export with the default columns: says which columns to add and where',
    format: 'IMPORT_JOB_FORMAT_CMDB',
    files: folder('cmdb/servicenow-no-ram'),
    blocking: true,
    says: [
      "the required column ram is missing from the header of cmdb_ci_server.csv: add the column 'RAM (MB)' (field ram): in the list view, ☰ > Configure > List Layout",
      "the required column cpu_count is missing from the header of cmdb_ci_server.csv: add the column 'CPU count' (field cpu_count)",
    ],
  },
];

/** Every issue text of a report, for `says`/`never`. */
export function issueTexts(report: {
  fileValidations?: Array<{ fileErrors?: Array<{ errorDetails?: string }>; rowErrors?: Array<{ errors?: Array<{ errorDetails?: string }> }> }>;
  jobErrors?: Array<{ errorDetails?: string }>;
}): string[] {
  const out: string[] = [];
  for (const e of report.jobErrors ?? []) out.push(e.errorDetails ?? '');
  for (const f of report.fileValidations ?? []) {
    for (const e of f.fileErrors ?? []) out.push(e.errorDetails ?? '');
    for (const r of f.rowErrors ?? []) for (const e of r.errors ?? []) out.push(e.errorDetails ?? '');
  }
  return out;
}
