/**
 * The schemas' own keywords. Each states one rule JSON Schema cannot say by itself; the docs
 * generator reads them too, so a rule is written once.
 */
import type Ajv from 'ajv';
import type { DataValidationCxt, ErrorObject } from 'ajv/dist/types';
import { MAX_EXPRESSION_LENGTH, checkIamCondition } from './cel';
import { firstDuplicateMember } from './members';
import { refusedOnEndpointPolicies, unsupportedRoleMessage } from './endpoint-policy-roles';
import { isBase64Text } from './base64';

type KeywordValidate = ((schema: unknown, data: unknown, parentSchema?: unknown, cxt?: DataValidationCxt) => boolean) & {
  errors?: Partial<ErrorObject>[];
};

function fail(fn: KeywordValidate, keyword: string, instancePath: string, message: string): false {
  fn.errors = [{ keyword, instancePath, message, params: {} }];
  return false;
}

export function addKeywords(ajv: Ajv): void {
  // Annotations: plain-words failure reasons and per-value enum documentation.
  ajv.addKeyword({ keyword: 'x-reason', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-enumDescriptions', schemaType: 'object' });

  const base64: KeywordValidate = (schema, data, _parent, cxt) => {
    if (!schema || typeof data !== 'string' || isBase64Text(data)) return true;
    return fail(base64, 'base64', cxt?.instancePath ?? '', "must be base64-encoded (the API's bytes fields are base64 in JSON)");
  };
  ajv.addKeyword({ keyword: 'base64', type: 'string', schemaType: 'boolean', errors: true, validate: base64 });

  const celExpression: KeywordValidate = (schema, data, _parent, cxt) => {
    // Over-long expressions are the maxLength rule's to report, once.
    if (!schema || typeof data !== 'string' || data.length > MAX_EXPRESSION_LENGTH) return true;
    const problem = checkIamCondition(data);
    return problem ? fail(celExpression, 'celExpression', cxt?.instancePath ?? '', problem) : true;
  };
  ajv.addKeyword({ keyword: 'celExpression', type: 'string', schemaType: 'boolean', errors: true, validate: celExpression });

  const uniqueMembers: KeywordValidate = (schema, data, _parent, cxt) => {
    if (!schema || !Array.isArray(data)) return true;
    const duplicate = firstDuplicateMember(data as string[]);
    if (!duplicate) return true;
    return fail(
      uniqueMembers,
      'uniqueMembers',
      `${cxt?.instancePath ?? ''}/${duplicate.index}`,
      `repeats entry ${duplicate.firstIndex} (members are compared with the email or domain part case-insensitive)`,
    );
  };
  ajv.addKeyword({ keyword: 'uniqueMembers', type: 'array', schemaType: 'boolean', errors: true, validate: uniqueMembers });

  // A role that cannot be granted on an endpoint policy (schemas/endpoint-policy-roles.ts); the
  // form of the role is Role.json's rule, so only well-formed roles are judged here.
  const endpointPolicyRole: KeywordValidate = (schema, data, _parent, cxt) => {
    if (!schema || typeof data !== 'string' || !refusedOnEndpointPolicies(data)) return true;
    return fail(endpointPolicyRole, 'endpointPolicyRole', cxt?.instancePath ?? '', unsupportedRoleMessage(data));
  };
  ajv.addKeyword({ keyword: 'endpointPolicyRole', type: 'string', schemaType: 'boolean', errors: true, validate: endpointPolicyRole });

  // At most one of the named properties: a payload is optional (data may come later), never doubled.
  const atMostOneOf: KeywordValidate = (schema, data, _parent, cxt) => {
    if (!Array.isArray(schema) || typeof data !== 'object' || data === null) return true;
    const names = schema as string[];
    const present = names.filter((n) => (data as Record<string, unknown>)[n] !== undefined);
    if (present.length <= 1) return true;
    return fail(
      atMostOneOf,
      'atMostOneOf',
      `${cxt?.instancePath ?? ''}/${present[1]}`,
      `cannot be given together with ${present[0]}: give at most one of ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`,
    );
  };
  ajv.addKeyword({ keyword: 'atMostOneOf', type: 'object', schemaType: 'array', errors: true, validate: atMostOneOf });
}
