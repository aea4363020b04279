/**
 * One id rule: the TypeScript constant (backend-emulator/http/names.ts RESOURCE_ID) and the
 * JSON Schemas' `pattern`s that spell it (JSON cannot import it) must say the same thing.
 */
import * as fs from 'fs';
import * as path from 'path';
import { RESOURCE_ID } from '../../../backend-emulator/http/names';

const SCHEMAS = path.join(__dirname, '../../../schemas');
/** The rule without its anchors, as the schemas embed it in longer name patterns. */
const RULE = RESOURCE_ID.source.replace(/^\^/, '').replace(/\$$/, '');

function idPatterns(): Array<{ file: string; field: string; pattern: string }> {
  const found: Array<{ file: string; field: string; pattern: string }> = [];
  for (const file of fs.readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json'))) {
    const schema = JSON.parse(fs.readFileSync(path.join(SCHEMAS, file), 'utf8')) as { properties?: Record<string, { pattern?: string }> };
    for (const [field, prop] of Object.entries(schema.properties ?? {})) {
      // An id pattern: a bare id, or a resource name ending with one.
      if (prop.pattern && /\{0,61\}/.test(prop.pattern)) found.push({ file, field, pattern: prop.pattern });
    }
  }
  return found;
}

test('every schema pattern of a resource id spells RESOURCE_ID', () => {
  const patterns = idPatterns();
  expect(patterns.map((p) => `${p.file}#${p.field}`)).toEqual(
    expect.arrayContaining(['SourceArgs.schema.json#sourceId', 'ImportJobArgs.schema.json#importJobId', 'ImportJobArgs.schema.json#assetSource']),
  );
  for (const { pattern } of patterns) expect(pattern.endsWith(`${RULE}$`)).toBe(true);
});

test('RESOURCE_ID is the AIP-122 rule', () => {
  expect(RESOURCE_ID.test('a')).toBe(true);
  expect(RESOURCE_ID.test(`a${'b'.repeat(62)}`)).toBe(true);
  expect(RESOURCE_ID.test(`a${'b'.repeat(63)}`)).toBe(false);
  for (const bad of ['A', '1a', 'a-', 'a_b', 'a.b', '']) expect(RESOURCE_ID.test(bad)).toBe(false);
});
