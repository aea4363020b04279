/** The Pulumi side of the package: the dynamic resources, their providers, and the read functions. */
export { EndpointPolicyIamBinding, endpointPolicyIamBindingProvider } from './endpoint-policy-iam-binding';
export { EndpointPolicyIamMember, endpointPolicyIamMemberProvider } from './endpoint-policy-iam-member';
export { EndpointPolicyIamPolicy, endpointPolicyIamPolicyProvider } from './endpoint-policy-iam-policy';
export { ImportJob, importJobProvider } from './import-job';
export { EndpointPolicy, endpointPolicyProvider } from './endpoint-policy';
export { Source, sourceProvider } from './source';
export * from './types';
export { Group, groupProvider } from './group';
export { ReportConfig, reportConfigProvider } from './report-config';
export { Report, reportProvider } from './report';
export { DiscoveryClient, discoveryClientProvider } from './discovery-client';
export { PreferenceSet, preferenceSetProvider } from './preference-set';
export { ImportDataFile, importDataFileProvider } from './import-data-file';
export * from './migration-center-types';
export * from './migration-center-responses';
export * from './read-functions';
