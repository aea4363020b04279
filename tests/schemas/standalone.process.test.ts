/**
 * The compiled package (as `npm run build` and support/compiled.ts make it) validates with the
 * standalone validators generated beside it: a fresh process answers the schemas' failures without
 * ever loading Ajv's compiler, and with the same reasons and paths as the sources' tests expect.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { compiledPackage, ROOT } from '../../support/compiled';

jest.setTimeout(300_000); // the first asker compiles the package (tens of seconds on a loaded machine)

const SCRIPT = `
const schemas = require(process.argv[1]);
const binding = { name: 'projects/p/locations/global/endpointPolicies/ep', role: 'roles/viewer', members: ['user:a@example.com'] };
const out = {
  duplicate: schemas.validate('EndpointPolicyIamBindingArgs', { ...binding, members: ['user:A@example.com', 'user:a@EXAMPLE.com'] }),
  role: schemas.validate('EndpointPolicyIamBindingArgs', { ...binding, role: 'roles/storage.admin', extra: 1 }),
  etag: schemas.validate('IamPolicy', { etag: 'not base64!' }),
  condition: schemas.validate('Condition', { title: 't', expression: '1 + 1' }),
  payloads: schemas.validate('ImportJobArgs', {
    importJobId: 'j',
    assetSource: 'projects/p/locations/l/sources/s',
    gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://bucket/o' },
    inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: 'QQ==' }] },
  }),
  valid: schemas.validate('ImportJobArgs', { importJobId: 'j', assetSource: 'projects/p/locations/l/sources/s' }),
  source: schemas.validatorSource(),
  ajvCompilerLoaded: Object.keys(require.cache).some((file) => /[\\\\/]ajv[\\\\/]dist[\\\\/]core\\.js$/.test(file)),
};
process.stdout.write(JSON.stringify(out));
`;

test('a fresh process of the compiled package validates through the generated code, never loading Ajv', () => {
  const schemas = path.join(compiledPackage(), 'schemas');
  const out = JSON.parse(execFileSync(process.execPath, ['-e', SCRIPT, schemas], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 })) as Record<string, unknown>;
  expect(out).toEqual({
    // the second member repeats the first once the email is read case-insensitive
    duplicate: [{ property: 'members[1]', reason: 'repeats entry 0 (members are compared with the email or domain part case-insensitive)' }],
    role: [
      { property: 'extra', reason: 'is not a known property' },
      { property: 'role', reason: 'Role roles/storage.admin is not supported for this resource.' },
    ],
    etag: [{ property: 'etag', reason: "must be base64-encoded (the API's bytes fields are base64 in JSON)" }],
    condition: [{ property: 'expression', reason: 'must evaluate to a boolean, but its type is int' }],
    payloads: [{ property: 'inlinePayload', reason: 'cannot be given together with gcsPayload: give at most one of gcsPayload, inlinePayload and files' }],
    valid: [],
    source: 'standalone',
    ajvCompilerLoaded: false,
  });
});
