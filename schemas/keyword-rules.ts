/**
 * What the schemas' own keywords check, as plain functions of the keyword's value and the data.
 *
 * The validators call them at run time, both the ones Ajv compiles in this process and the
 * standalone ones generated at build time (schemas/standalone.ts), which reach them through
 * `require("../keyword-rules")` from dist/schemas/standalone/ (schemas/keywords.ts
 * KEYWORD_RULES_MODULE): this module must stay in the folder above the generated files, and keep
 * the export names the generated code calls (`KEYWORD_RULES.<keyword>`).
 */
import { MAX_EXPRESSION_LENGTH, checkIamCondition } from './cel';
import { firstDuplicateMember } from './members';
import { refusedOnEndpointPolicies, unsupportedRoleMessage } from './endpoint-policy-roles';
import { isBase64Text } from './base64';

/** Why a value breaks a keyword's rule; `at` names the child (a property, an index) at fault. */
export interface KeywordProblem {
  message: string;
  at?: string;
}

export type KeywordRule = (schema: unknown, data: unknown) => KeywordProblem | undefined;

const base64: KeywordRule = (_schema, data) => {
  if (typeof data !== 'string' || isBase64Text(data)) return undefined;
  return { message: "must be base64-encoded (the API's bytes fields are base64 in JSON)" };
};

const celExpression: KeywordRule = (_schema, data) => {
  // Over-long expressions are the maxLength rule's to report, once.
  if (typeof data !== 'string' || data.length > MAX_EXPRESSION_LENGTH) return undefined;
  const problem = checkIamCondition(data);
  return problem ? { message: problem } : undefined;
};

const uniqueMembers: KeywordRule = (_schema, data) => {
  if (!Array.isArray(data)) return undefined;
  const duplicate = firstDuplicateMember(data as string[]);
  if (!duplicate) return undefined;
  return {
    at: String(duplicate.index),
    message: `repeats entry ${duplicate.firstIndex} (members are compared with the email or domain part case-insensitive)`,
  };
};

// A role that cannot be granted on an endpoint policy (schemas/endpoint-policy-roles.ts); the
// form of the role is Role.json's rule, so only well-formed roles are judged here.
const endpointPolicyRole: KeywordRule = (_schema, data) => {
  if (typeof data !== 'string' || !refusedOnEndpointPolicies(data)) return undefined;
  return { message: unsupportedRoleMessage(data) };
};

// At most one of the named properties: a payload is optional (data may come later), never doubled.
const atMostOneOf: KeywordRule = (schema, data) => {
  if (!Array.isArray(schema) || typeof data !== 'object' || data === null) return undefined;
  const names = schema as string[];
  const present = names.filter((n) => (data as Record<string, unknown>)[n] !== undefined);
  if (present.length <= 1) return undefined;
  return {
    at: present[1],
    message: `cannot be given together with ${present[0]}: give at most one of ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`,
  };
};

/** Every rule, by the name of its keyword. */
export const KEYWORD_RULES = { base64, celExpression, uniqueMembers, endpointPolicyRole, atMostOneOf } as const;

export type RuleKeyword = keyof typeof KEYWORD_RULES;
