/**
 * The constants the web console's scripts use, from the TypeScript that owns them: the import
 * formats a user can choose (and the words the console shows for each), the severities of a
 * validation report, the OS families of an asset and their human names, the data file id rule,
 * and the words for every enum value of a preference set (from schemas/PreferenceSet.schema.json,
 * the one source of the message's rules). scripts/console-constants.ts writes them to backend-emulator/console/static/constants.js
 * (served as /console/constants.js, read by the scripts as `window.GNL_CONSTANTS`); a test fails
 * when that file and this module disagree (`npx ts-node --transpile-only scripts/console-constants.ts`
 * rewrites it).
 */
import { FORMATS } from '../import-engine/formats';
import type { OsFamily } from '../import-engine/asset';
import type { ImportJobFormat } from '../../schemas/import-job-formats';
import { DATA_FILE_ID_STEPS } from '../../schemas/data-file-id';
import { SEVERITIES } from './data';
import PreferenceSetSchema from '../../schemas/PreferenceSet.schema.json';

/**
 * What the Import view's format list says of each format the emulator imports. Keyed by every
 * format of the API: a format added to the API must be given words here (or `undefined` while
 * the emulator does not import it), so the compiler names what the console is missing.
 */
const FORMAT_CHOICES: Record<ImportJobFormat, string | undefined> = {
  IMPORT_JOB_FORMAT_MANUAL_CSV: 'Manual CSV (vmInfo.csv, perfInfo.csv, ...)',
  IMPORT_JOB_FORMAT_RVTOOLS_XLSX: 'RVTools workbook (.xlsx)',
  IMPORT_JOB_FORMAT_RVTOOLS_CSV: 'RVTools CSV tabs',
  IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV: 'AWS script export (CSV or zip)',
  IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV: 'Azure script export (CSV or zip)',
  IMPORT_JOB_FORMAT_CMDB: 'CMDB export',
  IMPORT_JOB_FORMAT_DATABASE_ZIP: undefined,
};

/** Human names of Google's OsFamily values, in the order the inventory's filter lists them. */
const OS_FAMILY_NAMES: Record<OsFamily | 'OS_FAMILY_UNSPECIFIED', string> = {
  OS_FAMILY_WINDOWS: 'Windows',
  OS_FAMILY_LINUX: 'Linux',
  OS_FAMILY_UNIX: 'Unix',
  OS_FAMILY_UNKNOWN: 'Unknown',
  OS_FAMILY_UNSPECIFIED: 'Unspecified',
};

/** Every list of string enum values in a JSON Schema, at any depth. */
function stringEnums(node: unknown, out: string[][] = []): string[][] {
  if (Array.isArray(node)) node.forEach((item) => stringEnums(item, out));
  else if (node !== null && typeof node === 'object') {
    const values = (node as { enum?: unknown }).enum;
    if (Array.isArray(values) && values.every((v) => typeof v === 'string')) out.push(values as string[]);
    Object.values(node).forEach((child) => stringEnums(child, out));
  }
  return out;
}

/**
 * Words for enum values, by one rule: the words after the prefix all values of the enum share
 * (`COMMITMENT_PLAN_1_YEAR` of COMMITMENT_PLAN_* -> `1 year`), `Unspecified` for a `*_UNSPECIFIED`.
 * A value two enums would word differently is an error (the console keys the words by value).
 */
export function enumWords(enums: string[][]): Record<string, string> {
  const words: Record<string, string> = {};
  for (const values of enums) {
    let prefix = values.length > 1 ? values[0] : '';
    for (const v of values) while (!v.startsWith(prefix)) prefix = prefix.slice(0, -1);
    prefix = prefix.slice(0, prefix.lastIndexOf('_') + 1);
    for (const value of values) {
      const rest = value.endsWith('_UNSPECIFIED') ? 'UNSPECIFIED' : value.slice(prefix.length);
      const text = rest.charAt(0) + rest.slice(1).toLowerCase().replace(/_/g, ' ');
      if (words[value] !== undefined && words[value] !== text) throw new Error(`${value} is worded both '${words[value]}' and '${text}'`);
      words[value] = text;
    }
  }
  return words;
}

export const CONSOLE_CONSTANTS = {
  /** [format, the words of the format list], for every format the emulator imports, in FORMAT_CHOICES' order. */
  formats: (Object.keys(FORMAT_CHOICES) as ImportJobFormat[]).flatMap((f) => {
    const words = FORMAT_CHOICES[f];
    if (FORMATS[f] && words === undefined) throw new Error(`${f} is imported but has no words in FORMAT_CHOICES`);
    return FORMATS[f] && words !== undefined ? [[f, words] as [string, string]] : [];
  }),
  severities: [...SEVERITIES],
  /** The families an asset can have (the inventory's OS filter), in this order. */
  osFamilies: Object.keys(OS_FAMILY_NAMES).filter((f) => f !== 'OS_FAMILY_UNSPECIFIED'),
  osFamilyNames: OS_FAMILY_NAMES,
  dataFileIdSteps: DATA_FILE_ID_STEPS,
  /** The words for every enum value of a PreferenceSet (target product, commitment plan, sizing, ...). */
  preferenceWords: enumWords(stringEnums(PreferenceSetSchema)),
};
