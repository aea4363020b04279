/**
 * A run's batch crosses to its writer thread packed as one array per field (asset-row-batch.ts):
 * through a structured clone (what postMessage does), the writer must get back the rows it was
 * given: every field, absent fields absent, labels kept, zero kept apart from absent.
 */
import { deserialize, serialize } from 'v8';
import { packRows, unpackRows } from '../../../backend-emulator/migrationcenter/import-jobs/asset-row-batch';
import type { AssetRow } from '../../../backend-emulator/store/asset-store';

const cloned = <T>(value: T): T => deserialize(serialize(value)) as T;

test('rows survive packing, a structured clone and unpacking, field by field', () => {
  const rows: AssetRow[] = [
    {
      id: 'vm-1',
      vmName: 'host-1',
      vmUuid: '4213a7b2-0000-0000-0000-000000000001',
      coreCount: 4,
      memoryMb: 16384,
      osFamily: 'OS_FAMILY_LINUX',
      powerState: 'RUNNING',
      diskBytes: 53687091200,
      labels: { env: 'prod', team: 'a' },
      body: '{"a":{"MachineName":"host-1"},"d":{}}',
    },
    { id: 'vm-2', coreCount: 0, memoryMb: 0, diskBytes: 0, vmName: '', labels: {}, body: '{"a":{},"d":{}}' },
  ];
  const back = unpackRows(cloned(packRows(rows)));
  expect(back).toHaveLength(2);
  expect(back[0]).toEqual(rows[0]);
  expect(back[1]).toEqual({ id: 'vm-2', coreCount: 0, memoryMb: 0, diskBytes: 0, vmName: '', labels: {}, body: '{"a":{},"d":{}}' });
  for (const field of ['vmUuid', 'osFamily', 'powerState'] as const) expect(back[1][field]).toBeUndefined();
});

test('an empty batch stays empty', () => {
  expect(unpackRows(cloned(packRows([])))).toEqual([]);
});
