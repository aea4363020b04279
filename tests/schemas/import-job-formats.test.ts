/**
 * The format list has one definition (schemas/import-job-formats.ts); the JSON schema holds the
 * same values for the request validators, and everything else is derived from the constant. These
 * tests fail when the two drift apart or when a derived table names a value the list does not have.
 */
import ImportJobFormatSchema from '../../schemas/ImportJobFormat.schema.json';
import { FORMAT_ALIASES, validate } from '../../schemas';
import { IMPORT_JOB_FORMATS, IMPORT_JOB_FORMAT_UNSPECIFIED, WIRE_IMPORT_JOB_FORMATS } from '../../schemas/import-job-formats';
import { FORMAT_TABLE } from '../../backend-emulator/import-engine/formats';
import { IMPORT_JOB_FORMATS as ENGINE_FORMATS } from '../../backend-emulator/import-engine';

it('the JSON schema lists exactly the wire values of the constant, in its order', () => {
  expect(ImportJobFormatSchema.enum).toEqual([...WIRE_IMPORT_JOB_FORMATS]);
  expect(WIRE_IMPORT_JOB_FORMATS[0]).toBe(IMPORT_JOB_FORMAT_UNSPECIFIED);
});

it('the schema accepts every listed value and refuses a value the list does not have', () => {
  for (const f of WIRE_IMPORT_JOB_FORMATS) expect(validate('ImportJobFormat', f)).toEqual([]);
  expect(validate('ImportJobFormat', 'IMPORT_JOB_FORMAT_VMTOOL_XLSX')).not.toEqual([]);
  expect(validate('CreatableFormat', IMPORT_JOB_FORMAT_UNSPECIFIED)).not.toEqual([]);
});

it('the engine uses the same list, and its format table has one entry per format and no other', () => {
  expect(ENGINE_FORMATS).toBe(IMPORT_JOB_FORMATS);
  expect(Object.keys(FORMAT_TABLE).sort()).toEqual([...IMPORT_JOB_FORMATS].sort());
});

it('every reference spelling names a listed wire value and is not one itself', () => {
  for (const [reference, wire] of Object.entries(FORMAT_ALIASES)) {
    expect(IMPORT_JOB_FORMATS).toContain(wire);
    expect(WIRE_IMPORT_JOB_FORMATS).not.toContain(reference);
  }
});
