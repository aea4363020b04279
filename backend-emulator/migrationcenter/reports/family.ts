/**
 * Reports of a report config (reports.ts has the rules; report-summary.ts the summary).
 *
 *   POST   {location}/reportConfigs/{config}/reports?reportId=&requestId=  -> Operation (not done; response Report)
 *   GET    {location}/reportConfigs/{config}/reports?pageSize=&pageToken=&filter=&orderBy=&view=
 *   GET    {location}/reportConfigs/{config}/reports/{id}?view=
 *   DELETE {location}/reportConfigs/{config}/reports/{id}?requestId=       -> Operation (done; response Empty)
 */
import type { FastifyRequest } from 'fastify';
import type { Family, LocationParams } from '../family';
import { idSegment, parentOf } from '../family';
import { queryParam } from '../../http/body';
import { listRequest } from '../../http/list-request';
import { collectionRoutes } from '../collection-routes';
import { preferenceSetLookup } from '../report-configs/preference-set-lookup';
import { Reports } from './reports';

type ReportParams = LocationParams & { config: string; id: string };

export const reportsFamily: Family<'reports'> = {
  key: 'reports',
  build(scope) {
    const reports = new Reports(scope.store, scope.ops, scope.domain('reportConfigs'), scope.domain('groups'), preferenceSetLookup(scope));
    scope.ops.onRestart(reports.recovery);
    return reports;
  },
  routes(scope, reports) {
    collectionRoutes(scope, reports, { under: 'reportConfigs', methods: ['create', 'delete'] });
    const base = `${scope.prefix}/reportConfigs/:config/reports`;
    const configOf = (request: FastifyRequest<{ Params: ReportParams }>, field: string) =>
      `${parentOf(request, field)}/reportConfigs/${idSegment(request, request.params.config).id}`;
    scope.app.get<{ Params: ReportParams }>(base, async (request) =>
      reports.listInView(configOf(request, 'parent'), listRequest(request), queryParam(request, 'view')),
    );
    scope.app.get<{ Params: ReportParams }>(`${base}/:id`, async (request) =>
      reports.getInView(`${configOf(request, 'name')}/reports/${idSegment(request, request.params.id).id}`, queryParam(request, 'view')),
    );
  },
};
