/**
 * Only Google's wire values on the wire: an ImportJob body is refused, as Google's JSON front end
 * refuses it, when it holds a format value the ImportJobFormat enum does not have (the reference's
 * `_VMTOOL_*` and `_EXPORTED_CLOUDA/CLOUDB_CSV` included: `Invalid value at
 * 'import_job.inline_payload.format' (...)`). Its names (the reference's `storagePayload` included)
 * are the front end's to refuse, as every body's (request-bodies.ts).
 * The neutral names are the provider's argument names; the provider translates them, never this API.
 */
import ImportJobFormat from '../../schemas/ImportJobFormat.schema.json';
import { invalidEnumValue } from '../errors';
import { TYPE_PREFIX } from './names';

/** The payload fields of an ImportJob, by their proto paths. */
const PAYLOADS = { gcsPayload: 'import_job.gcs_payload', inlinePayload: 'import_job.inline_payload' } as const;

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

/** Throws Google's INVALID_ARGUMENT for the first non-wire format value of an ImportJob body. */
export function refuseNonWireFormats(body: Record<string, unknown>): void {
  for (const [field, at] of Object.entries(PAYLOADS)) {
    const payload = body[field];
    if (isObject(payload)) refuseNonWireFormat(`${at}.format`, payload.format);
  }
}
