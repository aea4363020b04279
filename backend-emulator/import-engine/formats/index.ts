/**
 * The registry of import formats. A format plugs in with a definition (file kinds + column
 * templates + rules, an optional reader, an asset mapping); the pipeline is shared.
 *
 * Every format of the API is implemented. File-name hints recognise a payload that mixes formats.
 */
import type { FormatDefinition, ImportJobFormat } from '../types';
import { manualCsv } from './manual-csv';
import { rvtoolsXlsx } from './rvtools-xlsx';
import { rvtoolsCsv } from './rvtools-csv';
import { awsCsv } from './aws-csv';
import { azureCsv } from './azure-csv';
import { cmdb } from './cmdb';

export const FORMATS: Partial<Record<ImportJobFormat, FormatDefinition>> = {
  IMPORT_JOB_FORMAT_MANUAL_CSV: manualCsv,
  IMPORT_JOB_FORMAT_RVTOOLS_XLSX: rvtoolsXlsx,
  IMPORT_JOB_FORMAT_RVTOOLS_CSV: rvtoolsCsv,
  IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV: awsCsv,
  IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV: azureCsv,
  IMPORT_JOB_FORMAT_CMDB: cmdb,
};

export const FORMAT_LABELS: Record<ImportJobFormat, string> = {
  IMPORT_JOB_FORMAT_CMDB: 'CMDB',
  IMPORT_JOB_FORMAT_RVTOOLS_XLSX: 'RVTools XLSX',
  IMPORT_JOB_FORMAT_RVTOOLS_CSV: 'RVTools CSV',
  IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV: 'AWS exported CSV',
  IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV: 'Azure exported CSV',
  IMPORT_JOB_FORMAT_MANUAL_CSV: 'Manual CSV',
};

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
