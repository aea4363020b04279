/**
 * Discovery clients over the REST wire (create/get/list/patch/delete, :sendHeartbeat, the state
 * heartbeats and expiration give), the state rule itself on literal times, and the same methods
 * through Google's newest client (googleapis-latest).
 */
import * as fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { migrationcenter } from 'googleapis-latest/build/src/apis/migrationcenter';
import { startEmulator, type RunningEmulator } from '../../../backend-emulator';
import { discoveryClientState, HEARTBEAT_TIMEOUT_MS } from '../../../backend-emulator/migrationcenter/discovery-clients/state';
import { BASE, EMPTY_TYPE, PARENT, SOURCE, call, ensureSource, googleError, newApp, ok, tempDir, violations } from '../../support/migrationcenter';
import { sharedApp } from '../../support/app';

const CLIENT_TYPE = 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.DiscoveryClient';
const ACCOUNT = 'collector@p1.iam.gserviceaccount.com';

describe('the state rule', () => {
  const now = Date.parse('2026-05-01T12:00:00Z');
  test.each([
    ['never heard from', {}, 'OFFLINE'],
    ['a heartbeat a minute ago', { heartbeatTime: '2026-05-01T11:59:00Z' }, 'ACTIVE'],
    ['a heartbeat with errors a minute ago', { heartbeatTime: '2026-05-01T11:59:00Z', errors: [{ code: 14 }] }, 'DEGRADED'],
    ['the last heartbeat 46 minutes ago', { heartbeatTime: '2026-05-01T11:14:00Z' }, 'OFFLINE'],
    ['the last heartbeat 45 minutes ago', { heartbeatTime: '2026-05-01T11:15:00Z' }, 'ACTIVE'],
    ['expired a second ago, heartbeat fresh', { heartbeatTime: '2026-05-01T11:59:00Z', expireTime: '2026-05-01T11:59:59Z' }, 'EXPIRED'],
    ['expiring in a second', { heartbeatTime: '2026-05-01T11:59:00Z', expireTime: '2026-05-01T12:00:01Z' }, 'ACTIVE'],
  ])('%s', (_what, facts, state) => {
    expect(HEARTBEAT_TIMEOUT_MS).toBe(2_700_000);
    expect(discoveryClientState(facts, now)).toBe(state);
  });
});

describe('over REST', () => {
  let app: FastifyInstance;
  const sharedAppOfBlock = sharedApp(() => newApp());
  beforeEach(async () => {
    app = sharedAppOfBlock();
    await app.ready();
    await ensureSource(app);
  });

  const create = (id: string, body: Record<string, unknown>) => call(app, 'POST', `${BASE}/discoveryClients?discoveryClientId=${id}`, body);
  const get = async (id: string) => ok(await call(app, 'GET', `${BASE}/discoveryClients/${id}`));
  const heartbeat = (id: string, body: Record<string, unknown>) => call(app, 'POST', `${BASE}/discoveryClients/${id}:sendHeartbeat`, body);

  test('create answers the client, OFFLINE until its first heartbeat; a heartbeat makes it ACTIVE without touching updateTime', async () => {
    const op = ok(await create('dc', { source: SOURCE, serviceAccount: ACCOUNT, displayName: 'Collector', labels: { site: 'paris' } }));
    expect(op.done).toBe(true);
    expect(op.response).toEqual({
      '@type': CLIENT_TYPE,
      name: `${PARENT}/discoveryClients/dc`,
      createTime: expect.any(String),
      updateTime: op.response.createTime,
      displayName: 'Collector',
      labels: { site: 'paris' },
      source: SOURCE,
      serviceAccount: ACCOUNT,
      state: 'OFFLINE',
    });
    const hb = ok(await heartbeat('dc', { version: '1.2.3' }));
    expect([hb.done, hb.response['@type']]).toEqual([true, EMPTY_TYPE]);
    const after = await get('dc');
    expect(after).toMatchObject({ state: 'ACTIVE', version: '1.2.3', updateTime: op.response.updateTime });
    expect(Date.parse(after.heartbeatTime)).toBeGreaterThanOrEqual(Date.parse(op.response.createTime));

    ok(await heartbeat('dc', { version: '1.2.4', errors: [{ code: 14, message: 'vCenter unreachable' }] }));
    expect(await get('dc')).toMatchObject({ state: 'DEGRADED', version: '1.2.4', errors: [{ code: 14, message: 'vCenter unreachable' }] });
    ok(await heartbeat('dc', {}));
    const healthy = await get('dc');
    expect([healthy.state, healthy.version, healthy.errors]).toEqual(['ACTIVE', undefined, undefined]);
  });

  test('source and serviceAccount are required; the source must exist in the same location', async () => {
    const both = googleError(await create('dc', {}), 400, 'INVALID_ARGUMENT');
    expect(violations(both)).toEqual([
      { field: 'source', description: 'is required' },
      { field: 'serviceAccount', description: 'is required' },
    ]);
    const missing = googleError(await create('dc', { source: `${PARENT}/sources/none`, serviceAccount: ACCOUNT }), 404, 'NOT_FOUND');
    expect(missing.message).toContain(`${PARENT}/sources/none`);
    const elsewhere = googleError(
      await create('dc', { source: 'projects/p1/locations/europe-west1/sources/src', serviceAccount: ACCOUNT }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(violations(elsewhere)[0].field).toBe('source');
    expect(violations(googleError(await create('dc', { source: SOURCE, serviceAccount: 'collector' }), 400, 'INVALID_ARGUMENT'))[0].field).toBe(
      'serviceAccount',
    );
    googleError(await call(app, 'GET', `${BASE}/discoveryClients/dc`), 404, 'NOT_FOUND');
  });

  test('ttl gives expireTime; ttl and expireTime together, a past expireTime, a zero ttl are refused', async () => {
    const op = ok(await create('dc', { source: SOURCE, serviceAccount: ACCOUNT, ttl: '86400.5s' }));
    expect(op.response.ttl).toBeUndefined();
    expect(Date.parse(op.response.expireTime) - Date.parse(op.response.createTime)).toBe(86_400_500);
    const patched = ok(await call(app, 'PATCH', `${BASE}/discoveryClients/dc?updateMask=ttl`, { ttl: '60s' }));
    expect(Date.parse(patched.response.expireTime) - Date.parse(patched.response.updateTime)).toBe(60_000);
    const fields = async (body: Record<string, unknown>) =>
      violations(googleError(await create('x', { source: SOURCE, serviceAccount: ACCOUNT, ...body }), 400, 'INVALID_ARGUMENT')).map((v) => v.field);
    expect(await fields({ ttl: '60s', expireTime: '2099-01-01T00:00:00Z' })).toEqual(['ttl']);
    expect(await fields({ expireTime: '2001-01-01T00:00:00Z' })).toEqual(['expireTime']);
    expect(await fields({ ttl: '0s' })).toEqual(['ttl']);
    expect(await fields({ ttl: '-5s' })).toEqual(['ttl']);
  });

  test('an expired client is EXPIRED and refuses heartbeats; a patched expireTime brings it back', async () => {
    ok(await create('dc', { source: SOURCE, serviceAccount: ACCOUNT, ttl: '0.2s' }));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await get('dc')).state).toBe('EXPIRED');
    const refused = googleError(await heartbeat('dc', {}), 400, 'FAILED_PRECONDITION');
    expect(refused.message).toContain('expired');
    ok(await call(app, 'PATCH', `${BASE}/discoveryClients/dc?updateMask=expireTime`, { expireTime: '2099-01-01T00:00:00Z' }));
    ok(await heartbeat('dc', {}));
    expect(await get('dc')).toMatchObject({ state: 'ACTIVE', expireTime: '2099-01-01T00:00:00Z' });
  });

  test('patch: updatable fields by mask; source cannot change; list filters on state and labels; delete', async () => {
    ok(await create('a', { source: SOURCE, serviceAccount: ACCOUNT, labels: { site: 'paris' } }));
    ok(await create('b', { source: SOURCE, serviceAccount: ACCOUNT, labels: { site: 'lyon' } }));
    ok(await heartbeat('b', {}));
    const patched = ok(await call(app, 'PATCH', `${BASE}/discoveryClients/a?updateMask=displayName,labels`, { displayName: 'A', labels: { site: 'nice' } }));
    expect(patched.response).toMatchObject({ displayName: 'A', labels: { site: 'nice' }, state: 'OFFLINE' });
    const source = googleError(await call(app, 'PATCH', `${BASE}/discoveryClients/a?updateMask=source`, { source: SOURCE }), 400, 'INVALID_ARGUMENT');
    expect(violations(source)[0].description).toMatch(/^'source' cannot be updated/);

    const names = async (query: string) =>
      (ok(await call(app, 'GET', `${BASE}/discoveryClients${query}`)).discoveryClients ?? []).map(
        (c: { name: string; state: string }) => `${c.name.split('/').pop()}:${c.state}`,
      );
    expect(await names('')).toEqual(['a:OFFLINE', 'b:ACTIVE']);
    expect(await names('?filter=state%3DACTIVE')).toEqual(['b:ACTIVE']);
    expect(await names('?filter=labels.site%3Dnice')).toEqual(['a:OFFLINE']);
    expect(await names('?orderBy=displayName%20desc')).toEqual(['a:OFFLINE', 'b:ACTIVE']);

    expect(ok(await call(app, 'DELETE', `${BASE}/discoveryClients/a`)).response['@type']).toBe(EMPTY_TYPE);
    expect(await names('')).toEqual(['b:ACTIVE']);
    googleError(await heartbeat('a', {}), 404, 'NOT_FOUND');
  });

  test('a heartbeat body is checked: errors are google.rpc.Status messages', async () => {
    ok(await create('dc', { source: SOURCE, serviceAccount: ACCOUNT }));
    const err = googleError(await heartbeat('dc', { errors: [{ code: 'UNAVAILABLE' }] }), 400, 'INVALID_ARGUMENT');
    expect(violations(err).map((v) => v.field)).toEqual(['errors[0].code']);
    // A name the request has not: Google's JSON parser refuses it (the body is the request itself: no message path).
    const unknown = googleError(await heartbeat('dc', { uptime: 5 }), 400, 'INVALID_ARGUMENT');
    expect(unknown.message).toBe('Invalid JSON payload received. Unknown name "uptime": Cannot find field.');
    expect((await get('dc')).state).toBe('OFFLINE');
  });
});

describe('on disk', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = tempDir('mc-prefs-clients-');
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  test('preference sets, settings and discovery clients (with their heartbeats) survive a restart', async () => {
    let app = newApp({ dataDir, inMemory: false });
    await app.ready();
    await ensureSource(app);
    ok(await call(app, 'POST', `${BASE}/preferenceSets?preferenceSetId=ps`, { virtualMachinePreferences: { commitmentPlan: 'COMMITMENT_PLAN_ONE_YEAR' } }));
    ok(await call(app, 'PATCH', `${BASE}/settings?updateMask=preferenceSet`, { preferenceSet: `${PARENT}/preferenceSets/ps` }));
    ok(await call(app, 'POST', `${BASE}/discoveryClients?discoveryClientId=dc`, { source: SOURCE, serviceAccount: ACCOUNT }));
    ok(await call(app, 'POST', `${BASE}/discoveryClients/dc:sendHeartbeat`, { version: '3.1' }));
    await app.close();

    app = newApp({ dataDir, inMemory: false });
    await app.ready();
    try {
      expect(ok(await call(app, 'GET', `${BASE}/preferenceSets/ps`)).virtualMachinePreferences).toEqual({ commitmentPlan: 'COMMITMENT_PLAN_ONE_YEAR' });
      expect(ok(await call(app, 'GET', `${BASE}/settings`)).preferenceSet).toBe(`${PARENT}/preferenceSets/ps`);
      expect(ok(await call(app, 'GET', `${BASE}/discoveryClients/dc`))).toMatchObject({ state: 'ACTIVE', version: '3.1' });
    } finally {
      await app.close();
    }
  });
});

describe("through Google's newest client", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent' });
  });
  afterAll(() => emulator.close());

  test('create, heartbeat, get, list, patch and delete a discovery client', async () => {
    const mc = migrationcenter({ version: 'v1alpha1', rootUrl: `${emulator.url}/`, retry: false, fetchImplementation: fetch });
    await mc.projects.locations.sources.create({ parent: PARENT, sourceId: 'src', requestBody: { type: 'SOURCE_TYPE_GUEST_OS_SCAN' } });
    const clients = mc.projects.locations.discoveryClients;
    const name = `${PARENT}/discoveryClients/client-1`;
    expect((await clients.create({ parent: PARENT, discoveryClientId: 'client-1', requestBody: { source: SOURCE, serviceAccount: ACCOUNT } })).data.done).toBe(
      true,
    );
    expect((await clients.sendHeartbeat({ name, requestBody: { version: '2.0.0' } })).data.done).toBe(true);
    expect((await clients.get({ name })).data).toMatchObject({ name, source: SOURCE, serviceAccount: ACCOUNT, state: 'ACTIVE', version: '2.0.0' });
    await clients.patch({ name, updateMask: 'description', requestBody: { description: 'rack 4' } });
    const listed = (await clients.list({ parent: PARENT, filter: 'state = ACTIVE' })).data.discoveryClients ?? [];
    expect(listed.map((c) => [c.name, c.description, c.state])).toEqual([[name, 'rack 4', 'ACTIVE']]);
    expect((await clients.delete({ name })).data.done).toBe(true);
    expect((await clients.list({ parent: PARENT })).data.discoveryClients).toBeUndefined();
  });
});
