/**
 * Compiled by `npm run typecheck` (part of `npm test`): a program written for `@pulumi/google-native`
 * 0.32.0's `networkservices/v1` IAM resources and the read functions of both services, with only
 * the import changed, must compile (the same argument, output and result names and shapes).
 */
import * as pulumi from '@pulumi/pulumi';
import * as networkservices from 'google-native-local';
import * as migrationcenter from 'google-native-local';

const name = 'projects/p1/locations/global/endpointPolicies/ep';

// Authoritative: the whole policy.
const policy = new networkservices.EndpointPolicyIamPolicy('policy', {
  endpointPolicyId: 'ep',
  location: 'global',
  project: 'p1',
  bindings: [
    { role: 'roles/networkservices.viewer', members: ['user:alice@example.com', pulumi.output('group:ops@example.com')] },
    {
      role: 'roles/networkservices.admin',
      members: ['user:bob@example.com'],
      condition: { title: 'expires', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")', description: 'temporary' },
    },
  ],
  auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: ['user:alice@example.com'] }] }],
  etag: pulumi.output('BwXYZ0123w=='),
  updateMask: 'bindings,etag',
  version: 3,
});

// Non-authoritative: one member of one role.
const member = new networkservices.EndpointPolicyIamMember('member', {
  name: pulumi.output(name),
  role: 'roles/networkservices.viewer',
  member: 'serviceAccount:app@p1.iam.gserviceaccount.com',
  condition: { title: 'expires', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' },
});

const adopted: networkservices.EndpointPolicyIamMember = networkservices.EndpointPolicyIamMember.get(
  'adopted',
  `${name} roles/networkservices.viewer user:a@example.com`,
);
const adoptedPolicy: networkservices.EndpointPolicyIamPolicy = networkservices.EndpointPolicyIamPolicy.get('adopted-policy', name);

const strings: pulumi.Output<string>[] = [
  policy.etag,
  policy.id,
  member.etag,
  member.member,
  member.name,
  member.project,
  member.role,
  adopted.id,
  adoptedPolicy.etag,
];
const version: pulumi.Output<number> = policy.version;
const roles: pulumi.Output<string[]> = policy.bindings.apply((bs) => bs.map((b) => `${b.role} ${b.members.join(',')} ${b.condition.expression}`));
const logTypes: pulumi.Output<string[]> = policy.auditConfigs.apply((cs) =>
  cs.flatMap((c) => c.auditLogConfigs.map((l) => `${c.service} ${l.logType} ${l.exemptedMembers.length}`)),
);
const conditionTitle: pulumi.Output<string | undefined> = member.condition.apply((c) => c?.title);

// Read functions: plain async functions and their Output variants.
async function reads(): Promise<string[]> {
  const ep: networkservices.GetEndpointPolicyResult = await networkservices.getEndpointPolicy({ endpointPolicyId: 'ep', location: 'global', project: 'p1' });
  const iam: networkservices.GetEndpointPolicyIamPolicyResult = await networkservices.getEndpointPolicyIamPolicy({
    endpointPolicyId: 'ep',
    location: 'global',
    optionsRequestedPolicyVersion: 3,
  });
  const job: migrationcenter.GetImportJobResult = await migrationcenter.getImportJob({
    importJobId: 'job-1',
    location: 'us-central1',
    project: 'p1',
    view: 'IMPORT_JOB_VIEW_FULL',
  });
  const source: migrationcenter.GetSourceResult = await migrationcenter.getSource({ sourceId: 's1', location: 'us-central1' });
  return [
    ep.name,
    ep.type,
    ep.createTime,
    ep.labels['env'],
    ep.trafficPortSelector.ports.join(','),
    iam.etag,
    String(iam.version),
    iam.bindings.map((b) => b.role).join(','),
    job.state,
    job.assetSource,
    String(job.executionReport.framesReported + job.executionReport.totalRowsCount),
    job.validationReport.fileValidations.map((f) => f.fileName).join(','),
    job.gcsPayload.path,
    job.inlinePayload.format,
    source.name,
    source.displayName,
    String(source.priority + source.pendingFrameCount),
    String(source.isManaged),
    source.state,
  ];
}

const epOutput: pulumi.Output<networkservices.GetEndpointPolicyResult> = networkservices.getEndpointPolicyOutput({
  endpointPolicyId: pulumi.output('ep'),
  location: 'global',
});
const iamOutput: pulumi.Output<number> = networkservices
  .getEndpointPolicyIamPolicyOutput({ endpointPolicyId: 'ep', location: 'global', optionsRequestedPolicyVersion: pulumi.output(3) })
  .apply((p) => p.version);
const jobState: pulumi.Output<string> = migrationcenter.getImportJobOutput({ importJobId: member.name, location: 'us-central1' }).apply((j) => j.state);
const sourceType: pulumi.Output<string> = migrationcenter.getSourceOutput({ sourceId: 's1', location: pulumi.output('us-central1') }).apply((s) => s.type);

export { strings, version, roles, logTypes, conditionTitle, reads, epOutput, iamOutput, jobState, sourceType };
