/**
 * Relations between assets, read-only (relations.ts says why the list is always empty).
 *
 *   GET {location}/relations?pageSize=&pageToken=&filter=&orderBy=
 *   GET {location}/relations/{id}
 */
import type { Family } from '../family';
import { collectionRoutes } from '../collection-routes';
import { Relations } from './relations';

export const relationsFamily: Family<'relations'> = {
  key: 'relations',
  build: (scope) => new Relations(scope.store, scope.ops),
  routes(scope, relations) {
    collectionRoutes(scope, relations, { methods: ['list', 'get'] });
  },
};
