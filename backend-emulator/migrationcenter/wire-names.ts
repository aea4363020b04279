/**
 * Only Google's wire names on the wire: an ImportJob body is refused, as Google's JSON front end
 * refuses it, when it holds a name the ImportJob message does not have (the resource reference's
 * `storagePayload` included: `Unknown name "storagePayload" at 'import_job': Cannot find field.`)
 * or a format value the ImportJobFormat enum does not have (the reference's `_VMTOOL_*` and
 * `_EXPORTED_CLOUDA/CLOUDB_CSV` included: `Invalid value at 'import_job.inline_payload.format' (...)`).
 * The neutral names are the provider's argument names; the provider translates them, never this API.
 */
import ImportJobFormat from '../../schemas/ImportJobFormat.schema.json';
import { invalidEnumValue, refuseUnknownFields } from '../errors';
import { TYPE_PREFIX } from './names';
import { IMPORT_JOB_FIELDS } from './import-jobs/import-job-model';

/** Every field of the v1alpha1 ImportJob message (JSON names). */
const IMPORT_JOB_FIELD_NAMES: ReadonlySet<string> = new Set(IMPORT_JOB_FIELDS);
const PAYLOADS = {
  gcsPayload: { at: 'import_job.gcs_payload', fields: new Set(['format', 'path']) },
  inlinePayload: { at: 'import_job.inline_payload', fields: new Set(['format', 'payload']) },
} as const;
const PAYLOAD_FILE_FIELDS: ReadonlySet<string> = new Set(['name', 'data']);

/** The wire format values: the one list, ImportJobFormat.schema.json. */
export const WIRE_FORMATS: ReadonlySet<string> = new Set(ImportJobFormat.enum);
const FORMAT_TYPE = `${TYPE_PREFIX}ImportJobFormat`;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Throws Google's INVALID_ARGUMENT for a format value ImportJobFormat does not have, at `at`
 * (`import_data_file.format` for a data file): the reference's spellings are refused here too.
 */
export function refuseNonWireFormat(at: string, format: unknown): void {
  if (typeof format === 'string' && !WIRE_FORMATS.has(format)) throw invalidEnumValue(at, FORMAT_TYPE, format);
}

/** Throws Google's INVALID_ARGUMENT for the first non-wire name or format value of an ImportJob body. */
export function refuseNonWireNames(body: Record<string, unknown>): void {
  refuseUnknownFields(body, (k) => IMPORT_JOB_FIELD_NAMES.has(k), 'import_job');
  for (const [field, { at, fields }] of Object.entries(PAYLOADS)) {
    const payload = body[field];
    if (!isObject(payload)) continue;
    refuseUnknownFields(payload, (k) => fields.has(k), at);
    refuseNonWireFormat(`${at}.format`, payload.format);
    if (Array.isArray(payload.payload)) {
      payload.payload.forEach((file, i) => {
        if (isObject(file)) refuseUnknownFields(file, (k) => PAYLOAD_FILE_FIELDS.has(k), `${at}.payload[${i}]`);
      });
    }
  }
}
