/**
 * The `google.cloud.location.Locations` mixin of one service, under its version prefix:
 *   GET {prefix}/projects/{p}/locations?filter=&pageSize=&pageToken=   -> {locations, nextPageToken?}
 *   GET {prefix}/projects/{p}/locations/{l}                             -> Location
 *
 * A service declares the locations it serves (its `locationIds`); a location it does not list is
 * NOT_FOUND on `get`. Services with the same prefix share the routes (shared-paths.ts): a `get`
 * is answered by the service the Host names or else the first that claims the location; a `list`
 * by the service the Host names, or else by every service, each location once, from the first
 * service that claims it (a list of places, not of any service's records).
 */
import type { FastifyInstance } from 'fastify';
import { invalidArgument, notFound } from '../errors';
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
  /** The location ids the service serves (`global`, `us-central1`, ...), in the order it lists them. */
  readonly locationIds: readonly string[];
  /** A location's display name, when the service gives one. */
  readonly displayName?: (locationId: string) => string | undefined;
}

const LOCATION_FIELDS: ListFields<Location> = {
  scalars: { name: (l) => l.name, locationId: (l) => l.locationId, displayName: (l) => l.displayName },
  name: (l) => l.name,
};

function locationOf(tenant: LocationsTenant, project: string, locationId: string): Location {
  const displayName = tenant.displayName?.(locationId);
  return { name: `projects/${project}/locations/${locationId}`, locationId, ...(displayName ? { displayName } : {}) };
}

/** Registers (or joins, for a second service with the same prefix) the locations routes of `prefix`. */
export function registerLocationRoutes(app: FastifyInstance, owner: object, prefix: string, tenant: LocationsTenant): void {
  const { first, tenants } = joinSharedPath(owner, `locations ${prefix}`, tenant);
  if (!first) return;

  app.get<{ Params: { project: string } }>(`${prefix}/projects/:project/locations`, async (request) => {
    const { project } = request.params;
    if (!/^[^/\s:]+$/.test(project)) throw invalidArgument([{ field: 'name', description: `'${project}' is not a valid project` }]);
    const hosted = hostedService(request, tenants);
    const seen = new Set<string>();
    const all: Location[] = [];
    for (const t of hosted ? [hosted] : tenants) {
      for (const id of t.locationIds) {
        if (seen.has(id) || (!hosted && tenantFor(request, tenants, id) !== t)) continue;
        seen.add(id);
        all.push(locationOf(t, project, id));
      }
    }
    const page = listPage(all, listRequest(request), LOCATION_FIELDS, `locations:${prefix}:${project}`);
    return { locations: page.items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
  });

  app.get<{ Params: { project: string; location: string } }>(`${prefix}/projects/:project/locations/:location`, async (request) => {
    const { parent } = locationName(request.params.project, request.params.location, 'name');
    const t = tenantFor(request, tenants, request.params.location);
    if (!t.locationIds.includes(request.params.location)) throw notFound('locations.googleapis.com/Location', parent);
    return locationOf(t, request.params.project, request.params.location);
  });
}
