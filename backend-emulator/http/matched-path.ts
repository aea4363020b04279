/**
 * The path a request was routed by, rebuilt from the route's pattern and its decoded parameters:
 * `/v1/projects/:project/...` with `project = "p"` is `/v1/projects/p/...`. Rules that depend on
 * the path (is this a Google API call, which message does it carry) read this, never the raw
 * URL: `/v%31/projects/...` reaches a Google route, so it is a Google call, whatever its spelling.
 */
import type { FastifyRequest } from 'fastify';

/** A route pattern cut into its literal text and its parameters, once per pattern (not per request). */
type PatternPart = { text: string } | { param: string };

/**
 * The parts of each route pattern seen: keyed by the pattern, which is the route's own string
 * (patterns are the app's registered routes, never the caller's: the table is as small as they).
 */
const compiledPatterns = new Map<string, PatternPart[]>();

/**
 * `::` is a literal ':' in a fastify pattern (`assets::aggregateValues`); `:name` a parameter
 * running to the next '/' (or to a ':' that starts a custom verb); `*` the rest of the path.
 */
const PATTERN_TOKEN = /::|:([A-Za-z_$][\w$]*)|\*/g;

function compilePattern(pattern: string): PatternPart[] {
  const parts: PatternPart[] = [];
  let text = '';
  let last = 0;
  for (const match of pattern.matchAll(PATTERN_TOKEN)) {
    text += pattern.slice(last, match.index);
    last = match.index + match[0].length;
    if (match[0] === '::') {
      text += ':';
      continue;
    }
    if (text) parts.push({ text });
    text = '';
    parts.push({ param: match[0] === '*' ? '*' : match[1] });
  }
  text += pattern.slice(last);
  if (text) parts.push({ text });
  return parts;
}

/**
 * The routed path with each parameter kept to the one segment the route gave it (a decoded '/'
 * in a value is `%2F` again): `.../sources/x%2FerrorFrames` reached the route of one source, so
 * it is `sources.get` of `x%2FerrorFrames`, never `errorFrames.list` of source `x`. What the
 * front end and the authorization decision read (through http/request-method.ts).
 */
export function matchedMethodPath(request: FastifyRequest): string | undefined {
  const pattern = request.routeOptions.url;
  if (pattern === undefined) return undefined;
  let parts = compiledPatterns.get(pattern);
  if (parts === undefined) {
    parts = compilePattern(pattern);
    compiledPatterns.set(pattern, parts);
  }
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  let path = '';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if ('text' in part) path += part.text;
    else if (part.param === '*') path += params['*'] ?? '';
    else {
      const value = params[part.param] ?? '';
      path += value.includes('/') ? value.replace(/\//g, '%2F') : value;
    }
  }
  return path;
}
