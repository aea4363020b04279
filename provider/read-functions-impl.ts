/**
 * The provider side of the read functions (read-functions.ts): one read per call, done in the
 * dynamic-provider host, the process that holds the backend (for the embedded emulator, its store).
 * The whole request is in the id, `{function} {resource name}[ {option}]`, so a read needs nothing
 * else; the answer is the function's result, in google-native's shape (every field present, as
 * an invoke's result is), under `result`.
 */
import type * as pulumi from '@pulumi/pulumi';
import { withRequiredDefaults } from '../schemas';
import { isNotFound } from './client';
import { readPolicy } from './iam-policy-access';
import { clientFor } from './runtime';
import type { GoogleApiName } from './backends';

export type ReadFunctionName =
  | 'getEndpointPolicy'
  | 'getEndpointPolicyIamPolicy'
  | 'getImportJob'
  | 'getSource'
  | 'getGroup'
  | 'getPreferenceSet'
  | 'getReportConfig'
  | 'getReport'
  | 'getDiscoveryClient'
  | 'getImportDataFile';

type Json = Record<string, any>;

/** `{function} {resource name}[ {option}]`: the option is a policy version or a view. */
export function readId(fn: ReadFunctionName, name: string, option?: string | number): string {
  return option === undefined || option === '' ? `${fn} ${name}` : `${fn} ${name} ${option}`;
}

function parseReadId(id: string): { fn: ReadFunctionName; name: string; option?: string } {
  const [fn, name, option] = id.split(' ');
  if (!(fn in READERS) || !name) throw new Error(`'${id}' is not a read function call: expected '{function} {resource name}[ {option}]'`);
  return { fn: fn as ReadFunctionName, name, option };
}

/**
 * One field of a result: the value it takes when the wire leaves it out (ProtoJSON omits empty
 * strings, lists, maps, zeros and false), or a function from the wire's value to the result's.
 */
type ResultField = string | number | boolean | readonly unknown[] | Json | ((wire: any) => unknown);

/** How one read function reads: a GET of the resource, and the fields of google-native's result. */
interface RestRead {
  api: GoogleApiName;
  apiVersion: string;
  /** The query of the GET, from the call's option (a view), if it has one. */
  query?: (option: string | undefined) => Record<string, string>;
  /** Every field of the result, in google-native's order (alphabetical). */
  result: Record<string, ResultField>;
}

/** A reader that GETs the resource and answers every field of the result, defaults included. */
function restRead(spec: RestRead): (name: string, option?: string) => Promise<Json> {
  return async (name, option) => {
    const wire = await clientFor(spec.api).get<Json>(`/${spec.apiVersion}/${name}`, spec.query?.(option));
    return Object.fromEntries(
      Object.entries(spec.result).map(([field, rule]) => [field, typeof rule === 'function' ? rule(wire[field]) : (wire[field] ?? structuredClone(rule))]),
    );
  };
}

/** A view option, or `fullView` when the call names none (this package's default: the whole resource). */
const viewOr = (fullView: string) => (option: string | undefined) => ({ view: option ?? fullView });
/** A wire message whose required fields (per the schema) the result always has. */
const filled = (schema: Parameters<typeof withRequiredDefaults>[0]) => (wire: unknown) => withRequiredDefaults(schema, wire ?? {});
/** The fields of every Migration Center resource's result. */
const NAMED = { createTime: '', description: '', displayName: '', name: '', updateTime: '' } as const;

async function getEndpointPolicyIamPolicy(name: string, version?: string): Promise<Json> {
  const policy = await readPolicy(name, version === undefined ? 0 : Number(version));
  return {
    auditConfigs: policy.auditConfigs ?? [],
    bindings: policy.bindings ?? [],
    etag: policy.etag ?? '',
    // ProtoJSON leaves out a 0: an empty policy reads as version 0.
    version: policy.version ?? 0,
  };
}

const READERS: Record<ReadFunctionName, (name: string, option?: string) => Promise<Json>> = {
  getEndpointPolicy: restRead({
    api: 'networkservices',
    apiVersion: 'v1',
    result: {
      authorizationPolicy: '',
      clientTlsPolicy: '',
      createTime: '',
      description: '',
      endpointMatcher: {},
      labels: {},
      name: '',
      serverTlsPolicy: '',
      trafficPortSelector: (wire?: { ports?: string[] }) => ({ ports: wire?.ports ?? [] }),
      type: '',
      updateTime: '',
    },
  }),
  getEndpointPolicyIamPolicy,
  getImportJob: restRead({
    api: 'migrationcenter',
    apiVersion: 'v1alpha1',
    query: viewOr('IMPORT_JOB_VIEW_FULL'),
    result: {
      assetSource: '',
      completeTime: '',
      createTime: '',
      displayName: '',
      executionReport: filled('ExecutionReport'),
      gcsPayload: (wire?: Json) => ({ format: wire?.format ?? '', path: wire?.path ?? '' }),
      inlinePayload: (wire?: Json) => ({ format: wire?.format ?? '', payload: wire?.payload ?? [] }),
      labels: {},
      name: '',
      state: '',
      updateTime: '',
      validationReport: filled('ValidationReport'),
    },
  }),
  getSource: restRead({
    api: 'migrationcenter',
    apiVersion: 'v1alpha1',
    result: { ...NAMED, errorFrameCount: 0, isManaged: false, pendingFrameCount: 0, priority: 0, state: '', type: '' },
  }),
  getGroup: restRead({ api: 'migrationcenter', apiVersion: 'v1alpha1', result: { ...NAMED, labels: {} } }),
  getPreferenceSet: restRead({ api: 'migrationcenter', apiVersion: 'v1alpha1', result: { ...NAMED, virtualMachinePreferences: {} } }),
  getReportConfig: restRead({ api: 'migrationcenter', apiVersion: 'v1alpha1', result: { ...NAMED, groupPreferencesetAssignments: [] } }),
  getReport: restRead({
    api: 'migrationcenter',
    apiVersion: 'v1alpha1',
    // Google's default view (BASIC) leaves out the summary, the report's substance.
    query: viewOr('REPORT_VIEW_FULL'),
    result: {
      ...NAMED,
      state: '',
      summary: (wire?: Json) => ({ allAssetsStats: {}, groupFindings: [], ...wire }),
      type: '',
    },
  }),
  getDiscoveryClient: restRead({
    api: 'migrationcenter',
    apiVersion: 'v1alpha1',
    result: {
      ...NAMED,
      errors: (wire?: Json[]) => (wire ?? []).map((status) => ({ code: 0, details: [], message: '', ...status })),
      expireTime: '',
      heartbeatTime: '',
      labels: {},
      serviceAccount: '',
      signalsEndpoint: '',
      source: '',
      state: '',
      ttl: '',
      version: '',
    },
  }),
  getImportDataFile: restRead({
    api: 'migrationcenter',
    apiVersion: 'v1alpha1',
    result: {
      createTime: '',
      displayName: '',
      format: '',
      name: '',
      state: '',
      uploadFileInfo: (wire?: Json) => ({ headers: {}, signedUri: '', uriExpirationTime: '', ...wire }),
    },
  }),
};

/** The result of one read function call, by its id. NOT_FOUND is an error here, as it is for an invoke. */
export async function readFunction(id: string): Promise<Json> {
  const { fn, name, option } = parseReadId(id);
  try {
    return await READERS[fn](name, option);
  } catch (err) {
    if (isNotFound(err)) throw new Error(`${fn}: ${name} does not exist. ${(err as Error).message}`, { cause: err });
    throw err;
  }
}

export async function read(id: string): Promise<pulumi.dynamic.ReadResult> {
  return { id, props: { result: await readFunction(id) } };
}

function readOnly(): never {
  throw new Error('a read function result is read, never created, changed or deleted');
}

export function check(_olds: pulumi.Inputs, news: pulumi.Inputs): pulumi.dynamic.CheckResult {
  return { inputs: news };
}

export function diff(): pulumi.dynamic.DiffResult {
  return { changes: false };
}

export async function create(): Promise<pulumi.dynamic.CreateResult> {
  return readOnly();
}

export async function update(): Promise<pulumi.dynamic.UpdateResult> {
  return readOnly();
}

/** A read resource is never deleted by the engine; nothing to do if asked. */
export async function remove(): Promise<void> {}
