/** The ReportConfig provider's work: Google has no update method, so every change replaces it. */
import { restResource } from './rest-resource';

export const { check, diff, create, read, update, remove } = restResource({
  schema: 'ReportConfigArgs',
  api: 'migrationcenter',
  apiVersion: 'v1alpha1',
  collection: 'reportConfigs',
  idField: 'reportConfigId',
  bodyFields: ['displayName', 'description', 'groupPreferencesetAssignments'],
  outputFields: ['name', 'createTime', 'updateTime'],
  createOnly: true,
  requestId: true,
});
