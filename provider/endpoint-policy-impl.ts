/** The EndpointPolicy provider's work: a plain REST resource of networkservices/v1. */
import { restResource } from './rest-resource';

export const { check, diff, create, read, update, remove } = restResource({
  schema: 'EndpointPolicyArgs',
  api: 'networkservices',
  apiVersion: 'v1',
  collection: 'endpointPolicies',
  idField: 'endpointPolicyId',
  bodyFields: ['type', 'endpointMatcher', 'authorizationPolicy', 'clientTlsPolicy', 'serverTlsPolicy', 'trafficPortSelector', 'description', 'labels'],
  outputFields: ['name', 'createTime', 'updateTime'],
});
