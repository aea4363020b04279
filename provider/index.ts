/** The Pulumi side of the package: four dynamic resources and their providers. */
export { EndpointPolicyIamBinding, endpointPolicyIamBindingProvider } from './endpoint-policy-iam-binding';
export { ImportJob, importJobProvider } from './import-job';
export { EndpointPolicy, endpointPolicyProvider } from './endpoint-policy';
export { Source, sourceProvider } from './source';
export * from './types';
export { Group, groupProvider } from './group';
export { ReportConfig, reportConfigProvider } from './report-config';
export { Report, reportProvider } from './report';
export { DiscoveryClient, discoveryClientProvider } from './discovery-client';
export { ImportDataFile, importDataFileProvider } from './import-data-file';
export * from './migration-center-types';
