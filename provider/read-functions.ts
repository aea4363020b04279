/**
 * google-native's read functions (`getEndpointPolicy`, `getEndpointPolicyIamPolicy`,
 * `getImportJob`, `getSource`), each as a plain async function and an `...Output` variant, with
 * google-native 0.32.0's argument and result names.
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

const NS = 'networkservices/v1';
const MC = 'migrationcenter/v1alpha1';

// ------------------------------------------------------------------ getEndpointPolicy

export interface GetEndpointPolicyArgs {
  endpointPolicyId: string;
  location: string;
  project?: string;
}

export interface GetEndpointPolicyOutputArgs {
  endpointPolicyId: pulumi.Input<string>;
  location: pulumi.Input<string>;
  project?: pulumi.Input<string>;
}

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

function endpointPolicyName(a: { project?: string; location: string; endpointPolicyId: string }): string {
  return `projects/${projectOrDefault(a.project)}/locations/${a.location}/endpointPolicies/${a.endpointPolicyId}`;
}

/** Gets details of a single EndpointPolicy. */
export function getEndpointPolicy(args: GetEndpointPolicyArgs, opts?: pulumi.InvokeOptions): Promise<GetEndpointPolicyResult> {
  return valueOf(readCall<GetEndpointPolicyResult>('getEndpointPolicy', NS, endpointPolicyName(args), undefined, opts));
}

export function getEndpointPolicyOutput(args: GetEndpointPolicyOutputArgs, opts?: pulumi.InvokeOptions): pulumi.Output<GetEndpointPolicyResult> {
  return pulumi.output(args).apply((a) => readCall<GetEndpointPolicyResult>('getEndpointPolicy', NS, endpointPolicyName(a), undefined, opts));
}

// ------------------------------------------------------------------ getEndpointPolicyIamPolicy

export interface GetEndpointPolicyIamPolicyArgs {
  endpointPolicyId: string;
  location: string;
  /** The policy format version to read: 0, 1 or 3 (3 shows conditions; below 3 a conditional role reads as `{role}_withcond_{hash}`). */
  optionsRequestedPolicyVersion?: number;
  project?: string;
}

export interface GetEndpointPolicyIamPolicyOutputArgs {
  endpointPolicyId: pulumi.Input<string>;
  location: pulumi.Input<string>;
  optionsRequestedPolicyVersion?: pulumi.Input<number>;
  project?: pulumi.Input<string>;
}

export interface GetEndpointPolicyIamPolicyResult {
  readonly auditConfigs: AuditConfigResponse[];
  readonly bindings: BindingResponse[];
  readonly etag: string;
  readonly version: number;
}

/** Gets the access control policy for an endpoint policy (an empty policy if none is set). */
export function getEndpointPolicyIamPolicy(args: GetEndpointPolicyIamPolicyArgs, opts?: pulumi.InvokeOptions): Promise<GetEndpointPolicyIamPolicyResult> {
  return valueOf(
    readCall<GetEndpointPolicyIamPolicyResult>('getEndpointPolicyIamPolicy', NS, endpointPolicyName(args), args.optionsRequestedPolicyVersion, opts),
  );
}

export function getEndpointPolicyIamPolicyOutput(
  args: GetEndpointPolicyIamPolicyOutputArgs,
  opts?: pulumi.InvokeOptions,
): pulumi.Output<GetEndpointPolicyIamPolicyResult> {
  return pulumi
    .output(args)
    .apply((a) => readCall<GetEndpointPolicyIamPolicyResult>('getEndpointPolicyIamPolicy', NS, endpointPolicyName(a), a.optionsRequestedPolicyVersion, opts));
}

// ------------------------------------------------------------------ getImportJob

export interface GetImportJobArgs {
  importJobId: string;
  location: string;
  project?: string;
  /** `IMPORT_JOB_VIEW_BASIC` or `IMPORT_JOB_VIEW_FULL`; default FULL here, so the reports come with the job. */
  view?: string;
}

export interface GetImportJobOutputArgs {
  importJobId: pulumi.Input<string>;
  location: pulumi.Input<string>;
  project?: pulumi.Input<string>;
  view?: pulumi.Input<string>;
}

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

function importJobName(a: { project?: string; location: string; importJobId: string }): string {
  return `projects/${projectOrDefault(a.project)}/locations/${a.location}/importJobs/${a.importJobId}`;
}

/** Gets the details of an import job, with its validation and execution reports. */
export function getImportJob(args: GetImportJobArgs, opts?: pulumi.InvokeOptions): Promise<GetImportJobResult> {
  return valueOf(readCall<GetImportJobResult>('getImportJob', MC, importJobName(args), args.view, opts));
}

export function getImportJobOutput(args: GetImportJobOutputArgs, opts?: pulumi.InvokeOptions): pulumi.Output<GetImportJobResult> {
  return pulumi.output(args).apply((a) => readCall<GetImportJobResult>('getImportJob', MC, importJobName(a), a.view, opts));
}

// ------------------------------------------------------------------ getSource

export interface GetSourceArgs {
  location: string;
  project?: string;
  sourceId: string;
}

export interface GetSourceOutputArgs {
  location: pulumi.Input<string>;
  project?: pulumi.Input<string>;
  sourceId: pulumi.Input<string>;
}

export interface GetSourceResult {
  readonly createTime: string;
  readonly description: string;
  readonly displayName: string;
  readonly isManaged: boolean;
  readonly name: string;
  readonly pendingFrameCount: number;
  readonly priority: number;
  readonly state: string;
  readonly type: string;
  readonly updateTime: string;
}

function sourceName(a: { project?: string; location: string; sourceId: string }): string {
  return `projects/${projectOrDefault(a.project)}/locations/${a.location}/sources/${a.sourceId}`;
}

/** Gets the details of a source. */
export function getSource(args: GetSourceArgs, opts?: pulumi.InvokeOptions): Promise<GetSourceResult> {
  return valueOf(readCall<GetSourceResult>('getSource', MC, sourceName(args), undefined, opts));
}

export function getSourceOutput(args: GetSourceOutputArgs, opts?: pulumi.InvokeOptions): pulumi.Output<GetSourceResult> {
  return pulumi.output(args).apply((a) => readCall<GetSourceResult>('getSource', MC, sourceName(a), undefined, opts));
}
