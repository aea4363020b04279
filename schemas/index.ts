/**
 * Validation against the package's JSON Schemas: each schema's validator made ready at its first
 * use (generated at build time, or compiled: schemas/validators.ts), failures in Pulumi's
 * `{ property, reason }` form.
 */
import { INPUT_SCHEMAS, type SchemaName } from './registry';
import { isValidatorReady, validatorOf } from './validators';
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
export { validatorSource } from './validators';

export const SCHEMA_BASE = 'https://google-native-local.dev/schemas/';

/** Bounds the failures of one call: a hostile input must not produce a megabyte of reasons. */
const MAX_FAILURES = 100;

/** Whether the named schema's validator is ready (loaded or compiled) in this process. */
export function isCompiled(name: SchemaName): boolean {
  return isValidatorReady(name);
}

/**
 * Makes every input schema's validator ready, one a turn of the event loop (setImmediate between
 * two), and resolves once all are. A process that serves requests calls it once it listens (the
 * CLI). With the generated validators each turn is a `require` of a few ms; where they are absent
 * it compiles, and the first write of each kind then finds its schema compiled, instead of
 * compiling it on the thread that answers requests while other requests wait.
 */
export async function warmInputSchemas(): Promise<void> {
  for (const schema of INPUT_SCHEMAS) {
    await new Promise((resolve) => setImmediate(resolve));
    validatorOf(schema.title);
  }
}

/** Validates `value` against the named schema; an empty list means valid. */
export function validate(name: SchemaName, value: unknown): CheckFailure[] {
  const fn = validatorOf(name);
  if (!fn) throw new Error(`unknown schema ${name}`);
  if (fn(value)) return [];
  return toCheckFailures(fn.errors, MAX_FAILURES);
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
