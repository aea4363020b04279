/**
 * THE role -> permission table of the emulator (documented in docs/emulator.md). Patterns:
 * `*` is every permission, `service.*` every permission of a service, `*.verb` that verb on every
 * resource type. Custom roles come from the `roles` section of the `--auth` file.
 */

export const EP = 'networkservices.endpointPolicies';

/** Every permission an endpoint policy has (what testIamPermissions accepts for one). */
export const ENDPOINT_POLICY_PERMISSIONS = [
  `${EP}.create`,
  `${EP}.delete`,
  `${EP}.get`,
  `${EP}.getIamPolicy`,
  `${EP}.list`,
  `${EP}.setIamPolicy`,
  `${EP}.update`,
  `${EP}.use`,
] as const;

export const PERMISSION_GET_IAM_POLICY = `${EP}.getIamPolicy`;
export const PERMISSION_SET_IAM_POLICY = `${EP}.setIamPolicy`;

export const ROLE_PERMISSIONS: Readonly<Record<string, readonly string[]>> = {
  'roles/owner': ['*'],
  'roles/editor': [`${EP}.create`, `${EP}.delete`, `${EP}.get`, `${EP}.getIamPolicy`, `${EP}.list`, `${EP}.update`, `${EP}.use`],
  'roles/viewer': [`${EP}.get`, `${EP}.getIamPolicy`, `${EP}.list`],
  'roles/networkservices.admin': ['networkservices.*'],
  'roles/networkservices.viewer': [`${EP}.get`, `${EP}.list`],
  'roles/iam.securityAdmin': ['*.getIamPolicy', '*.setIamPolicy'],
  'roles/iam.securityReviewer': ['*.getIamPolicy'],
};

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
