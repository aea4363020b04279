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

export type ReadFunctionName = 'getEndpointPolicy' | 'getEndpointPolicyIamPolicy' | 'getImportJob' | 'getSource';

type Json = Record<string, any>;

/** `{function} {resource name}[ {option}]`: the option is a policy version or an import job view. */
export function readId(fn: ReadFunctionName, name: string, option?: string | number): string {
  return option === undefined || option === '' ? `${fn} ${name}` : `${fn} ${name} ${option}`;
}

function parseReadId(id: string): { fn: ReadFunctionName; name: string; option?: string } {
  const [fn, name, option] = id.split(' ');
  if (!(fn in READERS) || !name) throw new Error(`'${id}' is not a read function call: expected '{function} {resource name}[ {option}]'`);
  return { fn: fn as ReadFunctionName, name, option };
}

const orEmpty = (value: unknown) => value ?? '';

async function getEndpointPolicy(name: string): Promise<Json> {
  const p = await clientFor('networkservices').get<Json>(`/v1/${name}`);
  return {
    authorizationPolicy: orEmpty(p.authorizationPolicy),
    clientTlsPolicy: orEmpty(p.clientTlsPolicy),
    createTime: orEmpty(p.createTime),
    description: orEmpty(p.description),
    endpointMatcher: p.endpointMatcher ?? {},
    labels: p.labels ?? {},
    name: p.name,
    serverTlsPolicy: orEmpty(p.serverTlsPolicy),
    trafficPortSelector: { ports: p.trafficPortSelector?.ports ?? [] },
    type: orEmpty(p.type),
    updateTime: orEmpty(p.updateTime),
  };
}

async function getEndpointPolicyIamPolicy(name: string, version?: string): Promise<Json> {
  const policy = await readPolicy(name, version === undefined ? 0 : Number(version));
  return {
    auditConfigs: policy.auditConfigs ?? [],
    bindings: policy.bindings ?? [],
    etag: orEmpty(policy.etag),
    // ProtoJSON leaves out a 0: an empty policy reads as version 0.
    version: policy.version ?? 0,
  };
}

async function getImportJob(name: string, view?: string): Promise<Json> {
  const job = await clientFor('migrationcenter').get<Json>(`/v1alpha1/${name}`, { view: view ?? 'IMPORT_JOB_VIEW_FULL' });
  return {
    assetSource: orEmpty(job.assetSource),
    completeTime: orEmpty(job.completeTime),
    createTime: orEmpty(job.createTime),
    displayName: orEmpty(job.displayName),
    // The wire leaves out empty lists and zeros (ProtoJSON); the result has every reported field.
    executionReport: withRequiredDefaults('ExecutionReport', job.executionReport ?? {}),
    gcsPayload: { format: orEmpty(job.gcsPayload?.format), path: orEmpty(job.gcsPayload?.path) },
    inlinePayload: { format: orEmpty(job.inlinePayload?.format), payload: job.inlinePayload?.payload ?? [] },
    labels: job.labels ?? {},
    name: job.name,
    state: orEmpty(job.state),
    updateTime: orEmpty(job.updateTime),
    validationReport: withRequiredDefaults('ValidationReport', job.validationReport ?? {}),
  };
}

async function getSource(name: string): Promise<Json> {
  const s = await clientFor('migrationcenter').get<Json>(`/v1alpha1/${name}`);
  return {
    createTime: orEmpty(s.createTime),
    description: orEmpty(s.description),
    displayName: orEmpty(s.displayName),
    isManaged: s.isManaged ?? false,
    name: s.name,
    pendingFrameCount: s.pendingFrameCount ?? 0,
    priority: s.priority ?? 0,
    state: orEmpty(s.state),
    type: orEmpty(s.type),
    updateTime: orEmpty(s.updateTime),
  };
}

const READERS: Record<ReadFunctionName, (name: string, option?: string) => Promise<Json>> = {
  getEndpointPolicy,
  getEndpointPolicyIamPolicy,
  getImportJob,
  getSource,
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
