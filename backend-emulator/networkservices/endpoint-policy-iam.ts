/**
 * The IAM methods of endpoint policies (getIamPolicy, setIamPolicy, testIamPermissions) and the
 * `iamPolicies` seed section: which resource may hold a policy, which roles and permissions
 * apply to it, and who may read or write it. The policies themselves are IamPolicies'.
 */
import { invalidArgument, notFound } from '../errors';
import type { Authorizer, Principal, ResourceAttributes } from '../auth/auth';
import { ENDPOINT_POLICY_PERMISSIONS } from '../auth/permissions';
import { refusedOnEndpointPolicies, unsupportedRoleMessage } from '../../schemas/endpoint-policy-roles';
import { ENDPOINT_POLICY_RESOURCE_TYPE, NETWORK_SERVICES, type EndpointPolicies } from './endpoint-policies';
import { parseRequestedVersion, type IamPolicies, type Policy, type RoleRule } from './iam-policy';

const PERMISSION_FORM = /^[a-z][a-zA-Z0-9]*\.[a-zA-Z][a-zA-Z0-9]*\.[a-zA-Z][a-zA-Z0-9]*$/;

/** The roles an endpoint policy's IAM policy accepts (schemas/endpoint-policy-roles.ts). */
const endpointPolicyRoleRule: RoleRule = (role) => (refusedOnEndpointPolicies(role) ? unsupportedRoleMessage(role) : undefined);

/** A project's own policy (`projects/P`, what `--auth` reads): any well-formed role. */
const PROJECT_RESOURCE = /^projects\/[^/]+$/;

export class EndpointPolicyIam {
  constructor(
    private readonly endpointPolicies: EndpointPolicies,
    private readonly iamPolicies: IamPolicies,
    /** The app's authorizer (read on each call: the context owns it). */
    private readonly auth: () => Authorizer,
  ) {}

  private attributes(name: string): ResourceAttributes {
    return { name, type: ENDPOINT_POLICY_RESOURCE_TYPE, service: NETWORK_SERVICES };
  }

  /**
   * getIamPolicy and setIamPolicy act on an endpoint policy that exists: NOT_FOUND otherwise, and
   * nothing is stored (networkservices_v1.yaml: SetIamPolicy "can return NOT_FOUND").
   */
  private target(name: string): ResourceAttributes {
    if (!this.endpointPolicies.exists(name)) throw notFound(ENDPOINT_POLICY_RESOURCE_TYPE, name);
    return this.attributes(name);
  }

  /**
   * getIamPolicy's answer as ProtoJSON text, what the route sends (IamPolicies.getText).
   * `rawVersion` is `options.requestedPolicyVersion` as given on the wire. The caller's permission
   * (`getIamPolicy`, `setIamPolicy`) was decided before, by the one authorization hook (auth/hook.ts).
   */
  getIamPolicyText(name: string, rawVersion: string | undefined): string {
    const version = parseRequestedVersion(rawVersion);
    return this.iamPolicies.getText(name, version, () => this.target(name));
  }

  setIamPolicy(name: string, body: Record<string, unknown>, principal: Principal | undefined): Policy {
    // (A name SetIamPolicyRequest has not, at any depth, was refused by the front end: networkservices/request-bodies.ts.)
    // The existence check first, as before the request's validation, but inside the write's transaction.
    return this.iamPolicies.set(name, body, { principal: principal?.member, roleRule: endpointPolicyRoleRule, check: () => this.target(name) });
  }

  testIamPermissions(name: string, body: Record<string, unknown>, principal: Principal | undefined): { permissions?: string[] } {
    const permissions = body.permissions ?? [];
    if (!Array.isArray(permissions)) throw invalidArgument([{ field: 'permissions', description: 'must be a list of permission names' }]);
    permissions.forEach((p, i) => {
      if (typeof p !== 'string' || !PERMISSION_FORM.test(p)) {
        throw invalidArgument([{ field: `permissions[${i}]`, description: `'${String(p)}' is not a permission name (wildcards are not allowed)` }]);
      }
      if (!(ENDPOINT_POLICY_PERMISSIONS as readonly string[]).includes(p)) {
        throw invalidArgument([{ field: `permissions[${i}]`, description: `Permission ${p} is not valid for this resource.` }]);
      }
    });
    // A policy that does not exist grants nothing (the IAM mixin's documented choice besides
    // NOT_FOUND): an empty answer, as for a caller who holds none of the permissions.
    if (!this.endpointPolicies.exists(name)) return {};
    const target = this.attributes(name);
    const held = this.auth().heldPermissions(principal, target, permissions as string[]);
    return held.length > 0 ? { permissions: held } : {};
  }

  /** Seed section `iamPolicies`: resource name (a project, or an endpoint policy) -> policy. */
  seed(value: unknown, field: string): number {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw invalidArgument([{ field, description: 'must map resource names (projects/P, or an endpoint policy name) to policies' }]);
    }
    let n = 0;
    for (const [resource, policy] of Object.entries(value as Record<string, unknown>)) {
      const at = `${field}["${resource}"]`;
      if (PROJECT_RESOURCE.test(resource)) {
        this.iamPolicies.seed(resource, policy, at);
      } else if (this.endpointPolicies.exists(resource)) {
        // As on Google, an IAM policy belongs to a resource that exists: an endpoint policy already
        // in the store or seeded by this document's `endpointPolicies` section (loaded first).
        this.iamPolicies.seed(resource, policy, at, endpointPolicyRoleRule);
      } else {
        throw invalidArgument([
          { field: at, description: 'must be a project (projects/my-project) or the name of an endpoint policy that exists or is seeded in endpointPolicies' },
        ]);
      }
      n++;
    }
    return n;
  }
}
