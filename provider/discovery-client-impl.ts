/**
 * The DiscoveryClient provider's work: a plain REST resource of migrationcenter/v1alpha1 whose
 * `source` is fixed at create (a change replaces the client).
 */
import { restResource } from './rest-resource';

export const { check, diff, create, read, update, remove } = restResource({
  schema: 'DiscoveryClientArgs',
  api: 'migrationcenter',
  apiVersion: 'v1alpha1',
  collection: 'discoveryClients',
  idField: 'discoveryClientId',
  bodyFields: ['displayName', 'description', 'labels', 'serviceAccount', 'source', 'ttl', 'expireTime'],
  immutableFields: ['source'],
  outputFields: ['name', 'createTime', 'updateTime', 'state', 'errors', 'heartbeatTime', 'signalsEndpoint', 'version'],
  requestId: true,
  crossFieldFailures: (inputs) =>
    inputs.ttl !== undefined && inputs.expireTime !== undefined
      ? [{ property: 'ttl', reason: 'cannot be given together with expireTime: the client expires at one time' }]
      : [],
});
