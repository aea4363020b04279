/**
 * Compiled by `npm run typecheck` (part of `npm test`): a program written for
 * `@pulumi/google-native` 0.32.0's two classes, with only the import changed, must compile.
 */
import * as pulumi from '@pulumi/pulumi';
import * as networkservices from 'google-native-local';
import * as migrationcenter from 'google-native-local';

const condition: pulumi.Input<networkservices.ConditionArgs> = {
  expression: 'request.time < timestamp("2030-01-01T00:00:00Z")',
  title: 'expires',
  description: 'temporary',
};

const binding = new networkservices.EndpointPolicyIamBinding('binding', {
  name: pulumi.output('projects/p1/locations/global/endpointPolicies/ep'),
  role: 'roles/networkservices.viewer',
  members: [pulumi.output('user:alice@example.com'), 'group:ops@example.com'],
  condition,
});

const job = new migrationcenter.ImportJob('job', {
  assetSource: 'projects/p1/locations/us-central1/sources/s1',
  importJobId: 'job-1',
  displayName: 'Inventory',
  gcsPayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX', path: 'gs://bucket/rvtools.xlsx' },
  labels: { env: pulumi.output('prod') },
  location: 'us-central1',
  project: 'p1',
  requestId: '3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f8a9b0c',
});

// The reference's neutral spellings work too.
new migrationcenter.ImportJob('neutral', {
  assetSource: 'projects/p1/locations/us-central1/sources/s1',
  importJobId: 'job-2',
  storagePayload: { format: 'IMPORT_JOB_FORMAT_VMTOOL_CSV', path: 'gs://bucket/rvtools/' },
});
new migrationcenter.ImportJob('inline', {
  assetSource: 'projects/p1/locations/us-central1/sources/s1',
  importJobId: 'job-3',
  inlinePayload: { format: 'IMPORT_JOB_FORMAT_EXPORTED_CLOUDA_CSV', payload: [{ name: 'vmInfo.csv', data: 'TWFjaGluZUlk' }] },
});

const strings: pulumi.Output<string>[] = [
  binding.etag,
  binding.id,
  binding.project,
  binding.name,
  binding.role,
  job.completeTime,
  job.createTime,
  job.updateTime,
  job.name,
  job.state,
  job.id,
  job.displayName,
  job.importJobId,
];
const members: pulumi.Output<string[]> = binding.members;
const frames: pulumi.Output<number> = job.executionReport.apply((r) => r.framesReported + r.totalRowsCount + r.executionErrors.jobErrors.length);
const uuids: pulumi.Output<string[]> = job.validationReport.apply((r) =>
  r.fileValidations.flatMap((f) => f.rowErrors.map((e) => `${e.rowNumber} ${e.vmName} ${e.vmUuid} ${e.errors[0]?.severity}`)),
);
const path: pulumi.Output<string> = job.gcsPayload.apply((p) => p.path);
export { strings, members, frames, uuids, path };
