/**
 * With nothing configured this runs against the embedded emulator (state in
 * ./.google-native-local). Point it at an emulator server with
 *   pulumi config set google-native-local:endpoint http://127.0.0.1:8085
 * or at the real Google APIs with
 *   pulumi config set google-native-local:endpoint google
 */
import * as pulumi from '@pulumi/pulumi';
import * as local from 'google-native-local';
import { DEFAULT_PROJECT, inventoryJob, sidecarsPolicy, temporaryAdminsBinding, uploadsSource, viewersBinding } from './resources';

const project = new pulumi.Config('google-native-local').get('project') ?? DEFAULT_PROJECT;

const policy = new local.EndpointPolicy('sidecars', sidecarsPolicy(project));
new local.EndpointPolicyIamBinding('viewers', viewersBinding(policy.name));
new local.EndpointPolicyIamBinding('temporary-admins', temporaryAdminsBinding(policy.name));

const source = new local.Source('uploads', uploadsSource(project));
const job = new local.ImportJob('inventory', inventoryJob(project, source.name));

export const jobState = job.state;
export const validationReport = job.validationReport;
export const executionReport = job.executionReport;
