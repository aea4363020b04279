/**
 * With nothing configured this runs against the embedded emulator (state in
 * ./.google-native-local). Point it at an emulator server with
 *   pulumi config set google-native-local:endpoint http://127.0.0.1:8085
 * or at the real Google APIs with
 *   pulumi config set google-native-local:endpoint google
 * Rename the import job (an update in place, nothing replaced) with
 *   pulumi config set jobDisplayName "December inventory"
 * or the source it loads into (an update of the source only: the job refers to its name, which
 * stays the same) with
 *   pulumi config set sourceDisplayName "Spreadsheet uploads"
 */
import * as pulumi from '@pulumi/pulumi';
import * as local from 'google-native-local';
import { DEFAULT_PROJECT, inventoryJob, sidecarsPolicy, temporaryAdminsBinding, uploadsSource, viewersBinding } from './resources';

const project = new pulumi.Config('google-native-local').get('project') ?? DEFAULT_PROJECT;
const renamedJob = new pulumi.Config().get('jobDisplayName');
const renamedSource = new pulumi.Config().get('sourceDisplayName');

const policy = new local.EndpointPolicy('sidecars', sidecarsPolicy(project));
new local.EndpointPolicyIamBinding('viewers', viewersBinding(policy.name));
new local.EndpointPolicyIamBinding('temporary-admins', temporaryAdminsBinding(policy.name));

const source = new local.Source('uploads', uploadsSource(project, renamedSource));
const job = new local.ImportJob('inventory', inventoryJob(project, source.name, renamedJob));

export const jobName = job.name;
export const jobDisplayName = job.displayName;
export const jobState = job.state;
export const validationReport = job.validationReport;
export const executionReport = job.executionReport;
