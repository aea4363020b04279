/**
 * THE alias table: the resource reference's neutral spellings beside the real API's wire names.
 *
 * The schemas and the wire (the emulator, the real Google API, the provider's requests) use the
 * real API's names. The neutral names are only the provider's (and the CLI's) argument names:
 * those edges translate through this file; the emulator never does, and refuses them as Google does.
 */
import type { ImportJobFormat } from './import-job-formats';

/** Reference field name -> wire field name. */
export const FIELD_ALIASES = {
  storagePayload: 'gcsPayload',
} as const;

/** Reference format value -> wire format value (values not listed are spelt the same). */
export const FORMAT_ALIASES = {
  IMPORT_JOB_FORMAT_VMTOOL_XLSX: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
  IMPORT_JOB_FORMAT_VMTOOL_CSV: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV',
  IMPORT_JOB_FORMAT_EXPORTED_CLOUDA_CSV: 'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV',
  IMPORT_JOB_FORMAT_EXPORTED_CLOUDB_CSV: 'IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV',
} as const satisfies Record<string, ImportJobFormat>;

export type ReferenceFormat = keyof typeof FORMAT_ALIASES;
export type WireFormat = (typeof FORMAT_ALIASES)[ReferenceFormat];

const WIRE_TO_REFERENCE_FORMAT: Record<string, string> = Object.fromEntries(Object.entries(FORMAT_ALIASES).map(([reference, wire]) => [wire, reference]));
const WIRE_TO_REFERENCE_FIELD: Record<string, string> = Object.fromEntries(Object.entries(FIELD_ALIASES).map(([reference, wire]) => [wire, reference]));

/** The wire spelling of a format, whichever spelling was given. Unknown values pass through. */
export function toWireFormat(format: string): string {
  return Object.prototype.hasOwnProperty.call(FORMAT_ALIASES, format) ? FORMAT_ALIASES[format as ReferenceFormat] : format;
}

/** The reference spelling of a format, whichever spelling was given. Unknown values pass through. */
export function toReferenceFormat(format: string): string {
  return Object.prototype.hasOwnProperty.call(WIRE_TO_REFERENCE_FORMAT, format) ? WIRE_TO_REFERENCE_FORMAT[format] : format;
}

type Json = Record<string, unknown>;

/** Fields that hold a payload with a `format`, in either spelling. */
const PAYLOAD_FIELDS = new Set<string>(['inlinePayload', ...Object.keys(FIELD_ALIASES), ...Object.values(FIELD_ALIASES)]);

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapPayloadFormat(payload: unknown, mapFormat: (f: string) => string): unknown {
  if (!isObject(payload) || typeof payload.format !== 'string') return payload;
  return { ...payload, format: mapFormat(payload.format) };
}

function renameFields(job: Json, names: Record<string, string>, mapFormat: (f: string) => string): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(job)) {
    const renamed = Object.prototype.hasOwnProperty.call(names, key) ? names[key] : key;
    // `format` at the top is the provider's argument for its local `files` (the data files' format).
    out[renamed] = PAYLOAD_FIELDS.has(renamed)
      ? mapPayloadFormat(value, mapFormat)
      : renamed === 'format' && typeof value === 'string'
        ? mapFormat(value)
        : value;
  }
  return out;
}

/**
 * An import job (args or wire body) in wire spelling: `gcsPayload`, `IMPORT_JOB_FORMAT_RVTOOLS_*`.
 * Callers check `aliasCollisions` first: with both spellings of a field present, the later key wins.
 */
export function importJobToWire<T extends Json>(job: T): Json {
  return renameFields(job, FIELD_ALIASES, toWireFormat);
}

/** An import job in the reference's spelling: `storagePayload`, `IMPORT_JOB_FORMAT_VMTOOL_*`. */
export function importJobToReference<T extends Json>(job: T): Json {
  return renameFields(job, WIRE_TO_REFERENCE_FIELD, toReferenceFormat);
}

/** Fields given in both spellings at once (`storagePayload` and `gcsPayload`): an input error. */
export function aliasCollisions(job: Json): Array<{ reference: string; wire: string }> {
  return Object.entries(FIELD_ALIASES)
    .filter(([reference, wire]) => reference in job && wire in job)
    .map(([reference, wire]) => ({ reference, wire }));
}

/**
 * Rewrites a failure path written in wire names (`gcsPayload.path`) into the spelling the caller
 * used, so that a user who wrote `storagePayload` is told about `storagePayload.path`.
 */
export function pathInCallerSpelling(property: string, original: Json): string {
  for (const [reference, wire] of Object.entries(FIELD_ALIASES)) {
    if ((property === wire || property.startsWith(`${wire}.`)) && reference in original && !(wire in original)) {
      return reference + property.slice(wire.length);
    }
  }
  return property;
}
