/** Every supported asset filter and ordering is served by an index (EXPLAIN QUERY PLAN), never a table scan. */
import { SqliteStore } from '../../../backend-emulator/store/sqlite-store';
import { parseFilter } from '../../../backend-emulator/migrationcenter/list-query';
import { parseAssetOrder } from '../../../backend-emulator/store/asset-sql';
import { ASSET_FIELDS } from '../../../backend-emulator/store/asset-store';

const PARENT = 'projects/p/locations/l';
let store: SqliteStore;

beforeAll(() => {
  store = new SqliteStore({ inMemory: true });
  store.transaction(() =>
    store.assets.upsert(PARENT, `${PARENT}/sources/s`, Date.now(), [
      {
        id: 'asset-1',
        vmName: 'a',
        vmUuid: 'u',
        coreCount: 2,
        memoryMb: 1024,
        osFamily: 'OS_FAMILY_LINUX',
        powerState: 'poweredOn',
        labels: { env: 'x' },
        body: '{}',
      },
    ]),
  );
});
afterAll(() => store.close());

/** The plan's lines; fails on a full scan of the asset table (a SCAN of `a` without an index). */
function plan(filter: string | undefined, orderBy = ''): string[] {
  const lines = store.assets.explain({ parent: PARENT, filter: filter ? parseFilter(filter) : undefined, order: parseAssetOrder(orderBy), limit: 51 });
  for (const line of lines) expect(line).not.toMatch(/^SCAN a$|^SCAN a\b(?!.*INDEX)/);
  return lines;
}

test.each([
  ['name = "projects/p/locations/l/assets/asset-1"', 'assets_by_id'],
  ['title = a', 'assets_by_vm_name'],
  ['virtualMachineDetails.vmName = a', 'assets_by_vm_name'],
  ['virtualMachineDetails.vmUuid = u', 'assets_by_vm_uuid'],
  ['virtualMachineDetails.coreCount > 8', 'assets_by_core_count'],
  ['virtualMachineDetails.memoryMb <= 4096', 'assets_by_memory_mb'],
  ['virtualMachineDetails.osFamily = OS_FAMILY_LINUX', 'assets_by_os_family'],
  ['virtualMachineDetails.powerState = poweredOn', 'assets_by_power_state'],
  ['createTime > "2024-01-01T00:00:00Z"', 'assets_by_create_time'],
  ['updateTime < "2024-01-01T00:00:00Z"', 'assets_by_update_time'],
  ['labels.env = x', 'asset_labels_by_key'],
  ['labels:env', 'asset_labels_by_key'],
  ['sources:"projects/p/locations/l/sources/s"', 'asset_sources_by_reporter'],
])('filter %s uses %s', (filter, index) => {
  expect(plan(filter).join('\n')).toContain(index);
});

test.each(Object.keys(ASSET_FIELDS).flatMap((f) => [f, `${f} desc`]))('orderBy %s walks an index (no temp sort)', (orderBy) => {
  const lines = plan(undefined, orderBy);
  expect(lines.join('\n')).toMatch(/USING (COVERING )?INDEX assets_by_/);
  expect(lines.join('\n')).not.toContain('TEMP B-TREE');
});

test('the unfiltered page walks the id index', () => {
  expect(plan(undefined).join('\n')).toMatch(/USING (COVERING )?INDEX assets_by_id/);
});
