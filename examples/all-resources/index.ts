/**
 * Every resource google-native-local has, and its read functions, in one program. With nothing
 * configured it runs against the embedded emulator (state in ./.google-native-local); point it at
 * an emulator server with
 *   pulumi config set google-native-local:endpoint http://127.0.0.1:8085
 * Each value in settings.ts is a config key with a default: `pulumi config set groupDisplayName
 * "Web servers"` updates the group in place, `pulumi config set clientSource uploads` replaces the
 * discovery client (Google fixes a client's source at create).
 */
import * as pulumi from '@pulumi/pulumi';
import * as local from 'google-native-local';
import { DEFAULT_PROJECT, memberList, readSettings } from './settings';

const project = new pulumi.Config('google-native-local').get('project') ?? DEFAULT_PROJECT;
const config = new pulumi.Config();
const settings = readSettings((key) => config.get(key));
const location = 'global';
const csv = (text: string) => Buffer.from(text).toString('base64');

// ------------------------------------------------------------------ Network Services

// Two endpoint policies, because the three IAM resources own different things. The IAM policy
// resource owns the whole policy of `web-sidecars`: a binding or member beside it on the same
// endpoint policy would be removed by its next update, and would remove its bindings in turn.
const webPolicy = new local.EndpointPolicy('web-sidecars', {
  project,
  location,
  endpointPolicyId: 'web-sidecars',
  type: 'SIDECAR_PROXY',
  description: settings.webPolicyDescription,
  endpointMatcher: { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY', metadataLabels: [{ labelName: 'app', labelValue: 'web' }] } },
});
const webIam = new local.EndpointPolicyIamPolicy('web-iam', {
  project,
  location,
  endpointPolicyId: webPolicy.endpointPolicyId,
  bindings: [
    { role: 'roles/networkservices.viewer', members: memberList(settings.webViewers) },
    { role: 'roles/networkservices.admin', members: ['serviceAccount:deployer@example-project.iam.gserviceaccount.com'] },
  ],
});

// On `api-servers`, a binding owns the viewer role's member list and a member resource adds one
// admin. They do not fight because they touch different roles: a binding is authoritative for its
// role, so a member of the viewer role beside it would be removed whenever the binding is written.
const apiPolicy = new local.EndpointPolicy('api-servers', {
  project,
  location,
  endpointPolicyId: 'api-servers',
  type: 'GRPC_SERVER',
  endpointMatcher: { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ALL', metadataLabels: [{ labelName: 'tier', labelValue: 'api' }] } },
  labels: { team: 'api' },
});
new local.EndpointPolicyIamBinding('api-viewers', { name: apiPolicy.name, role: 'roles/networkservices.viewer', members: memberList(settings.apiViewers) });
new local.EndpointPolicyIamMember('api-admin', { name: apiPolicy.name, role: 'roles/networkservices.admin', member: settings.apiAdmin });

// ------------------------------------------------------------------ Migration Center: inventory

const uploads = new local.Source('uploads', { project, location, sourceId: 'uploads', displayName: settings.sourceDisplayName, type: 'SOURCE_TYPE_UPLOAD' });
const discovered = new local.Source('discovered', { project, location, sourceId: 'discovered', displayName: 'Discovery', type: 'SOURCE_TYPE_GUEST_OS_SCAN' });

// A job with an inline payload is validated and run at create: its reports are outputs.
const inventory = new local.ImportJob('inventory', {
  project,
  location,
  importJobId: 'inventory-2026-11',
  displayName: settings.jobDisplayName,
  assetSource: uploads.name,
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

// A job without payload is only created (it stays pending): its data file is the local CSV,
// uploaded through the data file's signed URL. Validate and run it when the files are complete.
const staging = new local.ImportJob('staging', { project, location, importJobId: 'staging', displayName: 'Batch hosts, to review', assetSource: uploads.name });
const batchHosts = new local.ImportDataFile('batch-hosts', {
  project,
  location,
  importJobId: staging.importJobId,
  importDataFileId: 'batch-hosts',
  displayName: settings.dataFileDisplayName,
  format: 'IMPORT_JOB_FORMAT_MANUAL_CSV',
  path: 'vm-inventory.csv',
});

// ------------------------------------------------------------------ Migration Center: planning

const webTier = new local.Group('web-tier', { project, location, groupId: 'web-tier', displayName: settings.groupDisplayName });
const computeEngine = new local.PreferenceSet('compute-engine', {
  project,
  location,
  preferenceSetId: 'compute-engine',
  displayName: 'Compute Engine',
  virtualMachinePreferences: { targetProduct: 'COMPUTE_MIGRATION_TARGET_PRODUCT_COMPUTE_ENGINE', commitmentPlan: settings.commitmentPlan },
});
// Google has no update of report configs or reports: any change of theirs is a replace.
const wave1 = new local.ReportConfig('wave-1', {
  project,
  location,
  reportConfigId: 'wave-1',
  displayName: 'Wave 1',
  groupPreferencesetAssignments: [{ group: webTier.name, preferenceSet: computeEngine.name }],
});
const tco = new local.Report('wave-1-tco', {
  project,
  location,
  reportConfigId: wave1.reportConfigId,
  reportId: 'tco',
  description: settings.reportDescription,
  type: 'TOTAL_COST_OF_OWNERSHIP',
});

const collector = new local.DiscoveryClient('collector', {
  project,
  location,
  discoveryClientId: 'collector',
  displayName: settings.clientDisplayName,
  serviceAccount: `collector@${project}.iam.gserviceaccount.com`,
  source: settings.clientSource === 'uploads' ? uploads.name : discovered.name,
  ttl: '86400s',
});

// ------------------------------------------------------------------ read functions

// Each reads once its argument is known, that is after the resource it reads is written.
const webPolicyRead = local.getEndpointPolicyOutput({ project, location, endpointPolicyId: webPolicy.endpointPolicyId });
const webIamRead = local.getEndpointPolicyIamPolicyOutput({ project, location, endpointPolicyId: webIam.endpointPolicyId, optionsRequestedPolicyVersion: 3 });
const inventoryRead = local.getImportJobOutput({ project, location, importJobId: inventory.importJobId });
const uploadsRead = local.getSourceOutput({ project, location, sourceId: uploads.sourceId });

export const webPolicyDescription = webPolicyRead.description;
export const webPolicyBindings = webIamRead.bindings;
export const inventoryState = inventoryRead.state;
export const inventoryFramesReported = inventoryRead.executionReport.framesReported;
export const uploadsDisplayName = uploadsRead.displayName;
export const stagingState = staging.state;
export const batchHostsState = batchHosts.state;
export const reportState = tco.state;
export const collectorName = collector.name;
export const collectorSource = collector.source;
