/**
 * Validation against the package's JSON Schemas: one Ajv instance, every schema compiled once
 * at first use, failures in Pulumi's `{ property, reason }` form.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { ALL_SCHEMAS, INPUT_SCHEMAS, type SchemaName } from './registry';
import { addKeywords } from './keywords';
import { toCheckFailures, type CheckFailure } from './failures';
import { aliasCollisions, importJobToWire, pathInCallerSpelling } from './aliases';
import { withRequiredDefaults } from './defaults';

export type { CheckFailure } from './failures';
export type { SchemaName, JsonSchema } from './registry';
export { ALL_SCHEMAS, INPUT_SCHEMAS, OUTPUT_SCHEMAS } from './registry';
export * from './aliases';
export { canonicalMember, firstDuplicateMember, memberType } from './members';
export { checkIamCondition } from './cel';
export { withRequiredDefaults } from './defaults';

export const SCHEMA_BASE = 'https://google-native-local.dev/schemas/';

/** Bounds the failures of one call: a hostile input must not produce a megabyte of reasons. */
const MAX_FAILURES = 100;

let ajv: Ajv2020 | undefined;
const validators = new Map<string, ValidateFunction>();
const idByTitle = new Map<string, string>(ALL_SCHEMAS.map((schema) => [schema.title, schema.$id]));

/**
 * The validator of one schema, compiled at its first use. Every schema is added at once (they
 * refer to each other), but compiling one is most of Ajv's cost (about 0.4 s of CPU for all of
 * them) and a process, or a test file, validates against a few: each pays only for those.
 *
 * The schemas are not checked against JSON Schema's meta-schema here (`validateSchema: false`):
 * they are the package's own files, fixed when it is built, and that check (compiling the
 * meta-schema, then reading every schema through it: 0.2 to 0.4 s of CPU, paid again by each
 * process and each test file) is a test's job (tests/schemas/validation.test.ts). Strict mode
 * still refuses, at compile, unknown keywords and formats, keyword values of the wrong type and
 * unresolved `$ref`s; the meta-schema's other rules (a negative `minLength`, a property schema
 * that is not an object) are only the test's.
 */
function compiled(name: string): ValidateFunction | undefined {
  const known = validators.get(name);
  if (known) return known;
  const id = idByTitle.get(name);
  if (id === undefined) return undefined;
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true, validateSchema: false });
    addFormats(ajv, ['uuid', 'date-time']);
    addKeywords(ajv);
    for (const schema of ALL_SCHEMAS) ajv.addSchema(schema);
  }
  const fn = ajv.getSchema(id) as ValidateFunction;
  validators.set(name, fn);
  return fn;
}

/** Whether the named schema's validator is compiled already. */
export function isCompiled(name: SchemaName): boolean {
  return validators.has(name);
}

/**
 * Compiles every input schema, one a turn of the event loop (setImmediate between two), and
 * resolves once all are. A process that serves requests calls it once it listens (the CLI): the
 * first write of each kind then finds its schema compiled, instead of compiling it on the thread
 * that answers requests while other requests wait (71 ms for the first import job create).
 */
export async function warmInputSchemas(): Promise<void> {
  for (const schema of INPUT_SCHEMAS) {
    await new Promise((resolve) => setImmediate(resolve));
    compiled(schema.title);
  }
}

/** Validates `value` against the named schema; an empty list means valid. */
export function validate(name: SchemaName, value: unknown): CheckFailure[] {
  const fn = compiled(name);
  if (!fn) throw new Error(`unknown schema ${name}`);
  if (fn(value)) return [];
  return toCheckFailures(fn.errors).slice(0, MAX_FAILURES);
}

/**
 * Validates an answer of the wire against an output schema, reading the fields ProtoJSON left
 * out (empty lists, `false`, `0`) as their defaults, as a client of Google must.
 */
export function validateOutput(name: SchemaName, wire: unknown): CheckFailure[] {
  return validate(name, withRequiredDefaults(name, wire));
}

/**
 * Validates the provider's import job arguments, given in either spelling (`gcsPayload` or the
 * reference's `storagePayload`, vendor or neutral format names): they are translated to the wire
 * spelling the schema is written in (the translation happens here, on the provider's side only;
 * the API refuses the neutral names), and failures name the properties as the caller spelt them.
 */
export function validateImportJobArgs(args: Record<string, unknown>): CheckFailure[] {
  const collisions = aliasCollisions(args).map(({ reference, wire }) => ({
    property: wire,
    reason: `cannot be given together with ${reference}: they are two names of one field`,
  }));
  if (collisions.length > 0) return collisions;
  return validate('ImportJobArgs', importJobToWire(args)).map((f) => ({
    property: pathInCallerSpelling(f.property, args),
    reason: f.reason,
  }));
}
