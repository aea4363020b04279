/**
 * The paths Network Services v1 and Migration Center v1 share (backend-emulator/mixins/shared-paths.ts),
 * over inject(): the Host that names a service picks it (any case, with a port); without one, an
 * operation is answered by the service that holds it; and two apps built in turn over one store
 * both serve the shared routes (the routes' tenants belong to an app, not to its store).
 */
import { SqliteStore } from '../../../backend-emulator/store/sqlite-store';
import { inMemoryApp } from '../../support/app';
import { call } from '../../support/inject';

const GLOBAL = '/v1/projects/p1/locations/global';
const MC_METADATA = 'type.googleapis.com/google.cloud.migrationcenter.v1.OperationMetadata';
const NS_METADATA = 'type.googleapis.com/google.cloud.networkservices.v1.OperationMetadata';

test('a Host naming a service picks it, in any case and with a port; no Host hint finds the owner', async () => {
  const app = inMemoryApp();
  try {
    const created = await call(app, 'POST', `${GLOBAL}/sources?sourceId=s1`, {});
    expect(created.status).toBe(200);
    const name = created.body.name as string;
    const hosted = await call(app, 'GET', `${GLOBAL}/operations`, undefined, { host: 'MigrationCenter.localhost:8085' });
    expect(hosted.body.operations.map((o: any) => [o.name, o.metadata['@type']])).toEqual([[name, MC_METADATA]]);
    // Unhinted, `global` lists Network Services' operations: none yet.
    expect((await call(app, 'GET', `${GLOBAL}/operations`)).body).toEqual({});
    expect((await call(app, 'GET', `/v1/${name}`)).body.metadata['@type']).toBe(MC_METADATA);
    const elsewhere = await call(app, 'GET', `/v1/${name}`, undefined, { host: 'networkservices.localhost' });
    expect([elsewhere.status, elsewhere.body.error.status]).toEqual([404, 'NOT_FOUND']);
    const ep = await call(app, 'POST', `${GLOBAL}/endpointPolicies?endpointPolicyId=ep1`, {
      type: 'SIDECAR_PROXY',
      endpointMatcher: { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY' } },
    });
    const listed = await call(app, 'GET', `${GLOBAL}/operations`);
    expect(listed.body.operations.map((o: any) => [o.name, o.metadata['@type']])).toEqual([[ep.body.name, NS_METADATA]]);
  } finally {
    await app.close();
  }
});

test('two apps built in turn over one store both serve the shared operations routes', async () => {
  const store = new SqliteStore({ inMemory: true });
  try {
    for (const round of [1, 2]) {
      const app = inMemoryApp({ store });
      const res = await call(app, 'GET', `${GLOBAL}/operations`);
      expect([round, res.status]).toEqual([round, 200]);
      expect((await call(app, 'GET', '/v1/projects/p1/locations/us-central1/operations')).status).toBe(200);
      await app.close();
    }
  } finally {
    store.close();
  }
});
