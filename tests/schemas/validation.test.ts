import Ajv2020 from 'ajv/dist/2020';
import {
  ALL_SCHEMAS,
  validate,
  validateImportJobArgs,
  canonicalMember,
  importJobToWire,
  importJobToReference,
  toWireFormat,
  toReferenceFormat,
  validatorSource,
} from '../../schemas';
import { schemaAjv } from '../../schemas/ajv';
import { toCheckFailures } from '../../schemas/failures';
import { validatorOf } from '../../schemas/validators';

const NAME = 'projects/my-project/locations/global/endpointPolicies/my-policy';
const binding = (over: Record<string, unknown> = {}) => ({ name: NAME, role: 'roles/viewer', members: ['user:alice@example.com'], ...over });
const job = (over: Record<string, unknown> = {}) => ({
  importJobId: 'job-1',
  assetSource: 'projects/p1/locations/us-central1/sources/s1',
  inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: Buffer.from('MachineId\nm1\n').toString('base64') }] },
  ...over,
});
const props = (failures: Array<{ property: string }>) => failures.map((f) => f.property);

describe('every schema', () => {
  // The package's validator does not read its schemas through the meta-schema (schemas/index.ts:
  // each process would pay for it); this test does, once, for every schema in the list.
  const metaSchema = new Ajv2020({ strict: false });
  it.each(ALL_SCHEMAS.map((schema) => [schema.title, schema] as const))('%s is valid JSON Schema 2020-12', (_title, schema) => {
    expect(metaSchema.validateSchema(schema)).toBe(true);
    expect(metaSchema.errors).toBeNull();
  });
  it('the meta-schema check refuses a malformed schema (a type that is not a type name)', () => {
    expect(metaSchema.validateSchema({ $id: 'https://example.com/broken.json', type: 'strng' })).toBe(false);
    expect(metaSchema.errors?.[0]?.instancePath).toBe('/type');
  });

  // Compiled as a process without generated code compiles them (and the build's generator): this
  // is where a schema Ajv's strict mode refuses (an unknown keyword, a type it cannot read) fails,
  // whichever schemas the other tests touch.
  const packageAjv = schemaAjv();
  it.each(ALL_SCHEMAS.map((schema) => [schema.title, schema.$id] as const))('%s compiles in strict mode', (_title, id) => {
    expect(typeof packageAjv.getSchema(id)).toBe('function');
  });

  it('under jest, the sources validate with the standalone code generated for them (tests/support/global-setup.ts)', () => {
    expect(validate('Role', 'viewer')).toEqual([
      { property: '', reason: 'must be roles/{name}, projects/{project}/roles/{id} or organizations/{org}/roles/{id}' },
    ]);
    expect(validatorSource()).toBe('standalone');
  });
});

describe('EndpointPolicyIamBindingArgs', () => {
  it('accepts a plain binding', () => {
    expect(validate('EndpointPolicyIamBindingArgs', binding())).toEqual([]);
  });

  it.each([
    'user:alice@example.com',
    'serviceAccount:sa@my-project.iam.gserviceaccount.com',
    'group:admins@example.com',
    'domain:example.com',
    'allUsers',
    'allAuthenticatedUsers',
    'principal://iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p/subject/s',
    'principalSet://iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p/*',
    'deleted:user:bob@example.com?uid=123456789012345678901',
    'deleted:serviceAccount:sa@p.iam.gserviceaccount.com?uid=1',
  ])('accepts member %s', (member) => {
    expect(validate('EndpointPolicyIamBindingArgs', binding({ members: [member] }))).toEqual([]);
  });

  it.each(['alice@example.com', 'user:', 'user:alice', 'robot:alice@example.com', 'domain:', 'allusers', 'deleted:user:bob@example.com', ' user:a@b.com'])(
    'refuses member %j on members[1] with the accepted forms in the reason',
    (member) => {
      const failures = validate('EndpointPolicyIamBindingArgs', binding({ members: ['user:ok@example.com', member] }));
      expect(failures).toEqual([{ property: 'members[1]', reason: expect.stringContaining('<type>:<value>') }]);
    },
  );

  it('refuses an empty member list', () => {
    expect(validate('EndpointPolicyIamBindingArgs', binding({ members: [] }))).toEqual([{ property: 'members', reason: 'must have at least one entry' }]);
  });

  it('refuses members that repeat after case folding of the email part', () => {
    const failures = validate(
      'EndpointPolicyIamBindingArgs',
      binding({ members: ['user:Alice@Example.com', 'group:g@example.com', 'user:alice@example.COM'] }),
    );
    expect(failures).toEqual([{ property: 'members[2]', reason: expect.stringContaining('repeats entry 0') }]);
  });

  it('keeps principal:// members case-sensitive when looking for duplicates', () => {
    const a = 'principal://iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p/subject/Bob';
    expect(validate('EndpointPolicyIamBindingArgs', binding({ members: [a, a.replace('Bob', 'bob')] }))).toEqual([]);
  });

  it.each(['roles/viewer', 'roles/networkservices.admin', 'projects/my-project/roles/customRole', 'organizations/123456/roles/my.role'])(
    'accepts role %s',
    (role) => {
      expect(validate('EndpointPolicyIamBindingArgs', binding({ role }))).toEqual([]);
    },
  );

  it.each(['viewer', 'roles/', 'projects/p/roles/x', 'organizations/abc/roles/xyz', 'folders/1/roles/xyz'])('refuses role %s', (role) => {
    expect(props(validate('EndpointPolicyIamBindingArgs', binding({ role })))).toEqual(['role']);
  });

  it.each(['roles/storage.admin', 'roles/foo', 'roles/networkservices.edgeCacheAdmin'])(
    "refuses role %s, which endpoint policies do not take, in Google's words",
    (role) => {
      expect(validate('EndpointPolicyIamBindingArgs', binding({ role }))).toEqual([
        { property: 'role', reason: `Role ${role} is not supported for this resource.` },
      ]);
    },
  );

  it.each([
    'projects/p/locations/global/endpointPolicies',
    'projects/p/endpointPolicies/x',
    'projects/p/locations/global/endpointPolicies/X',
    'projects/p/locations/us-central1/endpointPolicies/x',
    'endpointPolicies/x',
  ])('refuses name %s', (name) => {
    expect(validate('EndpointPolicyIamBindingArgs', binding({ name }))).toEqual([
      {
        property: 'name',
        reason: 'must be projects/{project}/locations/global/endpointPolicies/{endpointPolicyId} (endpoint policies exist in location global only)',
      },
    ]);
  });

  it('requires name, role and members', () => {
    expect(props(validate('EndpointPolicyIamBindingArgs', {}))).toEqual(['name', 'role', 'members']);
  });

  it('accepts a condition with a boolean CEL expression', () => {
    const condition = { title: 'expires', description: 'until 2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' };
    expect(validate('EndpointPolicyIamBindingArgs', binding({ condition }))).toEqual([]);
  });

  it('requires condition.title and condition.expression', () => {
    expect(validate('EndpointPolicyIamBindingArgs', binding({ condition: { description: 'd' } }))).toEqual([
      { property: 'condition.expression', reason: 'is required' },
      { property: 'condition.title', reason: 'is required' },
    ]);
  });

  it('reports a CEL syntax error on condition.expression', () => {
    const failures = validate('EndpointPolicyIamBindingArgs', binding({ condition: { title: 't', expression: 'request.time < ' } }));
    expect(failures).toEqual([{ property: 'condition.expression', reason: expect.stringMatching(/^is not a valid CEL expression: /) }]);
  });

  it('reports an unknown attribute and a non-boolean expression', () => {
    expect(validate('Condition', { title: 't', expression: 'foo.bar == 1' })).toEqual([
      { property: 'expression', reason: expect.stringContaining('Unknown variable: foo') },
    ]);
    expect(validate('Condition', { title: 't', expression: 'resource.name + "x"' })).toEqual([
      { property: 'expression', reason: 'must evaluate to a boolean, but its type is string' },
    ]);
  });

  it('allows at most 12 logical operators in a condition', () => {
    const clause = 'resource.name.startsWith("projects/p")';
    expect(validate('Condition', { title: 't', expression: Array(13).fill(clause).join(' && ') })).toEqual([]);
    expect(validate('Condition', { title: 't', expression: Array(14).fill(clause).join(' && ') })).toEqual([
      { property: 'expression', reason: 'has 13 logical operators; IAM allows at most 12' },
    ]);
  });

  it('refuses unknown properties', () => {
    expect(validate('EndpointPolicyIamBindingArgs', binding({ rolee: 'x' }))).toEqual([{ property: 'rolee', reason: 'is not a known property' }]);
  });
});

describe('ImportJobArgs', () => {
  it('accepts an inline manual CSV job', () => {
    expect(validateImportJobArgs(job())).toEqual([]);
  });

  it.each(['a', 'job-1', 'a'.repeat(63), 'x1-2y'])('accepts importJobId %s', (importJobId) => {
    expect(validateImportJobArgs(job({ importJobId }))).toEqual([]);
  });

  it.each(['', '1job', 'Job', 'job-', 'job_1', 'a'.repeat(64)])('refuses importJobId %j', (importJobId) => {
    expect(props(validateImportJobArgs(job({ importJobId })))).toEqual(['importJobId']);
  });

  it('requires importJobId', () => {
    expect(validateImportJobArgs(job({ importJobId: undefined }))).toEqual([{ property: 'importJobId', reason: 'is required' }]);
  });

  it('counts displayName in characters, not bytes', () => {
    expect(validateImportJobArgs(job({ displayName: 'é'.repeat(63) }))).toEqual([]);
    expect(validateImportJobArgs(job({ displayName: '🙂'.repeat(63) }))).toEqual([]);
    expect(validateImportJobArgs(job({ displayName: 'x'.repeat(64) }))).toEqual([{ property: 'displayName', reason: 'must have at most 63 characters' }]);
  });

  it('applies Google label rules and names the offending key', () => {
    expect(validateImportJobArgs(job({ labels: { env: 'prod', 'team_a-1': '', k: 'v-1_2' } }))).toEqual([]);
    expect(props(validateImportJobArgs(job({ labels: { Env: 'prod' } })))).toEqual(['labels.Env']);
    expect(props(validateImportJobArgs(job({ labels: { '1env': 'prod' } })))).toEqual(['labels.1env']);
    expect(props(validateImportJobArgs(job({ labels: { env: 'Prod' } })))).toEqual(['labels.env']);
    expect(props(validateImportJobArgs(job({ labels: { ['k'.repeat(64)]: 'v' } })))).toEqual([`labels.${'k'.repeat(64)}`]);
    expect(props(validateImportJobArgs(job({ labels: { env: 'v'.repeat(64) } })))).toEqual(['labels.env']);
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, 'v']));
    expect(validateImportJobArgs(job({ labels: many }))).toEqual([{ property: 'labels', reason: 'must have at most 64 entries' }]);
  });

  it('treats __proto__, constructor and prototype as ordinary (invalid or valid) label keys', () => {
    const labels = JSON.parse('{"__proto__": "x", "constructor": "y", "prototype": "z"}');
    expect(validateImportJobArgs(job({ labels }))).toEqual([{ property: 'labels.__proto__', reason: expect.stringContaining('not a valid label key') }]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('needs requestId to be a UUID other than all zeros', () => {
    expect(validateImportJobArgs(job({ requestId: '3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f8a9b0c' }))).toEqual([]);
    expect(props(validateImportJobArgs(job({ requestId: 'not-a-uuid' })))).toEqual(['requestId']);
    expect(validateImportJobArgs(job({ requestId: '00000000-0000-0000-0000-000000000000' }))).toEqual([
      { property: 'requestId', reason: 'must be a valid UUID other than 00000000-0000-0000-0000-000000000000' },
    ]);
  });

  it('checks storage payload paths', () => {
    const storage = (path: string) => job({ inlinePayload: undefined, storagePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path } });
    expect(validateImportJobArgs(storage('gs://my-bucket/inventory/vmInfo.csv'))).toEqual([]);
    expect(validateImportJobArgs(storage('gs://my-bucket/inventory/'))).toEqual([]);
    for (const bad of ['s3://bucket/x', 'gs://', 'gs://B/x', '/local/file']) {
      expect(validateImportJobArgs(storage(bad))).toEqual([{ property: 'storagePayload.path', reason: 'must be gs://{bucket}/{object or prefix}' }]);
    }
  });

  it('requires assetSource (Required on Google), so a preview reports it', () => {
    expect(validateImportJobArgs(job({ assetSource: undefined }))).toEqual([{ property: 'assetSource', reason: 'is required' }]);
  });

  it('allows no payload (data files come later) but never two, naming the field as the caller spelt it', () => {
    expect(validateImportJobArgs(job({ inlinePayload: undefined }))).toEqual([]);
    const both = job({ storagePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://bkt/x' } });
    expect(validateImportJobArgs(both)).toEqual([
      { property: 'inlinePayload', reason: 'cannot be given together with gcsPayload: give at most one of gcsPayload, inlinePayload and files' },
    ]);
  });

  it('takes local files with one format for them all (either spelling), each needing the other', () => {
    const files = [{ path: './inventory/vmInfo.csv' }];
    expect(validateImportJobArgs(job({ inlinePayload: undefined, files, format: 'IMPORT_JOB_FORMAT_VMTOOL_CSV' }))).toEqual([]);
    expect(validateImportJobArgs(job({ inlinePayload: undefined, files }))).toEqual([{ property: 'format', reason: 'is required when files is given' }]);
    expect(validateImportJobArgs(job({ inlinePayload: undefined, format: 'IMPORT_JOB_FORMAT_MANUAL_CSV' }))).toEqual([
      { property: 'files', reason: 'is required when format is given' },
    ]);
    expect(validateImportJobArgs(job({ files, format: 'IMPORT_JOB_FORMAT_MANUAL_CSV' }))).toEqual([
      { property: 'files', reason: 'cannot be given together with inlinePayload: give at most one of gcsPayload, inlinePayload and files' },
    ]);
    expect(validateImportJobArgs(job({ inlinePayload: undefined, files: [{ path: '' }], format: 'IMPORT_JOB_FORMAT_MANUAL_CSV' }))).toEqual([
      { property: 'files[0].path', reason: 'must not be empty' },
    ]);
    expect(importJobToWire({ format: 'IMPORT_JOB_FORMAT_VMTOOL_XLSX' })).toEqual({ format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX' });
  });

  it('accepts the real API spelling gcsPayload and names failures in that spelling', () => {
    const wire = job({ inlinePayload: undefined, gcsPayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX', path: 'ftp://x' } });
    expect(validateImportJobArgs(wire)).toEqual([{ property: 'gcsPayload.path', reason: 'must be gs://{bucket}/{object or prefix}' }]);
    expect(validateImportJobArgs({ ...wire, gcsPayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX', path: 'gs://bkt/x.xlsx' } })).toEqual([]);
  });

  it('refuses both spellings of one field at once', () => {
    const both = job({
      inlinePayload: undefined,
      gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://bkt/x' },
      storagePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://bkt/x' },
    });
    expect(props(validateImportJobArgs(both))).toEqual(['gcsPayload']);
  });

  it.each([
    'IMPORT_JOB_FORMAT_CMDB',
    'IMPORT_JOB_FORMAT_VMTOOL_XLSX',
    'IMPORT_JOB_FORMAT_VMTOOL_CSV',
    'IMPORT_JOB_FORMAT_EXPORTED_CLOUDA_CSV',
    'IMPORT_JOB_FORMAT_EXPORTED_CLOUDB_CSV',
    'IMPORT_JOB_FORMAT_MANUAL_CSV',
    'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
    'IMPORT_JOB_FORMAT_RVTOOLS_CSV',
    'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV',
    'IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV',
    'IMPORT_JOB_FORMAT_DATABASE_ZIP',
  ])('accepts format %s in either spelling', (format) => {
    expect(validateImportJobArgs(job({ inlinePayload: { format, payload: [{ name: 'f', data: 'YQ==' }] } }))).toEqual([]);
  });

  it('refuses UNSPECIFIED and unknown formats with a clear reason', () => {
    const inline = (format: string) => job({ inlinePayload: { format, payload: [{ name: 'f', data: 'YQ==' }] } });
    expect(validateImportJobArgs(inline('IMPORT_JOB_FORMAT_UNSPECIFIED'))).toEqual([
      { property: 'inlinePayload.format', reason: expect.stringContaining('IMPORT_JOB_FORMAT_UNSPECIFIED is not accepted') },
    ]);
    expect(validateImportJobArgs(inline('CSV'))).toEqual([
      { property: 'inlinePayload.format', reason: expect.stringContaining('must be one of the ImportJobFormat values') },
    ]);
    expect(validate('ImportJobFormat', 'IMPORT_JOB_FORMAT_UNSPECIFIED')).toEqual([]);
    // The schema itself is the wire's: the neutral names are the provider's, translated before validation.
    expect(props(validate('ImportJobFormat', 'IMPORT_JOB_FORMAT_VMTOOL_XLSX'))).toEqual(['']);
  });

  it('names the exact inline payload file and refuses data that is not base64', () => {
    const payload = [
      { name: 'vmInfo.csv', data: 'TWFjaGluZUlk' },
      { name: 'perfInfo.csv', data: 'TWE=' },
      { name: '', data: 'TWE=' },
      { name: 'diskInfo.csv', data: 'MachineId,DiskLabel\nm1,sda' },
      { name: 'a/b.csv', data: '' },
    ];
    expect(validateImportJobArgs(job({ inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload } }))).toEqual([
      { property: 'inlinePayload.payload[2].name', reason: 'must not be empty' },
      { property: 'inlinePayload.payload[3].data', reason: expect.stringContaining('base64') },
      { property: 'inlinePayload.payload[4].name', reason: expect.stringContaining("without '/'") },
    ]);
  });

  it('reports wrong types in plain words', () => {
    expect(validateImportJobArgs(job({ displayName: 5 }))).toEqual([{ property: 'displayName', reason: 'must be of type string, not a number' }]);
  });
});

describe('the alias table', () => {
  it('converts both ways', () => {
    expect(toWireFormat('IMPORT_JOB_FORMAT_VMTOOL_XLSX')).toBe('IMPORT_JOB_FORMAT_RVTOOLS_XLSX');
    expect(toWireFormat('IMPORT_JOB_FORMAT_EXPORTED_CLOUDB_CSV')).toBe('IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV');
    expect(toWireFormat('IMPORT_JOB_FORMAT_MANUAL_CSV')).toBe('IMPORT_JOB_FORMAT_MANUAL_CSV');
    expect(toReferenceFormat('IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV')).toBe('IMPORT_JOB_FORMAT_EXPORTED_CLOUDA_CSV');
    const reference = { importJobId: 'j', storagePayload: { format: 'IMPORT_JOB_FORMAT_VMTOOL_CSV', path: 'gs://b/x' } };
    const wire = importJobToWire(reference);
    expect(wire).toEqual({ importJobId: 'j', gcsPayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV', path: 'gs://b/x' } });
    expect(importJobToReference(wire)).toEqual(reference);
  });
});

describe('member case folding', () => {
  it('lower-cases the email or domain part only', () => {
    expect(canonicalMember('user:Alice@Example.COM')).toBe('user:alice@example.com');
    expect(canonicalMember('domain:Example.com')).toBe('domain:example.com');
    expect(canonicalMember('deleted:user:Bob@Example.com?uid=123')).toBe('deleted:user:bob@example.com?uid=123');
    expect(canonicalMember('principal://iam.googleapis.com/X/Subject/Bob')).toBe('principal://iam.googleapis.com/X/Subject/Bob');
    expect(canonicalMember('allUsers')).toBe('allUsers');
  });
});

describe('output schemas', () => {
  it('describe the reports the emulator returns', () => {
    const report = {
      fileValidations: [
        {
          fileName: 'vmInfo.csv',
          partialReport: false,
          fileErrors: [],
          rowErrors: [{ rowNumber: 2, vmName: 'vm', vmUuid: '', errors: [{ errorDetails: 'x', severity: 'ERROR' }] }],
        },
      ],
      jobErrors: [],
    };
    expect(validate('ValidationReport', report)).toEqual([]);
    expect(validate('ExecutionReport', { framesReported: 1, totalRowsCount: 1, executionErrors: report })).toEqual([]);
    expect(
      props(
        validate('ValidationReport', {
          fileValidations: [{ fileName: 'x', partialReport: false, fileErrors: [], rowErrors: [{ rowNumber: 0, vmName: '', vmUuid: '', errors: [] }] }],
          jobErrors: [],
        }),
      ),
    ).toEqual(['fileValidations[0].rowErrors[0].rowNumber']);
  });
});

describe('companion resources', () => {
  const matcher = { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY', metadataLabels: [{ labelName: 'app', labelValue: 'web' }] } };

  it('EndpointPolicyArgs needs an id, a type and an endpoint matcher', () => {
    expect(
      validate('EndpointPolicyArgs', {
        endpointPolicyId: 'ep-1',
        type: 'SIDECAR_PROXY',
        endpointMatcher: matcher,
        trafficPortSelector: { ports: ['8080', '9000-9100'] },
      }),
    ).toEqual([]);
    expect(
      validate('EndpointPolicyArgs', {
        endpointPolicyId: 'EP',
        type: 'PROXY',
        endpointMatcher: { metadataLabelMatcher: { metadataLabels: [{ labelName: 'a' }] } },
      }),
    ).toEqual([
      { property: 'endpointPolicyId', reason: expect.stringContaining('resource ID') },
      { property: 'type', reason: 'must be SIDECAR_PROXY or GRPC_SERVER' },
      { property: 'endpointMatcher.metadataLabelMatcher.metadataLabels[0].labelValue', reason: 'is required' },
    ]);
    expect(props(validate('EndpointPolicyArgs', {}))).toEqual(['endpointPolicyId', 'type', 'endpointMatcher']);
  });

  it('SourceArgs needs an id and knows the source types', () => {
    expect(validate('SourceArgs', { sourceId: 'src', type: 'SOURCE_TYPE_UPLOAD', priority: 3, managed: false, displayName: 'Uploads' })).toEqual([]);
    expect(validate('SourceArgs', { sourceId: 'src', type: 'UPLOAD', priority: 1.5 })).toEqual([
      { property: 'type', reason: expect.stringContaining('must be one of SOURCE_TYPE_UNKNOWN') },
      { property: 'priority', reason: 'must be of type integer, not a number' },
    ]);
  });
});

describe('label rules shared with the import engine', () => {
  it('accept international lowercase letters, as Google does, and still refuse upper case', () => {
    expect(validateImportJobArgs(job({ labels: { équipe: 'données', κλειδί: 'τιμή' } }))).toEqual([]);
    expect(props(validateImportJobArgs(job({ labels: { Équipe: 'x' } })))).toEqual(['labels.Équipe']);
    expect(props(validateImportJobArgs(job({ labels: { env: 'Données' } })))).toEqual(['labels.env']);
  });
});

test('validate names the first 100 failures, the ones the whole list starts with (60,000 bad label keys: 120,000 Ajv errors, 100 worded)', () => {
  const labels = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`K${i}`, 'v']));
  const failures = validate('Group', { labels });
  expect(failures).toHaveLength(100);
  const all = toCheckFailures(validatorOf('Group')!.errors);
  expect(all.length).toBeGreaterThan(100);
  expect(failures).toEqual(all.slice(0, 100));
});
