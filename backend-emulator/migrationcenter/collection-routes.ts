/**
 * The routes of a `ResourceCollection` (resource-collection.ts): each translates the wire (path,
 * query, body) and calls one method of the collection.
 *
 *   POST   {parent}/{segment}?{idField}=&requestId=          -> create
 *   GET    {parent}/{segment}?pageSize=&pageToken=&filter=&orderBy=
 *   GET    {parent}/{segment}/{id}
 *   PATCH  {parent}/{segment}/{id}?updateMask=&requestId=    -> patch
 *   DELETE {parent}/{segment}/{id}?requestId=                -> delete
 *   POST   {parent}/{segment}/{id}:{verb}                    -> the family's verb handler
 *
 * `{parent}` is the location, or a resource under it (`reportConfigs/{id}` for reports): give
 * `under` for that. Which query parameters each method takes is the front end's rule
 * (http/front-end.ts), read from Google's method table, not repeated here.
 */
import type { FastifyRequest } from 'fastify';
import { objectBody, queryParam } from '../http/body';
import { listRequest } from '../http/list-request';
import type { FamilyScope, LocationParams } from './family';
import { idSegment, parentOf } from './family';
import type { NamedResource, ResourceCollection } from './resource-collection';

type Params = LocationParams & Record<string, string>;

/** A custom verb: `POST {name}:{verb}` with the resource's name, its location and the JSON body. */
export type VerbHandler = (name: string, location: string, body: Record<string, unknown>, request: FastifyRequest) => unknown;

export interface CollectionRouteOptions {
  /**
   * The parent resource's collection segment when the parent is not the location: `reportConfigs`;
   * a list of them for a parent further down (`['reportConfigs', 'reports']`).
   */
  under?: string | readonly string[];
  /** Which standard methods the collection has (Google omits some: reports have no patch). */
  methods?: ReadonlyArray<'create' | 'list' | 'get' | 'patch' | 'delete'>;
  /** Custom verbs on one resource. */
  verbs?: Readonly<Record<string, VerbHandler>>;
  /** The create route's body limit, when it is not the emulator's. */
  bodyLimit?: number;
}

const ALL_METHODS = ['create', 'list', 'get', 'patch', 'delete'] as const;

export function collectionRoutes<W extends NamedResource>(scope: FamilyScope, collection: ResourceCollection<W>, options: CollectionRouteOptions = {}): void {
  const { app } = scope;
  const { segment, idField } = collection.spec;
  const methods = new Set(options.methods ?? ALL_METHODS);
  const verbs = options.verbs ?? {};
  const under = options.under === undefined ? [] : typeof options.under === 'string' ? [options.under] : options.under;
  const parentPath = scope.prefix + under.map((s, i) => `/${s}/:parent${i}`).join('');
  const base = `${parentPath}/${segment}`;

  /** The location, and the collection's parent (the location, or the resource `under` names). */
  const parentNames = (request: FastifyRequest<{ Params: Params }>, field: string): { location: string; parent: string } => {
    const location = parentOf(request, field);
    const parent = location + under.map((s, i) => `/${s}/${idSegment(request, request.params[`parent${i}`]).id}`).join('');
    return { location, parent };
  };
  const resourceName = (request: FastifyRequest<{ Params: Params }>, verbNames?: readonly string[]): { name: string; location: string; verb?: string } => {
    const { location, parent } = parentNames(request, 'name');
    const { id, verb } = idSegment(request, request.params.id, verbNames);
    return { name: `${parent}/${segment}/${id}`, location, ...(verb !== undefined ? { verb } : {}) };
  };

  if (methods.has('create')) {
    app.post<{ Params: Params }>(base, options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}, async (request) => {
      const { parent, location } = parentNames(request, 'parent');
      return collection.create(parent, queryParam(request, idField), queryParam(request, 'requestId'), objectBody(request), location);
    });
  }
  if (methods.has('list')) {
    app.get<{ Params: Params }>(base, async (request) => collection.list(parentNames(request, 'parent').parent, listRequest(request)));
  }
  if (methods.has('get')) {
    app.get<{ Params: Params }>(`${base}/:id`, async (request) => collection.get(resourceName(request).name));
  }
  if (methods.has('patch')) {
    app.patch<{ Params: Params }>(`${base}/:id`, async (request) => {
      const { name, location } = resourceName(request);
      return collection.patch(name, location, queryParam(request, 'updateMask'), queryParam(request, 'requestId'), objectBody(request));
    });
  }
  if (methods.has('delete')) {
    app.delete<{ Params: Params }>(`${base}/:id`, async (request) => {
      const { name, location } = resourceName(request);
      return collection.delete(name, location, queryParam(request, 'requestId'));
    });
  }
  const verbNames = Object.keys(verbs);
  if (verbNames.length > 0) {
    app.post<{ Params: Params }>(`${base}/:id`, async (request) => {
      const { name, location, verb } = resourceName(request, verbNames);
      return verbs[verb as string](name, location, objectBody(request), request);
    });
  }
}
