/**
 * The `google.cloud.location.Locations` mixin of one service, under its version prefix:
 *   GET {prefix}/projects/{p}/locations?filter=&pageSize=&pageToken=   -> {locations, nextPageToken?}
 *   GET {prefix}/projects/{p}/locations/{l}                             -> Location
 *
 * A service answers its list and its `get` (NOT_FOUND for a location it does not have). Services with the same prefix share the routes (shared-paths.ts): a `get`
 * is answered by the service the Host names or else the first that claims the location; a `list`
 * by the service the Host names, or else by every service, each location once, from the first
 * service that claims it (a list of places, not of any service's records).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidArgument } from '../errors';
import { locationName } from '../http/names';
import { listRequest } from '../http/list-request';
import { listPage, type ListFields } from '../query/list-query';
import { hostedService, joinSharedPath, tenantFor, type Tenant } from './shared-paths';

export interface Location {
  name: string;
  locationId: string;
  displayName?: string;
  labels?: Record<string, string>;
}

export interface LocationsTenant extends Tenant {
  /** Every location of the project the service lists (unpaged: the route pages and filters). */
  readonly all: (project: string) => Location[];
  /** One location; throws NOT_FOUND for a location the service does not have. */
  readonly get: (project: string, locationId: string) => Location;
}

const LOCATION_FIELDS: ListFields<Location> = {
  scalars: { name: (l) => l.name, locationId: (l) => l.locationId, displayName: (l) => l.displayName },
  name: (l) => l.name,
};

/** Registers (or joins, for a second service with the same prefix) the locations routes of `prefix`. */
export function registerLocationRoutes(app: FastifyInstance, owner: object, prefix: string, tenant: LocationsTenant): void {
  const { first, tenants } = joinSharedPath(owner, `locations ${prefix}`, tenant);
  if (!first) return;

  // The services that answer (their permission is the one `--auth` checks, auth/access.ts).
  const listedBy = (request: FastifyRequest): readonly string[] => {
    const hosted = hostedService(request, tenants);
    return (hosted ? [hosted] : tenants).map((t) => t.service);
  };
  const locatedBy = (request: FastifyRequest): readonly string[] => [tenantFor(request, tenants, (request.params as { location: string }).location).service];

  app.get<{ Params: { project: string } }>(`${prefix}/projects/:project/locations`, { config: { answeredBy: listedBy } }, async (request) => {
    const { project } = request.params;
    if (!/^[^/\s:]+$/.test(project)) throw invalidArgument([{ field: 'name', description: `'${project}' is not a valid project` }]);
    const hosted = hostedService(request, tenants);
    const seen = new Set<string>();
    const all: Location[] = [];
    for (const t of hosted ? [hosted] : tenants) {
      for (const location of t.all(project)) {
        if (seen.has(location.locationId) || (!hosted && tenantFor(request, tenants, location.locationId) !== t)) continue;
        seen.add(location.locationId);
        all.push(location);
      }
    }
    all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const page = listPage(all, listRequest(request), LOCATION_FIELDS, `locations:${prefix}:${project}`);
    return { locations: page.items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
  });

  app.get<{ Params: { project: string; location: string } }>(
    `${prefix}/projects/:project/locations/:location`,
    { config: { answeredBy: locatedBy } },
    async (request) => {
      locationName(request.params.project, request.params.location, 'name');
      return tenantFor(request, tenants, request.params.location).get(request.params.project, request.params.location);
    },
  );
}
