/**
 * Output types of the Migration Center resources and read functions beyond ImportJob's, with
 * `@pulumi/google-native` 0.32.0's names and shapes (`outputs.migrationcenter.v1alpha1.*Response`),
 * so code that reads them compiles against this package unchanged. int64 fields are strings, as
 * on the wire (ProtoJSON); enums are their names.
 */

export interface ReportConfigGroupPreferenceSetAssignmentResponse {
  group: string;
  preferenceSet: string;
}

/** A `google.rpc.Status`: one error of a discovery client. */
export interface StatusResponse {
  code: number;
  details: { [key: string]: string }[];
  message: string;
}

/** Where an import data file's bytes go: a PUT of them to `signedUri` with `headers`. */
export interface UploadFileInfoResponse {
  headers: { [key: string]: string };
  signedUri: string;
  uriExpirationTime: string;
}

// ------------------------------------------------------------------ preferences

export interface MachineSeriesResponse {
  code: string;
}

export interface MachinePreferencesResponse {
  allowedMachineSeries: MachineSeriesResponse[];
}

export interface ComputeEnginePreferencesResponse {
  licenseType: string;
  machinePreferences: MachinePreferencesResponse;
  persistentDiskType: string;
}

export interface RegionPreferencesResponse {
  preferredRegions: string[];
}

export interface SoleTenantNodeTypeResponse {
  nodeName: string;
}

export interface SoleTenancyPreferencesResponse {
  commitmentPlan: string;
  cpuOvercommitRatio: number;
  hostMaintenancePolicy: string;
  nodeTypes: SoleTenantNodeTypeResponse[];
}

export interface VmwareEnginePreferencesResponse {
  commitmentPlan: string;
  cpuOvercommitRatio: number;
  memoryOvercommitRatio: number;
  storageDeduplicationCompressionRatio: number;
}

export interface VirtualMachinePreferencesNetworkCostParametersResponse {
  estimatedEgressTrafficPercentage: number;
}

export interface VirtualMachinePreferencesSizingOptimizationCustomParametersResponse {
  aggregationMethod: string;
  cpuUsagePercentage: number;
  memoryUsagePercentage: number;
  storageMultiplier: number;
}

export interface VirtualMachinePreferencesResponse {
  commitmentPlan: string;
  computeEnginePreferences: ComputeEnginePreferencesResponse;
  networkCostParameters: VirtualMachinePreferencesNetworkCostParametersResponse;
  regionPreferences: RegionPreferencesResponse;
  sizingOptimizationCustomParameters: VirtualMachinePreferencesSizingOptimizationCustomParametersResponse;
  sizingOptimizationStrategy: string;
  soleTenancyPreferences: SoleTenancyPreferencesResponse;
  targetProduct: string;
  vmwareEnginePreferences: VmwareEnginePreferencesResponse;
}

// ------------------------------------------------------------------ report summary

export interface MoneyResponse {
  currencyCode: string;
  nanos: number;
  units: string;
}

export interface ReportSummaryChartDataDataPointResponse {
  label: string;
  value: number;
}

export interface ReportSummaryChartDataResponse {
  dataPoints: ReportSummaryChartDataDataPointResponse[];
}

export interface ReportSummaryHistogramChartDataBucketResponse {
  count: string;
  lowerBound: string;
  upperBound: string;
}

export interface ReportSummaryHistogramChartDataResponse {
  buckets: ReportSummaryHistogramChartDataBucketResponse[];
}

export interface ReportSummaryUtilizationChartDataResponse {
  free: string;
  used: string;
}

export interface ReportSummaryAssetAggregateStatsResponse {
  assetAge: ReportSummaryChartDataResponse;
  coreCountHistogram: ReportSummaryHistogramChartDataResponse;
  memoryBytesHistogram: ReportSummaryHistogramChartDataResponse;
  memoryUtilization: ReportSummaryChartDataResponse;
  memoryUtilizationChart: ReportSummaryUtilizationChartDataResponse;
  operatingSystem: ReportSummaryChartDataResponse;
  storageBytesHistogram: ReportSummaryHistogramChartDataResponse;
  storageUtilization: ReportSummaryChartDataResponse;
  storageUtilizationChart: ReportSummaryUtilizationChartDataResponse;
  totalAssets: string;
  totalCores: string;
  totalMemoryBytes: string;
  totalStorageBytes: string;
}

export interface ReportSummaryMachineSeriesAllocationResponse {
  allocatedAssetCount: string;
  machineSeries: MachineSeriesResponse;
}

export interface ReportSummaryMachineFindingResponse {
  allocatedAssetCount: string;
  allocatedDiskTypes: string[];
  allocatedRegions: string[];
  machineSeriesAllocations: ReportSummaryMachineSeriesAllocationResponse[];
}

export interface ReportSummarySoleTenantNodeAllocationResponse {
  allocatedAssetCount: string;
  node: SoleTenantNodeTypeResponse;
  nodeCount: string;
}

export interface ReportSummarySoleTenantFindingResponse {
  allocatedAssetCount: string;
  allocatedRegions: string[];
  nodeAllocations: ReportSummarySoleTenantNodeAllocationResponse[];
}

export interface ReportSummaryVMWareNodeResponse {
  code: string;
}

export interface ReportSummaryVMWareNodeAllocationResponse {
  allocatedAssetCount: string;
  nodeCount: string;
  vmwareNode: ReportSummaryVMWareNodeResponse;
}

export interface ReportSummaryVMWareEngineFindingResponse {
  allocatedAssetCount: string;
  allocatedRegions: string[];
  nodeAllocations: ReportSummaryVMWareNodeAllocationResponse[];
}

export interface ReportSummaryGroupPreferenceSetFindingResponse {
  description: string;
  displayName: string;
  machineFinding: ReportSummaryMachineFindingResponse;
  machinePreferences: VirtualMachinePreferencesResponse;
  monthlyCostCompute: MoneyResponse;
  monthlyCostNetworkEgress: MoneyResponse;
  monthlyCostOsLicense: MoneyResponse;
  monthlyCostOther: MoneyResponse;
  monthlyCostStorage: MoneyResponse;
  monthlyCostTotal: MoneyResponse;
  preferredRegion: string;
  pricingTrack: string;
  soleTenantFinding: ReportSummarySoleTenantFindingResponse;
  topPriority: string;
  vmwareEngineFinding: ReportSummaryVMWareEngineFindingResponse;
}

export interface ReportSummaryGroupFindingResponse {
  assetAggregateStats: ReportSummaryAssetAggregateStatsResponse;
  description: string;
  displayName: string;
  overlappingAssetCount: string;
  preferenceSetFindings: ReportSummaryGroupPreferenceSetFindingResponse[];
}

export interface ReportSummaryResponse {
  allAssetsStats: ReportSummaryAssetAggregateStatsResponse;
  groupFindings: ReportSummaryGroupFindingResponse[];
}
