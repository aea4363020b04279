/**
 * Locations and settings of Migration Center (locations.ts, settings.ts have the rules).
 *
 *   GET    /{version}/projects/{p}/locations?filter=&pageSize=&pageToken=   -> ListLocationsResponse
 *   GET    {location}                                                       -> Location
 *   GET    {location}/settings                                              -> Settings
 *   PATCH  {location}/settings?updateMask=&requestId=                       -> Operation (done; response Settings)
 *
 * The list route is the one above the location: `scope.prefix` without its last segment, so that
 * the family serves whichever API version its scope is registered under.
 */
import type { Family, LocationParams } from '../family';
import { parentOf } from '../family';
import { checkProject } from '../../http/names';
import { objectBody, queryParam } from '../../http/body';
import { registerLocationRoutes } from '../../mixins/locations';
import { Locations, resourceCollections } from './locations';
import { LocationSettings } from './settings';

/** The domain of the family: the locations, and the settings of each. */
export interface LocationsDomain {
  locations: Locations;
  settings: LocationSettings;
}

export const locationsFamily: Family<'locations'> = {
  key: 'locations',
  build(scope) {
    const settings = new LocationSettings(scope.store, scope.ops, scope.domain('preferenceSets'));
    settings.guardDeletes();
    return { locations: new Locations(scope.store, resourceCollections(scope.ops.collection)), settings };
  },
  routes({ app, prefix, ctx, version }, { locations, settings }) {
    // `get` and `list` of locations: on /v1 the same paths are Network Services' too, so they are
    // declared through the shared-paths mixin (mixins/locations.ts), which answers for both.
    registerLocationRoutes(app, ctx.operations, version.base, {
      service: 'migrationcenter',
      all: (project) => locations.all(checkProject(project)),
      get: (project, location) => locations.get(project, location),
    });
    app.get<{ Params: LocationParams }>(`${prefix}/settings`, async (request) => settings.get(parentOf(request, 'name')));
    app.patch<{ Params: LocationParams }>(`${prefix}/settings`, async (request) =>
      settings.update(parentOf(request, 'name'), queryParam(request, 'updateMask'), queryParam(request, 'requestId'), objectBody(request)),
    );
  },
};
