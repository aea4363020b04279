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
import type { FastifyRequest } from 'fastify';
import type { Family, LocationParams } from '../family';
import { parentOf } from '../family';
import { checkProject } from '../../http/names';
import { objectBody, queryParam } from '../../http/body';
import { listRequest } from '../../http/list-request';
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
  routes({ app, prefix }, { locations, settings }) {
    const listPath = prefix.slice(0, prefix.lastIndexOf('/'));
    app.get<{ Params: { project: string } }>(listPath, async (request: FastifyRequest<{ Params: { project: string } }>) => {
      return locations.list(checkProject(request.params.project), listRequest(request));
    });
    app.get<{ Params: LocationParams }>(prefix, async (request) => {
      parentOf(request, 'name');
      return locations.get(request.params.project, request.params.location);
    });
    app.get<{ Params: LocationParams }>(`${prefix}/settings`, async (request) => settings.get(parentOf(request, 'name')));
    app.patch<{ Params: LocationParams }>(`${prefix}/settings`, async (request) =>
      settings.update(parentOf(request, 'name'), queryParam(request, 'updateMask'), queryParam(request, 'requestId'), objectBody(request)),
    );
  },
};
