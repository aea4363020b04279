/**
 * The emulator's role -> permission table (documented in docs/emulator.md). Patterns:
 * `*` is every permission, `service.*` every permission of a service, `*.verb` that verb on every
 * resource type. Custom roles come from the `roles` section of the `--auth` file.
 */

import { ENDPOINT_POLICY_PERMISSIONS, ENDPOINT_POLICY_ROLES, EP } from '../../schemas/endpoint-policy-roles';
import { PROJECT_ROLES } from '../../schemas/project-roles';

export { ENDPOINT_POLICY_PERMISSIONS, EP };

/**
 * The predefined roles and what each grants: the roles an endpoint policy accepts
 * (schemas/endpoint-policy-roles.ts, one table for the emulator, the provider and the docs) with
 * what they grant beyond endpoint policies (schemas/project-roles.ts: Migration Center's roles,
 * the Network Services locations and operations); a role of both tables grants the union.
 */
export const ROLE_PERMISSIONS: Readonly<Record<string, readonly string[]>> = (() => {
  const table: Record<string, readonly string[]> = {};
  for (const roles of [ENDPOINT_POLICY_ROLES, PROJECT_ROLES]) {
    for (const [role, { grants }] of Object.entries(roles)) table[role] = [...new Set([...(table[role] ?? []), ...grants])];
  }
  return table;
})();

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
