/**
 * The EndpointPolicyIamMember provider's work: Terraform's `iam_member` semantics over
 * getIamPolicy / setIamPolicy. One member of one role (under one condition): create adds it to the
 * role's binding, delete takes it out, and the role's other members stay as they are, whoever
 * granted them. Two member resources of one role never undo each other: every write is a fresh
 * read-modify-write cycle (iam-policy-access.ts).
 */
import type * as pulumi from '@pulumi/pulumi';
import { canonicalMember } from '../schemas';
import { bindingKey, hasMember, memberId, parseMemberId, withMember, withoutMember, type IamCondition, type IamPolicy } from './iam-policy-edit';
import { readPolicyIfPresent } from './iam-policy-access';
import { iamGrantResource, type GrantInputs, type GrantState } from './iam-grant-resource';
import { sameJson, withoutUndefined } from './runtime';

export interface MemberInputs extends GrantInputs {
  member: string;
}

export interface MemberOutputs extends MemberInputs, GrantState {}

const grant = iamGrantResource<MemberInputs>({
  schema: 'EndpointPolicyIamMemberArgs',
  grantedField: 'member',
  canonical: (member) => (typeof member === 'string' ? canonicalMember(member) : undefined),
  grantOf: (inputs) => withoutUndefined({ name: inputs.name, role: inputs.role, member: canonicalMember(inputs.member), condition: inputs.condition }),
  id: (inputs) => memberId(inputs.name, inputs.role, inputs.member, inputs.condition),
  grant: (policy, inputs) => withMember(policy, inputs.role, inputs.member, inputs.condition),
  revoke: (policy, props) => withoutMember(policy, props.role, props.member, keyCondition(props.condition)),
});

/** Nothing to update in place (diff replaces on every change); `update` is kept for the protocol. */
export const { check, create, update, remove } = grant;

/** Every argument names the grant itself: any change is another grant, so a replace. */
export function diff(_id: string, olds: MemberOutputs, news: MemberInputs): pulumi.dynamic.DiffResult {
  const replaces: string[] = [];
  if (olds.name !== news.name) replaces.push('name');
  if (olds.role !== news.role) replaces.push('role');
  if (canonicalMember(olds.member ?? '') !== canonicalMember(news.member ?? '')) replaces.push('member');
  if (!sameJson(olds.condition, news.condition)) replaces.push('condition');
  // Create-before-delete would let the old grant's delete take away the new one when both are
  // the same grant on the same policy (only condition.location, which is no part of it, changed).
  const sameGrant =
    olds.name === news.name &&
    canonicalMember(olds.member ?? '') === canonicalMember(news.member ?? '') &&
    bindingKey(olds.role, olds.condition) === bindingKey(news.role, news.condition);
  return {
    changes: replaces.length > 0,
    replaces,
    stables: replaces.includes('name') ? [] : ['name', 'project'],
    deleteBeforeReplace: replaces.length > 0 && sameGrant,
  };
}

/** The condition as IAM keys it (without `location`), or none. */
function keyCondition(condition: MemberInputs['condition']): IamCondition | undefined {
  if (!condition) return undefined;
  const { location: _location, ...rest } = condition;
  return rest;
}

export async function read(id: string, props: Partial<MemberOutputs>): Promise<pulumi.dynamic.ReadResult> {
  // On `get`/import only the id is known: rebuild the whole state from it.
  const parsed = props.name && props.role && props.member ? undefined : parseMemberId(id);
  const name = props.name ?? parsed!.name;
  const role = props.role ?? parsed!.role;
  const member = props.member ?? parsed!.member;
  const policy = await readPolicyIfPresent(name);
  if (!policy) return { id: '' };
  const condition = parsed ? conditionByTitle(policy, role, member, parsed.conditionTitle) : props.condition;
  if (parsed && parsed.conditionTitle !== undefined && !condition) return { id: '' };
  // Gone from the policy (removed out of band, or by an authoritative resource): Pulumi creates it again.
  if (!hasMember(policy, role, member, keyCondition(condition))) return { id: '' };
  const state = grant.outputs(withoutUndefined({ name, role, member, condition }), policy);
  const inputs = withoutUndefined({ name, role, member: state.member, condition: state.condition });
  return { id, props: state, inputs };
}

/** On import: the condition of the binding of `role` titled `title` that holds `member`. */
function conditionByTitle(policy: IamPolicy, role: string, member: string, title?: string): IamCondition | undefined {
  if (title === undefined) return undefined;
  const matches = (policy.bindings ?? []).filter((b) => b.role === role && b.condition?.title === title && hasMember(policy, role, member, b.condition));
  if (matches.length > 1) {
    throw new Error(`more than one binding of ${role} with the condition title '${title}' holds ${member}: cannot tell which one to import`);
  }
  return matches[0]?.condition;
}
