/**
 * Static checking of IAM condition expressions with `@marcbachmann/cel-js`.
 *
 * The environment declares the attributes IAM conditions may use (`request.time`,
 * `resource.name|type|service`, tag functions, `api.getAttribute`), so an unknown variable or a
 * wrong argument type is caught here, and the result type must be `bool`.
 */
import type { Environment as CelEnvironment } from '@marcbachmann/cel-js';

/** IAM allows at most this many logical operators (`&&`, `||`, `!`) in one condition. */
export const MAX_LOGICAL_OPERATORS = 12;

let environment: CelEnvironment | undefined;

function iamEnvironment(): CelEnvironment {
  if (environment) return environment;
  // Required lazily: the package is ESM-only and only condition checks need it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Environment } = require('@marcbachmann/cel-js') as typeof import('@marcbachmann/cel-js');
  const tagCheck = () => false;
  environment = new Environment({ unlistedVariablesAreDyn: false })
    .registerType('IamResource', { fields: { name: 'string', type: 'string', service: 'string' } })
    .registerType('IamRequest', { fields: { time: 'google.protobuf.Timestamp', host: 'string', path: 'string' } })
    .registerType('IamApi', { fields: {} })
    .registerVariable('resource', 'IamResource')
    .registerVariable('request', 'IamRequest')
    .registerVariable('api', 'IamApi')
    .registerFunction({
      name: 'matchTag',
      receiverType: 'IamResource',
      returnType: 'bool',
      handler: tagCheck,
      params: [
        { name: 'key', type: 'string' },
        { name: 'value', type: 'string' },
      ],
    })
    .registerFunction({
      name: 'matchTagId',
      receiverType: 'IamResource',
      returnType: 'bool',
      handler: tagCheck,
      params: [
        { name: 'key', type: 'string' },
        { name: 'value', type: 'string' },
      ],
    })
    .registerFunction({ name: 'hasTagKey', receiverType: 'IamResource', returnType: 'bool', handler: tagCheck, params: [{ name: 'key', type: 'string' }] })
    .registerFunction({ name: 'hasTagKeyId', receiverType: 'IamResource', returnType: 'bool', handler: tagCheck, params: [{ name: 'key', type: 'string' }] })
    .registerFunction({
      name: 'getAttribute',
      receiverType: 'IamApi',
      returnType: 'dyn',
      handler: () => null,
      params: [
        { name: 'name', type: 'string' },
        { name: 'default', type: 'dyn' },
      ],
    }) as CelEnvironment;
  return environment;
}

function countLogicalOperators(expression: string): number {
  // Strings may contain operator characters; count outside of quoted literals only.
  const code = expression.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
  return (code.match(/&&|\|\||!(?!=)/g) ?? []).length;
}

/**
 * Results of recent checks. A stack or a client re-sends the same few conditions on every policy
 * write, and a type check costs far more than a lookup; bounded, oldest entry out first.
 */
const CHECK_CACHE_SIZE = 500;
const checked = new Map<string, string | undefined>();

/** IAM's limit on a condition expression (the Condition schema's maxLength says the same). */
export const MAX_EXPRESSION_LENGTH = 12_800;

/** Returns why the expression is not a valid IAM condition, or undefined when it is. */
export function checkIamCondition(expression: string): string | undefined {
  // Never parsed, never cached: a hostile client could otherwise pin 500 long strings in the cache.
  if (expression.length > MAX_EXPRESSION_LENGTH) return `must have at most ${MAX_EXPRESSION_LENGTH} characters`;
  if (checked.has(expression)) return checked.get(expression);
  const verdict = checkUncached(expression);
  if (checked.size >= CHECK_CACHE_SIZE) checked.delete(checked.keys().next().value as string);
  checked.set(expression, verdict);
  return verdict;
}

function checkUncached(expression: string): string | undefined {
  let result: { valid: boolean; type?: unknown; error?: { message?: string } };
  try {
    result = iamEnvironment().check(expression) as typeof result;
  } catch (err) {
    return `is not a valid CEL expression: ${firstLine((err as Error).message)}`;
  }
  if (!result.valid) return `is not a valid CEL expression: ${firstLine(result.error?.message ?? 'it does not parse')}`;
  const type = String(result.type);
  if (type !== 'bool' && type !== 'dyn') return `must evaluate to a boolean, but its type is ${type}`;
  const operators = countLogicalOperators(expression);
  if (operators > MAX_LOGICAL_OPERATORS) return `has ${operators} logical operators; IAM allows at most ${MAX_LOGICAL_OPERATORS}`;
  return undefined;
}

function firstLine(text: string): string {
  return text.split('\n')[0].trim();
}
