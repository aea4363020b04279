/**
 * Groups: named sets of assets (groups.ts has the rules).
 *
 *   POST   {location}/groups?groupId=&requestId=           -> Operation (done; response Group)
 *   GET    {location}/groups?pageSize=&pageToken=&filter=&orderBy=
 *   GET    {location}/groups/{id}
 *   PATCH  {location}/groups/{id}?updateMask=&requestId=   -> Operation (done; response Group)
 *   DELETE {location}/groups/{id}?requestId=               -> Operation (done; response Empty)
 *   POST   {location}/groups/{id}:addAssets                -> Operation (done; response Group)
 *   POST   {location}/groups/{id}:removeAssets             -> Operation (done; response Group)
 */
import type { Family } from '../family';
import { collectionRoutes } from '../collection-routes';
import { Groups } from './groups';

export const groupsFamily: Family<'groups'> = {
  key: 'groups',
  build(scope) {
    // Memberships live in the asset store: the assets family comes first.
    scope.domain('assets');
    return new Groups(scope.store, scope.ops);
  },
  routes(scope, groups) {
    collectionRoutes(scope, groups, {
      verbs: {
        addAssets: (name, location, body) => groups.addAssets(name, location, body),
        removeAssets: (name, location, body) => groups.removeAssets(name, location, body),
      },
    });
  },
};
