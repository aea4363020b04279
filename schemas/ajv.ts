/**
 * The one Ajv set-up of the package's schemas: its options, formats and keywords, and every
 * schema added. The validators compiled in a process (schemas/validators.ts) and the standalone
 * code generated at build time (schemas/standalone.ts) both come from it, so they cannot differ.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ALL_SCHEMAS } from './registry';
import { addKeywords } from './keywords';

/**
 * The schemas are not checked against JSON Schema's meta-schema here (`validateSchema: false`):
 * they are the package's own files, fixed when it is built, and that check (compiling the
 * meta-schema, then reading every schema through it: 0.2 to 0.4 s of CPU, paid again by each
 * process and each test file) is a test's job (tests/schemas/validation.test.ts). Strict mode
 * still refuses, at compile, unknown keywords and formats, keyword values of the wrong type and
 * unresolved `$ref`s; the meta-schema's other rules (a negative `minLength`, a property schema
 * that is not an object) are only the test's.
 *
 * `source: true` keeps each validator's code for Ajv's standalone modules (the build's), whose
 * keywords require their rules as `rulesModule` (schemas/keywords.ts).
 */
export function schemaAjv({ source = false, rulesModule }: { source?: boolean; rulesModule?: string } = {}): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    verbose: true,
    strict: true,
    allowUnionTypes: true,
    validateSchema: false,
    ...(source ? { code: { source: true } } : {}),
  });
  addFormats(ajv, ['uuid', 'date-time']);
  addKeywords(ajv, rulesModule);
  for (const schema of ALL_SCHEMAS) ajv.addSchema(schema);
  return ajv;
}
