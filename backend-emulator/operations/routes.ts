/**
 * The `google.longrunning.Operations` mixin routes of one service, under its version prefix:
 *   GET    {prefix}/projects/{p}/locations/{l}/operations            list (filter, pageSize, pageToken)
 *   GET    {prefix}/projects/{p}/locations/{l}/operations/{id}       get
 *   DELETE {prefix}/projects/{p}/locations/{l}/operations/{id}       delete -> {}
 *   POST   {prefix}/projects/{p}/locations/{l}/operations/{id}:cancel cancel -> {}
 */
import type { FastifyInstance } from 'fastify';
import { refuseUnknownFields, unknownPath } from '../errors';
import { objectBody } from '../http/body';
import { locationName, splitVerb } from '../http/names';
import { listRequest } from '../http/list-request';
import type { ServiceOperations } from './operations';

interface OperationParams {
  project: string;
  location: string;
  operation: string;
}

export function registerOperationRoutes(app: FastifyInstance, ops: ServiceOperations, prefix: string): void {
  const base = `${prefix}/projects/:project/locations/:location/operations`;

  app.get<{ Params: Omit<OperationParams, 'operation'> }>(base, async (request) => {
    const { parent } = locationName(request.params.project, request.params.location, 'name');
    const page = ops.list(parent, listRequest(request));
    return { operations: page.items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
  });

  const nameOf = (p: OperationParams, id: string): string => `${locationName(p.project, p.location, 'name').parent}/operations/${id}`;

  app.get<{ Params: OperationParams }>(`${base}/:operation`, async (request) => {
    const { id, verb } = splitVerb(request.params.operation);
    if (verb !== undefined) throw unknownPath(request.method, request.url.split('?')[0]);
    return ops.get(nameOf(request.params, id));
  });

  app.delete<{ Params: OperationParams }>(`${base}/:operation`, async (request) => {
    const { id, verb } = splitVerb(request.params.operation);
    if (verb !== undefined) throw unknownPath(request.method, request.url.split('?')[0]);
    ops.delete(nameOf(request.params, id));
    return {};
  });

  app.post<{ Params: OperationParams }>(`${base}/:operation`, async (request) => {
    const { id, verb } = splitVerb(request.params.operation);
    if (verb !== 'cancel') throw unknownPath(request.method, request.url.split('?')[0]);
    // CancelOperationRequest has only `name` (taken from the path); other fields are refused, as everywhere.
    refuseUnknownFields(objectBody(request), (k) => k === 'name');
    ops.cancel(nameOf(request.params, id));
    return {};
  });
}
