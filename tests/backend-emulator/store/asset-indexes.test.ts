/** Every supported asset filter and ordering is served by an index (EXPLAIN QUERY PLAN), never a table scan. */
import { SqliteStore } from '../../../backend-emulator/store/sqlite-store';
import { parseFilter } from '../../../backend-emulator/query/list-query';
import { parseAssetOrder } from '../../../backend-emulator/store/asset-sql';
import { ASSET_FIELDS } from '../../../backend-emulator/store/asset-store';

const PARENT = 'projects/p/locations/l';
let store: SqliteStore;

beforeAll(() => {
  store = new SqliteStore({ inMemory: true });
  // Enough assets, with realistic spreads, for the planner's statistics (the store refreshes them as the table grows).
  const OS = ['OS_FAMILY_LINUX', 'OS_FAMILY_WINDOWS', 'OS_FAMILY_UNKNOWN'];
  const rows = Array.from({ length: 3000 }, (_, i) => ({
    id: `asset-${String(i).padStart(5, '0')}`,
    vmName: `vm-${i}`,
    vmUuid: `uuid-${i}`,
    coreCount: 1 << (i % 6),
    memoryMb: 1024 << (i % 6),
    osFamily: OS[i % 3],
    powerState: i % 7 === 0 ? 'poweredOff' : 'poweredOn',
    ...(i % 9 === 0 ? {} : { diskBytes: (i % 50) * 2 ** 34 }),
    labels: (i % 10 === 0 ? { env: `e${i % 3}` } : {}) as Record<string, string>,
    body: '{}',
  }));
  store.transaction(() => store.assets.upsert(PARENT, `${PARENT}/sources/s`, Date.now(), rows));
});
afterAll(() => store.close());

/** The plan's lines; fails on a full scan of the asset table (a SCAN of `a` without an index). */
function plan(filter: string | undefined, orderBy = ''): string[] {
  const lines = store.assets.explain({ parent: PARENT, filter: filter ? parseFilter(filter) : undefined, order: parseAssetOrder(orderBy), limit: 51 });
  for (const line of lines) expect(line).not.toMatch(/^SCAN a$|^SCAN a\b(?!.*INDEX)/);
  return lines;
}

/** Selective filters walk their own index; filters most assets pass may walk the name index and stop at a page. */
const FILTERS: Array<[string, string]> = [
  ['name = "projects/p/locations/l/assets/asset-00001"', 'assets_by_id'],
  ['title = vm-1', 'assets_by_vm_name'],
  ['virtualMachineDetails.vmName = vm-1', 'assets_by_vm_name'],
  ['virtualMachineDetails.vmUuid = uuid-1', 'assets_by_vm_uuid'],
  ['virtualMachineDetails.coreCount > 16', 'assets_by_'],
  ['virtualMachineDetails.memoryMb <= 4096', 'assets_by_'],
  ['virtualMachineDetails.osFamily = OS_FAMILY_LINUX', 'assets_by_'],
  ['virtualMachineDetails.powerState = poweredOff', 'assets_by_'],
  ['createTime > "2024-01-01T00:00:00Z"', 'assets_by_'],
  ['updateTime < "2024-01-01T00:00:00Z"', 'assets_by_'],
  ['labels.env = e1', 'asset_labels_by_key'],
  ['labels:env', 'asset_labels_by_key'],
  ['sources:"projects/p/locations/l/sources/s"', 'asset_sources_by_reporter'],
];

/** Fields without an index, on purpose (sqlite-assets.ts, DISK_BYTES_HAS_NO_INDEX): they scan. */
const UNINDEXED = ['virtualMachineDetails.vmDisks.hddTotalCapacityBytes'];

test.each(FILTERS)('filter %s uses %s', (filter, index) => {
  expect(plan(filter).join('\n')).toContain(index);
});

test('every field of ASSET_FIELDS has a filter above, or is one of the few left unindexed on purpose', () => {
  const filtered = new Set(FILTERS.map(([filter]) => filter.split(/[\s=<>!:]/)[0]));
  expect(Object.keys(ASSET_FIELDS).filter((f) => !filtered.has(f))).toEqual(UNINDEXED);
});

test("the disk capacity has no index: its filter and ordering scan the parent's assets (a choice, see sqlite-assets.ts)", () => {
  const lines = store.assets.explain({
    parent: PARENT,
    filter: parseFilter('virtualMachineDetails.vmDisks.hddTotalCapacityBytes >= 549755813888'),
    order: parseAssetOrder('virtualMachineDetails.vmDisks.hddTotalCapacityBytes desc'),
    limit: 51,
  });
  expect(lines.join('\n')).not.toContain('disk_bytes');
  expect(lines.join('\n')).toContain('TEMP B-TREE');
});

const INDEXED = Object.keys(ASSET_FIELDS).filter((f) => !UNINDEXED.includes(f));
test.each(INDEXED.flatMap((f) => [f, `${f} desc`]))('orderBy %s walks an index (no temp sort)', (orderBy) => {
  const lines = plan(undefined, orderBy);
  expect(lines.join('\n')).toMatch(/USING (COVERING )?INDEX assets_by_/);
  expect(lines.join('\n')).not.toContain('TEMP B-TREE');
});

test('the unfiltered page walks the id index', () => {
  expect(plan(undefined).join('\n')).toMatch(/USING (COVERING )?INDEX assets_by_id/);
});
