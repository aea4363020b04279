/**
 * The bridge from request bodies to `schemas/` (the one source of truth for input rules).
 *
 * `schemas/index.ts` loads each schema's validator (generated at build time, or compiled by Ajv
 * where absent); it is required on first use, not at start-up, so the emulator reaches
 * `listening` without paying for the schemas.
 */
import type { FieldViolation } from '../errors';
import type { SchemaName } from '../../schemas/registry';
import { invalidArgument } from '../errors';

/** Typed from the module itself: a type-only import is erased, so the schemas still load lazily. */
type Validate = (typeof import('../../schemas'))['validate'];

let validateFn: Validate | undefined;

function schemaValidate(): Validate {
  if (!validateFn) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    validateFn = (require('../../schemas') as typeof import('../../schemas')).validate;
  }
  return validateFn;
}

function join(prefix: string, property: string): string {
  if (!prefix) return property;
  if (!property) return prefix;
  return property.startsWith('[') ? `${prefix}${property}` : `${prefix}.${property}`;
}

/** Field violations of `value` against the named schema, with `prefix` before every field. */
export function schemaViolations(schemaName: SchemaName, value: unknown, prefix = ''): FieldViolation[] {
  // (A request body's names were checked against its message before: the front end, http/request-bodies.ts.)
  return schemaValidate()(schemaName, value).map((f) => ({ field: join(prefix, f.property), description: f.reason }));
}

/** Throws INVALID_ARGUMENT naming every failing field; returns when `value` is valid. */
export function checkSchema(schemaName: SchemaName, value: unknown, prefix = ''): void {
  const violations = schemaViolations(schemaName, value, prefix);
  if (violations.length > 0) throw invalidArgument(violations);
}

export { join as joinField };
