/**
 * With nothing configured this runs against the embedded emulator (state in
 * ./.google-native-local). Point it at an emulator server with
 *   pulumi config set google-native-local:endpoint http://127.0.0.1:8085
 * or at the real Google APIs with
 *   pulumi config set google-native-local:endpoint google
 */
import * as pulumi from '@pulumi/pulumi';
import * as local from 'google-native-local';

const project = new pulumi.Config('google-native-local').get('project') ?? 'example-project';

const policy = new local.EndpointPolicy('sidecars', {
  project,
  location: 'global',
  endpointPolicyId: 'sidecars',
  type: 'SIDECAR_PROXY',
  endpointMatcher: {
    metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY', metadataLabels: [{ labelName: 'app', labelValue: 'web' }] },
  },
});

new local.EndpointPolicyIamBinding('viewers', {
  name: policy.name,
  role: 'roles/networkservices.viewer',
  members: ['user:alice@example.com', 'group:ops@example.com'],
});

new local.EndpointPolicyIamBinding('temporary-admins', {
  name: policy.name,
  role: 'roles/networkservices.admin',
  members: ['serviceAccount:deployer@example-project.iam.gserviceaccount.com'],
  condition: {
    title: 'until 2030',
    description: 'Temporary access for the migration',
    expression: 'request.time < timestamp("2030-01-01T00:00:00Z")',
  },
});

const source = new local.Source('uploads', {
  project,
  location: 'global',
  sourceId: 'uploads',
  displayName: 'Manual uploads',
  type: 'SOURCE_TYPE_UPLOAD',
});

const csv = (text: string) => Buffer.from(text).toString('base64');

const job = new local.ImportJob('inventory', {
  project,
  location: 'global',
  importJobId: 'inventory-2026-11',
  displayName: 'November inventory',
  assetSource: source.name,
  inlinePayload: {
    format: 'IMPORT_JOB_FORMAT_MANUAL_CSV',
    payload: [
      {
        name: 'vmInfo.csv',
        data: csv(
          'MachineId,MachineName,AllocatedProcessorCoreCount,MemoryGiB,TotalDiskAllocatedGiB,OsName,IsPhysical\n' +
            'vm-001,web-1,4,16,100,Debian 12,0\n' +
            'vm-002,db-1,8,64,500,Ubuntu 22.04,0\n',
        ),
      },
    ],
  },
});

export const jobState = job.state;
export const validationReport = job.validationReport;
export const executionReport = job.executionReport;
