import type { FastifyRequest } from 'fastify';
import { matchedMethodPath } from '../../../backend-emulator/http/matched-path';

/** A request as the router leaves it: the route's pattern and its decoded parameters. */
const routed = (url: string | undefined, params: Record<string, string>): FastifyRequest => ({ routeOptions: { url }, params }) as unknown as FastifyRequest;

describe('matchedMethodPath', () => {
  test('puts each parameter in its place', () => {
    const pattern = '/v1/projects/:project/locations/:location/endpointPolicies/:endpointPolicy';
    expect(matchedMethodPath(routed(pattern, { project: 'p', location: 'global', endpointPolicy: 'ep:getIamPolicy' }))).toBe(
      '/v1/projects/p/locations/global/endpointPolicies/ep:getIamPolicy',
    );
    // The same pattern again (compiled once): other values give their own path.
    expect(matchedMethodPath(routed(pattern, { project: 'q', location: 'us', endpointPolicy: 'x' }))).toBe('/v1/projects/q/locations/us/endpointPolicies/x');
  });

  test("keeps a decoded '/' in a value as %2F: the value is one segment", () => {
    expect(matchedMethodPath(routed('/v1alpha1/projects/:p/locations/:l/sources/:source', { p: 'a', l: 'b', source: 'x/errorFrames' }))).toBe(
      '/v1alpha1/projects/a/locations/b/sources/x%2FerrorFrames',
    );
  });

  test("reads '::' as a literal ':' and '*' as the rest of the path", () => {
    expect(matchedMethodPath(routed('/v1alpha1/projects/:p/locations/:l/assets::aggregateValues', { p: 'a', l: 'b' }))).toBe(
      '/v1alpha1/projects/a/locations/b/assets:aggregateValues',
    );
    expect(matchedMethodPath(routed('/console/static/*', { '*': 'js/app.js' }))).toBe('/console/static/js/app.js');
    expect(matchedMethodPath(routed('/healthz', {}))).toBe('/healthz');
  });

  test('a missing parameter is empty, and no route is undefined', () => {
    expect(matchedMethodPath(routed('/v1/projects/:project/locations', {}))).toBe('/v1/projects//locations');
    expect(matchedMethodPath(routed(undefined, {}))).toBeUndefined();
  });
});
