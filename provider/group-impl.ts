/** The Group provider's work: a plain REST resource of migrationcenter/v1alpha1. */
import { restResource } from './rest-resource';

export const { check, diff, create, read, update, remove } = restResource({
  schema: 'GroupArgs',
  api: 'migrationcenter',
  apiVersion: 'v1alpha1',
  collection: 'groups',
  idField: 'groupId',
  bodyFields: ['displayName', 'description', 'labels'],
  outputFields: ['name', 'createTime', 'updateTime'],
  requestId: true,
});
