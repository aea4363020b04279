/**
 * The Migration Center side of `schemas/` (the one source of truth for input rules): loaded on
 * first use, as http/validation.ts does, so that start-up does not pay for the schemas.
 */
import type { SchemaName } from '../../schemas/registry';
import type { FieldViolation } from '../errors';

/** Typed from the module itself: a type-only import is erased, so the schemas still load lazily. */
type SchemasModule = typeof import('../../schemas');

let schemas: SchemasModule | undefined;

function load(): SchemasModule {
  if (!schemas) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    schemas = require('../../schemas') as SchemasModule;
  }
  return schemas;
}

/** Failures of an import job in wire spelling (the schema's; the neutral names were refused before). */
export function importJobArgsViolations(args: Record<string, unknown>): FieldViolation[] {
  return load()
    .validate('ImportJobArgs', args)
    .map((f) => ({ field: f.property, description: f.reason }));
}

export function schemaFailures(name: SchemaName, value: unknown, prefix = ''): FieldViolation[] {
  return load()
    .validate(name, value)
    .map((f) => ({
      field: prefix && f.property ? `${prefix}${f.property.startsWith('[') ? '' : '.'}${f.property}` : prefix || f.property,
      description: f.reason,
    }));
}
