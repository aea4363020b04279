/**
 * `upsert` writes its rows many to a statement: new assets and assets imported again, mixed in one
 * statement's rows or an id twice in a batch, end as if each row had been written one after the other.
 */
import { SqliteStore } from '../../../backend-emulator/store/sqlite-store';
import { parseFilter } from '../../../backend-emulator/query/list-query';
import type { AssetRow } from '../../../backend-emulator/store/asset-store';

const PARENT = 'projects/p/locations/l';
const FIRST = `${PARENT}/sources/first`;
const SECOND = `${PARENT}/sources/second`;
let store: SqliteStore;

beforeEach(() => {
  store = new SqliteStore({ inMemory: true });
});
afterEach(() => store.close());

function row(n: number, version: string, labels: Record<string, string> = {}): AssetRow {
  return { id: `m${n}`, vmName: `vm-${n}-${version}`, coreCount: n, labels, body: JSON.stringify({ v: version }) };
}

function rows(from: number, to: number, version: string, labels?: Record<string, string>): AssetRow[] {
  return Array.from({ length: to - from + 1 }, (_, i) => row(from + i, version, labels));
}

function names(filter: string): string[] {
  return store.assets.page({ parent: PARENT, filter: parseFilter(filter), order: [], limit: 1000 }).items.map((p) => p.asset.name.split('/').pop()!);
}

test('assets imported again in a batch of new ones are updated, keep their createTime, and lose their old labels', () => {
  store.transaction(() => store.assets.upsert(PARENT, FIRST, 1000, rows(1, 40, 'a', { gen: 'a' })));
  // 41 to 90 are new, 20 to 40 stored already: whole statements of both kinds, and one that mixes them.
  store.transaction(() => store.assets.upsert(PARENT, SECOND, 2000, [...rows(41, 90, 'b'), ...rows(20, 40, 'b', { gen: 'b' })]));

  expect(store.assets.count()).toBe(90);
  const m5 = store.assets.get(`${PARENT}/assets/m5`)!;
  expect([m5.createTime, m5.updateTime, m5.vmName, m5.body, m5.sources]).toEqual([1000, 1000, 'vm-5-a', { v: 'a' }, [FIRST]]);
  const m30 = store.assets.get(`${PARENT}/assets/m30`)!;
  expect([m30.createTime, m30.updateTime, m30.vmName, m30.coreCount, m30.body, m30.sources]).toEqual([1000, 2000, 'vm-30-b', 30, { v: 'b' }, [FIRST, SECOND]]);
  const m60 = store.assets.get(`${PARENT}/assets/m60`)!;
  expect([m60.createTime, m60.updateTime, m60.vmName, m60.body, m60.sources]).toEqual([2000, 2000, 'vm-60-b', { v: 'b' }, [SECOND]]);
  expect(names('labels.gen = a')).toHaveLength(19);
  expect(names('labels.gen = b')).toHaveLength(21);
  expect(names('labels:gen')).toHaveLength(40);
});

test('an id twice in one batch: the later row is the one kept, with its labels', () => {
  const batch = rows(1, 50, 'a');
  batch[10] = row(3, 'again', { twice: 'yes' });
  batch[45] = row(3, 'last', { twice: 'last' });
  store.transaction(() => store.assets.upsert(PARENT, FIRST, 1000, batch));

  expect(store.assets.count()).toBe(48);
  const m3 = store.assets.get(`${PARENT}/assets/m3`)!;
  expect([m3.vmName, m3.body]).toEqual(['vm-3-last', { v: 'last' }]);
  expect(names('labels.twice = last')).toEqual(['m3']);
  expect(names('labels:twice')).toEqual(['m3']);
  expect(names('virtualMachineDetails.coreCount = 50')).toEqual(['m50']);
});

test('each asset of a large batch is found by its own id with its own values', () => {
  store.transaction(() => store.assets.upsert(PARENT, FIRST, 1000, rows(1, 500, 'a', { k: 'v' })));
  expect(store.assets.count()).toBe(500);
  for (const n of [1, 31, 32, 33, 64, 499, 500]) {
    const a = store.assets.get(`${PARENT}/assets/m${n}`)!;
    expect([a.vmName, a.coreCount]).toEqual([`vm-${n}-a`, n]);
  }
  expect(names('labels.k = v')).toHaveLength(500);
  expect(names(`sources:"${FIRST}"`)).toHaveLength(500);
});
