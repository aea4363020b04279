/**
 * Terraform-style `iam_binding` edits of a `google.iam.v1.Policy`: one binding per role and
 * condition, authoritative for its members, leaving every other binding alone.
 */
import { canonicalMember } from '../schemas';

export interface IamCondition {
  expression: string;
  title: string;
  description?: string;
}

export interface IamBinding {
  role: string;
  members: string[];
  condition?: IamCondition;
}

export interface IamPolicy {
  version?: number;
  bindings?: IamBinding[];
  auditConfigs?: unknown[];
  etag?: string;
}

/** Bindings are always written at version 3, the only version that can carry conditions. */
export const POLICY_VERSION = 3;

/** The key that identifies a binding: its role plus the whole condition. */
export function bindingKey(role: string, condition?: IamCondition): string {
  if (!condition) return role;
  return JSON.stringify([role, condition.title, condition.description ?? '', condition.expression]);
}

function keyOf(binding: IamBinding): string {
  return bindingKey(binding.role, binding.condition);
}

export function findBinding(policy: IamPolicy, role: string, condition?: IamCondition): IamBinding | undefined {
  const key = bindingKey(role, condition);
  return (policy.bindings ?? []).find((b) => keyOf(b) === key);
}

/** Members in canonical spelling, sorted, without repeats: the form compared for drift. */
export function normalizeMembers(members: readonly string[]): string[] {
  return [...new Set(members.map(canonicalMember))].sort();
}

/** The policy with this key's binding set to exactly `members` (added if absent). */
export function withBinding(policy: IamPolicy, binding: IamBinding): IamPolicy {
  const key = keyOf(binding);
  const others = (policy.bindings ?? []).filter((b) => keyOf(b) !== key);
  const bindings = [...others, { ...binding, members: normalizeMembers(binding.members) }];
  return { ...policy, bindings, version: POLICY_VERSION };
}

/** The policy without this key's binding. */
export function withoutBinding(policy: IamPolicy, role: string, condition?: IamCondition): IamPolicy {
  const key = bindingKey(role, condition);
  const bindings = (policy.bindings ?? []).filter((b) => keyOf(b) !== key);
  return { ...policy, bindings, version: POLICY_VERSION };
}

const POLICY_NAME = /^projects\/[^/]+\/locations\/[^/]+\/endpointPolicies\/[^/]+/;
const ROLE_PREFIX = /^(roles\/[^/]+|projects\/[^/]+\/roles\/[^/]+|organizations\/[^/]+\/roles\/[^/]+)/;

/** `{name}/{role}`, plus `/{condition title}` for a conditional binding. */
export function bindingId(name: string, role: string, condition?: IamCondition): string {
  return condition ? `${name}/${role}/${condition.title}` : `${name}/${role}`;
}

/** The parts of a binding id; throws a readable error for an id that is not one. */
export function parseBindingId(id: string): { name: string; role: string; conditionTitle?: string } {
  const name = POLICY_NAME.exec(id)?.[0];
  const rest = name ? id.slice(name.length + 1) : '';
  const role = ROLE_PREFIX.exec(rest)?.[0];
  if (!name || !role || id[name.length] !== '/') {
    throw new Error(
      `'${id}' is not an EndpointPolicyIamBinding id: expected projects/{project}/locations/{location}/endpointPolicies/{id}/{role}[/{condition title}]`,
    );
  }
  const title = rest.slice(role.length + 1);
  return title ? { name, role, conditionTitle: title } : { name, role };
}

// ------------------------------------------------------------------ iam_member

/** The policy with `member` added to this key's binding (the binding is added if absent); other members stay. */
export function withMember(policy: IamPolicy, role: string, member: string, condition?: IamCondition): IamPolicy {
  const current = findBinding(policy, role, condition);
  const members = normalizeMembers([...(current?.members ?? []), member]);
  return withBinding(policy, condition ? { role, members, condition } : { role, members });
}

/** The policy without `member` in this key's binding; a binding left with no member goes. */
export function withoutMember(policy: IamPolicy, role: string, member: string, condition?: IamCondition): IamPolicy {
  const current = findBinding(policy, role, condition);
  if (!current) return { ...policy, version: POLICY_VERSION };
  const gone = canonicalMember(member);
  const members = current.members.filter((m) => canonicalMember(m) !== gone);
  if (members.length === 0) return withoutBinding(policy, role, condition);
  return withBinding(policy, condition ? { role, members, condition } : { role, members });
}

/** Whether this key's binding holds `member` (compared in canonical spelling). */
export function hasMember(policy: IamPolicy, role: string, member: string, condition?: IamCondition): boolean {
  const wanted = canonicalMember(member);
  return (findBinding(policy, role, condition)?.members ?? []).some((m) => canonicalMember(m) === wanted);
}

/**
 * `{name} {role} {member}`, plus ` {condition title}` for a conditional grant: Terraform's import
 * id of an iam_member, space-separated because a member (`principal://...`) may hold slashes and
 * no name, role or member holds a space.
 */
export function memberId(name: string, role: string, member: string, condition?: IamCondition): string {
  return [name, role, canonicalMember(member), ...(condition ? [condition.title] : [])].join(' ');
}

/** The parts of a member id; throws a readable error for an id that is not one. */
export function parseMemberId(id: string): { name: string; role: string; member: string; conditionTitle?: string } {
  const [name, role, member, ...title] = id.split(' ');
  if (!name || !POLICY_NAME.test(name) || name !== POLICY_NAME.exec(name)?.[0] || !role || !ROLE_PREFIX.test(role) || !member) {
    throw new Error(
      `'${id}' is not an EndpointPolicyIamMember id: expected 'projects/{project}/locations/{location}/endpointPolicies/{id} {role} {member}[ {condition title}]'`,
    );
  }
  return title.length > 0 ? { name, role, member, conditionTitle: title.join(' ') } : { name, role, member };
}

// ------------------------------------------------------------------ iam_policy

/**
 * The policy's bindings in one canonical form, for comparing what is with what was asked: same
 * role and condition merged (as IAM merges them), members canonical and sorted, bindings sorted
 * by key. Two lists that grant the same thing compare equal.
 */
export function canonicalBindings(bindings: readonly IamBinding[] | undefined): IamBinding[] {
  const merged = new Map<string, IamBinding>();
  for (const b of bindings ?? []) {
    const key = keyOf(b);
    const previous = merged.get(key);
    const members = normalizeMembers([...(previous?.members ?? []), ...b.members]);
    merged.set(key, b.condition ? { role: b.role, members, condition: conditionOf(b.condition) } : { role: b.role, members });
  }
  return [...merged.entries()]
    .filter(([, b]) => b.members.length > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, b]) => b);
}

/** A condition's identifying fields (its `location`, a note for error messages, is not one). */
function conditionOf(condition: IamCondition): IamCondition {
  const { expression, title, description } = condition;
  return description === undefined || description === '' ? { expression, title } : { expression, title, description };
}
