/**
 * Sources: where assets come from (sources.ts has the rules).
 *
 *   POST   {location}/sources?sourceId=&requestId=       -> Operation (done; response Source)
 *   GET    {location}/sources?pageSize=&pageToken=&filter=&orderBy=
 *   GET    {location}/sources/{id}
 *   PATCH  {location}/sources/{id}?updateMask=&requestId= -> Operation (done; response Source)
 *   DELETE {location}/sources/{id}?requestId=            -> Operation (done; response Empty)
 */
import type { FastifyRequest } from 'fastify';
import type { Family, LocationParams } from '../family';
import { idSegment, parentOf } from '../family';
import { objectBody, queryParam } from '../../http/body';
import { listRequest } from '../../http/list-request';
import { Sources } from './sources';

type SourceParams = LocationParams & { source: string };

export const sourcesFamily: Family<'sources'> = {
  key: 'sources',
  build(scope) {
    const sources = new Sources(scope.store, scope.ops, scope.domain('assets'));
    scope.ctx.seeds.register('sources', (value, field) => sources.seed(value, field));
    return sources;
  },
  routes({ app, prefix }, sources) {
    const sourceName = (request: FastifyRequest<{ Params: SourceParams }>): { name: string; parent: string } => {
      const parent = parentOf(request, 'name');
      return { name: `${parent}/sources/${idSegment(request, request.params.source).id}`, parent };
    };
    app.post<{ Params: LocationParams }>(`${prefix}/sources`, async (request) =>
      sources.create(parentOf(request), queryParam(request, 'sourceId'), queryParam(request, 'requestId'), objectBody(request)),
    );
    app.get<{ Params: LocationParams }>(`${prefix}/sources`, async (request) => sources.list(parentOf(request), listRequest(request)));
    app.get<{ Params: SourceParams }>(`${prefix}/sources/:source`, async (request) => sources.get(sourceName(request).name));
    app.patch<{ Params: SourceParams }>(`${prefix}/sources/:source`, async (request) => {
      const { name, parent } = sourceName(request);
      return sources.patch(name, parent, queryParam(request, 'updateMask'), queryParam(request, 'requestId'), objectBody(request));
    });
    app.delete<{ Params: SourceParams }>(`${prefix}/sources/:source`, async (request) => {
      const { name, parent } = sourceName(request);
      return sources.delete(name, parent, queryParam(request, 'requestId'));
    });
  },
};
