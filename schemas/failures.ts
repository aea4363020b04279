/**
 * Turns Ajv errors into Pulumi check failures: `{ property, reason }`, where `property` is the
 * exact path in dotted form (`inlinePayload.payload[2].name`, `labels.Env`) and `reason` states
 * the rule in plain words.
 */
import type { ErrorObject } from 'ajv';
import { KEYWORD_RULES } from './keyword-rules';

export interface CheckFailure {
  property: string;
  reason: string;
}

/** `/inlinePayload/payload/2/name` -> `inlinePayload.payload[2].name`. */
export function pointerToPath(pointer: string): string {
  if (!pointer) return '';
  let path = '';
  for (const raw of pointer.split('/').slice(1)) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(segment)) path += `[${segment}]`;
    else path += path ? `.${segment}` : segment;
  }
  return path;
}

function join(parent: string, child: string): string {
  return parent ? `${parent}.${child}` : child;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => JSON.stringify(v)).join(', ');
  return JSON.stringify(value);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/**
 * The reason for one error in plain words; a schema's `x-reason` wins over the generic text, never
 * over the package's own keywords' messages (schemas/keyword-rules.ts), which are already the rule
 * said plainly and specific to the value (the duplicate member, the role refused).
 */
function reasonFor(error: ErrorObject): string {
  if (Object.hasOwn(KEYWORD_RULES, error.keyword)) return error.message ?? `does not satisfy '${error.keyword}'`;
  const custom = (error.parentSchema as Record<string, unknown> | undefined)?.['x-reason'];
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'dependentRequired':
      return `is required when ${String(p.property)} is given`;
    case 'additionalProperties':
      return 'is not a known property';
    case 'type':
      return `must be ${Array.isArray(p.type) ? p.type.join(' or ') : `of type ${String(p.type)}`}, not ${typeName(error.data)}`;
    case 'enum':
      return typeof custom === 'string' ? custom : `must be one of ${describe(p.allowedValues)}`;
    case 'const':
      return `must be ${describe(p.allowedValue)}`;
    case 'minLength':
      return p.limit === 1 ? 'must not be empty' : `must have at least ${String(p.limit)} characters`;
    case 'maxLength':
      return `must have at most ${String(p.limit)} characters`;
    case 'minItems':
      return p.limit === 1 ? 'must have at least one entry' : `must have at least ${String(p.limit)} entries`;
    case 'maxItems':
      return `must have at most ${String(p.limit)} entries`;
    case 'maxProperties':
      return `must have at most ${String(p.limit)} entries`;
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    case 'maximum':
      return `must be at most ${String(p.limit)}`;
    case 'format':
      return typeof custom === 'string' ? custom : `must be a valid ${String(p.format)}`;
    default:
      if (typeof custom === 'string') return custom;
      return error.message ?? `does not satisfy '${error.keyword}'`;
  }
}

/** Keywords that only restate an error already reported by the subschema they wrap. */
const WRAPPER_KEYWORDS = new Set(['propertyNames', 'allOf', 'if']);

/**
 * The failures of Ajv's `errors`, one per property, the first `limit` of them: the rest are not
 * worded (a label map of 60,000 bad keys is 120,000 errors; wording them all cost as much as the
 * validation, about 0.1 s, for a refusal that names 100).
 */
export function toCheckFailures(errors: ErrorObject[] | null | undefined, limit = Infinity): CheckFailure[] {
  if (!errors) return [];
  const failures: CheckFailure[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (failures.length >= limit) break;
    if (WRAPPER_KEYWORDS.has(error.keyword)) continue;
    const p = error.params as Record<string, unknown>;
    let property = pointerToPath(error.instancePath);
    if (error.keyword === 'required') property = join(property, String(p.missingProperty));
    else if (error.keyword === 'additionalProperties') property = join(property, String(p.additionalProperty));
    else if (error.keyword === 'dependentRequired') property = join(property, String(p.missingProperty));
    else if (typeof error.propertyName === 'string') property = join(property, error.propertyName);
    // One reason per property: the first rule broken is the one to fix first.
    if (seen.has(property)) continue;
    seen.add(property);
    failures.push({ property, reason: reasonFor(error) });
  }
  return failures;
}
