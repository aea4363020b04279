/**
 * The Report provider's work: a report of a report config, computed when it is created (its
 * summary is an output). Google has no update method, so every change replaces it; `state` is the
 * service's, read back and never sent.
 */
import { restResource } from './rest-resource';

export const { check, diff, create, read, update, remove } = restResource({
  schema: 'ReportArgs',
  api: 'migrationcenter',
  apiVersion: 'v1alpha1',
  collection: 'reports',
  idField: 'reportId',
  parent: { collection: 'reportConfigs', idField: 'reportConfigId' },
  bodyFields: ['displayName', 'description', 'type'],
  outputFields: ['name', 'createTime', 'updateTime', 'state', 'summary'],
  createOnly: true,
  // Google's default view (BASIC) leaves out the summary, which is this resource's main output.
  readQuery: { view: 'REPORT_VIEW_FULL' },
  requestId: true,
});
