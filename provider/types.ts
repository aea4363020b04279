/**
 * Public argument and output types. They mirror `@pulumi/google-native` 0.32.0's names and
 * `pulumi.Input` / `pulumi.Output` shapes, so code written for its two classes compiles against
 * ours unchanged; the reference's neutral spellings are accepted beside the vendor ones.
 */
import type * as pulumi from '@pulumi/pulumi';
import type { ExecutionReport, FileValidationReport, ImportError, ImportRowError } from '../backend-emulator/import-engine/report';
import type { ReferenceFormat } from '../schemas/aliases';
import type { WireImportJobFormat } from '../schemas/import-job-formats';

/**
 * Both spellings of every format: the real API's (sent on the wire; schemas/import-job-formats.ts)
 * and the reference's (schemas/aliases.ts), which the provider translates before sending.
 */
export type ImportJobFormat = WireImportJobFormat | ReferenceFormat;

export interface ConditionArgs {
  /** Textual representation of an expression in Common Expression Language syntax. */
  expression?: pulumi.Input<string>;
  /** Title for the expression, i.e. a short string describing its purpose. */
  title?: pulumi.Input<string>;
  /** Description of the expression. */
  description?: pulumi.Input<string>;
  /** Location of the expression for error reporting. */
  location?: pulumi.Input<string>;
}

export interface ConditionResponse {
  expression: string;
  title: string;
  description: string;
  location: string;
}

export interface EndpointPolicyIamBindingArgs {
  /** An IAM Condition for a given binding. */
  condition?: pulumi.Input<ConditionArgs>;
  /** Identities granted `role`: `user:{email}`, `serviceAccount:{email}`, `group:{email}`, `domain:{domain}`, ... */
  members: pulumi.Input<pulumi.Input<string>[]>;
  /** The endpoint policy: `projects/{project}/locations/{location}/endpointPolicies/{id}`. */
  name: pulumi.Input<string>;
  /** The role that should be applied. Only one binding can be used per role (and condition). */
  role: pulumi.Input<string>;
}

export interface GCSPayloadInfoArgs {
  format?: pulumi.Input<ImportJobFormat>;
  /** `gs://{bucket}/{object}` or `gs://{bucket}/{prefix}/`. */
  path?: pulumi.Input<string>;
}

/** The reference's name for `GCSPayloadInfoArgs`. */
export type StoragePayloadInfoArgs = GCSPayloadInfoArgs;

export interface PayloadFileArgs {
  /** The file data, base64-encoded (the API's `bytes`). */
  data?: pulumi.Input<string>;
  /** The file name. */
  name?: pulumi.Input<string>;
}

export interface InlinePayloadInfoArgs {
  format?: pulumi.Input<ImportJobFormat>;
  payload?: pulumi.Input<pulumi.Input<PayloadFileArgs>[]>;
}

/** A local file of an ImportJob's `files` (a provider argument: see ImportJobArgs.files). */
export interface LocalDataFileArgs {
  /** The file's path, absolute or relative to the Pulumi program's folder; its name is the data file's display name. */
  path: pulumi.Input<string>;
}

export interface LocalDataFileResponse {
  path: string;
  /** The hex sha256 of the bytes uploaded. */
  sha256: string;
  size: number;
}

export interface ImportJobArgs {
  /** Required. Reference to an existing source: `projects/{project}/locations/{location}/sources/{source}` (a `Source` resource's `name`). */
  assetSource: pulumi.Input<string>;
  /** User-friendly display name. Maximum length is 63 characters. */
  displayName?: pulumi.Input<string>;
  /** The payload is in Google Cloud Storage (the real API's name). */
  gcsPayload?: pulumi.Input<GCSPayloadInfoArgs>;
  /** The payload is in object storage (the reference's name for `gcsPayload`). */
  storagePayload?: pulumi.Input<StoragePayloadInfoArgs>;
  /**
   * Local files to import, each uploaded as an import data file of the job (provider argument; at
   * most one of `files`, `gcsPayload` and `inlinePayload`). A changed file replaces the job.
   */
  files?: pulumi.Input<pulumi.Input<LocalDataFileArgs>[]>;
  /** The format of every file in `files`, given once (required with `files`). */
  format?: pulumi.Input<ImportJobFormat>;
  /** Required. ID of the import job. */
  importJobId: pulumi.Input<string>;
  /** The payload is included in the request, mainly used for small import jobs. */
  inlinePayload?: pulumi.Input<InlinePayloadInfoArgs>;
  /** Labels as key value pairs. */
  labels?: pulumi.Input<{ [key: string]: pulumi.Input<string> }>;
  location?: pulumi.Input<string>;
  project?: pulumi.Input<string>;
  /** Makes create idempotent: a UUID other than all zeros; generated and kept in state when absent. */
  requestId?: pulumi.Input<string>;
}

// The report outputs: the fields of the engine's report types (backend-emulator/import-engine/report.ts,
// the one definition of the wire shape), in google-native's output shape (every field present,
// `severity` a plain string). Picked, not copied, so a renamed or retyped field fails to compile here.

export interface ImportErrorResponse extends Pick<ImportError, 'errorDetails'> {
  severity: string;
}

export interface ImportRowErrorResponse extends Pick<ImportRowError, 'rowNumber' | 'vmName' | 'vmUuid'> {
  errors: ImportErrorResponse[];
}

export interface FileValidationReportResponse extends Pick<FileValidationReport, 'fileName' | 'partialReport'> {
  fileErrors: ImportErrorResponse[];
  rowErrors: ImportRowErrorResponse[];
}

export interface ValidationReportResponse {
  fileValidations: FileValidationReportResponse[];
  jobErrors: ImportErrorResponse[];
}

export interface ExecutionReportResponse extends Pick<ExecutionReport, 'framesReported' | 'totalRowsCount'> {
  executionErrors: ValidationReportResponse;
}

export interface GCSPayloadInfoResponse {
  format: string;
  path: string;
}

export interface PayloadFileResponse {
  data: string;
  name: string;
}

export interface InlinePayloadInfoResponse {
  format: string;
  payload: PayloadFileResponse[];
}

export interface MetadataLabelsArgs {
  labelName: pulumi.Input<string>;
  labelValue: pulumi.Input<string>;
}

export interface EndpointMatcherArgs {
  metadataLabelMatcher?: pulumi.Input<{
    metadataLabelMatchCriteria?: pulumi.Input<'METADATA_LABEL_MATCH_CRITERIA_UNSPECIFIED' | 'MATCH_ANY' | 'MATCH_ALL'>;
    metadataLabels?: pulumi.Input<pulumi.Input<MetadataLabelsArgs>[]>;
  }>;
}

export interface TrafficPortSelectorArgs {
  ports?: pulumi.Input<pulumi.Input<string>[]>;
}

export interface EndpointPolicyArgs {
  authorizationPolicy?: pulumi.Input<string>;
  clientTlsPolicy?: pulumi.Input<string>;
  description?: pulumi.Input<string>;
  endpointMatcher: pulumi.Input<EndpointMatcherArgs>;
  /** Required. Short name of the EndpointPolicy resource to be created. */
  endpointPolicyId: pulumi.Input<string>;
  labels?: pulumi.Input<{ [key: string]: pulumi.Input<string> }>;
  location?: pulumi.Input<string>;
  project?: pulumi.Input<string>;
  serverTlsPolicy?: pulumi.Input<string>;
  trafficPortSelector?: pulumi.Input<TrafficPortSelectorArgs>;
  type: pulumi.Input<'SIDECAR_PROXY' | 'GRPC_SERVER'>;
}

export type SourceType = 'SOURCE_TYPE_UNKNOWN' | 'SOURCE_TYPE_UPLOAD' | 'SOURCE_TYPE_GUEST_OS_SCAN' | 'SOURCE_TYPE_INVENTORY_SCAN' | 'SOURCE_TYPE_CUSTOM';

export interface SourceArgs {
  description?: pulumi.Input<string>;
  displayName?: pulumi.Input<string>;
  /** If true, the source is managed by other service(s). */
  isManaged?: pulumi.Input<boolean>;
  location?: pulumi.Input<string>;
  /** The resource reference's spelling of `isManaged` (sent as `isManaged`); not with `isManaged`. */
  managed?: pulumi.Input<boolean>;
  priority?: pulumi.Input<number>;
  project?: pulumi.Input<string>;
  /** A UUID: Google does a retried create once. */
  requestId?: pulumi.Input<string>;
  /** Required. User specified ID for the source. */
  sourceId: pulumi.Input<string>;
  type?: pulumi.Input<SourceType>;
}

export interface BindingArgs {
  /** The condition that is associated with this binding. */
  condition?: pulumi.Input<ConditionArgs>;
  /** Principals requesting access: `user:{emailid}`, `serviceAccount:{emailid}`, `group:{emailid}`, `domain:{domain}`, ... */
  members?: pulumi.Input<pulumi.Input<string>[]>;
  /** Role that is assigned to the list of `members`, e.g. `roles/networkservices.viewer`. */
  role?: pulumi.Input<string>;
}

export interface BindingResponse {
  condition: ConditionResponse;
  members: string[];
  role: string;
}

export type AuditLogConfigLogType = 'LOG_TYPE_UNSPECIFIED' | 'ADMIN_READ' | 'DATA_WRITE' | 'DATA_READ';

export interface AuditLogConfigArgs {
  /** Identities that do not cause logging for this type of permission. */
  exemptedMembers?: pulumi.Input<pulumi.Input<string>[]>;
  /** The log type that this config enables. */
  logType?: pulumi.Input<AuditLogConfigLogType>;
}

export interface AuditConfigArgs {
  /** The configuration for logging of each type of permission. */
  auditLogConfigs?: pulumi.Input<pulumi.Input<AuditLogConfigArgs>[]>;
  /** A service enabled for audit logging, e.g. `networkservices.googleapis.com`, or `allServices`. */
  service?: pulumi.Input<string>;
}

export interface AuditLogConfigResponse {
  exemptedMembers: string[];
  logType: string;
}

export interface AuditConfigResponse {
  auditLogConfigs: AuditLogConfigResponse[];
  service: string;
}

export interface EndpointPolicyIamPolicyArgs {
  /** Specifies cloud audit logging configuration for this policy (left alone when not given). */
  auditConfigs?: pulumi.Input<pulumi.Input<AuditConfigArgs>[]>;
  /** Every binding of the policy: bindings not listed here are removed. */
  bindings?: pulumi.Input<pulumi.Input<BindingArgs>[]>;
  endpointPolicyId: pulumi.Input<string>;
  /** Write against this etag (fails with ABORTED if the policy changed since); by default the provider writes with the etag it just read. */
  etag?: pulumi.Input<string>;
  /** Always `global` for endpoint policies (the default). */
  location?: pulumi.Input<string>;
  project?: pulumi.Input<string>;
  /** The fields of the policy to write: default `bindings,etag` (plus `auditConfigs` when given). */
  updateMask?: pulumi.Input<string>;
  /** The policy format version written: 0, 1 or 3 (default 3; conditions need 3). */
  version?: pulumi.Input<number>;
}

export interface EndpointPolicyIamMemberArgs {
  /** An IAM Condition for a given binding. */
  condition?: pulumi.Input<ConditionArgs>;
  /** Identity that will be granted the privilege in `role`: `user:{emailid}`, `serviceAccount:{emailid}`, `group:{emailid}`, `domain:{domain}`, ... */
  member: pulumi.Input<string>;
  /** The endpoint policy: `projects/{project}/locations/global/endpointPolicies/{id}`. */
  name: pulumi.Input<string>;
  /** The role that should be applied. */
  role: pulumi.Input<string>;
}
