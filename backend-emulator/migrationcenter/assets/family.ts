/**
 * Assets: what an import or a discovery client reports about one machine.
 *
 *   GET  {location}/assets?pageSize=&pageToken=&filter=&orderBy=&view=
 *   GET  {location}/assets/{id}?view=
 *   POST {location}/assets:aggregateValues {aggregations, filter}  -> {results}
 */
import type { FastifyRequest } from 'fastify';
import type { Family, LocationParams } from '../family';
import { idSegment, parentOf } from '../family';
import { objectBody, queryParam } from '../../http/body';
import { listRequest } from '../../http/list-request';
import { Assets } from './assets';

export const assetsFamily: Family<'assets'> = {
  key: 'assets',
  build: (scope) => new Assets(scope.store),
  routes({ app, prefix }, assets) {
    app.get<{ Params: LocationParams }>(`${prefix}/assets`, async (request) =>
      assets.list(parentOf(request), listRequest(request), queryParam(request, 'view')),
    );
    // The `assets:aggregateValues` verb path, registered before the `:asset` route (fastify's `::` is a literal colon).
    app.post<{ Params: LocationParams }>(`${prefix}/assets::aggregateValues`, async (request) =>
      assets.aggregateValues(parentOf(request), objectBody(request)),
    );
    app.get<{ Params: LocationParams & { asset: string } }>(
      `${prefix}/assets/:asset`,
      async (request: FastifyRequest<{ Params: LocationParams & { asset: string } }>) => {
        const { id } = idSegment(request, request.params.asset);
        return assets.get(`${parentOf(request, 'name')}/assets/${id}`, queryParam(request, 'view'));
      },
    );
  },
};
