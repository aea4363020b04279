/**
 * Discovery clients: collectors that report to a source and send heartbeats (discovery-clients.ts
 * has the rules, state.ts the state).
 *
 *   POST   {location}/discoveryClients?discoveryClientId=&requestId=  -> Operation (done; response DiscoveryClient)
 *   GET    {location}/discoveryClients?pageSize=&pageToken=&filter=&orderBy=
 *   GET    {location}/discoveryClients/{id}
 *   PATCH  {location}/discoveryClients/{id}?updateMask=&requestId=     -> Operation (done; response DiscoveryClient)
 *   DELETE {location}/discoveryClients/{id}?requestId=                -> Operation (done; response Empty)
 *   POST   {location}/discoveryClients/{id}:sendHeartbeat {version, errors} -> Operation (done; response Empty)
 */
import type { Family } from '../family';
import { collectionRoutes } from '../collection-routes';
import { DiscoveryClients } from './discovery-clients';

export const discoveryClientsFamily: Family<'discoveryClients'> = {
  key: 'discoveryClients',
  build(scope) {
    return new DiscoveryClients(scope.store, scope.ops, scope.domain('sources'));
  },
  routes(scope, clients) {
    collectionRoutes(scope, clients, { verbs: { sendHeartbeat: (name, location, body) => clients.sendHeartbeat(name, location, body) } });
  },
};
