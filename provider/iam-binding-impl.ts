/**
 * The EndpointPolicyIamBinding provider's work: Terraform's `iam_binding` semantics over
 * getIamPolicy / setIamPolicy (authoritative for one role's members, under one condition), made
 * safe for concurrency by iam-policy-access.ts's read-modify-write cycle.
 */
import type * as pulumi from '@pulumi/pulumi';
import { validate } from '../schemas';
import {
  bindingId,
  findBinding,
  normalizeMembers,
  parseBindingId,
  withBinding,
  withoutBinding,
  bindingKey,
  type IamCondition,
  type IamPolicy,
} from './iam-policy-edit';
import { modifyExistingPolicy, modifyPolicyIfPresent, projectOf, readPolicyIfPresent } from './iam-policy-access';
import { containsUnknown, sameJson, withoutUndefined } from './runtime';

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

/** The binding itself, without the other properties (and the `__provider`) the engine passes. */
function bindingOf(inputs: BindingInputs) {
  return withoutUndefined({ role: inputs.role, members: inputs.members, condition: inputs.condition });
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
  // A missing endpoint policy took its bindings with it.
  await modifyPolicyIfPresent(props.name, (p) => withoutBinding(p, props.role, props.condition));
}

export async function read(id: string, props: Partial<BindingOutputs>): Promise<pulumi.dynamic.ReadResult> {
  // On `get`/import only the id is known: rebuild the whole state from it.
  const parsed = props.name && props.role ? undefined : parseBindingId(id);
  const name = props.name ?? parsed!.name;
  const role = props.role ?? parsed!.role;
  const policy = await readPolicyIfPresent(name);
  if (!policy) return { id: '' };
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
