/**
 * Groups over the REST wire: the standard methods, `:addAssets` / `:removeAssets` with
 * `allowExisting` / `allowMissing`, the members an asset answers as `assignedGroups`, assets listed
 * by group, and a deleted group's memberships.
 */
import type { FastifyInstance } from 'fastify';
import { BASE, EMPTY_TYPE, PARENT, call, googleError, newApp, ok, violations } from '../../support/migrationcenter';
import { assetOf, importMachines } from '../../support/mc-inventory';
import { migrationCenterOf } from '../../../backend-emulator/migrationcenter/routes';

const GROUP_TYPE = 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.Group';
const GROUP = `${PARENT}/groups/web`;
const REQUEST_ID = '6f1c1b1e-2a44-4c1e-9d7e-0b5e4e1f2a01';

const assetsIn = async (app: FastifyInstance, filter: string): Promise<string[]> =>
  (ok(await call(app, 'GET', `${BASE}/assets?filter=${encodeURIComponent(filter)}`)).assets ?? []).map((a: { name: string }) => a.name);

describe('groups', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = newApp();
    await importMachines(app);
  }, 60_000);
  afterAll(() => app.close());

  test('create, get, list with filters, patch, delete', async () => {
    const op = ok(await call(app, 'POST', `${BASE}/groups?groupId=crud`, { displayName: 'Web tier', description: 'front ends', labels: { tier: 'web' } }));
    expect(op).toMatchObject({ done: true, metadata: { verb: 'create', target: `${PARENT}/groups/crud` } });
    expect(op.response).toMatchObject({
      '@type': GROUP_TYPE,
      name: `${PARENT}/groups/crud`,
      displayName: 'Web tier',
      description: 'front ends',
      labels: { tier: 'web' },
    });
    const { '@type': _t, ...group } = op.response;
    expect(ok(await call(app, 'GET', `/v1alpha1/${PARENT}/groups/crud`))).toEqual(group);
    ok(await call(app, 'POST', `${BASE}/groups?groupId=other`, { displayName: 'Other' }));
    const names = async (q: string) => (ok(await call(app, 'GET', `${BASE}/groups${q}`)).groups ?? []).map((g: { name: string }) => g.name);
    expect(await names('?orderBy=displayName%20desc')).toEqual([`${PARENT}/groups/crud`, `${PARENT}/groups/other`]);
    expect(await names('?orderBy=displayName')).toEqual([`${PARENT}/groups/other`, `${PARENT}/groups/crud`]);
    expect(await names(`?filter=${encodeURIComponent('labels.tier = web')}`)).toEqual([`${PARENT}/groups/crud`]);
    expect(await names(`?filter=${encodeURIComponent('displayName = Other')}`)).toEqual([`${PARENT}/groups/other`]);

    const patched = ok(
      await call(app, 'PATCH', `/v1alpha1/${PARENT}/groups/crud?updateMask=description`, { description: 'web servers', displayName: 'ignored' }),
    );
    expect(patched.response).toMatchObject({ displayName: 'Web tier', description: 'web servers' });
    googleError(await call(app, 'PATCH', `/v1alpha1/${PARENT}/groups/crud?updateMask=name`, {}), 400, 'INVALID_ARGUMENT');

    const del = ok(await call(app, 'DELETE', `/v1alpha1/${PARENT}/groups/crud`));
    expect(del).toMatchObject({ done: true, response: { '@type': EMPTY_TYPE } });
    googleError(await call(app, 'GET', `/v1alpha1/${PARENT}/groups/crud`), 404, 'NOT_FOUND');
    ok(await call(app, 'DELETE', `/v1alpha1/${PARENT}/groups/other`));
  });

  test.each([
    ['groupId=Bad_Id', {}, 'groupId'],
    ['', {}, 'groupId'],
    ['groupId=g', { displayName: 'x'.repeat(64) }, 'displayName'],
    ['groupId=g', { labels: { Bad: 'x' } }, 'labels.Bad'],
    ['groupId=g', { members: [] }, ''],
  ])('create %s %j is INVALID_ARGUMENT naming %s', async (query, body, field) => {
    const error = googleError(await call(app, 'POST', `${BASE}/groups?${query}`, body), 400, 'INVALID_ARGUMENT');
    if (field) expect(violations(error).map((v) => v.field)).toContain(field);
  });

  test('addAssets and removeAssets: members, assignedGroups, assets by group', async () => {
    ok(await call(app, 'POST', `${BASE}/groups?groupId=web`, { displayName: 'Web' }));
    ok(await call(app, 'POST', `${BASE}/groups?groupId=all`, {}));

    const added = ok(await call(app, 'POST', `/v1alpha1/${GROUP}:addAssets`, { assets: { assetIds: [assetOf('m-1'), assetOf('m-2')] } }));
    expect(added).toMatchObject({ done: true, metadata: { verb: 'addAssets', target: GROUP }, response: { '@type': GROUP_TYPE, name: GROUP } });
    ok(
      await call(app, 'POST', `/v1alpha1/${PARENT}/groups/all:addAssets`, {
        assets: { assetIds: ['m-1', 'm-2', 'm-3', 'm-4', 'm-5'].map(assetOf) },
      }),
    );

    expect(ok(await call(app, 'GET', `/v1alpha1/${assetOf('m-1')}`)).assignedGroups).toEqual([`${PARENT}/groups/all`, GROUP]);
    expect(ok(await call(app, 'GET', `/v1alpha1/${assetOf('m-5')}`)).assignedGroups).toEqual([`${PARENT}/groups/all`]);
    expect(await assetsIn(app, `assignedGroups:${GROUP}`)).toEqual([assetOf('m-1'), assetOf('m-2')]);
    expect(await assetsIn(app, `assignedGroups = "${GROUP}" AND virtualMachineDetails.coreCount > 2`)).toEqual([assetOf('m-2')]);
    expect(await assetsIn(app, `assignedGroups != ${GROUP}`)).toEqual(['m-3', 'm-4', 'm-5'].map(assetOf));
    expect(await assetsIn(app, 'assignedGroups:*')).toHaveLength(5);
    expect(migrationCenterOf(app.emulator)!.groups.memberCount(GROUP)).toBe(2);

    // An existing member: ALREADY_EXISTS naming it, nothing added; allowExisting adds the others.
    const exists = googleError(
      await call(app, 'POST', `/v1alpha1/${GROUP}:addAssets`, { assets: { assetIds: [assetOf('m-3'), assetOf('m-1')] } }),
      409,
      'ALREADY_EXISTS',
    );
    expect(exists.details).toContainEqual(expect.objectContaining({ resourceName: assetOf('m-1') }));
    expect(await assetsIn(app, `assignedGroups:${GROUP}`)).toEqual([assetOf('m-1'), assetOf('m-2')]);
    ok(await call(app, 'POST', `/v1alpha1/${GROUP}:addAssets`, { assets: { assetIds: [assetOf('m-3'), assetOf('m-1')] }, allowExisting: true }));
    expect(await assetsIn(app, `assignedGroups:${GROUP}`)).toEqual(['m-1', 'm-2', 'm-3'].map(assetOf));

    // An asset that does not exist: NOT_FOUND naming it, whatever allowExisting says.
    const unknown = googleError(
      await call(app, 'POST', `/v1alpha1/${GROUP}:addAssets`, { assets: { assetIds: [`${PARENT}/assets/vm-nope`] }, allowExisting: true }),
      404,
      'NOT_FOUND',
    );
    expect(unknown.details).toContainEqual(expect.objectContaining({ resourceName: `${PARENT}/assets/vm-nope` }));

    // A non-member: NOT_FOUND unless allowMissing.
    googleError(await call(app, 'POST', `/v1alpha1/${GROUP}:removeAssets`, { assets: { assetIds: [assetOf('m-3'), assetOf('m-4')] } }), 404, 'NOT_FOUND');
    expect(await assetsIn(app, `assignedGroups:${GROUP}`)).toEqual(['m-1', 'm-2', 'm-3'].map(assetOf));
    const removed = ok(
      await call(app, 'POST', `/v1alpha1/${GROUP}:removeAssets`, { assets: { assetIds: [assetOf('m-3'), assetOf('m-4')] }, allowMissing: true }),
    );
    expect(removed).toMatchObject({ done: true, metadata: { verb: 'removeAssets' }, response: { '@type': GROUP_TYPE, name: GROUP } });
    expect(await assetsIn(app, `assignedGroups:${GROUP}`)).toEqual([assetOf('m-1'), assetOf('m-2')]);

    // Deleting a group ends its memberships.
    ok(await call(app, 'DELETE', `/v1alpha1/${PARENT}/groups/all`));
    expect(ok(await call(app, 'GET', `/v1alpha1/${assetOf('m-5')}`)).assignedGroups).toBeUndefined();
    expect(ok(await call(app, 'GET', `/v1alpha1/${assetOf('m-1')}`)).assignedGroups).toEqual([GROUP]);
    expect(await assetsIn(app, `assignedGroups:${PARENT}/groups/all`)).toEqual([]);
    // ... and a group created again under the name starts empty.
    ok(await call(app, 'POST', `${BASE}/groups?groupId=all`, {}));
    expect(await assetsIn(app, `assignedGroups:${PARENT}/groups/all`)).toEqual([]);
    ok(await call(app, 'DELETE', `/v1alpha1/${PARENT}/groups/all`));
  });

  test('a requestId replays the first Operation of addAssets', async () => {
    ok(await call(app, 'POST', `${BASE}/groups?groupId=replay`, {}));
    const body = { assets: { assetIds: [assetOf('m-4')] }, requestId: REQUEST_ID };
    const first = ok(await call(app, 'POST', `/v1alpha1/${PARENT}/groups/replay:addAssets`, body));
    // Without the requestId the same call is ALREADY_EXISTS; with it, the first Operation again.
    googleError(await call(app, 'POST', `/v1alpha1/${PARENT}/groups/replay:addAssets`, { assets: body.assets }), 409, 'ALREADY_EXISTS');
    expect(ok(await call(app, 'POST', `/v1alpha1/${PARENT}/groups/replay:addAssets`, body)).name).toBe(first.name);
    googleError(await call(app, 'POST', `/v1alpha1/${PARENT}/groups/replay:addAssets`, { ...body, allowExisting: true }), 400, 'INVALID_ARGUMENT');
    ok(await call(app, 'DELETE', `/v1alpha1/${PARENT}/groups/replay`));
  });

  test.each([
    ['no assets', {}, 'assets'],
    ['no assetIds', { assets: {} }, 'assets.assetIds'],
    ['an empty list', { assets: { assetIds: [] } }, 'assets.assetIds'],
    ['a bare id', { assets: { assetIds: ['vm-m-1'] } }, 'assets.assetIds[0]'],
    ['an asset of another location', { assets: { assetIds: ['projects/p1/locations/europe-west1/assets/vm-m-1'] } }, 'assets.assetIds[0]'],
    ['2001 assets', { assets: { assetIds: Array.from({ length: 2001 }, (_, i) => `${PARENT}/assets/a${i}`) } }, 'assets.assetIds'],
    ['a requestId that is no UUID', { assets: { assetIds: [assetOf('m-1')] }, requestId: 'not-a-uuid' }, 'requestId'],
  ])('addAssets with %s is INVALID_ARGUMENT naming %s', async (_label, body, field) => {
    const error = googleError(await call(app, 'POST', `/v1alpha1/${PARENT}/groups/web:addAssets`, body), 400, 'INVALID_ARGUMENT');
    expect(violations(error).map((v) => v.field)).toContain(field);
  });

  test("addAssets with allowMissing (a field of removeAssets) is refused by Google's JSON parser as an unknown name", async () => {
    const body = { assets: { assetIds: [assetOf('m-1')] }, allowMissing: true };
    const error = googleError(await call(app, 'POST', `/v1alpha1/${PARENT}/groups/web:addAssets`, body), 400, 'INVALID_ARGUMENT');
    expect(error.message).toBe('Invalid JSON payload received. Unknown name "allowMissing": Cannot find field.');
  });

  test('removeAssets takes at most 1000 assets; a group that does not exist is NOT_FOUND', async () => {
    const many = { assets: { assetIds: Array.from({ length: 1001 }, (_, i) => `${PARENT}/assets/a${i}`) } };
    const error = googleError(await call(app, 'POST', `/v1alpha1/${PARENT}/groups/web:removeAssets`, many), 400, 'INVALID_ARGUMENT');
    expect(violations(error).map((v) => v.field)).toContain('assets.assetIds');
    googleError(await call(app, 'POST', `/v1alpha1/${PARENT}/groups/nope:addAssets`, { assets: { assetIds: [assetOf('m-1')] } }), 404, 'NOT_FOUND');
    googleError(await call(app, 'POST', `/v1alpha1/${PARENT}/groups/web:move`, {}), 404, 'NOT_FOUND');
  });
});
