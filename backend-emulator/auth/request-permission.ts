/**
 * What a request needs to be allowed, read from the route the router matched: the Google method
 * its routed path is (http/google-methods.ts, the generated table), that method's IAM permission
 * (auth/method-permissions.ts) and the resource the path names. The one authorization decision
 * (auth/hook.ts) is made on this, once per request, before any handler runs; no route or domain
 * checks a permission of its own.
 *
 * The resource is the one the path names, without its version and custom verb: the resource
 * itself for a method on one (`projects/p/locations/l/groups/g` for `groups.addAssets`), the
 * parent for a method on a collection (`projects/p/locations/l` for `assets.list`, `groups.create`,
 * `assets:batchUpdate`, `getSettings`). Bindings on it and on its ancestors apply (auth/auth.ts).
 */
import type { FastifyRequest } from 'fastify';
import { type GoogleMethod } from '../http/google-methods';
import { requestGoogleMethod, requestRoutedPath } from '../http/request-method';
import { isGoogleApiPath } from '../http/protojson';
import type { ResourceAttributes } from './auth';
import { methodPermission } from './method-permissions';

export type RequestPermission =
  /** Hold one of `permissions` on `resource` (one, but for a list two services answer). */
  | { kind: 'permission'; permissions: readonly string[]; resource: ResourceAttributes }
  /** The method needs no permission (testIamPermissions), or the request is no Google API call. */
  | { kind: 'none' }
  /** A Google API route reached by a path that is no method of Google's (its handler answers 404). */
  | { kind: 'no-method' };

/** `endpointPolicies` -> `EndpointPolicy`, `meshes` -> `Mesh`, `assets` -> `Asset`. */
function singular(collection: string): string {
  const one = collection.endsWith('ies')
    ? `${collection.slice(0, -3)}y`
    : /(sh|ch|ss|x)es$/.test(collection)
      ? collection.slice(0, -2)
      : collection.replace(/s$/, '');
  return one.charAt(0).toUpperCase() + one.slice(1);
}

/** The resource of `service` the routed `path` names, as the table's `method.path` spells its shape. */
export function resourceOf(path: string, method: GoogleMethod, service: string): ResourceAttributes {
  const segments = path.split('/').slice(2);
  const shape = method.path.split('/');
  const last = shape[shape.length - 1];
  if (last.includes(':')) segments[segments.length - 1] = segments[segments.length - 1].replace(/:[^/:]*$/, '');
  // A collection (or a singleton under a location, `settings`) names its parent.
  if (!last.startsWith('*')) segments.pop();
  const name = segments.join('/');
  const collection = segments[segments.length - 2] ?? 'projects';
  const type = collection === 'projects' ? 'cloudresourcemanager.googleapis.com/Project' : `${service}.googleapis.com/${singular(collection)}`;
  return { name, type, service: `${service}.googleapis.com` };
}

/**
 * What the request needs (see the module comment). Requests no route matched need nothing here.
 * A path two services share is one method of the table (the generator keeps the first service's):
 * the route names the services that answer (auth/access.ts `answeredBy`), and the permission is
 * that service's method's (one of them, for a list both answer).
 */
export function requestPermission(request: FastifyRequest): RequestPermission {
  const path = requestRoutedPath(request);
  if (path === undefined || !isGoogleApiPath(path)) return { kind: 'none' };
  const method = requestGoogleMethod(request);
  if (!method) return { kind: 'no-method' };
  const [service, rest] = splitService(method.id);
  const services = request.routeOptions.config?.answeredBy?.(request) ?? [service];
  const permissions: string[] = [];
  for (const id of services.map((s) => `${s}.${rest}`)) {
    const permission = methodPermission(id);
    if (permission === null) return { kind: 'none' };
    // A method without a permission is refused (fail closed); the method table's test forbids it.
    permissions.push(permission ?? `${id} (no permission declared)`);
  }
  return { kind: 'permission', permissions, resource: resourceOf(path, method, services[0] ?? service) };
}

/** `migrationcenter.projects.locations.get` -> [`migrationcenter`, `projects.locations.get`]. */
function splitService(id: string): [string, string] {
  const dot = id.indexOf('.');
  return [id.slice(0, dot), id.slice(dot + 1)];
}
