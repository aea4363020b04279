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
