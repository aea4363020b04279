/**
 * The EndpointPolicyIamBinding provider's work: Terraform's `iam_binding` semantics over
 * getIamPolicy / setIamPolicy (authoritative for one role's members, under one condition), made
 * safe for concurrency by iam-policy-access.ts's read-modify-write cycle.
 */
import type * as pulumi from '@pulumi/pulumi';
import { bindingId, findBinding, normalizeMembers, parseBindingId, withBinding, withoutBinding, bindingKey, type IamPolicy } from './iam-policy-edit';
import { readPolicyIfPresent } from './iam-policy-access';
import { iamGrantResource, type GrantInputs, type GrantState } from './iam-grant-resource';
import { sameJson, withoutUndefined } from './runtime';

export interface BindingInputs extends GrantInputs {
  members: string[];
}

export interface BindingOutputs extends BindingInputs, GrantState {}

const grant = iamGrantResource<BindingInputs>({
  schema: 'EndpointPolicyIamBindingArgs',
  grantedField: 'members',
  canonical: (members) => (Array.isArray(members) ? normalizeMembers(members as string[]) : undefined),
  grantOf: (inputs) => withoutUndefined({ name: inputs.name, role: inputs.role, members: normalizeMembers(inputs.members), condition: inputs.condition }),
  id: (inputs) => bindingId(inputs.name, inputs.role, inputs.condition),
  // The binding itself, without the other properties (and the `__provider`) the engine passes.
  grant: (policy, inputs) => withBinding(policy, withoutUndefined({ role: inputs.role, members: inputs.members, condition: inputs.condition })),
  revoke: (policy, props) => withoutBinding(policy, props.role, props.condition),
});

export const { check, create, update, remove } = grant;

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

export async function read(id: string, props: Partial<BindingOutputs>): Promise<pulumi.dynamic.ReadResult> {
  // On `get`/import only the id is known: rebuild the whole state from it.
  const parsed = props.name && props.role ? undefined : parseBindingId(id);
  const name = props.name ?? parsed!.name;
  const role = props.role ?? parsed!.role;
  const policy = await readPolicyIfPresent(name);
  if (!policy) return { id: '' };
  const binding = parsed ? findByTitle(policy, role, parsed.conditionTitle) : findBinding(policy, role, props.condition);
  if (!binding) return { id: '' };
  const state = grant.outputs({ name, role, members: binding.members, condition: binding.condition ?? props.condition }, policy);
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
