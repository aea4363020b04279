/**
 * The path a request was routed by, rebuilt from the route's pattern and its decoded parameters:
 * `/v1/projects/:project/...` with `project = "p"` is `/v1/projects/p/...`. Rules that depend on
 * the path (is this a Google API call, which message does it carry) read this, never the raw
 * URL: `/v%31/projects/...` reaches a Google route, so it is a Google call, whatever its spelling.
 */
import type { FastifyRequest } from 'fastify';

/**
 * The routed path with each parameter kept to the one segment the route gave it (a decoded '/'
 * in a value is `%2F` again): `.../sources/x%2FerrorFrames` reached the route of one source, so
 * it is `sources.get` of `x%2FerrorFrames`, never `errorFrames.list` of source `x`. What the
 * front end and the authorization decision read (through http/request-method.ts).
 */
export function matchedMethodPath(request: FastifyRequest): string | undefined {
  const pattern = request.routeOptions.url;
  if (pattern === undefined) return undefined;
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  // `::` is a literal ':' in a fastify pattern (`assets::aggregateValues`); `:name` a parameter
  // running to the next '/' (or to a ':' that starts a custom verb); `*` the rest of the path.
  return pattern.replace(/::|:([A-Za-z_$][\w$]*)|\*/g, (token, name: string | undefined) => {
    if (token === '::') return ':';
    if (token === '*') return params['*'] ?? '';
    return (params[name as string] ?? '').replace(/\//g, '%2F');
  });
}
