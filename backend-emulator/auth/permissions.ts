/**
 * The emulator's role -> permission table (documented in docs/emulator.md). Patterns:
 * `*` is every permission, `service.*` every permission of a service, `*.verb` that verb on every
 * resource type. Custom roles come from the `roles` section of the `--auth` file.
 */

import { ENDPOINT_POLICY_PERMISSIONS, ENDPOINT_POLICY_ROLES, EP } from '../../schemas/endpoint-policy-roles';

export { ENDPOINT_POLICY_PERMISSIONS, EP };

export const PERMISSION_GET_IAM_POLICY = `${EP}.getIamPolicy`;
export const PERMISSION_SET_IAM_POLICY = `${EP}.setIamPolicy`;

/**
 * The predefined roles: the roles an endpoint policy accepts (schemas/endpoint-policy-roles.ts,
 * one table for the emulator, the provider and the docs), with what each grants.
 */
export const ROLE_PERMISSIONS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(ENDPOINT_POLICY_ROLES).map(([role, { grants }]) => [role, grants]),
);

/** Whether a permission pattern from the table covers `permission`. */
export function patternGrants(pattern: string, permission: string): boolean {
  if (pattern === '*' || pattern === permission) return true;
  if (pattern.endsWith('.*')) return permission.startsWith(pattern.slice(0, -1));
  if (pattern.startsWith('*.')) return permission.endsWith(pattern.slice(1));
  return false;
}

/** Whether `role` grants `permission`, with the auth file's custom roles added to the table. */
export function roleGrants(role: string, permission: string, customRoles?: Record<string, string[]>): boolean {
  const patterns = customRoles?.[role] ?? ROLE_PERMISSIONS[role];
  return patterns !== undefined && patterns.some((p) => patternGrants(p, permission));
}
