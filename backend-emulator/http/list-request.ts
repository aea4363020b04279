/**
 * The four query parameters of every Google List method (AIP-132, AIP-158, AIP-160), read once
 * for every list route; the query module (query/list-query.ts) interprets them.
 */
import type { FastifyRequest } from 'fastify';
import type { ListRequest } from '../query/list-query';
import { queryParam } from './body';

export function listRequest(request: FastifyRequest): ListRequest {
  return {
    pageSize: queryParam(request, 'pageSize'),
    pageToken: queryParam(request, 'pageToken'),
    filter: queryParam(request, 'filter'),
    orderBy: queryParam(request, 'orderBy'),
  };
}
