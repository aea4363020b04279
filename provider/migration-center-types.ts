/**
 * Arguments of the Migration Center resources beyond ImportJob and Source, with
 * `@pulumi/google-native` 0.32.0's names and shapes (`migrationcenter/v1alpha1`).
 */
import type * as pulumi from '@pulumi/pulumi';

/** The fields every Migration Center resource's arguments share. */
interface PlacedArgs {
  description?: pulumi.Input<string>;
  displayName?: pulumi.Input<string>;
  location?: pulumi.Input<string>;
  project?: pulumi.Input<string>;
  /** A UUID: Google does a retried create once. */
  requestId?: pulumi.Input<string>;
}

export interface GroupArgs extends PlacedArgs {
  /**
   * This package's: an AIP-160 filter over the location's assets (as `assets.list` takes it); the
   * group's members are the assets it selects when Pulumi applies the group. Not with `assets`.
   */
  assetFilter?: pulumi.Input<string>;
  /**
   * This package's: the group's members, exactly: asset ids (`vm-web-1`) or full asset names of the
   * group's location. Not with `assetFilter`; without either, the members are left alone.
   */
  assets?: pulumi.Input<pulumi.Input<string>[]>;
  /** Required. User specified ID for the group. */
  groupId: pulumi.Input<string>;
  labels?: pulumi.Input<{ [key: string]: pulumi.Input<string> }>;
}

export interface ReportConfigGroupPreferenceSetAssignmentArgs {
  /** `projects/{project}/locations/{location}/groups/{groupId}`. */
  group: pulumi.Input<string>;
  /** `projects/{project}/locations/{location}/preferenceSets/{preferenceSetId}`. */
  preferenceSet: pulumi.Input<string>;
}

export interface ReportConfigArgs extends PlacedArgs {
  groupPreferencesetAssignments: pulumi.Input<pulumi.Input<ReportConfigGroupPreferenceSetAssignmentArgs>[]>;
  reportConfigId: pulumi.Input<string>;
}

export type ReportType = 'TYPE_UNSPECIFIED' | 'TOTAL_COST_OF_OWNERSHIP';
export type ReportState = 'STATE_UNSPECIFIED' | 'PENDING' | 'SUCCEEDED' | 'FAILED';

export interface ReportArgs extends PlacedArgs {
  reportConfigId: pulumi.Input<string>;
  reportId: pulumi.Input<string>;
  /** Computed by the service; accepted for google-native's shape and not sent. */
  state?: pulumi.Input<ReportState>;
  type?: pulumi.Input<ReportType>;
}

export interface DiscoveryClientArgs extends PlacedArgs {
  discoveryClientId: pulumi.Input<string>;
  /** RFC 3339; not with `ttl`. */
  expireTime?: pulumi.Input<string>;
  labels?: pulumi.Input<{ [key: string]: pulumi.Input<string> }>;
  serviceAccount: pulumi.Input<string>;
  /** `projects/{project}/locations/{location}/sources/{sourceId}`; a change replaces the client. */
  source: pulumi.Input<string>;
  /** A duration such as `3600s`; not with `expireTime`. */
  ttl?: pulumi.Input<string>;
}

export interface ImportDataFileArgs extends Omit<PlacedArgs, 'description'> {
  /** Google's format (`IMPORT_JOB_FORMAT_RVTOOLS_XLSX`, ...) or the resource reference's spelling. */
  format: pulumi.Input<string>;
  importDataFileId: pulumi.Input<string>;
  importJobId: pulumi.Input<string>;
  /**
   * This package's: the local file whose bytes are uploaded (a change of its content replaces the
   * data file). Without it, as in google-native, the data file is only created: PUT its bytes to
   * the output `uploadFileInfo.signedUri`.
   */
  path?: pulumi.Input<string>;
  /** Output only on Google; google-native's arguments have it. Accepted and never sent. */
  uploadFileInfo?: pulumi.Input<{
    headers?: pulumi.Input<{ [key: string]: pulumi.Input<string> }>;
    signedUri?: pulumi.Input<string>;
    uriExpirationTime?: pulumi.Input<string>;
  }>;
}

/**
 * `virtualMachinePreferences` of a PreferenceSet, as Google's message has it (the JSON Schema
 * `PreferenceSet.json` holds every field and enum value).
 */
export interface VirtualMachinePreferencesArgs {
  commitmentPlan?: pulumi.Input<string>;
  computeEnginePreferences?: pulumi.Input<{
    licenseType?: pulumi.Input<string>;
    machinePreferences?: pulumi.Input<{ allowedMachineSeries?: pulumi.Input<pulumi.Input<{ code?: pulumi.Input<string> }>[]> }>;
    persistentDiskType?: pulumi.Input<string>;
  }>;
  regionPreferences?: pulumi.Input<{ preferredRegions?: pulumi.Input<pulumi.Input<string>[]> }>;
  sizingOptimizationStrategy?: pulumi.Input<string>;
  soleTenancyPreferences?: pulumi.Input<Record<string, unknown>>;
  targetProduct?: pulumi.Input<string>;
  vmwareEnginePreferences?: pulumi.Input<Record<string, unknown>>;
  [field: string]: unknown;
}

export interface PreferenceSetArgs extends PlacedArgs {
  /** Google's create requires it (google-native's types leave it optional; check() says so at preview). */
  preferenceSetId?: pulumi.Input<string>;
  virtualMachinePreferences?: pulumi.Input<VirtualMachinePreferencesArgs>;
}
