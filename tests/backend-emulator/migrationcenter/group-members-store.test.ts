/**
 * The asset store's group membership (store/sqlite-assets.ts `asset_members`): what the groups
 * family and the asset delete rely on, read on a file-backed store, across a reopen.
 */
import * as fs from 'fs';
import { SqliteStore } from '../../../backend-emulator/store/sqlite-store';
import type { AssetRow } from '../../../backend-emulator/store/asset-store';
import { tempDir } from '../../support/migrationcenter';

const PARENT = 'projects/p/locations/l';
const OTHER = 'projects/p/locations/m';
const G1 = `${PARENT}/groups/g1`;
const G2 = `${PARENT}/groups/g2`;

const row = (id: string, coreCount: number): AssetRow => ({ id, coreCount, memoryMb: coreCount * 4096, labels: {}, body: '{"a":{},"d":{}}' });

let dataDir: string;
let store: SqliteStore;
beforeEach(() => {
  dataDir = tempDir('mc-members-');
  store = new SqliteStore({ dataDir });
  store.transaction(() => store.assets.upsert(PARENT, `${PARENT}/sources/s`, 1_700_000_000_000, [row('a', 1), row('b', 2), row('c', 4)]));
  store.transaction(() => store.assets.upsert(OTHER, `${OTHER}/sources/s`, 1_700_000_000_000, [row('a', 8)]));
});
afterEach(() => {
  store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('membership: unknown assets and members reported, adds and removes counted, other locations untouched', () => {
  expect(store.assets.membership(G1, PARENT, ['a', 'x'])).toEqual({ unknown: ['x'], members: [] });
  expect(store.transaction(() => store.assets.addMembers(G1, PARENT, ['a', 'b', 'x']))).toBe(2);
  expect(store.transaction(() => store.assets.addMembers(G1, PARENT, ['a', 'c']))).toBe(1);
  expect(store.assets.membership(G1, PARENT, ['a', 'b', 'c', 'x'])).toEqual({ unknown: ['x'], members: ['a', 'b', 'c'] });
  expect(store.assets.get(`${OTHER}/assets/a`)!.groups).toEqual([]);
  expect(store.transaction(() => store.assets.removeMembers(G1, PARENT, ['b', 'x']))).toBe(1);
  expect(store.assets.memberCount(G1)).toBe(2);
});

test('leaveGroups takes assets out of every group (before an asset delete); dropGroup ends a group', () => {
  store.transaction(() => {
    store.assets.addMembers(G1, PARENT, ['a', 'b']);
    store.assets.addMembers(G2, PARENT, ['a', 'c']);
  });
  expect(store.assets.get(`${PARENT}/assets/a`)!.groups).toEqual([G1, G2]);
  expect(store.transaction(() => store.assets.leaveGroups(PARENT, ['a']))).toBe(2);
  expect(store.assets.get(`${PARENT}/assets/a`)!.groups).toEqual([]);
  expect([store.assets.memberCount(G1), store.assets.memberCount(G2)]).toEqual([1, 1]);
  expect(store.transaction(() => store.assets.dropGroup(G2))).toBe(1);
  expect(store.assets.memberCount(G2)).toBe(0);
  expect(store.assets.get(`${PARENT}/assets/c`)!.groups).toEqual([]);
});

test('memberships and group stats survive a reopen of the data dir; a rolled-back add leaves none', () => {
  store.transaction(() => store.assets.addMembers(G1, PARENT, ['a', 'b', 'c']));
  expect(() =>
    store.transaction(() => {
      store.assets.addMembers(G2, PARENT, ['a']);
      throw new Error('refused');
    }),
  ).toThrow('refused');
  store.close();
  store = new SqliteStore({ dataDir });
  expect(store.assets.get(`${PARENT}/assets/a`)!.groups).toEqual([G1]);
  const stats = store.assets.groupStats({ groups: [G1, G2], coreBounds: [2, 4], memoryMbBounds: [], diskBytesBounds: [] });
  // Cores 1, 2, 4: bucket [0,2) 1, [2,4) 1, [4,) 1; memory 4, 8, 16 GiB.
  expect(stats).toMatchObject({ assets: 3, cores: 7, memoryMb: 7 * 4096, coreBuckets: [1, 1, 1], memoryBuckets: [3], osFamilies: [[null, 3]] });
  expect(store.assets.groupShapes([G1])).toEqual([
    { cores: 1, memoryMb: 4096, assets: 1 },
    { cores: 2, memoryMb: 8192, assets: 1 },
    { cores: 4, memoryMb: 16384, assets: 1 },
  ]);
});
