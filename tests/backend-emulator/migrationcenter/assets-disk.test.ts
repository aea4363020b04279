/**
 * The disk capacity (`virtualMachineDetails.vmDisks.hddTotalCapacityBytes`, an int64 string on the
 * wire) lives in a typed column of the asset table: an asset reads back exactly as the import
 * engine built it (the value, its key's place in `vmDisks`, `vmDisks`' place in the details), and a
 * value the column cannot hold exactly stays in the body.
 */
import { SqliteStore } from '../../../backend-emulator/store/sqlite-store';
import { Assets } from '../../../backend-emulator/migrationcenter/assets/assets';
import type { Asset, VirtualMachineDiskDetails } from '../../../backend-emulator/import-engine/asset';

const PARENT = 'projects/p/locations/l';
const DISK = 'virtualMachineDetails.vmDisks.hddTotalCapacityBytes';

let store: SqliteStore;
let assets: Assets;

beforeEach(() => {
  store = new SqliteStore({ inMemory: true });
  assets = new Assets(store);
});
afterEach(() => store.close());

function machine(id: string, vmDisks: VirtualMachineDiskDetails | undefined): Asset {
  return {
    machineId: id,
    attributes: {},
    labels: {},
    virtualMachineDetails: { vmUuid: id, vmName: id, coreCount: 2, ...(vmDisks ? { vmDisks } : {}), vmNetwork: { primaryIpAddress: '10.0.0.1' } },
  };
}

/** The asset as listed (wire shape), by VM name. */
function read(id: string) {
  const page = assets.list(PARENT, { filter: `virtualMachineDetails.vmName = "${id}"` }, 'ASSET_VIEW_FULL');
  expect(page.assets).toHaveLength(1);
  return page.assets[0];
}

test.each([
  [
    'capacity, free and disks',
    { hddTotalCapacityBytes: '137438953472', hddTotalFreeBytes: '1024', disks: { entries: [{ diskLabel: 'sda', totalCapacityBytes: '137438953472' }] } },
  ],
  ['the capacity only', { hddTotalCapacityBytes: '0' }],
  ['no capacity', { hddTotalFreeBytes: '5' }],
  ['a capacity beyond 2^53', { hddTotalCapacityBytes: '18446744073709551615' }],
  ['a capacity not written as ProtoJSON writes it', { hddTotalCapacityBytes: '0100' }],
  ['no vmDisks', undefined],
] as Array<[string, VirtualMachineDiskDetails | undefined]>)('%s: the asset reads back as built, key order included', (_, vmDisks) => {
  const built = machine('m1', vmDisks);
  store.transaction(() => assets.upsert(PARENT, `${PARENT}/sources/s`, [built]));
  const wire = read('m1');
  expect(JSON.stringify(wire.virtualMachineDetails)).toBe(JSON.stringify(built.virtualMachineDetails));
  expect(JSON.stringify(assets.get(wire.name).virtualMachineDetails)).toBe(JSON.stringify(built.virtualMachineDetails));
});

test('only a capacity the column holds exactly is filterable; importing again replaces it', () => {
  const write = (list: Asset[]) => store.transaction(() => assets.upsert(PARENT, `${PARENT}/sources/s`, list));
  write([machine('small', { hddTotalCapacityBytes: '1000' }), machine('huge', { hddTotalCapacityBytes: '18446744073709551615' }), machine('none', undefined)]);
  const names = (filter: string) => (assets.list(PARENT, { filter }).assets ?? []).map((a) => a.title).sort();
  expect(names(`${DISK}:*`)).toEqual(['small']);
  expect(names(`${DISK} >= 1000`)).toEqual(['small']);
  write([machine('small', { hddTotalCapacityBytes: '3000' }), machine('none', { hddTotalCapacityBytes: '2000' })]);
  expect(names(`${DISK} > 1000`)).toEqual(['none', 'small']);
  expect(read('small').virtualMachineDetails.vmDisks).toEqual({ hddTotalCapacityBytes: '3000' });
});
