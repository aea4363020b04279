/**
 * THE list of `ImportJobFormat` wire values, as one TypeScript constant: the import engine (which
 * formats exist, in which order they are named), the CLI, the aliases and the provider's public
 * `ImportJobFormat` type are all derived from it. The JSON schema (ImportJobFormat.schema.json)
 * holds the same values for the request validators; a test checks the two are equal, because a
 * JSON import gives `string[]`, not the literal types the engine's tables are keyed by.
 */

/** The enum's default value: a valid wire value, refused when a job is created. */
export const IMPORT_JOB_FORMAT_UNSPECIFIED = 'IMPORT_JOB_FORMAT_UNSPECIFIED';

/**
 * Every format a job can be created with (wire names), implemented by the engine or not, in the
 * schema's order. The engine's formats/index.ts says, for each, how it is imported or why it is not.
 */
export const IMPORT_JOB_FORMATS = [
  'IMPORT_JOB_FORMAT_CMDB',
  'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
  'IMPORT_JOB_FORMAT_RVTOOLS_CSV',
  'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV',
  'IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV',
  'IMPORT_JOB_FORMAT_MANUAL_CSV',
  'IMPORT_JOB_FORMAT_DATABASE_ZIP',
] as const;

export type ImportJobFormat = (typeof IMPORT_JOB_FORMATS)[number];

/** Every wire value of the enum: the schema's `enum`, default value first. */
export const WIRE_IMPORT_JOB_FORMATS = [IMPORT_JOB_FORMAT_UNSPECIFIED, ...IMPORT_JOB_FORMATS] as const;

export type WireImportJobFormat = (typeof WIRE_IMPORT_JOB_FORMATS)[number];
