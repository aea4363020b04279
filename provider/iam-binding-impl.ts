/**
 * The EndpointPolicyIamBinding provider's work: Terraform's `iam_binding` semantics over
 * getIamPolicy / setIamPolicy, made safe for concurrency: read at version 3, write with the etag
 * just read, retry the whole cycle on ABORTED, one writer per policy inside this process.
 */
import type * as pulumi from '@pulumi/pulumi';
import { validate } from '../schemas';
import { isGoogleApiCallError, isNotFound } from './client';
import {
  bindingId,
  findBinding,
  normalizeMembers,
  parseBindingId,
  POLICY_VERSION,
  withBinding,
  withoutBinding,
  bindingKey,
  type IamCondition,
  type IamPolicy,
} from './iam-policy-edit';
import { withKeyLock } from './keyed-mutex';
import { retryOnConflict } from './retry';
import { clientFor, containsUnknown, sameJson, withoutUndefined } from './runtime';

export interface BindingInputs {
  name: string;
  role: string;
  members: string[];
  condition?: IamCondition & { location?: string };
}

export interface BindingOutputs extends BindingInputs {
  etag: string;
  project: string;
}

const client = () => clientFor('networkservices');

/** The binding itself, without the other properties (and the `__provider`) the engine passes. */
function bindingOf(inputs: BindingInputs) {
  return withoutUndefined({ role: inputs.role, members: inputs.members, condition: inputs.condition });
}

function projectOf(name: string): string {
  return name.split('/')[1] ?? '';
}

async function readPolicy(name: string): Promise<IamPolicy> {
  try {
    return await client().get<IamPolicy>(`/v1/${name}:getIamPolicy`, { 'options.requestedPolicyVersion': POLICY_VERSION });
  } catch (err) {
    if (isIamMethodNotServed(err)) throw iamNotServedError(name, err);
    throw err;
  }
}

/**
 * Whether the answer says the IAM method itself is not served, rather than that the endpoint
 * policy is missing: Google's front end answers a path it has no method for with a 404 page that
 * is not a google.rpc.Status, and a server that knows the method but not its implementation
 * answers UNIMPLEMENTED.
 */
export function isIamMethodNotServed(err: unknown): boolean {
  return isGoogleApiCallError(err, 'UNIMPLEMENTED') || (isGoogleApiCallError(err, 'NOT_FOUND') && !err.googleShaped);
}

/**
 * Google's Network Services v1 listed getIamPolicy/setIamPolicy/testIamPermissions on endpoint
 * policies in its earlier published clients (googleapis revision 140, which @pulumi/google-native
 * 0.32.0 follows); its current client (revision 188) lists IAM methods only on the edge cache
 * keysets, origins and services. Said plainly, with what to do, instead of "does not exist".
 */
export function iamNotServedError(name: string, cause: unknown): Error {
  const message = cause instanceof Error ? cause.message : String(cause);
  return new Error(
    `the Network Services API did not serve getIamPolicy for ${name}: Google's current Network Services v1 no longer offers IAM policies on endpoint policies ` +
      '(googleapis revision 140 lists them, revision 188 lists IAM methods only on edge cache keysets, origins and services). ' +
      'Grant the role on the project instead (a project-level IAM binding gives it on every endpoint policy of the project), ' +
      `or keep this resource on the emulator backend. ${message}`,
  );
}

/**
 * A binding needs its endpoint policy: Google answers NOT_FOUND for the IAM policy of one that does
 * not exist. Said in Pulumi's terms, naming what to do.
 */
export function missingPolicyError(name: string, cause: unknown): Error {
  const message = cause instanceof Error ? cause.message : String(cause);
  return new Error(
    `endpoint policy ${name} does not exist: create it first (an EndpointPolicy resource, and pass its name so that Pulumi creates it before the binding). ${message}`,
  );
}

/** For create and update: the edit, with a missing endpoint policy reported as such. */
async function modifyExistingPolicy(name: string, edit: (policy: IamPolicy) => IamPolicy): Promise<IamPolicy> {
  try {
    return await modifyPolicy(name, edit);
  } catch (err) {
    if (isNotFound(err)) throw missingPolicyError(name, err);
    throw err;
  }
}

/** One read-modify-write cycle per call of `edit`, retried on conflicts, serialised per policy. */
async function modifyPolicy(name: string, edit: (policy: IamPolicy) => IamPolicy): Promise<IamPolicy> {
  return withKeyLock(name, () =>
    retryOnConflict(async () => {
      const current = await readPolicy(name);
      const next = edit(current);
      return client().post<IamPolicy>(`/v1/${name}:setIamPolicy`, {
        policy: { ...next, etag: current.etag, version: POLICY_VERSION },
        updateMask: 'bindings,etag,version',
      });
    }),
  );
}

export function check(_olds: pulumi.Inputs, news: pulumi.Inputs): pulumi.dynamic.CheckResult {
  const raw: Record<string, unknown> = { ...news };
  delete raw.__provider;
  // Values Pulumi cannot know yet during preview are checked later, when they are known.
  const known = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && !containsUnknown(v)));
  const failures = validate('EndpointPolicyIamBindingArgs', known).filter((f) => !(f.reason === 'is required' && containsUnknown(raw[f.property])));
  const inputs = { ...raw };
  if (Array.isArray(raw.members) && !containsUnknown(raw.members)) inputs.members = normalizeMembers(raw.members as string[]);
  return { inputs: withoutUndefined(inputs), failures };
}

export function diff(_id: string, olds: BindingOutputs, news: BindingInputs): pulumi.dynamic.DiffResult {
  const replaces: string[] = [];
  if (olds.name !== news.name) replaces.push('name');
  if (olds.role !== news.role) replaces.push('role');
  if (!sameJson(olds.condition, news.condition)) replaces.push('condition');
  const membersChanged = !sameJson(normalizeMembers(olds.members ?? []), normalizeMembers(news.members ?? []));
  // Create-before-delete would let the old binding's delete remove the new one's members when
  // both have the same key on the same policy (e.g. only condition.location changed).
  const sameKey = olds.name === news.name && bindingKey(olds.role, olds.condition) === bindingKey(news.role, news.condition);
  return {
    changes: replaces.length > 0 || membersChanged,
    replaces,
    stables: replaces.includes('name') ? [] : ['name', 'project'],
    deleteBeforeReplace: replaces.length > 0 && sameKey,
  };
}

function outputs(inputs: BindingInputs, policy: IamPolicy): BindingOutputs {
  return withoutUndefined({
    name: inputs.name,
    role: inputs.role,
    members: normalizeMembers(inputs.members),
    condition: inputs.condition,
    etag: policy.etag ?? '',
    project: projectOf(inputs.name),
  });
}

export async function create(inputs: BindingInputs): Promise<pulumi.dynamic.CreateResult> {
  const policy = await modifyExistingPolicy(inputs.name, (p) => withBinding(p, bindingOf(inputs)));
  return { id: bindingId(inputs.name, inputs.role, inputs.condition), outs: outputs(inputs, policy) };
}

export async function update(_id: string, _olds: BindingOutputs, news: BindingInputs): Promise<pulumi.dynamic.UpdateResult> {
  const policy = await modifyExistingPolicy(news.name, (p) => withBinding(p, bindingOf(news)));
  return { outs: outputs(news, policy) };
}

export async function remove(_id: string, props: BindingOutputs): Promise<void> {
  try {
    await modifyPolicy(props.name, (p) => withoutBinding(p, props.role, props.condition));
  } catch (err) {
    if (!isNotFound(err)) throw err; // the endpoint policy is gone, and its bindings with it
  }
}

export async function read(id: string, props: Partial<BindingOutputs>): Promise<pulumi.dynamic.ReadResult> {
  // On `get`/import only the id is known: rebuild the whole state from it.
  const parsed = props.name && props.role ? undefined : parseBindingId(id);
  const name = props.name ?? parsed!.name;
  const role = props.role ?? parsed!.role;
  let policy: IamPolicy;
  try {
    policy = await readPolicy(name);
  } catch (err) {
    if (isNotFound(err)) return { id: '' };
    throw err;
  }
  const binding = parsed ? findByTitle(policy, role, parsed.conditionTitle) : findBinding(policy, role, props.condition);
  if (!binding) return { id: '' };
  const state: BindingOutputs = outputs({ name, role, members: binding.members, condition: binding.condition ?? props.condition }, policy);
  const inputs = withoutUndefined({ name, role, members: state.members, condition: state.condition });
  return { id, props: state, inputs };
}

function findByTitle(policy: IamPolicy, role: string, title?: string) {
  const matches = (policy.bindings ?? []).filter((b) => b.role === role && b.condition?.title === title);
  if (matches.length > 1) {
    throw new Error(`more than one binding of ${role} has the condition title '${title}': cannot tell which one to import`);
  }
  return matches[0];
}
