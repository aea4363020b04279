/**
 * The standalone validators the build generates (schemas/standalone.ts) answer what the validators
 * compiled in this process answer: the same failures, reasons, property paths and order, for
 * every schema, on values drawn from the schemas themselves (their properties, enum values, the
 * strings their patterns and keywords judge) and on junk. This file's validators are compiled in
 * the process (the sources' standalone code, the other files' path under jest, is turned off here);
 * tests/schemas/validation.test.ts pins the standalone code's answers to literals.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import type { ValidateFunction } from 'ajv';
import { ALL_SCHEMAS, validate, validatorSource, type JsonSchema, type SchemaName } from '../../schemas';
import { toCheckFailures } from '../../schemas/failures';
import { standaloneModules, writeStandaloneValidators } from '../../schemas/standalone';
import { MANIFEST_FILE, STANDALONE_DIR } from '../../schemas/standalone-layout';
import { SOURCE_VALIDATORS_ENV, generatedFor } from '../../schemas/validators';
import { propertyRuns } from '../support/property-runs';

jest.setTimeout(120_000);

// `validate` compiles here, whatever the global set-up made: the comparison is compiled against
// generated. Decided at the first validation (in a test), put back for the worker's next files.
const sourceValidators = process.env[SOURCE_VALIDATORS_ENV];
delete process.env[SOURCE_VALIDATORS_ENV];
afterAll(() => {
  if (sourceValidators !== undefined) process.env[SOURCE_VALIDATORS_ENV] = sourceValidators;
});

const RULES = path.resolve(__dirname, '..', '..', 'schemas', 'keyword-rules');

/** Evaluates one generated module as CommonJS, its requires resolved from here (jest's). */
function evaluate(code: string): Record<string, ValidateFunction> {
  const module = { exports: {} as Record<string, ValidateFunction> };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const load = (id: string): unknown => require(id);
  new Function('require', 'module', 'exports', code)(load, module, module.exports);
  return module.exports;
}

let generated: Map<string, string>;
const standalone = new Map<string, ValidateFunction>();

beforeAll(() => {
  generated = standaloneModules(RULES);
  for (const [title, code] of generated) standalone.set(title, evaluate(code)[title]);
});

/** What `validate` answers, from the generated validator. */
function standaloneFailures(name: string, value: unknown) {
  const fn = standalone.get(name) as ValidateFunction;
  return fn(value) ? [] : toCheckFailures(fn.errors).slice(0, 100);
}

// ---------------------------------------------------------------------------------------------
// Values shaped by the schemas

const BY_FILE = new Map(ALL_SCHEMAS.map((s) => [s.$id.slice(s.$id.lastIndexOf('/') + 1), s as Record<string, unknown>]));

/** Strings the schemas' patterns, formats and keywords judge, valid and not, by what judges them. */
const STRINGS = {
  role: [
    'roles/viewer',
    'roles/networkservices.admin',
    'roles/storage.admin',
    'roles/foo',
    'roles/networkservices.edgeCacheAdmin',
    'projects/my-project/roles/custom',
    'viewer',
  ],
  member: [
    'user:alice@example.com',
    'user:Alice@Example.com',
    'group:ops@example.com',
    'domain:example.com',
    'allUsers',
    'principal://iam.googleapis.com/projects/1/x',
    'alice@example.com',
  ],
  cel: ['request.time < timestamp("2100-01-01T00:00:00Z")', 'resource.name.startsWith("projects/p")', '1 + 1', 'a &&', 'unknown.field == 1'],
  base64: ['QUJD', 'QQ==', 'Q=Q=', 'not base64!', ''],
  other: [
    'projects/p/locations/global/endpointPolicies/ep-1',
    'projects/p/locations/us-central1/endpointPolicies/ep-1',
    'projects/p1/locations/us-central1/sources/s1',
    'projects/p/locations/l/groups/g',
    'projects/p/locations/l/preferenceSets/ps',
    'gs://bucket/object',
    'IMPORT_JOB_FORMAT_MANUAL_CSV',
    'vmInfo.csv',
    '2026-11-26T10:00:00Z',
    'yesterday',
    '123e4567-e89b-12d3-a456-426614174000',
    '3.5s',
    'bindings,etag',
    'a'.repeat(64),
    '',
    'x',
  ],
};

const enumValues = (() => {
  const values = new Set<unknown>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if ((k === 'enum' && Array.isArray(v)) || k === 'const') [v].flat().forEach((e) => values.add(e));
        walk(v);
      }
    }
  };
  walk(ALL_SCHEMAS);
  return [...values];
})();

const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, 0, -1, 1.5, '', 'x', [], {}),
  fc.constantFrom(...Object.values(STRINGS).flat()),
  fc.constantFrom(...enumValues),
  fc.jsonValue({ maxDepth: 2 }),
);

function stringArbitrary(schema: Record<string, unknown>): fc.Arbitrary<string> {
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : '';
  const pool = schema.endpointPolicyRole
    ? STRINGS.role
    : schema.celExpression
      ? STRINGS.cel
      : schema.base64
        ? STRINGS.base64
        : pattern.includes('allAuthenticatedUsers')
          ? STRINGS.member
          : [...STRINGS.other, ...STRINGS.role, ...STRINGS.member];
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...pool) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
    ...(max !== undefined && max < 100_000 ? [{ weight: 1, arbitrary: fc.constant('a'.repeat(max + 1)) }] : []),
  );
}

/** A value for `schema`, mostly of its shape, now and then of another (depth-bounded). */
function shaped(schema: unknown, depth: number): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object' || depth > 5) return junk;
  let node = schema as Record<string, unknown>;
  if (typeof node.$ref === 'string') node = { ...(BY_FILE.get(node.$ref) ?? {}), ...node, $ref: undefined };
  const options: fc.Arbitrary<unknown>[] = [];
  if (Array.isArray(node.enum)) options.push(fc.constantFrom(...(node.enum as unknown[])));
  if ('const' in node) options.push(fc.constant(node.const));
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (Array.isArray(node[key])) options.push(...(node[key] as unknown[]).map((sub) => shaped(sub, depth + 1)));
  }
  const types = [node.type].flat().filter((t): t is string => typeof t === 'string');
  for (const type of types) {
    if (type === 'string') options.push(stringArbitrary(node));
    else if (type === 'integer') options.push(fc.integer({ min: -5, max: 5_000_000_000 }));
    else if (type === 'number') options.push(fc.oneof(fc.integer(), fc.double()));
    else if (type === 'boolean') options.push(fc.boolean());
    else if (type === 'array') {
      const items = shaped(node.items, depth + 1);
      // Two draws of one value: the duplicate rules (uniqueItems, uniqueMembers) see repeats.
      options.push(fc.array(items, { maxLength: 4 }).chain((list) => fc.constantFrom(list, list.length > 0 ? [...list, list[0]] : list)));
    } else if (type === 'object') {
      const properties = (node.properties ?? {}) as Record<string, unknown>;
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, sub] of Object.entries(properties)) record[key] = shaped(sub, depth + 1);
      const values = node.additionalProperties && typeof node.additionalProperties === 'object' ? shaped(node.additionalProperties, depth + 1) : junk;
      options.push(
        fc
          .tuple(
            fc.record(record, { requiredKeys: [] }),
            fc.dictionary(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', 'a/b', 'c~d')), values, { maxKeys: 2 }),
          )
          .map(([known, extra]) => ({ ...extra, ...known })),
      );
    }
  }
  if (options.length === 0) options.push(junk);
  return fc.oneof({ weight: 1, arbitrary: junk }, { weight: 6, arbitrary: fc.oneof(...options) });
}

// ---------------------------------------------------------------------------------------------

test('every schema has a generated module, which requires only Ajv, ajv-formats and the rules', () => {
  expect([...generated.keys()].sort()).toEqual(ALL_SCHEMAS.map((s) => s.title).sort());
  const required = new Set([...generated.values()].flatMap((code) => [...code.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1])));
  expect([...required].filter((id) => id !== RULES && !/^ajv(-formats)?\/dist\//.test(id))).toEqual([]);
  // The keywords' rules are reached through the module path given, not copied into the code.
  expect([...generated.values()].some((code) => code.includes(`require(${JSON.stringify(RULES)}).KEYWORD_RULES.celExpression`))).toBe(true);
});

/** The reasons of the schemas' own keywords met by the properties below (none may go unmet). */
const KEYWORD_REASONS: Record<string, RegExp> = {
  base64: /^must be base64-encoded/,
  celExpression: /^(is not a valid CEL expression|must evaluate to a boolean)/,
  uniqueMembers: /^repeats entry \d+/,
  endpointPolicyRole: /^Role .* is not supported for this resource\.$/,
  atMostOneOf: /^cannot be given together with/,
};
const met = new Set<string>();

describe.each(ALL_SCHEMAS.map((s) => [s.title, s] as const))('%s', (title: string, schema: JsonSchema) => {
  test('the generated validator answers as the compiled one', () => {
    fc.assert(
      fc.property(shaped(schema, 0), (value) => {
        const compiled = validate(title as SchemaName, value);
        expect(standaloneFailures(title, value)).toEqual(compiled);
        for (const [keyword, reason] of Object.entries(KEYWORD_REASONS)) if (compiled.some((f) => reason.test(f.reason))) met.add(keyword);
      }),
      { numRuns: propertyRuns(120) },
    );
  });
});

test("the values drawn met every one of the schemas' own keywords", () => {
  expect([...met].sort()).toEqual(Object.keys(KEYWORD_REASONS).sort());
});

test('the schemas own keywords fail alike in both, with the child they name (literal cases)', () => {
  const binding = { name: 'projects/p/locations/global/endpointPolicies/ep', role: 'roles/viewer', members: ['user:a@example.com'] };
  const cases: Array<[SchemaName, unknown, Array<{ property: string; reason: string }>]> = [
    [
      'EndpointPolicyIamBindingArgs',
      { ...binding, members: ['user:A@example.com', 'user:a@EXAMPLE.com'] },
      // the second member repeats the first once the email is read case-insensitive
      [{ property: 'members[1]', reason: 'repeats entry 0 (members are compared with the email or domain part case-insensitive)' }],
    ],
    [
      'EndpointPolicyIamBindingArgs',
      { ...binding, role: 'roles/storage.admin' },
      [{ property: 'role', reason: 'Role roles/storage.admin is not supported for this resource.' }],
    ],
    ['IamPolicy', { etag: 'not base64!' }, [{ property: 'etag', reason: "must be base64-encoded (the API's bytes fields are base64 in JSON)" }]],
    ['Condition', { title: 't', expression: '1 + 1' }, [{ property: 'expression', reason: 'must evaluate to a boolean, but its type is int' }]],
  ];
  for (const [name, value, expected] of cases) {
    expect(validate(name, value)).toEqual(expected);
    expect(standaloneFailures(name, value)).toEqual(expected);
  }
});

describe('which validators a process uses', () => {
  test('from the sources, where nothing was generated, they compile', () => {
    expect(validate('Role', 'viewer')).toEqual([
      { property: '', reason: 'must be roles/{name}, projects/{project}/roles/{id} or organizations/{org}/roles/{id}' },
    ]);
    expect(validatorSource()).toBe('compiled');
  });

  test('the generated folder is used only for the schemas it was generated from', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-standalone-'));
    const folder = path.join(dir, STANDALONE_DIR);
    expect(generatedFor(folder, ALL_SCHEMAS)).toBe(false); // nothing generated yet
    expect(writeStandaloneValidators(dir)).toBe(folder);
    expect(fs.readdirSync(folder).sort()).toEqual([...ALL_SCHEMAS.map((s) => `${s.title}.js`), MANIFEST_FILE].sort());
    expect(generatedFor(folder, ALL_SCHEMAS)).toBe(true);
    // One schema edited after the generation (a bare tsc): the folder no longer speaks for them.
    const edited = ALL_SCHEMAS.map((s) => (s.title === 'Role' ? { ...s, pattern: '^roles/.+$' } : s));
    expect(generatedFor(folder, edited)).toBe(false);
    fs.writeFileSync(path.join(folder, MANIFEST_FILE), '{not json');
    expect(generatedFor(folder, ALL_SCHEMAS)).toBe(false);
  });
});

describe("the package's own keywords keep their messages", () => {
  it('a schema x-reason beside one of them does not replace its message (their errors carry parentSchema since they are code keywords)', () => {
    const failures = toCheckFailures([
      {
        keyword: 'uniqueMembers',
        instancePath: '/members/1',
        schemaPath: '#/properties/members/uniqueMembers',
        params: {},
        message: 'repeats entry 0 (members are compared with the email or domain part case-insensitive)',
        parentSchema: { type: 'array', uniqueMembers: true, 'x-reason': 'must be a list of members' },
      },
      {
        keyword: 'pattern',
        instancePath: '/role',
        schemaPath: '#/properties/role/pattern',
        params: { pattern: '^roles/' },
        message: 'must match pattern "^roles/"',
        parentSchema: { type: 'string', pattern: '^roles/', 'x-reason': 'must be a role name such as roles/viewer' },
      },
    ]);
    expect(failures).toEqual([
      { property: 'members[1]', reason: 'repeats entry 0 (members are compared with the email or domain part case-insensitive)' },
      { property: 'role', reason: 'must be a role name such as roles/viewer' },
    ]);
  });
});
