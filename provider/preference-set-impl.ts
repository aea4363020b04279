/** The PreferenceSet provider's work: a plain REST resource of migrationcenter/v1alpha1. */
import { restResource } from './rest-resource';

export const { check, diff, create, read, update, remove } = restResource({
  schema: 'PreferenceSetArgs',
  api: 'migrationcenter',
  apiVersion: 'v1alpha1',
  collection: 'preferenceSets',
  idField: 'preferenceSetId',
  bodyFields: ['displayName', 'description', 'virtualMachinePreferences'],
  outputFields: ['name', 'createTime', 'updateTime'],
  requestId: true,
});
