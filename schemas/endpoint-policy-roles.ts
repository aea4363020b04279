/**
 * THE table of roles that can be granted on an endpoint policy, and what each grants there.
 *
 * One table for the emulator (setIamPolicy refuses the other roles, and `--auth` uses the
 * permissions), the provider's `check()` (the `endpointPolicyRole` schema keyword) and the
 * generated reference docs.
 *
 * Google accepts on a resource the roles that hold at least one permission of its type: the basic
 * roles, IAM's security roles (they hold every type's getIamPolicy / setIamPolicy), the
 * service's own roles that carry `networkservices.endpointPolicies.*` permissions
 * (Google's "Network Services roles and permissions" page: `roles/networkservices.admin` holds
 * `networkservices.*`, `roles/networkservices.viewer` the read permissions; the service's other
 * roles, for Service Extensions and Media CDN edge caches, hold none of an endpoint policy's), and
 * custom roles, whose permissions only their owner knows. Any other role is refused with
 * `Role {role} is not supported for this resource.`
 */

/** The endpoint policy permission prefix. */
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

export interface EndpointPolicyRole {
  /** What the role is for, in the docs. */
  title: string;
  /**
   * Permission patterns the role grants: `*` every permission, `service.*` every permission of a
   * service, `*.verb` that verb on every resource type. Some grant beyond endpoint policies
   * (`roles/owner` also Migration Center's permissions, under `--auth`).
   */
  grants: readonly string[];
}

export const ENDPOINT_POLICY_ROLES: Readonly<Record<string, EndpointPolicyRole>> = {
  'roles/owner': { title: 'Owner (basic role): every permission', grants: ['*'] },
  'roles/editor': {
    title: 'Editor (basic role): everything but setting IAM policies',
    grants: [`${EP}.create`, `${EP}.delete`, `${EP}.get`, `${EP}.getIamPolicy`, `${EP}.list`, `${EP}.update`, `${EP}.use`],
  },
  'roles/viewer': { title: 'Viewer (basic role): read the policy and its IAM policy', grants: [`${EP}.get`, `${EP}.getIamPolicy`, `${EP}.list`] },
  'roles/networkservices.admin': { title: 'Network Services Admin: every Network Services permission', grants: ['networkservices.*'] },
  'roles/networkservices.viewer': { title: 'Network Services Viewer: read endpoint policies', grants: [`${EP}.get`, `${EP}.list`] },
  // IAM's own roles grant the IAM permissions of every resource type, this one's included.
  'roles/iam.securityAdmin': { title: 'Security Admin: read and set IAM policies', grants: ['*.getIamPolicy', '*.setIamPolicy'] },
  'roles/iam.securityReviewer': { title: 'Security Reviewer: read IAM policies', grants: ['*.getIamPolicy'] },
};

/** Custom roles: `projects/{project}/roles/{id}` and `organizations/{org}/roles/{id}`. */
export const CUSTOM_ROLE = /^(projects\/[^/]+|organizations\/[0-9]+)\/roles\/[^/]+$/;

export function isCustomRole(role: string): boolean {
  return CUSTOM_ROLE.test(role);
}

/** Whether `role` can be granted on an endpoint policy. */
export function isEndpointPolicyRole(role: string): boolean {
  return Object.prototype.hasOwnProperty.call(ENDPOINT_POLICY_ROLES, role) || isCustomRole(role);
}

/**
 * Whether a well-formed role is refused on an endpoint policy: a predefined role (`roles/...`)
 * missing from the table. Malformed roles are the Role schema's to report.
 */
export function refusedOnEndpointPolicies(role: string): boolean {
  return role.startsWith('roles/') && !isEndpointPolicyRole(role);
}

/** Google's wording for a role that cannot be granted on the resource. */
export function unsupportedRoleMessage(role: string): string {
  return `Role ${role} is not supported for this resource.`;
}

/** The roles, for error descriptions and docs: `roles/owner`, ..., or a custom role. */
export function endpointPolicyRolesText(): string {
  const named = Object.keys(ENDPOINT_POLICY_ROLES).map((r) => `\`${r}\``);
  return `${named.join(', ')}, or a custom role (\`projects/{project}/roles/{id}\`, \`organizations/{org}/roles/{id}\`)`;
}
