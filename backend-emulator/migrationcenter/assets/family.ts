/**
 * Assets: what an import or a discovery client reports about one machine, curated by users.
 *
 *   GET    {location}/assets?pageSize=&pageToken=&filter=&orderBy=&view=
 *   GET    {location}/assets/{id}?view=
 *   PATCH  {location}/assets/{id}?updateMask=&requestId=     -> Asset (asset-writes.ts)
 *   DELETE {location}/assets/{id}?requestId=                 -> Empty
 *   POST   {location}/assets:aggregateValues {aggregations, filter}  -> {results}
 *   POST   {location}/assets:batchUpdate {requests}            -> {assets}
 *   POST   {location}/assets:batchDelete {names, allowMissing, cascadingRules} -> Empty
 *
 * (`assets:reportAssetFrames` is the asset-frames family's: frames need sources.)
 */
import type { FastifyRequest } from 'fastify';
import type { Family, LocationParams } from '../family';
import { idSegment, parentOf } from '../family';
import { objectBody, queryParam } from '../../http/body';
import { listRequest } from '../../http/list-request';
import { Assets } from './assets';
import { AssetWrites } from './asset-writes';

type AssetParams = LocationParams & { asset: string };

export const assetsFamily: Family<'assets'> = {
  key: 'assets',
  build: (scope) => new Assets(scope.store),
  routes({ app, prefix, store, ops }, assets) {
    const writes = new AssetWrites(store, ops);
    const assetName = (request: FastifyRequest<{ Params: AssetParams }>): { name: string; location: string } => {
      const location = parentOf(request, 'name');
      return { name: `${location}/assets/${idSegment(request, request.params.asset).id}`, location };
    };
    app.get<{ Params: LocationParams }>(`${prefix}/assets`, async (request) =>
      assets.list(parentOf(request), listRequest(request), queryParam(request, 'view')),
    );
    // The `assets:verb` paths, registered before the `:asset` routes (fastify's `::` is a literal colon).
    app.post<{ Params: LocationParams }>(`${prefix}/assets::aggregateValues`, async (request) =>
      assets.aggregateValues(parentOf(request), objectBody(request)),
    );
    app.post<{ Params: LocationParams }>(`${prefix}/assets::batchUpdate`, async (request) => writes.batchUpdate(parentOf(request), objectBody(request)));
    app.post<{ Params: LocationParams }>(`${prefix}/assets::batchDelete`, async (request) => writes.batchDelete(parentOf(request), objectBody(request)));
    app.get<{ Params: AssetParams }>(`${prefix}/assets/:asset`, async (request) => assets.get(assetName(request).name, queryParam(request, 'view')));
    app.patch<{ Params: AssetParams }>(`${prefix}/assets/:asset`, async (request) => {
      const { name, location } = assetName(request);
      return writes.patch(name, location, queryParam(request, 'updateMask'), queryParam(request, 'requestId'), objectBody(request));
    });
    app.delete<{ Params: AssetParams }>(`${prefix}/assets/:asset`, async (request) => {
      const { name, location } = assetName(request);
      return writes.delete(name, location, queryParam(request, 'requestId'));
    });
  },
};
