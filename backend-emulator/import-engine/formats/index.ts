/**
 * The registry of import formats. A format plugs in with a definition (file kinds + column
 * templates + rules, an optional reader, an asset mapping); the pipeline is shared.
 *
 * Implemented: IMPORT_JOB_FORMAT_MANUAL_CSV. The others are listed with their file-name hints so a
 * payload that mixes formats is recognised, and a job in a format not implemented yet gets a clear
 * job error instead of a silent pass.
 */
import type { FormatDefinition, ImportJobFormat } from '../types';
import { manualCsv } from './manual-csv';

export const FORMATS: Partial<Record<ImportJobFormat, FormatDefinition>> = {
  IMPORT_JOB_FORMAT_MANUAL_CSV: manualCsv,
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
];

/** The format a file name clearly belongs to, when it is not `current`. */
export function otherFormatOf(current: ImportJobFormat, base: string): { format: string; label: string } | undefined {
  const hint = FILE_HINTS.find((h) => h.format !== current && h.test.test(base));
  return hint ? { format: hint.format, label: FORMAT_LABELS[hint.format] } : undefined;
}
