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
 *   GET /v1/projects/{p}/locations[/{l}]                           (only `global`)
 * The operations and locations paths are Migration Center v1's too (mixins/shared-paths.ts):
 * without a Host naming a service, Network Services answers for `global`, its only location.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../context';
import { invalidArgument, notFound, unknownPath } from '../errors';
import { objectBody, queryParam } from '../http/body';
import { NAME_SEGMENT_ID, checkResourceId, locationName, splitVerb } from '../http/names';
import { listRequest } from '../http/list-request';
import { ProtoJsonText } from '../http/protojson';
import { declareRequestBodies } from '../http/request-bodies';
import { keysetPageRequest } from '../query/list-query';
import { registerOperationRoutes } from '../operations/routes';
import { registerLocationRoutes } from '../mixins/locations';
import { EndpointPolicies, checkGlobalLocation } from './endpoint-policies';
import { IamPolicies } from './iam-policy';
import { EndpointPolicyIam } from './endpoint-policy-iam';
import { NETWORK_SERVICES_BODIES } from './request-bodies';

export const API_PREFIX = '/v1';
export const OPERATION_METADATA_TYPE = 'type.googleapis.com/google.cloud.networkservices.v1.OperationMetadata';

interface ParentParams {
  project: string;
  location: string;
}
interface NameParams extends ParentParams {
  endpointPolicy: string;
}

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
  const iam = new EndpointPolicyIam(endpointPolicies, iamPolicies, () => ctx.auth);
  instances.set(ctx, { endpointPolicies, iamPolicies });

  ctx.seeds.register('endpointPolicies', (value, field) => endpointPolicies.seed(value, field));
  ctx.seeds.register('iamPolicies', (value, field) => iam.seed(value, field));

  // What each method reads its body into: the front end refuses unknown names by it.
  declareRequestBodies(NETWORK_SERVICES_BODIES);

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

  app.post<{ Params: ParentParams }>(base, async (request) => {
    const { parent } = locationName(request.params.project, request.params.location);
    // (A name EndpointPolicy has not was refused by the front end, before these rules: request-bodies.ts.)
    const body = objectBody(request);
    checkGlobalLocation(request.params.location, 'parent');
    const id = checkResourceId(queryParam(request, 'endpointPolicyId'), 'endpointPolicyId');
    return endpointPolicies.create(parent, id, body);
  });

  app.get<{ Params: ParentParams }>(base, async (request) => {
    const { parent } = locationName(request.params.project, request.params.location);
    checkGlobalLocation(request.params.location, 'parent');
    const page = endpointPolicies.list(parent, keysetPageRequest(listRequest(request), `${API_PREFIX}/${parent}/endpointPolicies`));
    return { endpointPolicies: page.items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
  });

  // Not async: a read answers in the request's own turn, without a promise and a microtask to
  // wait for (fastify sends a plain function's return value, and its throw as the error).
  app.get<{ Params: NameParams }>(`${base}/:endpointPolicy`, (request) => {
    const { name, verb } = nameOf(request);
    if (verb === undefined) return endpointPolicies.get(name);
    if (verb !== 'getIamPolicy') throw unknownPath(request.method, path(request));
    // Kept text, sent as it is by the front end (http/answer-text.ts, http/protojson.ts ProtoJsonText).
    return new ProtoJsonText(iam.getIamPolicyText(name, queryParam(request, 'options.requestedPolicyVersion')));
  });

  // Not async either: setIamPolicy's write is synchronous (its commit is done when it returns; its
  // answer then waits for the commit's flush, as every answer does: http/flushed-answers.ts).
  app.post<{ Params: NameParams }>(`${base}/:endpointPolicy`, (request) => {
    const { name, verb } = nameOf(request);
    if (verb === 'setIamPolicy') return iam.setIamPolicy(name, objectBody(request), request.principal);
    if (verb === 'testIamPermissions') return iam.testIamPermissions(name, objectBody(request), request.principal);
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

  const claimsLocation = (location: string): boolean => location === 'global';
  registerOperationRoutes(app, ops, API_PREFIX, { claimsLocation });
  const global = (project: string) => ({ name: `projects/${project}/locations/global`, locationId: 'global' });
  registerLocationRoutes(app, ctx.operations, API_PREFIX, {
    service: 'networkservices',
    claimsLocation,
    all: (project) => [global(project)],
    get: (project, location) => {
      if (location !== 'global') throw notFound('locations.googleapis.com/Location', `projects/${project}/locations/${location}`);
      return global(project);
    },
  });
}
