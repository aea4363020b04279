/**
 * Migration Center's locations (Google's Migration Center regions, plus every location where the
 * project holds data) and the settings of a location (the default preference set), over the REST
 * wire and through Google's newest client (googleapis-latest).
 */
import type { FastifyInstance } from 'fastify';
import { migrationcenter } from 'googleapis-latest/build/src/apis/migrationcenter';
import { startEmulator, type RunningEmulator } from '../../../backend-emulator';
import { BASE, PARENT, call, googleError, newApp, ok, violations } from '../../support/migrationcenter';
import { sharedApp } from '../../support/app';

const SETTINGS_TYPE = 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.Settings';
const RID = '5b0f3a2e-7c1d-4e8f-9a6b-2d4c6e8f0a1b';

/** Google's "Migration Center locations" page (Europe, North and South America, APAC), in name order. */
const REGIONS = [
  'asia-southeast1',
  'europe-west1',
  'europe-west2',
  'europe-west3',
  'europe-west4',
  'europe-west6',
  'southamerica-east1',
  'us-central1',
  'us-east4',
  'us-east5',
];

describe('locations over REST', () => {
  let app: FastifyInstance;
  const sharedAppOfBlock = sharedApp(() => newApp());
  beforeEach(async () => {
    app = sharedAppOfBlock();
    await app.ready();
  });

  test("a project without data lists Google's Migration Center regions, each with its city", async () => {
    const { locations, nextPageToken } = ok(await call(app, 'GET', '/v1alpha1/projects/p1/locations'));
    expect(locations.map((l: { locationId: string }) => l.locationId)).toEqual(REGIONS);
    expect(nextPageToken).toBeUndefined();
    expect(locations[7]).toEqual({ name: 'projects/p1/locations/us-central1', locationId: 'us-central1', displayName: 'Council Bluffs, Iowa' });
    expect(ok(await call(app, 'GET', '/v1alpha1/projects/p1/locations/europe-west4'))).toEqual({
      name: 'projects/p1/locations/europe-west4',
      locationId: 'europe-west4',
      displayName: 'Eemshaven, Netherlands',
    });
  });

  test('a location outside the list is NOT_FOUND until the project holds data there; then get and list show it', async () => {
    const err = googleError(await call(app, 'GET', '/v1alpha1/projects/p1/locations/us-west1'), 404, 'NOT_FOUND');
    expect(err.message).toContain('projects/p1/locations/us-west1');
    ok(await call(app, 'POST', '/v1alpha1/projects/p1/locations/us-west1/sources?sourceId=s', {}));
    expect(ok(await call(app, 'GET', '/v1alpha1/projects/p1/locations/us-west1'))).toEqual({
      name: 'projects/p1/locations/us-west1',
      locationId: 'us-west1',
      displayName: 'us-west1',
    });
    const ids = ok(await call(app, 'GET', '/v1alpha1/projects/p1/locations')).locations.map((l: { locationId: string }) => l.locationId);
    expect(ids).toEqual([...REGIONS, 'us-west1']);
    // Another project's data is not this project's location.
    expect(ok(await call(app, 'GET', '/v1alpha1/projects/p2/locations')).locations.map((l: { locationId: string }) => l.locationId)).toEqual(REGIONS);
  });

  test('filter and paging', async () => {
    expect(
      ok(await call(app, 'GET', '/v1alpha1/projects/p1/locations?filter=locationId%3Deurope-*')).locations.map((l: { locationId: string }) => l.locationId),
    ).toEqual(['europe-west1', 'europe-west2', 'europe-west3', 'europe-west4', 'europe-west6']);
    const first = ok(await call(app, 'GET', '/v1alpha1/projects/p1/locations?pageSize=4'));
    expect(first.locations.map((l: { locationId: string }) => l.locationId)).toEqual(REGIONS.slice(0, 4));
    const second = ok(await call(app, 'GET', `/v1alpha1/projects/p1/locations?pageSize=4&pageToken=${first.nextPageToken}`));
    expect(second.locations.map((l: { locationId: string }) => l.locationId)).toEqual(REGIONS.slice(4, 8));
    googleError(await call(app, 'GET', '/v1alpha1/projects/p1/locations?filter=zone%3Da'), 400, 'INVALID_ARGUMENT');
  });
});

describe('settings over REST', () => {
  let app: FastifyInstance;
  const sharedAppOfBlock = sharedApp(() => newApp());
  beforeEach(async () => {
    app = sharedAppOfBlock();
    await app.ready();
  });

  const update = (query: string, body: Record<string, unknown>) => call(app, 'PATCH', `${BASE}/settings${query}`, body);

  test('settings never written are only their name', async () => {
    expect(ok(await call(app, 'GET', `${BASE}/settings`))).toEqual({ name: `${PARENT}/settings` });
  });

  test('updateSettings sets the default preference set: a done Operation, repeated by its requestId', async () => {
    ok(await call(app, 'POST', `${BASE}/preferenceSets?preferenceSetId=ps`, {}));
    const op = ok(await update(`?updateMask=preferenceSet&requestId=${RID}`, { preferenceSet: `${PARENT}/preferenceSets/ps`, disableCloudLogging: true }));
    expect(op.done).toBe(true);
    expect(op.response).toEqual({ '@type': SETTINGS_TYPE, name: `${PARENT}/settings`, preferenceSet: `${PARENT}/preferenceSets/ps` });
    expect(
      ok(await update(`?updateMask=preferenceSet&requestId=${RID}`, { preferenceSet: `${PARENT}/preferenceSets/ps`, disableCloudLogging: true })).name,
    ).toBe(op.name);
    ok(
      await update('?update_mask=disable_cloud_logging,customerConsentForGoogleSalesToAccessMigrationCenter', {
        disableCloudLogging: true,
        customerConsentForGoogleSalesToAccessMigrationCenter: true,
      }),
    );
    expect(ok(await call(app, 'GET', `${BASE}/settings`))).toEqual({
      name: `${PARENT}/settings`,
      preferenceSet: `${PARENT}/preferenceSets/ps`,
      disableCloudLogging: true,
      customerConsentForGoogleSalesToAccessMigrationCenter: true,
    });
    // Another location's settings are its own.
    expect(ok(await call(app, 'GET', '/v1alpha1/projects/p1/locations/europe-west1/settings'))).toEqual({
      name: 'projects/p1/locations/europe-west1/settings',
    });
  });

  test('the preference set must exist in the same location; the mask is required and names Settings fields', async () => {
    ok(await call(app, 'POST', '/v1alpha1/projects/p1/locations/europe-west1/preferenceSets?preferenceSetId=eu', {}));
    const elsewhere = googleError(
      await update('?updateMask=preferenceSet', { preferenceSet: 'projects/p1/locations/europe-west1/preferenceSets/eu' }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(violations(elsewhere)).toEqual([
      { field: 'preferenceSet', description: `must be a preference set of ${PARENT}, not of projects/p1/locations/europe-west1` },
    ]);
    const missing = googleError(await update('?updateMask=preferenceSet', { preferenceSet: `${PARENT}/preferenceSets/none` }), 404, 'NOT_FOUND');
    expect(missing.message).toContain(`${PARENT}/preferenceSets/none`);
    expect(violations(googleError(await update('?updateMask=preferenceSet', { preferenceSet: 'ps' }), 400, 'INVALID_ARGUMENT'))[0].field).toBe('preferenceSet');
    expect(violations(googleError(await update('', {}), 400, 'INVALID_ARGUMENT'))[0].field).toBe('updateMask');
    expect(violations(googleError(await update('?updateMask=name', {}), 400, 'INVALID_ARGUMENT'))[0].description).toMatch(/^'name' cannot be updated/);
    expect(violations(googleError(await update('?updateMask=*', { logging: false }), 400, 'INVALID_ARGUMENT'))).toEqual([
      { field: 'settings', description: 'Invalid JSON payload received. Unknown name "logging" at \'settings\': Cannot find field.' },
    ]);
    expect(ok(await call(app, 'GET', `${BASE}/settings`))).toEqual({ name: `${PARENT}/settings` });
  });

  test('a preference set the settings name cannot be deleted until the settings name another', async () => {
    ok(await call(app, 'POST', `${BASE}/preferenceSets?preferenceSetId=ps`, {}));
    ok(await update('?updateMask=preferenceSet', { preferenceSet: `${PARENT}/preferenceSets/ps` }));
    const refused = googleError(await call(app, 'DELETE', `${BASE}/preferenceSets/ps`), 400, 'FAILED_PRECONDITION');
    expect(refused.message).toContain(`is the default preference set of ${PARENT}/settings`);
    ok(await call(app, 'GET', `${BASE}/preferenceSets/ps`));
    ok(await update('?updateMask=preferenceSet', {}));
    expect(ok(await call(app, 'DELETE', `${BASE}/preferenceSets/ps`)).done).toBe(true);
  });
});

describe("through Google's newest client", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent' });
  });
  afterAll(() => emulator.close());

  test('locations.list and get, getSettings and updateSettings', async () => {
    const mc = migrationcenter({ version: 'v1alpha1', rootUrl: `${emulator.url}/`, retry: false, fetchImplementation: fetch });
    const listed = (await mc.projects.locations.list({ name: 'projects/p1' })).data.locations ?? [];
    expect(listed.map((l) => l.locationId)).toEqual(REGIONS);
    expect((await mc.projects.locations.get({ name: 'projects/p1/locations/us-east5' })).data).toEqual({
      name: 'projects/p1/locations/us-east5',
      locationId: 'us-east5',
      displayName: 'Columbus, Ohio',
    });
    await mc.projects.locations.preferenceSets.create({ parent: PARENT, preferenceSetId: 'default-set', requestBody: {} });
    const op = await mc.projects.locations.updateSettings({
      name: `${PARENT}/settings`,
      updateMask: 'preferenceSet',
      requestBody: { preferenceSet: `${PARENT}/preferenceSets/default-set` },
    });
    expect(op.data.done).toBe(true);
    expect((await mc.projects.locations.getSettings({ name: `${PARENT}/settings` })).data).toEqual({
      name: `${PARENT}/settings`,
      preferenceSet: `${PARENT}/preferenceSets/default-set`,
    });
  });
});
