/**
 * The schemas' own keywords. Each states one rule JSON Schema cannot say by itself; the docs
 * generator reads them too, so a rule is written once.
 *
 * They are Ajv `code` keywords, the only kind Ajv's standalone code can hold: the code they emit
 * calls the rule (schemas/keyword-rules.ts) through `require("../keyword-rules")` (from
 * dist/schemas/standalone/), so the same definitions serve a validator compiled in this process
 * and one generated at build time.
 */
import type { CodeKeywordDefinition, KeywordCxt } from 'ajv/dist/2020';
import type Ajv from 'ajv/dist/core';
import { _, getProperty } from 'ajv/dist/compile/codegen';
import { KEYWORD_RULES, type RuleKeyword } from './keyword-rules';

/** The rules' module as the generated code requires it, from dist/schemas/standalone/. */
export const KEYWORD_RULES_MODULE = '../keyword-rules';

type JsonTypeName = 'string' | 'array' | 'object';
type SchemaTypeName = 'boolean' | 'array';

/**
 * A keyword whose failures are the rule's: its message and, for a rule that names a child
 * (`namesChild`), the child (`at`) after the keyword's own instance path, as Ajv puts a child's
 * (`/members/2`). The error carries no params, as the keyword functions' errors did before.
 */
function ruleKeyword(rulesModule: string, keyword: RuleKeyword, type: JsonTypeName, schemaType: SchemaTypeName, namesChild = false): CodeKeywordDefinition {
  return {
    keyword,
    type,
    schemaType,
    error: {
      message: ({ params }) => _`${params.problem}.message`,
      params: () => _`{}`,
    },
    code(cxt: KeywordCxt) {
      const { gen, schema, schemaValue, data } = cxt;
      if (schema === false) return; // `"base64": false` asks for nothing
      const rule = gen.scopeValue('keyword', {
        ref: KEYWORD_RULES[keyword],
        code: _`require(${rulesModule}).KEYWORD_RULES${getProperty(keyword)}`,
      });
      const problem = gen.const('problem', _`${rule}(${schemaValue}, ${data})`);
      gen.if(_`${problem} !== undefined`, () => {
        if (!namesChild) return cxt.error(false, { problem });
        cxt.error(false, { problem }, { instancePath: gen.const('at', _`${problem}.at`) });
      });
    },
  };
}

/** `rulesModule`: how generated code requires schemas/keyword-rules (a test's may differ). */
export function addKeywords(ajv: Ajv, rulesModule = KEYWORD_RULES_MODULE): void {
  // Annotations: plain-words failure reasons and per-value enum documentation.
  ajv.addKeyword({ keyword: 'x-reason', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-enumDescriptions', schemaType: 'object' });

  ajv.addKeyword(ruleKeyword(rulesModule, 'base64', 'string', 'boolean'));
  ajv.addKeyword(ruleKeyword(rulesModule, 'celExpression', 'string', 'boolean'));
  ajv.addKeyword(ruleKeyword(rulesModule, 'uniqueMembers', 'array', 'boolean', true));
  ajv.addKeyword(ruleKeyword(rulesModule, 'endpointPolicyRole', 'string', 'boolean'));
  ajv.addKeyword(ruleKeyword(rulesModule, 'atMostOneOf', 'object', 'array', true));
}
