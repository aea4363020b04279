/**
 * Report configs: the groups a report covers and their preference sets (report-configs.ts has the
 * rules). Google has no patch.
 *
 *   POST   {location}/reportConfigs?reportConfigId=&requestId=   -> Operation (done; response ReportConfig)
 *   GET    {location}/reportConfigs?pageSize=&pageToken=&filter=&orderBy=
 *   GET    {location}/reportConfigs/{id}
 *   DELETE {location}/reportConfigs/{id}?force=&requestId=       -> Operation (done; response Empty)
 */
import type { FastifyRequest } from 'fastify';
import type { Family, LocationParams } from '../family';
import { idSegment, parentOf } from '../family';
import { queryParam } from '../../http/body';
import { collectionRoutes } from '../collection-routes';
import { ReportConfigs } from './report-configs';
import { preferenceSetLookup } from './preference-set-lookup';

export const reportConfigsFamily: Family<'reportConfigs'> = {
  key: 'reportConfigs',
  build(scope) {
    return new ReportConfigs(scope.store, scope.ops, scope.domain('groups'), preferenceSetLookup(scope));
  },
  routes(scope, configs) {
    collectionRoutes(scope, configs, { methods: ['create', 'list', 'get'] });
    scope.app.delete<{ Params: LocationParams & { id: string } }>(
      `${scope.prefix}/reportConfigs/:id`,
      async (request: FastifyRequest<{ Params: LocationParams & { id: string } }>) => {
        const location = parentOf(request, 'name');
        const name = `${location}/reportConfigs/${idSegment(request, request.params.id).id}`;
        return configs.deleteConfig(name, location, queryParam(request, 'requestId'), queryParam(request, 'force'));
      },
    );
  },
};
