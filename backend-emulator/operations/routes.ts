/**
 * The `google.longrunning.Operations` mixin routes of one service, under its version prefix:
 *   GET    {prefix}/projects/{p}/locations/{l}/operations            list (filter, pageSize, pageToken)
 *   GET    {prefix}/projects/{p}/locations/{l}/operations/{id}       get
 *   DELETE {prefix}/projects/{p}/locations/{l}/operations/{id}       delete -> {}
 *   POST   {prefix}/projects/{p}/locations/{l}/operations/{id}:cancel cancel -> {}
 *
 * Two services with the same prefix (Network Services v1 and Migration Center v1 both put their
 * operations at `/v1/projects/*\/locations/*\/operations`) share these routes: the first registers
 * them, and each request is answered by the service it means (mixins/shared-paths.ts): an
 * operation by the service that holds it, a list by one service only.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound, unknownPath } from '../errors';
import { objectBody } from '../http/body';
import { locationName, splitVerb } from '../http/names';
import { listRequest } from '../http/list-request';
import { candidateTenants, joinSharedPath, tenantFor, type Tenant } from '../mixins/shared-paths';
import type { ServiceOperations } from './operations';

interface OperationParams {
  project: string;
  location: string;
  operation: string;
}

export interface OperationRouteOptions {
  /** The service's operations in the version's shape (default: as stored). */
  present?: (operation: object) => object;
  /** Whether the service answers an unhinted list of this location (mixins/shared-paths.ts). */
  claimsLocation?: (location: string) => boolean;
}

interface OperationsTenant extends Tenant {
  readonly ops: ServiceOperations;
  readonly present: (operation: object) => object;
}

export function registerOperationRoutes(app: FastifyInstance, ops: ServiceOperations, prefix: string, options: OperationRouteOptions = {}): void {
  const tenant: OperationsTenant = {
    service: ops.options.service,
    ops,
    present: options.present ?? ((op) => op),
    ...(options.claimsLocation ? { claimsLocation: options.claimsLocation } : {}),
  };
  const { first, tenants } = joinSharedPath(ops.all, `operations ${prefix}`, tenant);
  if (!first) return;
  const base = `${prefix}/projects/:project/locations/:location/operations`;

  // The service that answers (its permission is the one `--auth` checks, auth/access.ts): a
  // list's by its location; an operation's the one that holds it, else as a list's.
  const listedBy = (request: FastifyRequest): readonly string[] => [tenantFor(request, tenants, (request.params as OperationParams).location).service];
  const heldBy = (request: FastifyRequest): readonly string[] => {
    const params = request.params as OperationParams;
    const name = `projects/${params.project}/locations/${params.location}/operations/${splitVerb(params.operation).id}`;
    const holder = candidateTenants(request, tenants).find((t) => t.ops.has(name));
    return holder ? [holder.service] : listedBy(request);
  };

  app.get<{ Params: Omit<OperationParams, 'operation'> }>(base, { config: { answeredBy: listedBy } }, async (request) => {
    const { parent } = locationName(request.params.project, request.params.location, 'name');
    const owner = tenantFor(request, tenants, request.params.location);
    const page = owner.ops.list(parent, listRequest(request));
    return { operations: page.items.map(owner.present), ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
  });

  /** The operation name the path gives (with `verb`, or none: anything else is a path nobody serves). */
  const nameOf = (request: FastifyRequest<{ Params: OperationParams }>, verb?: string): string => {
    const split = splitVerb(request.params.operation);
    if (split.verb !== verb) throw unknownPath(request.method, request.url.split('?')[0]);
    return `${locationName(request.params.project, request.params.location, 'name').parent}/operations/${split.id}`;
  };
  /** The service that holds the operation `name` (NOT_FOUND when none the request may mean does). */
  const ownerOf = (request: FastifyRequest, name: string): OperationsTenant => {
    const owner = candidateTenants(request, tenants).find((t) => t.ops.has(name));
    if (!owner) throw notFound('google.longrunning.Operation', name);
    return owner;
  };
  const operationOf = (request: FastifyRequest<{ Params: OperationParams }>): { name: string; owner: OperationsTenant } => {
    const name = nameOf(request);
    return { name, owner: ownerOf(request, name) };
  };

  app.get<{ Params: OperationParams }>(`${base}/:operation`, { config: { answeredBy: heldBy } }, async (request) => {
    const { name, owner } = operationOf(request);
    return owner.present(owner.ops.get(name));
  });

  app.delete<{ Params: OperationParams }>(`${base}/:operation`, { config: { answeredBy: heldBy } }, async (request) => {
    const { name, owner } = operationOf(request);
    owner.ops.delete(name);
    return {};
  });

  app.post<{ Params: OperationParams }>(`${base}/:operation`, { config: { answeredBy: heldBy } }, async (request) => {
    const name = nameOf(request, 'cancel');
    // (CancelOperationRequest has only `name`, taken from the path: any other was refused by the front end.)
    objectBody(request);
    ownerOf(request, name).ops.cancel(name);
    return {};
  });
}
