/**
 * Preference sets: the preferences reports apply (preference-sets.ts has the rules).
 *
 *   POST   {location}/preferenceSets?preferenceSetId=&requestId=   -> Operation (done; response PreferenceSet)
 *   GET    {location}/preferenceSets?pageSize=&pageToken=&orderBy=
 *   GET    {location}/preferenceSets/{id}
 *   PATCH  {location}/preferenceSets/{id}?updateMask=&requestId=    -> Operation (done; response PreferenceSet)
 *   DELETE {location}/preferenceSets/{id}?requestId=               -> Operation (done; response Empty)
 */
import type { Family } from '../family';
import { collectionRoutes } from '../collection-routes';
import { PreferenceSets } from './preference-sets';

export const preferenceSetsFamily: Family<'preferenceSets'> = {
  key: 'preferenceSets',
  build(scope) {
    return new PreferenceSets(scope.store, scope.ops);
  },
  routes(scope, preferenceSets) {
    collectionRoutes(scope, preferenceSets);
  },
};
