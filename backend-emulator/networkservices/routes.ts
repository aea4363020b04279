/**
 * Network Services v1 on the wire (`/v1/`): endpoint policies, their IAM policies, operations.
 *
 *   POST   /v1/{parent}/endpointPolicies?endpointPolicyId=ID      -> Operation (done)
 *   GET    /v1/{parent}/endpointPolicies?pageSize=&pageToken=     -> {endpointPolicies, nextPageToken}
 *   GET    /v1/{name}                                             -> EndpointPolicy
 *   PATCH  /v1/{name}?updateMask=                                 -> Operation (done)
 *   DELETE /v1/{name}                                             -> Operation (done)
 *   GET    /v1/{name}:getIamPolicy?options.requestedPolicyVersion=N
 *   POST   /v1/{name}:setIamPolicy        {policy, updateMask}
 *   POST   /v1/{name}:testIamPermissions  {permissions}
 *   GET/DELETE /v1/{parent}/operations[/{id}], POST .../{id}:cancel
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context';
import { invalidArgument, refuseUnknownFields, notFound, unknownPath } from '../errors';
import { objectBody, queryParam } from '../http/body';
import { NAME_SEGMENT_ID, checkResourceId, locationName, splitVerb } from '../http/names';
import { pageRequest } from '../http/paging';
import { registerOperationRoutes } from '../operations/routes';
import { ENDPOINT_POLICY_PERMISSIONS, PERMISSION_GET_IAM_POLICY, PERMISSION_SET_IAM_POLICY } from '../auth/permissions';
import type { ResourceAttributes } from '../auth/auth';
import { refusedOnEndpointPolicies, unsupportedRoleMessage } from '../../schemas/endpoint-policy-roles';
import { ENDPOINT_POLICY_RESOURCE_TYPE, NETWORK_SERVICES, EndpointPolicies, checkGlobalLocation } from './endpoint-policies';
import { IamPolicies, parseRequestedVersion, type RoleRule } from './iam-policy';

export const API_PREFIX = '/v1';
export const OPERATION_METADATA_TYPE = 'type.googleapis.com/google.cloud.networkservices.v1.OperationMetadata';

interface ParentParams {
  project: string;
  location: string;
}
interface NameParams extends ParentParams {
  endpointPolicy: string;
}

const PERMISSION_FORM = /^[a-z][a-zA-Z0-9]*\.[a-zA-Z][a-zA-Z0-9]*\.[a-zA-Z][a-zA-Z0-9]*$/;

/** The roles an endpoint policy's IAM policy accepts (schemas/endpoint-policy-roles.ts). */
const endpointPolicyRoleRule: RoleRule = (role) => (refusedOnEndpointPolicies(role) ? unsupportedRoleMessage(role) : undefined);

/** A project's own policy (`projects/P`, what `--auth` reads): any well-formed role. */
const PROJECT_RESOURCE = /^projects\/[^/]+$/;

/** The Network Services domain objects of one app (the console and the admin API read through them). */
export interface NetworkServices {
  endpointPolicies: EndpointPolicies;
  iamPolicies: IamPolicies;
}

const instances = new WeakMap<EmulatorContext, NetworkServices>();

/** The Network Services of an app's context. */
export function networkServicesOf(ctx: EmulatorContext): NetworkServices | undefined {
  return instances.get(ctx);
}

export async function networkServicesRoutes(app: FastifyInstance, ctx: EmulatorContext): Promise<void> {
  const { store } = ctx;
  const options = { strictReferences: ctx.config.strictReferences };
  const ops = ctx.operations.forService({ service: 'networkservices', apiVersion: 'v1', metadataType: OPERATION_METADATA_TYPE });

  const iamPolicies = new IamPolicies(store);
  const endpointPolicies = new EndpointPolicies(store, ops, iamPolicies, options);
  instances.set(ctx, { endpointPolicies, iamPolicies });

  ctx.seeds.register('endpointPolicies', (value, field) => endpointPolicies.seed(value, field));
  ctx.seeds.register('iamPolicies', (value, field) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw invalidArgument([{ field, description: 'must map resource names (projects/P, or an endpoint policy name) to policies' }]);
    }
    let n = 0;
    for (const [resource, policy] of Object.entries(value as Record<string, unknown>)) {
      const at = `${field}["${resource}"]`;
      if (PROJECT_RESOURCE.test(resource)) {
        iamPolicies.seed(resource, policy, at);
      } else if (endpointPolicies.exists(resource)) {
        // As on Google, an IAM policy belongs to a resource that exists: an endpoint policy already
        // in the store or seeded by this document's `endpointPolicies` section (loaded first).
        iamPolicies.seed(resource, policy, at, endpointPolicyRoleRule);
      } else {
        throw invalidArgument([
          { field: at, description: 'must be a project (projects/my-project) or the name of an endpoint policy that exists or is seeded in endpointPolicies' },
        ]);
      }
      n++;
    }
    return n;
  });

  const base = `${API_PREFIX}/projects/:project/locations/:location/endpointPolicies`;
  const path = (request: FastifyRequest): string => request.url.split('?')[0];

  const nameOf = (request: FastifyRequest<{ Params: NameParams }>): { name: string; parent: string; verb?: string } => {
    const { parent } = locationName(request.params.project, request.params.location, 'name');
    checkGlobalLocation(request.params.location, 'name');
    const { id, verb } = splitVerb(request.params.endpointPolicy);
    if (!id) throw unknownPath(request.method, path(request));
    // A decoded `%2F`, `..` or any other id no endpoint policy can have: refused, so that no IAM
    // policy is ever written under a name such as `.../endpointPolicies/a/../b`.
    if (!NAME_SEGMENT_ID.test(id)) throw invalidArgument([{ field: 'name', description: `'${id.slice(0, 100)}' is not a valid endpoint policy id` }]);
    return { name: `${parent}/endpointPolicies/${id}`, parent, verb };
  };

  const attributes = (name: string): ResourceAttributes => ({ name, type: ENDPOINT_POLICY_RESOURCE_TYPE, service: NETWORK_SERVICES });

  /**
   * getIamPolicy and setIamPolicy act on an endpoint policy that exists: NOT_FOUND otherwise, and
   * nothing is stored (networkservices_v1.yaml: SetIamPolicy "can return NOT_FOUND").
   */
  const iamTarget = (name: string): ResourceAttributes => {
    if (!endpointPolicies.exists(name)) throw notFound(ENDPOINT_POLICY_RESOURCE_TYPE, name);
    return attributes(name);
  };

  app.post<{ Params: ParentParams }>(base, async (request) => {
    const { parent } = locationName(request.params.project, request.params.location);
    checkGlobalLocation(request.params.location, 'parent');
    const id = checkResourceId(queryParam(request, 'endpointPolicyId'), 'endpointPolicyId');
    return endpointPolicies.create(parent, id, objectBody(request));
  });

  app.get<{ Params: ParentParams }>(base, async (request) => {
    const { parent } = locationName(request.params.project, request.params.location);
    checkGlobalLocation(request.params.location, 'parent');
    const page = endpointPolicies.list(parent, pageRequest(request, `${API_PREFIX}/${parent}/endpointPolicies`));
    return { endpointPolicies: page.items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
  });

  app.get<{ Params: NameParams }>(`${base}/:endpointPolicy`, async (request) => {
    const { name, verb } = nameOf(request);
    if (verb === undefined) return endpointPolicies.get(name);
    if (verb !== 'getIamPolicy') throw unknownPath(request.method, path(request));
    const version = parseRequestedVersion(queryParam(request, 'options.requestedPolicyVersion'));
    const target = iamTarget(name);
    ctx.auth.requirePermission(request.principal, target, PERMISSION_GET_IAM_POLICY);
    return iamPolicies.get(name, version);
  });

  app.post<{ Params: NameParams }>(`${base}/:endpointPolicy`, async (request) => {
    const { name, verb } = nameOf(request);
    if (verb === 'setIamPolicy') {
      const body = objectBody(request);
      const target = iamTarget(name);
      ctx.auth.requirePermission(request.principal, target, PERMISSION_SET_IAM_POLICY);
      return iamPolicies.set(name, body, { principal: request.principal?.member, roleRule: endpointPolicyRoleRule });
    }
    if (verb === 'testIamPermissions') {
      const body = objectBody(request);
      refuseUnknownFields(body, (k) => k === 'permissions');
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
      if (!endpointPolicies.exists(name)) return {};
      const target = attributes(name);
      const held = (permissions as string[]).filter((p) => ctx.auth.holds(request.principal, target, p));
      return held.length > 0 ? { permissions: held } : {};
    }
    throw unknownPath(request.method, path(request));
  });

  app.patch<{ Params: NameParams }>(`${base}/:endpointPolicy`, async (request) => {
    const { name, parent, verb } = nameOf(request);
    if (verb !== undefined) throw unknownPath(request.method, path(request));
    return endpointPolicies.patch(name, parent, objectBody(request), queryParam(request, 'updateMask'));
  });

  app.delete<{ Params: NameParams }>(`${base}/:endpointPolicy`, async (request) => {
    const { name, parent, verb } = nameOf(request);
    if (verb !== undefined) throw unknownPath(request.method, path(request));
    return endpointPolicies.delete(name, parent, request.principal?.member);
  });

  registerOperationRoutes(app, ops, API_PREFIX);
}
