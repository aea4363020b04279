/**
 * Compiled by `npm run typecheck` (part of `npm test`): a program written for `@pulumi/google-native`
 * 0.32.0's `migrationcenter/v1alpha1` resources and read functions, with only the import changed,
 * must compile: the same argument names (each a `pulumi.Input`), output names and shapes, and
 * result shapes. DiscoveryClient and getDiscoveryClient are not in 0.32.0: they follow the
 * generator's shape for the resource (as google-native's sources after 0.32.0 have it).
 */
import * as pulumi from '@pulumi/pulumi';
import * as migrationcenter from 'google-native-local';

const location = pulumi.output('us-central1');

const source = new migrationcenter.Source('source', {
  sourceId: 'uploads',
  location,
  project: 'p1',
  displayName: pulumi.output('Uploads'),
  description: 'CSV uploads',
  type: 'SOURCE_TYPE_UPLOAD',
  priority: pulumi.output(7),
  isManaged: false,
  requestId: '3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f8a9b0c',
});

const job = new migrationcenter.ImportJob('job', {
  importJobId: 'inventory',
  assetSource: source.name,
  location,
  labels: { env: pulumi.output('prod') },
});

const dataFile = new migrationcenter.ImportDataFile('data-file', {
  importDataFileId: 'vm-info',
  importJobId: job.importJobId,
  format: 'IMPORT_JOB_FORMAT_MANUAL_CSV',
  displayName: 'vmInfo.csv',
  location,
  project: 'p1',
  requestId: pulumi.output('5d6e7f8a-9b0c-4e7b-a1c2-3f2b8c1e9d4a'),
});

const group = new migrationcenter.Group('group', {
  groupId: 'web',
  displayName: 'Web tier',
  description: pulumi.output('front ends'),
  labels: { tier: pulumi.output('front') },
  location,
});

const preferences = new migrationcenter.PreferenceSet('preferences', {
  preferenceSetId: 'default',
  displayName: 'Default',
  location,
  virtualMachinePreferences: {
    commitmentPlan: 'COMMITMENT_PLAN_ONE_YEAR',
    sizingOptimizationStrategy: pulumi.output('SIZING_OPTIMIZATION_STRATEGY_SAME_AS_SOURCE'),
    targetProduct: 'COMPUTE_MIGRATION_TARGET_PRODUCT_COMPUTE_ENGINE',
    computeEnginePreferences: {
      licenseType: 'LICENSE_TYPE_DEFAULT',
      persistentDiskType: 'PERSISTENT_DISK_TYPE_BALANCED',
      machinePreferences: { allowedMachineSeries: [{ code: 'n2' }, pulumi.output({ code: 'e2' })] },
    },
    regionPreferences: { preferredRegions: ['us-central1', pulumi.output('europe-west1')] },
    soleTenancyPreferences: {
      commitmentPlan: 'ON_DEMAND',
      cpuOvercommitRatio: 1.5,
      hostMaintenancePolicy: 'HOST_MAINTENANCE_POLICY_DEFAULT',
      nodeTypes: [{ nodeName: 'n1' }],
    },
    vmwareEnginePreferences: { commitmentPlan: 'ON_DEMAND', cpuOvercommitRatio: 1, memoryOvercommitRatio: 1, storageDeduplicationCompressionRatio: 1.5 },
  },
});

const config = new migrationcenter.ReportConfig('config', {
  reportConfigId: 'wave-1',
  displayName: 'Wave 1',
  location,
  groupPreferencesetAssignments: [{ group: group.name, preferenceSet: preferences.name }, pulumi.output({ group: 'g', preferenceSet: 'p' })],
});

const report = new migrationcenter.Report('report', {
  reportConfigId: config.reportConfigId,
  reportId: 'first',
  displayName: 'First',
  description: 'the first sizing',
  type: 'TOTAL_COST_OF_OWNERSHIP',
  state: 'PENDING',
  location,
});

const collector = new migrationcenter.DiscoveryClient('collector', {
  discoveryClientId: 'dc-1',
  serviceAccount: 'collector@p1.iam.gserviceaccount.com',
  source: source.name,
  displayName: 'Collector',
  labels: { site: 'east' },
  ttl: pulumi.output('3600s'),
  location,
});

// Outputs, as google-native types them.
const strings: pulumi.Output<string>[] = [
  source.createTime,
  source.description,
  source.displayName,
  source.location,
  source.name,
  source.project,
  source.sourceId,
  source.state,
  source.type,
  source.updateTime,
  dataFile.createTime,
  dataFile.displayName,
  dataFile.format,
  dataFile.importDataFileId,
  dataFile.importJobId,
  dataFile.location,
  dataFile.name,
  dataFile.project,
  dataFile.state,
  dataFile.uploadFileInfo.apply((u) => `${u.signedUri} ${u.uriExpirationTime} ${u.headers['content-type']}`),
  group.createTime,
  group.description,
  group.displayName,
  group.groupId,
  group.location,
  group.name,
  group.project,
  group.updateTime,
  group.labels.apply((l) => l['tier']),
  preferences.createTime,
  preferences.description,
  preferences.displayName,
  preferences.location,
  preferences.name,
  preferences.project,
  preferences.updateTime,
  preferences.virtualMachinePreferences.apply(
    (v) =>
      `${v.commitmentPlan} ${v.targetProduct} ${v.sizingOptimizationStrategy} ${v.computeEnginePreferences.licenseType} ` +
      `${v.computeEnginePreferences.machinePreferences.allowedMachineSeries.map((s) => s.code).join(',')} ${v.regionPreferences.preferredRegions[0]} ` +
      `${v.soleTenancyPreferences.nodeTypes.map((n) => n.nodeName).join(',')} ${v.vmwareEnginePreferences.cpuOvercommitRatio} ` +
      `${v.networkCostParameters.estimatedEgressTrafficPercentage} ${v.sizingOptimizationCustomParameters.aggregationMethod}`,
  ),
  config.createTime,
  config.description,
  config.displayName,
  config.location,
  config.name,
  config.project,
  config.reportConfigId,
  config.updateTime,
  config.groupPreferencesetAssignments.apply((as) => as.map((a) => `${a.group}=${a.preferenceSet}`).join(',')),
  report.createTime,
  report.description,
  report.displayName,
  report.location,
  report.name,
  report.project,
  report.reportConfigId,
  report.reportId,
  report.state,
  report.type,
  report.updateTime,
  report.summary.apply((s) => s.allAssetsStats.totalAssets + s.allAssetsStats.totalMemoryBytes),
  collector.createTime,
  collector.description,
  collector.discoveryClientId,
  collector.displayName,
  collector.expireTime,
  collector.heartbeatTime,
  collector.location,
  collector.name,
  collector.project,
  collector.serviceAccount,
  collector.signalsEndpoint,
  collector.source,
  collector.state,
  collector.ttl,
  collector.updateTime,
  collector.version,
  collector.errors.apply((es) => es.map((e) => `${e.code} ${e.message} ${e.details.length}`).join(',')),
];
const numbers: pulumi.Output<number>[] = [source.priority, source.errorFrameCount, source.pendingFrameCount];
const managed: pulumi.Output<boolean> = source.isManaged;
const requestIds: pulumi.Output<string | undefined>[] = [
  source.requestId,
  dataFile.requestId,
  group.requestId,
  preferences.requestId,
  config.requestId,
  report.requestId,
  collector.requestId,
];
const preferenceSetId: pulumi.Output<string | undefined> = preferences.preferenceSetId;
const findings: pulumi.Output<string[]> = report.summary.apply((s) =>
  s.groupFindings.flatMap((g) =>
    g.preferenceSetFindings.map(
      (f) =>
        `${g.displayName} ${g.overlappingAssetCount} ${g.assetAggregateStats.coreCountHistogram.buckets.length} ${f.displayName} ` +
        `${f.monthlyCostTotal.units}.${f.monthlyCostTotal.nanos} ${f.monthlyCostTotal.currencyCode} ${f.machineFinding.allocatedAssetCount} ` +
        `${f.machineFinding.machineSeriesAllocations.map((a) => a.machineSeries.code).join(',')} ${f.soleTenantFinding.nodeAllocations.length} ` +
        `${f.vmwareEngineFinding.nodeAllocations.map((a) => a.vmwareNode.code).join(',')} ${f.preferredRegion} ${f.machinePreferences.commitmentPlan}`,
    ),
  ),
);

// Adopting by id.
const adopted = [
  migrationcenter.Source.get('s', 'projects/p1/locations/us-central1/sources/uploads'),
  migrationcenter.ImportDataFile.get('f', 'projects/p1/locations/us-central1/importJobs/inventory/importDataFiles/vm-info'),
  migrationcenter.Group.get('g', 'projects/p1/locations/us-central1/groups/web'),
  migrationcenter.PreferenceSet.get('p', 'projects/p1/locations/us-central1/preferenceSets/default'),
  migrationcenter.ReportConfig.get('c', 'projects/p1/locations/us-central1/reportConfigs/wave-1'),
  migrationcenter.Report.get('r', 'projects/p1/locations/us-central1/reportConfigs/wave-1/reports/first'),
  migrationcenter.DiscoveryClient.get('d', 'projects/p1/locations/us-central1/discoveryClients/dc-1'),
].map((r) => r.name);

// Read functions: plain async functions and their Output variants.
async function reads(): Promise<string[]> {
  const g: migrationcenter.GetGroupResult = await migrationcenter.getGroup({ groupId: 'web', location: 'us-central1', project: 'p1' });
  const p: migrationcenter.GetPreferenceSetResult = await migrationcenter.getPreferenceSet({ preferenceSetId: 'default', location: 'us-central1' });
  const c: migrationcenter.GetReportConfigResult = await migrationcenter.getReportConfig({ reportConfigId: 'wave-1', location: 'us-central1' });
  const r: migrationcenter.GetReportResult = await migrationcenter.getReport({
    reportConfigId: 'wave-1',
    reportId: 'first',
    location: 'us-central1',
    project: 'p1',
    view: 'REPORT_VIEW_FULL',
  });
  const d: migrationcenter.GetDiscoveryClientResult = await migrationcenter.getDiscoveryClient({ discoveryClientId: 'dc-1', location: 'us-central1' });
  const f: migrationcenter.GetImportDataFileResult = await migrationcenter.getImportDataFile({
    importDataFileId: 'vm-info',
    importJobId: 'inventory',
    location: 'us-central1',
  });
  const s: migrationcenter.GetSourceResult = await migrationcenter.getSource({ sourceId: 'uploads', location: 'us-central1' });
  return [
    g.name,
    g.createTime,
    g.description,
    g.displayName,
    g.updateTime,
    g.labels['tier'],
    p.name,
    p.virtualMachinePreferences.commitmentPlan,
    p.virtualMachinePreferences.computeEnginePreferences.persistentDiskType,
    c.groupPreferencesetAssignments.map((a) => a.group).join(','),
    c.displayName,
    r.state,
    r.type,
    r.summary.allAssetsStats.totalCores,
    r.summary.groupFindings.map((x) => x.displayName).join(','),
    d.state,
    d.source,
    d.serviceAccount,
    d.expireTime,
    d.errors.map((e) => e.message).join(','),
    d.labels['site'],
    f.state,
    f.format,
    f.uploadFileInfo.signedUri,
    f.displayName,
    String(s.errorFrameCount + s.pendingFrameCount + s.priority),
    String(s.isManaged),
  ];
}

const outputs: pulumi.Output<string>[] = [
  migrationcenter.getGroupOutput({ groupId: group.groupId, location }).apply((g) => g.name),
  migrationcenter.getPreferenceSetOutput({ preferenceSetId: pulumi.output('default'), location, project: 'p1' }).apply((p) => p.displayName),
  migrationcenter.getReportConfigOutput({ reportConfigId: config.reportConfigId, location }).apply((c) => c.name),
  migrationcenter
    .getReportOutput({ reportConfigId: 'wave-1', reportId: report.reportId, location, view: pulumi.output('REPORT_VIEW_BASIC') })
    .apply((r) => r.state),
  migrationcenter.getDiscoveryClientOutput({ discoveryClientId: collector.discoveryClientId, location }).apply((d) => d.heartbeatTime),
  migrationcenter
    .getImportDataFileOutput({ importDataFileId: dataFile.importDataFileId, importJobId: job.importJobId, location })
    .apply((f) => f.uploadFileInfo.uriExpirationTime),
];
const argTypes: [migrationcenter.GetGroupOutputArgs, migrationcenter.GetReportArgs, migrationcenter.GetImportDataFileOutputArgs] = [
  { groupId: pulumi.output('web'), location: 'us-central1' },
  { reportConfigId: 'wave-1', reportId: 'first', location: 'us-central1' },
  { importDataFileId: 'vm-info', importJobId: job.importJobId, location },
];

export { strings, numbers, managed, requestIds, preferenceSetId, findings, adopted, reads, outputs, argTypes };
