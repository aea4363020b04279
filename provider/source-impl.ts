/** The Source provider's work: a plain REST resource of migrationcenter/v1alpha1. */
import { restResource } from './rest-resource';

export const { check, diff, create, read, update, remove } = restResource({
  schema: 'SourceArgs',
  api: 'migrationcenter',
  apiVersion: 'v1alpha1',
  collection: 'sources',
  idField: 'sourceId',
  bodyFields: ['displayName', 'description', 'type', 'priority', 'managed'],
  outputFields: ['name', 'createTime', 'updateTime'],
});
