/**
 * The registry of import formats. A format plugs in with a definition (file kinds + column
 * templates + rules, an optional reader, an asset mapping); the pipeline is shared.
 *
 * FORMAT_TABLE has one entry per format of the API (types.ts IMPORT_JOB_FORMATS; the compiler
 * checks none is missing): its label and either its definition or why the emulator does not import
 * it, and its short name: the name of its page under docs/formats/ and the one the command line
 * lists (`aws-csv`, not `IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV`). File-name hints recognise a payload
 * that mixes formats.
 */
import type { FormatDefinition, ImportJobFormat } from '../types';
import { manualCsv } from './manual-csv';
import { rvtoolsXlsx } from './rvtools-xlsx';
import { rvtoolsCsv } from './rvtools-csv';
import { awsCsv } from './aws-csv';
import { azureCsv } from './azure-csv';
import { cmdb } from './cmdb';

export type FormatEntry = { label: string; name: string } & ({ definition: FormatDefinition } | { unsupported: string });

export const FORMAT_TABLE: Record<ImportJobFormat, FormatEntry> = {
  // In listFormats() order: the manual import first (docs and templates follow this order).
  IMPORT_JOB_FORMAT_MANUAL_CSV: { label: 'Manual CSV', name: 'manual-csv', definition: manualCsv },
  IMPORT_JOB_FORMAT_RVTOOLS_XLSX: { label: 'RVTools XLSX', name: 'rvtools-xlsx', definition: rvtoolsXlsx },
  IMPORT_JOB_FORMAT_RVTOOLS_CSV: { label: 'RVTools CSV', name: 'rvtools-csv', definition: rvtoolsCsv },
  IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV: { label: 'AWS exported CSV', name: 'aws-csv', definition: awsCsv },
  IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV: { label: 'Azure exported CSV', name: 'azure-csv', definition: azureCsv },
  IMPORT_JOB_FORMAT_CMDB: { label: 'CMDB', name: 'cmdb', definition: cmdb },
  // Google's database assessment exports (a zip of database, schema and performance tables) fill
  // database assets, not machines; their file layout is not published, so nothing is guessed.
  IMPORT_JOB_FORMAT_DATABASE_ZIP: {
    label: 'database assessment exports',
    name: 'database-zip',
    unsupported:
      'database assets are not emulated and the layout of the exports is not published; import machine inventories (manual CSV, RVTools, AWS or Azure exports) instead, or run this import against Google',
  },
};

/** The implemented formats' definitions. */
export const FORMATS: Partial<Record<ImportJobFormat, FormatDefinition>> = Object.fromEntries(
  Object.entries(FORMAT_TABLE).flatMap(([format, entry]) => ('definition' in entry ? [[format, entry.definition]] : [])),
);

export const FORMAT_LABELS = Object.fromEntries(Object.entries(FORMAT_TABLE).map(([format, entry]) => [format, entry.label])) as Record<
  ImportJobFormat,
  string
>;

/** The short names in the table's order: of every format, and of the formats the engine imports. */
export const FORMAT_NAMES = Object.values(FORMAT_TABLE).map((entry) => entry.name);
export const IMPORTED_FORMAT_NAMES = Object.values(FORMAT_TABLE).flatMap((entry) => ('definition' in entry ? [entry.name] : []));

/** The wire name of a short name (`aws-csv` -> IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV), or undefined. */
export function formatOfName(name: string): ImportJobFormat | undefined {
  return (Object.keys(FORMAT_TABLE) as ImportJobFormat[]).find((format) => FORMAT_TABLE[format].name === name);
}

/** Why a known format is not imported by the emulator, or undefined when it is. */
export function unsupportedReason(format: ImportJobFormat): string | undefined {
  const entry = FORMAT_TABLE[format];
  return 'unsupported' in entry ? entry.unsupported : undefined;
}

/**
 * File names that identify a format without doubt. The four manual templates' names are shared by
 * the AWS and Azure exports, so they prove nothing and are not listed.
 */
const FILE_HINTS: Array<{ format: ImportJobFormat; test: RegExp }> = [
  { format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX', test: /\.xlsx$/i },
  { format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV', test: /^RVTools_tab\w+\.csv$/i },
  { format: 'IMPORT_JOB_FORMAT_CMDB', test: /^cmdb(?:_ci_\w+)?\.csv$/i },
];

/** The format a file name clearly belongs to, when it is not `current`. */
export function otherFormatOf(current: ImportJobFormat, base: string): { format: string; label: string } | undefined {
  const hint = FILE_HINTS.find((h) => h.format !== current && h.test.test(base));
  return hint ? { format: hint.format, label: FORMAT_LABELS[hint.format] } : undefined;
}
