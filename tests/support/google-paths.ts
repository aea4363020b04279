/**
 * Google's paths for tests that walk every method: the routes an app registers on Google API
 * paths, the methods of the table each serves, and concrete URLs of the table's patterns.
 */
import type { FastifyInstance } from 'fastify';
import { GOOGLE_METHODS } from '../../backend-emulator/http/google-methods-table';

/** Every route registered on a Google API path, as [METHOD, fastify pattern]: call before `app.ready()`. */
export function googleRoutes(app: FastifyInstance): Array<[string, string]> {
  const routes: Array<[string, string]> = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) if (/^\/v1(alpha1)?\//.test(route.url) && method !== 'HEAD') routes.push([method, route.url]);
  });
  return routes;
}

/**
 * The Google methods a route serves: the table's paths of the same HTTP method that are the route's
 * pattern with each parameter as one segment, or that pattern plus a custom verb (`ep:setIamPolicy`
 * reaches the route `.../endpointPolicies/:endpointPolicy`).
 */
export function methodsOfRoute(method: string, pattern: string): Array<{ id: string; path: string }> {
  // `::` is a literal ':' in a fastify pattern; `:name` a parameter.
  const shape = pattern.replace(/::|:\w+/g, (token) => (token === '::' ? ':' : '*'));
  return GOOGLE_METHODS.filter(
    ([m, path]) => m === method && (path === shape || (path.startsWith(`${shape}:`) && !path.slice(shape.length + 1).includes('/'))),
  ).map(([, path, id]) => ({ id, path }));
}

/** A concrete URL of a table path (`/v1/projects/*\/locations/*\/meshes`): every `*` an id (`global` for a location). */
export function concreteGooglePath(path: string): string {
  const parts = path.split('/');
  return parts
    .map((part, i) => (part.startsWith('*') ? (parts[i - 1] === 'locations' ? 'global' : `x-${parts[i - 1].toLowerCase()}`) + part.slice(1) : part))
    .join('/');
}
