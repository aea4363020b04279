/**
 * The API versions Migration Center is served in, as data: what a version calls things on the wire
 * where it differs from the stored shape. Both versions are views of one service (one domain, one
 * store): a job created through v1 is read through v1alpha1 and the reverse. The store keeps the
 * v1alpha1 shape (the one the domain and its schemas are written in); a version's differences are
 * translated at its edge (version-translation.ts) from the tables below, so that no family does
 * anything version-specific beyond declaring, here, what its messages lack or rename.
 *
 * The tables were drawn field by field from Google's clients (googleapis@188
 * `apis/migrationcenter/v1.d.ts` against `v1alpha1.d.ts`); tests/backend-emulator/migrationcenter/
 * wire-version.test.ts checks every dropped and renamed field against those files again.
 */
import { TYPE_PREFIX } from './names';
import { V1_MACHINE_MESSAGES } from './machine-details';

/** How one message of the stored (v1alpha1) shape differs in a version. */
export interface MessageDifference {
  /** Fields the version's message does not have: refused in requests as unknown, left out of answers. */
  readonly lacks?: readonly string[];
  /** Fields the version spells differently: stored name -> the version's name. */
  readonly renames?: Readonly<Record<string, string>>;
  /** Enum fields whose values differ, by field. */
  readonly enums?: Readonly<Record<string, EnumDifference>>;
  /** Message-typed fields (or lists of messages) whose message differs too: field -> message name (a key of `messages`). */
  readonly children?: Readonly<Record<string, string>>;
  /**
   * Fields whose place in the version is elsewhere: stored name -> the version's dotted path, into a
   * message field (v1alpha1's flat `osFamily` is v1's `guestOs.family`) or onto a field of another
   * name the stored message also has (`DiskEntry.totalCapacityBytes` is v1's `capacityBytes`, a
   * name v1alpha1 has too). Out, a moved value fills its path only where nothing is there yet (the
   * first move to a path wins); in, the path's value is read back into the stored field.
   */
  readonly moves?: Readonly<Record<string, string>>;
  /**
   * Every field of the version's message, when it is another message than the stored one (`stored`):
   * a name outside the list is refused in requests, as Google's parser refuses an unknown name.
   */
  readonly fields?: readonly string[];
  /** The stored (v1alpha1) message this one is read from, when it has another name (v1's MachineDetails is VirtualMachineDetails). */
  readonly stored?: string;
  /**
   * String fields holding a field path of another message, by field: the path is written in the
   * version's names (an ErrorFrame violation's `field` names a field of the frame, an AssetFrame).
   */
  readonly paths?: Readonly<Record<string, string>>;
}

/** How one enum field's values differ in a version. */
export interface EnumDifference {
  /** The enum's name (`ImportJobFormat`), for error texts. */
  readonly type: string;
  /** Values the version spells differently: stored value -> the version's value. */
  readonly renames?: Readonly<Record<string, string>>;
  /** Values the version does not have (refused in requests; answered as the unspecified value, that is, left out). */
  readonly lacks?: readonly string[];
  /**
   * Every value of the version's enum, in proto number order from its zero, when the stored field is a free string
   * (v1alpha1's `powerState`): a value neither renamed nor listed is refused in requests and left
   * out of answers; the zero is read as the field unset, and a number as the value it numbers.
   * Several stored values may have one name in the version (`poweredOff` and `suspended` are both
   * `SUSPENDED`): read back, the name is the first of them.
   */
  readonly values?: readonly string[];
}

/**
 * The stored values a version's enum value stands for (`SUSPENDED`: `poweredOff`, `suspended`; a
 * value spelled alike: itself), none for the enum's zero (the field unset), or undefined when the
 * version has no such value (spelled otherwise there, lacked, or not among its `values`). Requests
 * read through it, and so do the asset lists' filters.
 */
export function storedEnumValues(enumDiff: EnumDifference, value: string): readonly string[] | undefined {
  const renamedFrom = Object.entries(enumDiff.renames ?? {})
    .filter(([, wire]) => wire === value)
    .map(([stored]) => stored);
  if (renamedFrom.length > 0) return renamedFrom;
  const spelledOtherwise = Object.hasOwn(enumDiff.renames ?? {}, value);
  const unknown = enumDiff.values !== undefined && !enumDiff.values.includes(value);
  if (spelledOtherwise || unknown || (enumDiff.lacks ?? []).includes(value)) return undefined;
  return value === enumDiff.values?.[0] ? [] : [value];
}

export interface WireVersion {
  /** `v1alpha1`, `v1`: the first path segment, and Operation metadata's `apiVersion`. */
  readonly version: string;
  /** `/v1alpha1`: where the version's routes start. */
  readonly base: string;
  /** `type.googleapis.com/google.cloud.migrationcenter.v1.`: the prefix of the version's `@type`s. */
  readonly typePrefix: string;
  /** Messages that differ from the stored shape, by message name (the `@type`'s last part). */
  readonly messages: Readonly<Record<string, MessageDifference>>;
  /** Families the version does not have at all (v1 has no report export jobs): no route is declared for them. */
  readonly lacksFamilies?: readonly string[];
  /**
   * The message of a resource by its collection (the name's second-to-last segment), so that a
   * resource found anywhere in an answer (a get, a list, an Operation's response) is translated,
   * and a request body is read as its collection's message.
   */
  readonly collections: Readonly<Record<string, { message: string; protoName: string }>>;
  /**
   * The message of a custom verb's request body where the body is one field of the request (a
   * message that may differ in the version), by verb: `assets:reportAssetFrames` sends `Frames`.
   * A verb not listed sends its request message itself, which no version changes.
   */
  readonly verbBodies: Readonly<Record<string, { message: string; protoName: string }>>;
}

/**
 * What every version calls a collection's message (the same in both versions), for the families
 * built and those to come: a family whose messages differ in v1 adds its rows to V1.messages.
 */
const COLLECTIONS = {
  importJobs: { message: 'ImportJob', protoName: 'import_job' },
  importDataFiles: { message: 'ImportDataFile', protoName: 'import_data_file' },
  sources: { message: 'Source', protoName: 'source' },
  assets: { message: 'Asset', protoName: 'asset' },
  groups: { message: 'Group', protoName: 'group' },
  preferenceSets: { message: 'PreferenceSet', protoName: 'preference_set' },
  reportConfigs: { message: 'ReportConfig', protoName: 'report_config' },
  reports: { message: 'Report', protoName: 'report' },
  discoveryClients: { message: 'DiscoveryClient', protoName: 'discovery_client' },
  errorFrames: { message: 'ErrorFrame', protoName: 'error_frame' },
  relations: { message: 'Relation', protoName: 'relation' },
  assetsExportJobs: { message: 'AssetsExportJob', protoName: 'assets_export_job' },
} as const;

/** Custom verbs whose body is a message a version may change (reportAssetFrames' `body: "frames"`). */
const VERB_BODIES = {
  reportAssetFrames: { message: 'Frames', protoName: 'frames' },
} as const;

/** The stored shape: nothing to translate. */
export const V1ALPHA1: WireVersion = {
  version: 'v1alpha1',
  base: '/v1alpha1',
  typePrefix: TYPE_PREFIX,
  messages: {},
  collections: COLLECTIONS,
  verbBodies: VERB_BODIES,
};

/**
 * The details of an asset (and of an asset frame) v1 does not have; its own are `machineDetails`
 * (the stored `virtualMachineDetails`, machine-details.ts) and the database ones.
 */
const V1_ASSET_LACKS = [
  'structuredAttributes',
  'hostingProviderDetails',
  'awsApiGatewayRestApiDetails',
  'awsApplicationLoadBalancerDetails',
  'awsAppSyncGraphqlApiDetails',
  'awsAthenaWorkGroupDetails',
  'awsAutoscalingGroupDetails',
  'awsBatchComputeEnvironmentDetails',
  'awsCloudFrontDistributionDetails',
  'awsDynamodbTableDetails',
  'awsEbsVolumeDetails',
  'awsEcrRepositoryDetails',
  'awsEcsClusterDetails',
  'awsEfsFileSystemDetails',
  'awsEksClusterDetails',
  'awsElasticacheClusterDetails',
  'awsElasticIpAddressDetails',
  'awsElasticNetworkInterfaceDetails',
  'awsElbLoadBalancerDetails',
  'awsEmrClusterDetails',
  'awsFirehoseDetails',
  'awsGlueJobDetails',
  'awsInternetGatewayDetails',
  'awsKinesisStreamDetails',
  'awsLambdaFunctionDetails',
  'awsNatGatewayDetails',
  'awsRedshiftDetails',
  'awsRoute53HostedZoneDetails',
  'awsS3BucketDetails',
  'awsSnsTopicDetails',
  'awsVpcDetails',
];

/** An Asset (and an AssetFrame) in v1: its machine is `machineDetails`. */
const V1_ASSET: MessageDifference = {
  lacks: V1_ASSET_LACKS,
  renames: { virtualMachineDetails: 'machineDetails' },
  children: { virtualMachineDetails: 'MachineDetails', insightList: 'InsightList' },
};

const V1_TYPE_PREFIX = 'type.googleapis.com/google.cloud.migrationcenter.v1.';

/**
 * Migration Center v1 (GA). Its ImportJob has no payload fields (data comes only through import
 * data files); its ImportJobFormat spells the manual CSV `IMPORT_JOB_FORMAT_STRATOZONE_CSV` and
 * has no CMDB (fidelity-facts: "v1 renames MANUAL_CSV to _STRATOZONE_CSV and drops CMDB"; the
 * numbers stay: 6 and a reserved 3). Source's `isManaged` is `managed`. Asset's machine details
 * are `machineDetails` in v1, a message of another shape: the stored `virtualMachineDetails` (the
 * details the emulator's imports write) is read and written as one through machine-details.ts.
 */
export const V1: WireVersion = {
  version: 'v1',
  lacksFamilies: ['reportExportJobs'],
  base: '/v1',
  typePrefix: V1_TYPE_PREFIX,
  collections: COLLECTIONS,
  verbBodies: VERB_BODIES,
  messages: {
    ImportJob: { lacks: ['inlinePayload', 'gcsPayload'], children: { executionReport: 'ExecutionReport' } },
    ExecutionReport: { lacks: ['jobErrors'] },
    ImportDataFile: {
      enums: {
        format: { type: 'ImportJobFormat', renames: { IMPORT_JOB_FORMAT_MANUAL_CSV: 'IMPORT_JOB_FORMAT_STRATOZONE_CSV' }, lacks: ['IMPORT_JOB_FORMAT_CMDB'] },
      },
    },
    Source: { renames: { isManaged: 'managed' } },
    DiscoveryClient: { lacks: ['recommendedVersions'] },
    PreferenceSet: { lacks: ['databasePreferences', 'regionPreferences'], children: { virtualMachinePreferences: 'VirtualMachinePreferences' } },
    VirtualMachinePreferences: {
      lacks: ['estimatedUsage', 'networkCostParameters', 'sizingOptimizationCustomParameters'],
      children: {
        computeEnginePreferences: 'ComputeEnginePreferences',
        soleTenancyPreferences: 'SoleTenancyPreferences',
        vmwareEnginePreferences: 'VmwareEnginePreferences',
      },
    },
    ComputeEnginePreferences: { lacks: ['multithreading', 'osPricingPreferences'] },
    SoleTenancyPreferences: { lacks: ['osPricingPreferences'] },
    VmwareEnginePreferences: { lacks: ['licenseDiscountPercentage', 'machinePreferences', 'serviceType'] },
    Report: { children: { summary: 'ReportSummary' } },
    ReportSummary: {
      lacks: ['databaseStats', 'virtualMachineStats'],
      children: { allAssetsStats: 'ReportSummaryAssetAggregateStats', groupFindings: 'ReportSummaryGroupFinding' },
    },
    ReportSummaryAssetAggregateStats: { lacks: ['assetAge', 'databaseTypes', 'estimatedUsageStats', 'memoryUtilization', 'storageUtilization'] },
    ReportSummaryGroupFinding: {
      lacks: ['assetType', 'databaseType', 'group'],
      children: { assetAggregateStats: 'ReportSummaryAssetAggregateStats', preferenceSetFindings: 'ReportSummaryGroupPreferenceSetFinding' },
    },
    ReportSummaryGroupPreferenceSetFinding: {
      lacks: [
        'databaseFinding',
        'machineFinding',
        'monthlyCostDatabaseBackup',
        'monthlyCostDatabaseLicensing',
        'monthlyCostGcveProtected',
        'monthlyCostPortableVmwareLicense',
        'preferenceSet',
        'preferredRegion',
        'pricingTrack',
        'topPriority',
      ],
      children: { machinePreferences: 'VirtualMachinePreferences' },
    },
    Settings: { lacks: ['customerConsentForGoogleSalesToAccessMigrationCenter'] },
    // v1alpha1's revision 140 gives network dependency exports a maxDays; v1's never had it.
    AssetsExportJob: { children: { networkDependencies: 'AssetsExportJobNetworkDependencies' } },
    AssetsExportJobNetworkDependencies: { lacks: ['maxDays'] },
    // batchUpdate's assets are v1's Asset too (what v1 lacks is refused in them as in a patch's).
    BatchUpdateAssetsRequest: { children: { requests: 'UpdateAssetRequest' } },
    UpdateAssetRequest: { children: { asset: 'Asset' } },
    InsightList: { children: { insights: 'Insight' } },
    Insight: { lacks: ['softwareInsight'], children: { migrationInsight: 'MigrationInsight' } },
    MigrationInsight: { lacks: ['cloudDatabaseTarget', 'computeEngineSoleTenantTarget', 'gkeTarget', 'issues', 'vmwareEngineTarget'] },
    Asset: V1_ASSET,
    // An asset frame carries the same details an asset does: v1 lacks the same ones, in what a
    // collector reports (refused as unknown names) and in the error frames that echo it; its
    // machineDetails are stored as the machine a v1alpha1 frame's virtualMachineDetails would be.
    AssetFrame: { ...V1_ASSET, children: { virtualMachineDetails: 'MachineDetails' } },
    Frames: { children: { framesData: 'AssetFrame' } },
    // A violation names the frame's field in the version's names (`machineDetails.uuid`).
    ErrorFrame: { children: { originalFrame: 'AssetFrame', violations: 'FrameViolationEntry' } },
    FrameViolationEntry: { paths: { field: 'AssetFrame' } },
    ...V1_MACHINE_MESSAGES,
  },
};

/** Every version the service is served in, the stored one first. */
export const WIRE_VERSIONS: readonly WireVersion[] = [V1ALPHA1, V1];
