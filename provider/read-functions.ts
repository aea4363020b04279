/**
 * google-native's read functions (`getEndpointPolicy`, `getEndpointPolicyIamPolicy`, and a `get*`
 * for each Migration Center resource), each as a plain async function and an `...Output` variant,
 * with google-native 0.32.0's argument and result names.
 *
 * Why not invokes: a dynamic provider cannot register invokes (`pulumi.runtime.invoke` needs a
 * provider plugin with a schema). Why not a call from the program's own process: with the default
 * backend, the embedded emulator's store belongs to the dynamic-provider host (an exclusive SQLite
 * lock), and the program cannot open it beside the host. So each call is a Pulumi *read* (what
 * `Resource.get` does): the engine asks the provider host to read, the host reads from whichever
 * backend it is configured with (embedded, emulator server, Google), and the result comes back as
 * an output. The read shows in previews and in the state as a `read` resource, named after the
 * function and what it reads; it is never created or deleted.
 */
import * as pulumi from '@pulumi/pulumi';
import { LocalDynamicResource } from './dynamic-resource';
import { readId, type ReadFunctionName } from './read-functions-impl';
import type {
  AuditConfigResponse,
  BindingResponse,
  ExecutionReportResponse,
  GCSPayloadInfoResponse,
  InlinePayloadInfoResponse,
  ValidationReportResponse,
} from './types';
import type {
  ReportConfigGroupPreferenceSetAssignmentResponse,
  ReportSummaryResponse,
  StatusResponse,
  UploadFileInfoResponse,
  VirtualMachinePreferencesResponse,
} from './migration-center-responses';

/** The read of one read function call: a dynamic resource adopted by id, never created. */
class ReadFunctionCall extends LocalDynamicResource {
  declare public readonly result: pulumi.Output<any>;
  constructor(fn: ReadFunctionName, module: string, id: string, opts?: pulumi.InvokeOptions) {
    const resourceOpts: pulumi.CustomResourceOptions = { id, parent: opts?.parent, provider: opts?.provider };
    super('read-functions-impl', `${fn}:${id.split(' ').slice(1).join(':')}`, { result: undefined }, resourceOpts, module, fn);
  }
}

/** One read per distinct call in a program (two reads of one name would be two resources with one URN). */
const calls = new Map<string, pulumi.Output<any>>();

function readCall<T>(fn: ReadFunctionName, module: string, name: string, option: string | number | undefined, opts?: pulumi.InvokeOptions): pulumi.Output<T> {
  const id = readId(fn, name, option);
  let result = calls.get(id);
  if (!result) {
    result = new ReadFunctionCall(fn, module, id, opts).result;
    calls.set(id, result);
  }
  return result as pulumi.Output<T>;
}

/** The value of an output, once known (reads are done at preview too, so it is). */
function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise<T>((resolve) => output.apply((v) => resolve(v)));
}

function projectOrDefault(project: string | undefined): string {
  const value = project ?? new pulumi.Config('google-native-local').get('project') ?? process.env.GOOGLE_CLOUD_PROJECT ?? process.env.CLOUDSDK_CORE_PROJECT;
  if (!value) throw new Error('project is required: give it, or set the stack config google-native-local:project, or GOOGLE_CLOUD_PROJECT');
  return value;
}

/** What every read function's arguments hold: where the resource is. */
interface Placed {
  location: string;
  project?: string;
}

/** The `...OutputArgs` of a read function: its arguments, each an input. */
type InputsOf<A> = { [K in keyof A]: pulumi.Input<A[K]> };

/** One read function: which resource its arguments name, and which argument is the read's option. */
interface ReadFunctionSpec<A extends Placed> {
  fn: ReadFunctionName;
  module: string;
  /** The resource's path below its location: each collection with the argument that holds its id. */
  path: ReadonlyArray<readonly [collection: string, idArgument: keyof A & string]>;
  option?: keyof A & string;
}

/** `projects/{project}/locations/{location}/{collection}/{id}...` from the arguments. */
function resourceName<A extends Placed>(spec: ReadFunctionSpec<A>, args: A): string {
  const below = spec.path.map(([collection, idArgument]) => `${collection}/${String(args[idArgument])}`);
  return [`projects/${projectOrDefault(args.project)}/locations/${args.location}`, ...below].join('/');
}

function optionOf<A extends Placed>(spec: ReadFunctionSpec<A>, args: A): string | number | undefined {
  return spec.option === undefined ? undefined : (args[spec.option] as string | number | undefined);
}

/** The plain async function and the `...Output` variant of one read function. */
function readFunction<A extends Placed, R>(
  spec: ReadFunctionSpec<A>,
): [(args: A, opts?: pulumi.InvokeOptions) => Promise<R>, (args: InputsOf<A>, opts?: pulumi.InvokeOptions) => pulumi.Output<R>] {
  const call = (args: A, opts?: pulumi.InvokeOptions) => readCall<R>(spec.fn, spec.module, resourceName(spec, args), optionOf(spec, args), opts);
  return [(args, opts) => valueOf(call(args, opts)), (args, opts) => pulumi.output(args).apply((a) => call(a as unknown as A, opts)) as pulumi.Output<R>];
}

const NS = 'networkservices/v1';
const MC = 'migrationcenter/v1alpha1';

// ------------------------------------------------------------------ getEndpointPolicy

export interface GetEndpointPolicyArgs {
  endpointPolicyId: string;
  location: string;
  project?: string;
}

export type GetEndpointPolicyOutputArgs = InputsOf<GetEndpointPolicyArgs>;

export interface GetEndpointPolicyResult {
  readonly authorizationPolicy: string;
  readonly clientTlsPolicy: string;
  readonly createTime: string;
  readonly description: string;
  readonly endpointMatcher: Record<string, any>;
  readonly labels: { [key: string]: string };
  readonly name: string;
  readonly serverTlsPolicy: string;
  readonly trafficPortSelector: { ports: string[] };
  readonly type: string;
  readonly updateTime: string;
}

/** Gets details of a single EndpointPolicy. */
export const [getEndpointPolicy, getEndpointPolicyOutput] = readFunction<GetEndpointPolicyArgs, GetEndpointPolicyResult>({
  fn: 'getEndpointPolicy',
  module: NS,
  path: [['endpointPolicies', 'endpointPolicyId']],
});

// ------------------------------------------------------------------ getEndpointPolicyIamPolicy

export interface GetEndpointPolicyIamPolicyArgs {
  endpointPolicyId: string;
  location: string;
  /** The policy format version to read: 0, 1 or 3 (3 shows conditions; below 3 a conditional role reads as `{role}_withcond_{hash}`). */
  optionsRequestedPolicyVersion?: number;
  project?: string;
}

export type GetEndpointPolicyIamPolicyOutputArgs = InputsOf<GetEndpointPolicyIamPolicyArgs>;

export interface GetEndpointPolicyIamPolicyResult {
  readonly auditConfigs: AuditConfigResponse[];
  readonly bindings: BindingResponse[];
  readonly etag: string;
  readonly version: number;
}

/** Gets the access control policy for an endpoint policy (an empty policy if none is set). */
export const [getEndpointPolicyIamPolicy, getEndpointPolicyIamPolicyOutput] = readFunction<GetEndpointPolicyIamPolicyArgs, GetEndpointPolicyIamPolicyResult>({
  fn: 'getEndpointPolicyIamPolicy',
  module: NS,
  path: [['endpointPolicies', 'endpointPolicyId']],
  option: 'optionsRequestedPolicyVersion',
});

// ------------------------------------------------------------------ getImportJob

export interface GetImportJobArgs {
  importJobId: string;
  location: string;
  project?: string;
  /** `IMPORT_JOB_VIEW_BASIC` or `IMPORT_JOB_VIEW_FULL`; default FULL here, so the reports come with the job. */
  view?: string;
}

export type GetImportJobOutputArgs = InputsOf<GetImportJobArgs>;

export interface GetImportJobResult {
  readonly assetSource: string;
  readonly completeTime: string;
  readonly createTime: string;
  readonly displayName: string;
  readonly executionReport: ExecutionReportResponse;
  readonly gcsPayload: GCSPayloadInfoResponse;
  readonly inlinePayload: InlinePayloadInfoResponse;
  readonly labels: { [key: string]: string };
  readonly name: string;
  readonly state: string;
  readonly updateTime: string;
  readonly validationReport: ValidationReportResponse;
}

/** Gets the details of an import job, with its validation and execution reports. */
export const [getImportJob, getImportJobOutput] = readFunction<GetImportJobArgs, GetImportJobResult>({
  fn: 'getImportJob',
  module: MC,
  path: [['importJobs', 'importJobId']],
  option: 'view',
});

// ------------------------------------------------------------------ getSource

export interface GetSourceArgs {
  location: string;
  project?: string;
  sourceId: string;
}

export type GetSourceOutputArgs = InputsOf<GetSourceArgs>;

export interface GetSourceResult {
  readonly createTime: string;
  readonly description: string;
  readonly displayName: string;
  /** The number of frames that were reported by the source and contained errors. */
  readonly errorFrameCount: number;
  readonly isManaged: boolean;
  readonly name: string;
  readonly pendingFrameCount: number;
  readonly priority: number;
  readonly state: string;
  readonly type: string;
  readonly updateTime: string;
}

/** Gets the details of a source. */
export const [getSource, getSourceOutput] = readFunction<GetSourceArgs, GetSourceResult>({ fn: 'getSource', module: MC, path: [['sources', 'sourceId']] });

// ------------------------------------------------------------------ getGroup

export interface GetGroupArgs {
  groupId: string;
  location: string;
  project?: string;
}

export type GetGroupOutputArgs = InputsOf<GetGroupArgs>;

export interface GetGroupResult {
  readonly createTime: string;
  readonly description: string;
  readonly displayName: string;
  readonly labels: { [key: string]: string };
  readonly name: string;
  readonly updateTime: string;
}

/** Gets the details of a group. */
export const [getGroup, getGroupOutput] = readFunction<GetGroupArgs, GetGroupResult>({ fn: 'getGroup', module: MC, path: [['groups', 'groupId']] });

// ------------------------------------------------------------------ getPreferenceSet

export interface GetPreferenceSetArgs {
  location: string;
  preferenceSetId: string;
  project?: string;
}

export type GetPreferenceSetOutputArgs = InputsOf<GetPreferenceSetArgs>;

export interface GetPreferenceSetResult {
  readonly createTime: string;
  readonly description: string;
  readonly displayName: string;
  readonly name: string;
  readonly updateTime: string;
  /** As the wire has it: a preference the set does not give is absent. */
  readonly virtualMachinePreferences: VirtualMachinePreferencesResponse;
}

/** Gets the details of a preference set. */
export const [getPreferenceSet, getPreferenceSetOutput] = readFunction<GetPreferenceSetArgs, GetPreferenceSetResult>({
  fn: 'getPreferenceSet',
  module: MC,
  path: [['preferenceSets', 'preferenceSetId']],
});

// ------------------------------------------------------------------ getReportConfig

export interface GetReportConfigArgs {
  location: string;
  project?: string;
  reportConfigId: string;
}

export type GetReportConfigOutputArgs = InputsOf<GetReportConfigArgs>;

export interface GetReportConfigResult {
  readonly createTime: string;
  readonly description: string;
  readonly displayName: string;
  readonly groupPreferencesetAssignments: ReportConfigGroupPreferenceSetAssignmentResponse[];
  readonly name: string;
  readonly updateTime: string;
}

/** Gets details of a single ReportConfig. */
export const [getReportConfig, getReportConfigOutput] = readFunction<GetReportConfigArgs, GetReportConfigResult>({
  fn: 'getReportConfig',
  module: MC,
  path: [['reportConfigs', 'reportConfigId']],
});

// ------------------------------------------------------------------ getReport

export interface GetReportArgs {
  location: string;
  project?: string;
  reportConfigId: string;
  reportId: string;
  /** `REPORT_VIEW_BASIC`, `REPORT_VIEW_STANDARD` or `REPORT_VIEW_FULL`; default FULL here, so the summary comes with the report. */
  view?: string;
}

export type GetReportOutputArgs = InputsOf<GetReportArgs>;

export interface GetReportResult {
  readonly createTime: string;
  readonly description: string;
  readonly displayName: string;
  readonly name: string;
  readonly state: string;
  readonly summary: ReportSummaryResponse;
  readonly type: string;
  readonly updateTime: string;
}

/** Gets details of a single Report, with its summary. */
export const [getReport, getReportOutput] = readFunction<GetReportArgs, GetReportResult>({
  fn: 'getReport',
  module: MC,
  path: [
    ['reportConfigs', 'reportConfigId'],
    ['reports', 'reportId'],
  ],
  option: 'view',
});

// ------------------------------------------------------------------ getDiscoveryClient

export interface GetDiscoveryClientArgs {
  discoveryClientId: string;
  location: string;
  project?: string;
}

export type GetDiscoveryClientOutputArgs = InputsOf<GetDiscoveryClientArgs>;

export interface GetDiscoveryClientResult {
  readonly createTime: string;
  readonly description: string;
  readonly displayName: string;
  readonly errors: StatusResponse[];
  readonly expireTime: string;
  readonly heartbeatTime: string;
  readonly labels: { [key: string]: string };
  readonly name: string;
  readonly serviceAccount: string;
  readonly signalsEndpoint: string;
  readonly source: string;
  readonly state: string;
  /** Input only: Google never reads it back (its effect is `expireTime`), so always `''`. */
  readonly ttl: string;
  readonly updateTime: string;
  readonly version: string;
}

/** Gets the details of a discovery client. */
export const [getDiscoveryClient, getDiscoveryClientOutput] = readFunction<GetDiscoveryClientArgs, GetDiscoveryClientResult>({
  fn: 'getDiscoveryClient',
  module: MC,
  path: [['discoveryClients', 'discoveryClientId']],
});

// ------------------------------------------------------------------ getImportDataFile

export interface GetImportDataFileArgs {
  importDataFileId: string;
  importJobId: string;
  location: string;
  project?: string;
}

export type GetImportDataFileOutputArgs = InputsOf<GetImportDataFileArgs>;

export interface GetImportDataFileResult {
  readonly createTime: string;
  readonly displayName: string;
  readonly format: string;
  readonly name: string;
  readonly state: string;
  readonly uploadFileInfo: UploadFileInfoResponse;
}

/** Gets an import data file. */
export const [getImportDataFile, getImportDataFileOutput] = readFunction<GetImportDataFileArgs, GetImportDataFileResult>({
  fn: 'getImportDataFile',
  module: MC,
  path: [
    ['importJobs', 'importJobId'],
    ['importDataFiles', 'importDataFileId'],
  ],
});
