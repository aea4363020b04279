/**
 * Google's JSON leaves out default values (ProtoJSON: an empty list, `false`, `0`, `""`); Pulumi
 * outputs should not flicker between "absent" and "empty" with what the wire happened to omit.
 * `withRequiredDefaults` puts back, at every depth, the required properties of an output schema
 * that the wire left out, each as its type's default. The schemas say what is required.
 */
import { ALL_SCHEMAS, type JsonSchema, type SchemaName } from './registry';

type Schema = Record<string, unknown>;

const BY_FILE = new Map<string, JsonSchema>(ALL_SCHEMAS.map((s) => [s.$id.slice(s.$id.lastIndexOf('/') + 1), s]));
const BY_TITLE = new Map<string, JsonSchema>(ALL_SCHEMAS.map((s) => [s.title, s]));

function resolve(schema: Schema): Schema {
  const ref = schema.$ref;
  return typeof ref === 'string' ? (BY_FILE.get(ref) ?? schema) : schema;
}

function defaultOf(schema: Schema): unknown {
  switch (resolve(schema).type) {
    case 'array':
      return [];
    case 'boolean':
      return false;
    case 'integer':
    case 'number':
      return 0;
    case 'string':
      return '';
    case 'object':
      return fill(resolve(schema), {});
    default:
      return undefined;
  }
}

function fill(schema: Schema, value: unknown): unknown {
  const s = resolve(schema);
  if (Array.isArray(value)) {
    const items = s.items as Schema | undefined;
    return items ? value.map((item) => fill(items, item)) : value;
  }
  if (typeof value !== 'object' || value === null || s.type !== 'object') return value;
  const properties = (s.properties ?? {}) as Record<string, Schema>;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [key, prop] of Object.entries(properties)) {
    if (out[key] !== undefined) out[key] = fill(prop, out[key]);
  }
  for (const key of (s.required ?? []) as string[]) {
    if (out[key] === undefined && properties[key]) out[key] = defaultOf(properties[key]);
  }
  return out;
}

/** `value` with the required properties of schema `name` that the wire omitted put back. */
export function withRequiredDefaults<T>(name: SchemaName, value: T): T {
  const schema = BY_TITLE.get(name);
  if (!schema) throw new Error(`unknown schema ${name}`);
  return fill(schema, value) as T;
}
