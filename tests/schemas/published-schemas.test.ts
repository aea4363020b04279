/**
 * The published argument schemas (`schemas/*.schema.json`, as an editor or another validator loads
 * them) accept every spelling the provider's `check()` accepts. The validator here is an Ajv of
 * its own, not the package's: the files are read from disk, none of the package's keywords are
 * added (unknown keywords are ignored, as a validator that does not know them does; they only
 * refuse), and a value is accepted by the file alone.
 */
import * as fs from 'fs';
import * as path from 'path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { check as importJobCheck } from '../../provider/import-job-impl';
import { check as sourceCheck } from '../../provider/source-impl';
import { check as endpointPolicyCheck } from '../../provider/endpoint-policy-impl';
import { check as bindingCheck } from '../../provider/iam-binding-impl';
import { check as memberCheck } from '../../provider/iam-member-impl';
import { check as policyCheck } from '../../provider/iam-policy-impl';

const SCHEMA_DIR = path.join(__dirname, '../../schemas');

function externalValidator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const file of fs.readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.schema.json'))) {
    ajv.addSchema(JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, file), 'utf8')));
  }
  return (title: string, value: unknown) => {
    const validate = ajv.getSchema(`https://google-native-local.dev/schemas/${title}.json`);
    if (!validate) throw new Error(`no published schema ${title}`);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
}

const external = externalValidator();

// check() needs a project; the schemas leave it to a default (stack config or this variable).
const savedProject = process.env.GOOGLE_CLOUD_PROJECT;
beforeAll(() => {
  process.env.GOOGLE_CLOUD_PROJECT = 'project-1';
});
afterAll(() => {
  if (savedProject === undefined) delete process.env.GOOGLE_CLOUD_PROJECT;
  else process.env.GOOGLE_CLOUD_PROJECT = savedProject;
});
const SOURCE = 'projects/project-1/locations/us-central1/sources/s1';

// Every format spelling: Google's wire values, then the reference's neutral ones.
const WIRE_FORMATS = [
  'IMPORT_JOB_FORMAT_CMDB',
  'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
  'IMPORT_JOB_FORMAT_RVTOOLS_CSV',
  'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV',
  'IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV',
  'IMPORT_JOB_FORMAT_MANUAL_CSV',
  'IMPORT_JOB_FORMAT_DATABASE_ZIP',
];
const NEUTRAL_FORMATS = [
  'IMPORT_JOB_FORMAT_VMTOOL_XLSX',
  'IMPORT_JOB_FORMAT_VMTOOL_CSV',
  'IMPORT_JOB_FORMAT_EXPORTED_CLOUDA_CSV',
  'IMPORT_JOB_FORMAT_EXPORTED_CLOUDB_CSV',
];

const importJobCases: Array<[string, Record<string, unknown>]> = [
  ['no payload', { importJobId: 'j1', assetSource: SOURCE }],
  ...[...WIRE_FORMATS, ...NEUTRAL_FORMATS].flatMap((format): Array<[string, Record<string, unknown>]> => [
    [`gcsPayload ${format}`, { importJobId: 'j1', assetSource: SOURCE, gcsPayload: { format, path: 'gs://bkt/inventory/' } }],
    [`storagePayload ${format}`, { importJobId: 'j1', assetSource: SOURCE, storagePayload: { format, path: 'gs://bkt/x.csv' } }],
    [`inlinePayload ${format}`, { importJobId: 'j1', assetSource: SOURCE, inlinePayload: { format, payload: [{ name: 'vmInfo.csv', data: 'TWFjaGluZUlk' }] } }],
  ]),
  [
    'everything else',
    {
      importJobId: 'j1',
      assetSource: SOURCE,
      displayName: 'Inventory',
      labels: { env: 'prod' },
      location: 'us-central1',
      project: 'project-1',
      requestId: '3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f8a9b0c',
    },
  ],
];

describe('ImportJobArgs', () => {
  it.each(importJobCases)('%s: accepted by check() and by the published schema', async (_label, args) => {
    const { failures } = await importJobCheck({}, args);
    expect(failures).toEqual([]);
    expect(external('ImportJobArgs', args)).toEqual([]);
  });

  it.each([...WIRE_FORMATS, ...NEUTRAL_FORMATS])('local files in %s: accepted by the published schema (check() also reads the files)', (format) => {
    expect(external('ImportJobArgs', { importJobId: 'j1', assetSource: SOURCE, files: [{ path: './vmInfo.csv' }], format })).toEqual([]);
  });

  it('lists Google spellings first, then the reference spellings', () => {
    const formatArgs = JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, 'ImportJobFormatArgs.schema.json'), 'utf8'));
    expect(formatArgs.anyOf[0]).toEqual({ $ref: 'CreatableFormat.json' });
    expect(formatArgs.anyOf[1].enum).toEqual(NEUTRAL_FORMATS);
    const jobArgs = Object.keys(JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, 'ImportJobArgs.schema.json'), 'utf8')).properties);
    expect(jobArgs.indexOf('gcsPayload')).toBeLessThan(jobArgs.indexOf('storagePayload'));
  });

  it("the wire formats alone stay Google's: the neutral ones are still refused by ImportJobFormat (what the emulator checks)", () => {
    for (const format of NEUTRAL_FORMATS) expect(external('ImportJobFormat', format)).not.toEqual([]);
    for (const format of WIRE_FORMATS) expect(external('ImportJobFormat', format)).toEqual([]);
  });
});

const otherCases: Array<[string, string, (args: Record<string, unknown>) => unknown, Record<string, unknown>]> = [
  [
    'SourceArgs',
    'every field',
    (a) => sourceCheck({}, a),
    {
      sourceId: 's1',
      displayName: 'S',
      description: 'd',
      type: 'SOURCE_TYPE_UPLOAD',
      priority: 3,
      managed: false,
      location: 'us-central1',
      project: 'project-1',
    },
  ],
  [
    'EndpointPolicyArgs',
    'every field',
    (a) => endpointPolicyCheck({}, a),
    {
      endpointPolicyId: 'ep',
      type: 'SIDECAR_PROXY',
      endpointMatcher: { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY', metadataLabels: [{ labelName: 'app', labelValue: 'web' }] } },
      trafficPortSelector: { ports: ['8080'] },
      description: 'd',
      labels: { env: 'prod' },
      location: 'global',
      project: 'project-1',
    },
  ],
  [
    'EndpointPolicyIamBindingArgs',
    'a conditional binding',
    (a) => bindingCheck({}, a),
    {
      name: 'projects/project-1/locations/global/endpointPolicies/ep',
      role: 'roles/networkservices.viewer',
      members: ['user:Alice@Example.com', 'group:ops@example.com'],
      condition: { title: 't', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")', description: 'd' },
    },
  ],
  [
    'EndpointPolicyIamMemberArgs',
    'a conditional member',
    (a) => memberCheck({}, a),
    {
      name: 'projects/project-1/locations/global/endpointPolicies/ep',
      role: 'roles/networkservices.viewer',
      member: 'user:Alice@Example.com',
      condition: { title: 't', expression: 'true' },
    },
  ],
  [
    'EndpointPolicyIamPolicyArgs',
    'every field',
    (a) => policyCheck({}, a),
    {
      endpointPolicyId: 'ep',
      project: 'project-1',
      location: 'global',
      bindings: [{ role: 'roles/networkservices.viewer', members: ['user:a@example.com'], condition: { title: 't', expression: 'true' } }],
      auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: ['user:a@example.com'] }] }],
      etag: 'BwXYZ0123w==',
      updateMask: 'bindings,etag,auditConfigs',
      version: 3,
    },
  ],
];

describe('the other argument schemas', () => {
  it.each(otherCases)('%s, %s: accepted by check() and by the published schema', async (schema, _label, check, args) => {
    const { failures } = (await check(args)) as { failures: unknown[] };
    expect(failures).toEqual([]);
    expect(external(schema, args)).toEqual([]);
  });
});
