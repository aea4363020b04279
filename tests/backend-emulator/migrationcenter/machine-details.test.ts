/**
 * v1's `machineDetails` over the one store (backend-emulator/migrationcenter/machine-details.ts):
 * a machine written through one version is read through the other (frames both ways), v1's
 * collectors report `machineDetails` frames under the same rules, and v1's lists filter, order
 * and aggregate on v1's paths while v1alpha1's are unknown there. Expected values are literals
 * drawn from Google's two clients (googleapis@188 v1 `MachineDetails`, v1alpha1 `VirtualMachineDetails`).
 */
import type { FastifyInstance } from 'fastify';
import { call, ensureSource, googleError, newApp, ok, PARENT, SOURCE, violations } from '../../support/migrationcenter';
import { sharedApp } from '../../support/app';

const V1 = `/v1/${PARENT}`;
const V1ALPHA1 = `/v1alpha1/${PARENT}`;
const FRAMES = `assets:reportAssetFrames?source=${encodeURIComponent(SOURCE)}`;

/** A machine as v1alpha1 stores it, with a field of every kind the table maps. */
const STORED = {
  vmUuid: 'a-1',
  vmName: 'web-1',
  createTime: '2026-01-02T03:04:05Z',
  coreCount: 4,
  memoryMb: 8192,
  powerState: 'poweredOn',
  osFamily: 'OS_FAMILY_LINUX',
  osName: 'Ubuntu',
  osVersion: '22.04',
  vcenterFolder: 'dc/web',
  vcenterVmId: 'vm-17',
  vcenterUrl: 'https://vc.example',
  vmArchitecture: { cpuSocketCount: 2, firmware: 'efi' },
  vmDisks: {
    hddTotalCapacityBytes: '107374182400',
    hddTotalFreeBytes: '53687091200',
    lsblkJson: '{}',
    disks: { entries: [{ diskLabel: 'sda', totalCapacityBytes: '107374182400', totalFreeBytes: '53687091200', interfaceType: 'SCSI', status: 'online' }] },
  },
  vmNetwork: {
    primaryIpAddress: '10.0.0.5',
    defaultGw: '10.0.0.1',
    networkAdapters: { networkAdapters: [{ macAddress: '00:50:56:aa:bb:cc', addresses: { addresses: [{ ipAddress: '10.0.0.5' }] } }] },
  },
};

/** The same machine as v1 spells it. */
const AS_V1 = {
  uuid: 'a-1',
  machineName: 'web-1',
  createTime: '2026-01-02T03:04:05Z',
  coreCount: 4,
  memoryMb: 8192,
  powerState: 'ACTIVE',
  guestOs: { family: 'OS_FAMILY_LINUX', osName: 'Ubuntu', version: '22.04' },
  platform: { vmwareDetails: { vcenterFolder: 'dc/web', vcenterVmId: 'vm-17', vcenterUri: 'https://vc.example' } },
  architecture: { cpuSocketCount: 2, firmwareType: 'EFI' },
  disks: {
    totalCapacityBytes: '107374182400',
    totalFreeBytes: '53687091200',
    disks: { entries: [{ diskLabel: 'sda', capacityBytes: '107374182400', freeBytes: '53687091200', interfaceType: 'SCSI' }] },
  },
  network: {
    primaryIpAddress: '10.0.0.5',
    defaultGateway: '10.0.0.1',
    adapters: { entries: [{ macAddress: '00:50:56:aa:bb:cc', addresses: { entries: [{ ipAddress: '10.0.0.5' }] } }] },
  },
};

let app: FastifyInstance;
const sharedAppOfFile = sharedApp(() => newApp());
beforeEach(async () => {
  app = sharedAppOfFile();
  await ensureSource(app);
});

async function report(base: string, frames: unknown[]): Promise<void> {
  expect(ok(await call(app, 'POST', `${base}/${FRAMES}`, { framesData: frames }))).toEqual({});
}

describe('one machine, read in either version', () => {
  test('written by a v1alpha1 frame, read through v1 as machineDetails (get and list); the fields v1 has not are left out', async () => {
    await report(V1ALPHA1, [{ virtualMachineDetails: STORED }]);
    const got = ok(await call(app, 'GET', `${V1}/assets/vm-a-1`));
    expect(got.machineDetails).toEqual(AS_V1);
    expect(got.virtualMachineDetails).toBeUndefined();
    expect(ok(await call(app, 'GET', `${V1}/assets`)).assets.map((a: any) => a.machineDetails)).toEqual([AS_V1]);
    // v1alpha1 still reads what it stored.
    expect(ok(await call(app, 'GET', `${V1ALPHA1}/assets/vm-a-1`)).virtualMachineDetails).toEqual(STORED);
  });

  test('written by a v1 frame, read through v1alpha1 as the same machine; v1 reads back what it sent, less what v1alpha1 has no field for', async () => {
    await report(V1, [{ machineDetails: AS_V1, labels: { tier: 'web' } }]);
    const alpha = ok(await call(app, 'GET', `${V1ALPHA1}/assets/vm-a-1`));
    const { lsblkJson: _lsblk, ...disksWithoutScan } = STORED.vmDisks;
    const { status: _status, ...entry } = STORED.vmDisks.disks.entries[0];
    expect(alpha.virtualMachineDetails).toEqual({ ...STORED, vmDisks: { ...disksWithoutScan, disks: { entries: [entry] } } });
    expect(alpha.title).toBe('web-1');
    expect(alpha.attributes).toEqual({ MachineId: 'a-1' });
    expect(ok(await call(app, 'GET', `${V1}/assets/vm-a-1`)).machineDetails).toEqual(AS_V1);
  });

  test("the guest's network: v1alpha1's guestOs.runtime.networkInfo is v1's guestOs.runtime.network (both clients' RuntimeNetworkInfo), less the raw scans v1 has not", async () => {
    const connection = { localIpAddress: '10.0.0.5', localPort: 443, remoteIpAddress: '10.0.0.9', remotePort: 51000, protocol: 'tcp', state: 'ESTABLISHED' };
    const runtime = { machineName: 'web-1', networkInfo: { scanTime: '2026-01-02T03:04:05Z', netstat: 'tcp 0 0 ...', connections: { entries: [connection] } } };
    await report(V1ALPHA1, [{ virtualMachineDetails: { vmUuid: 'n-1', guestOs: { runtime } } }]);
    expect(ok(await call(app, 'GET', `${V1}/assets/vm-n-1`)).machineDetails.guestOs.runtime).toEqual({
      machineName: 'web-1',
      network: { scanTime: '2026-01-02T03:04:05Z', connections: { entries: [connection] } },
    });
    await report(V1, [{ machineDetails: { uuid: 'n-2', guestOs: { runtime: { network: { connections: { entries: [connection] } } } } } }]);
    expect(ok(await call(app, 'GET', `${V1ALPHA1}/assets/vm-n-2`)).virtualMachineDetails.guestOs.runtime).toEqual({
      networkInfo: { connections: { entries: [connection] } },
    });
  });

  test("power states: v1alpha1's strings as v1's enum, v1's values stored as v1 spells them (its zero as unset); a string v1 has no value for reads as unset", async () => {
    await report(V1ALPHA1, [
      { virtualMachineDetails: { vmUuid: 'p-on', powerState: 'poweredOn' } },
      { virtualMachineDetails: { vmUuid: 'p-off', powerState: 'poweredOff' } },
      { virtualMachineDetails: { vmUuid: 'p-susp', powerState: 'suspended' } },
      { virtualMachineDetails: { vmUuid: 'p-odd', powerState: 'standby' } },
    ]);
    await report(V1, [
      { machineDetails: { uuid: 'p-pending', powerState: 'PENDING' } },
      { machineDetails: { uuid: 'p-v1-off', powerState: 'SUSPENDED' } },
      { machineDetails: { uuid: 'p-unset', powerState: 'POWER_STATE_UNSPECIFIED' } },
      { machineDetails: { uuid: 'p-number', powerState: 4 } }, // SUSPENDED's number
    ]);
    const v1 = ok(await call(app, 'GET', `${V1}/assets?orderBy=name`)).assets.map((a: any) => [a.machineDetails.uuid, a.machineDetails.powerState]);
    expect(v1).toEqual([
      ['p-number', 'SUSPENDED'],
      ['p-odd', undefined],
      ['p-off', 'SUSPENDED'],
      ['p-on', 'ACTIVE'],
      ['p-pending', 'PENDING'],
      ['p-susp', 'SUSPENDED'],
      ['p-unset', undefined],
      ['p-v1-off', 'SUSPENDED'],
    ]);
    const alpha = ok(await call(app, 'GET', `${V1ALPHA1}/assets?orderBy=name`)).assets.map((a: any) => a.virtualMachineDetails.powerState);
    expect(alpha).toEqual(['poweredOff', 'standby', 'poweredOff', 'poweredOn', 'PENDING', 'suspended', undefined, 'poweredOff']);
  });
});

describe('v1 reportAssetFrames with machineDetails', () => {
  test('a frame without the machine id is an error frame, its violation in the names of the version that reads it', async () => {
    await report(V1, [{ machineDetails: { machineName: 'no-id', coreCount: 2 } }]);
    expect(ok(await call(app, 'GET', `${V1}/assets`))).toEqual({});
    const v1 = ok(await call(app, 'GET', `/v1/${SOURCE}/errorFrames?view=ERROR_FRAMES_VIEW_FULL`)).errorFrames[0];
    expect([v1.originalFrame, v1.violations]).toEqual([
      { machineDetails: { machineName: 'no-id', coreCount: 2 } },
      [{ field: 'machineDetails.uuid', violation: 'is required (or attributes.MachineId): it identifies the machine' }],
    ]);
    const alpha = ok(await call(app, 'GET', `/v1alpha1/${SOURCE}/errorFrames?view=ERROR_FRAMES_VIEW_FULL`)).errorFrames[0];
    expect([alpha.originalFrame, alpha.violations]).toEqual([
      { virtualMachineDetails: { vmName: 'no-id', coreCount: 2 } },
      [{ field: 'virtualMachineDetails.vmUuid', violation: 'is required (or attributes.MachineId): it identifies the machine' }],
    ]);
    expect(ok(await call(app, 'GET', `/v1/${SOURCE}`)).errorFrameCount).toBe(1);
  });

  test("a rule broken in v1's machine is named in v1's path", async () => {
    await report(V1, [{ machineDetails: { uuid: 'neg', memoryMb: -1 } }]);
    const frame = ok(await call(app, 'GET', `/v1/${SOURCE}/errorFrames`)).errorFrames[0];
    expect(frame.violations).toEqual([{ field: 'machineDetails.memoryMb', violation: 'must be at least 0' }]);
  });

  test("v1alpha1's names inside machineDetails, and values v1's enums have not, are refused as Google's parser refuses them", async () => {
    const refused = async (machineDetails: Record<string, unknown>) =>
      googleError(await call(app, 'POST', `${V1}/${FRAMES}`, { framesData: [{ machineDetails }] }), 400, 'INVALID_ARGUMENT').message;
    expect(await refused({ vmUuid: 'x' })).toBe(
      'Invalid JSON payload received. Unknown name "vmUuid" at \'frames.frames_data[0].machine_details\': Cannot find field.',
    );
    expect(await refused({ uuid: 'x', osFamily: 'OS_FAMILY_LINUX' })).toBe(
      'Invalid JSON payload received. Unknown name "osFamily" at \'frames.frames_data[0].machine_details\': Cannot find field.',
    );
    expect(await refused({ uuid: 'x', disks: { hddTotalCapacityBytes: '1' } })).toBe(
      'Invalid JSON payload received. Unknown name "hddTotalCapacityBytes" at \'frames.frames_data[0].machine_details.disks\': Cannot find field.',
    );
    expect(await refused({ uuid: 'x', powerState: 'poweredOn' })).toBe(
      'Invalid value at \'frames.frames_data[0].machine_details.power_state\' (type.googleapis.com/google.cloud.migrationcenter.v1.MachineDetails.PowerState), "poweredOn"',
    );
    expect(await refused({ uuid: 'x', powerState: 9 })).toBe(
      "Invalid value at 'frames.frames_data[0].machine_details.power_state' (type.googleapis.com/google.cloud.migrationcenter.v1.MachineDetails.PowerState), 9",
    );
    expect(await refused({ uuid: 'x', architecture: { firmwareType: 'UEFI' } })).toBe(
      'Invalid value at \'frames.frames_data[0].machine_details.architecture.firmware_type\' (type.googleapis.com/google.cloud.migrationcenter.v1.MachineArchitectureDetails.FirmwareType), "UEFI"',
    );
    expect(ok(await call(app, 'GET', `${V1}/assets`))).toEqual({});
  });

  test("a value of the wrong JSON type fails the call, naming the field in v1's path", async () => {
    const err = googleError(
      await call(app, 'POST', `${V1}/${FRAMES}`, { framesData: [{ machineDetails: { uuid: 'x', coreCount: '2x' } }] }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(violations(err)).toEqual([{ field: 'framesData[0].machineDetails.coreCount', description: 'must be of type integer, not a string' }]);
    expect(err.message).toBe("Invalid value for field 'framesData[0].machineDetails.coreCount': must be of type integer, not a string");
  });
});

describe("v1's lists on v1's paths", () => {
  beforeEach(async () => {
    await report(V1ALPHA1, [
      { virtualMachineDetails: { vmUuid: 'm-1', vmName: 'small', coreCount: 2, memoryMb: 2048, powerState: 'poweredOn', osFamily: 'OS_FAMILY_LINUX' } },
      { virtualMachineDetails: { vmUuid: 'm-2', vmName: 'big', coreCount: 16, memoryMb: 65536, powerState: 'poweredOff', osFamily: 'OS_FAMILY_WINDOWS' } },
      {
        virtualMachineDetails: {
          vmUuid: 'm-3',
          vmName: 'mid',
          coreCount: 8,
          memoryMb: 16384,
          powerState: 'suspended',
          osFamily: 'OS_FAMILY_LINUX',
          vmDisks: { hddTotalCapacityBytes: '2000' },
        },
      },
    ]);
  });

  const names = async (query: string): Promise<string[]> =>
    (ok(await call(app, 'GET', `${V1}/assets?${query}`)).assets ?? []).map((a: any) => a.machineDetails.machineName);
  const filter = (text: string, order = '') => `filter=${encodeURIComponent(text)}${order ? `&orderBy=${encodeURIComponent(order)}` : ''}`;

  test('filter and orderBy on machineDetails paths, enums compared in v1 values', async () => {
    expect(await names(filter('machineDetails.coreCount > 4', 'machineDetails.memoryMb desc'))).toEqual(['big', 'mid']);
    expect(await names(filter('machineDetails.guestOs.family = OS_FAMILY_LINUX', 'machineDetails.machineName'))).toEqual(['mid', 'small']);
    expect(await names(filter('machineDetails.powerState = SUSPENDED', 'machineDetails.coreCount'))).toEqual(['mid', 'big']);
    expect(await names(filter('machineDetails.powerState != SUSPENDED'))).toEqual(['small']);
    expect(await names(filter('machineDetails.powerState = ACTIVE OR machineDetails.disks.totalCapacityBytes >= 2000', 'machineDetails.uuid desc'))).toEqual([
      'mid',
      'small',
    ]);
    expect(await names(filter('machineDetails.uuid = "m-2"'))).toEqual(['big']);
  });

  test("v1alpha1's paths are unknown fields on v1, v1's on v1alpha1; a value v1's enum has not is refused", async () => {
    const refused = async (url: string) => violations(googleError(await call(app, 'GET', url), 400, 'INVALID_ARGUMENT'))[0].description;
    expect(await refused(`${V1}/assets?${filter('virtualMachineDetails.coreCount > 4')}`)).toMatch(
      /^unknown field 'virtualMachineDetails.coreCount' \(known: name, title, createTime, updateTime, machineDetails.machineName, machineDetails.uuid, machineDetails.coreCount, /,
    );
    expect(await refused(`${V1}/assets?orderBy=virtualMachineDetails.memoryMb`)).toMatch(/^unknown field 'virtualMachineDetails.memoryMb'/);
    expect(await refused(`${V1ALPHA1}/assets?${filter('machineDetails.coreCount > 4')}`)).toMatch(/^unknown field 'machineDetails.coreCount'/);
    expect(await refused(`${V1}/assets?${filter('machineDetails.powerState = poweredOn')}`)).toBe("'poweredOn' is not a value of machineDetails.powerState");
    expect(await refused(`${V1}/assets?${filter('machineDetails.powerState > ACTIVE')}`)).toBe(
      'machineDetails.powerState is an enum: compare it with =, : or != and one of its values',
    );
  });

  test('aggregateValues: v1 fields in, the same fields and v1 enum values out; v1alpha1 paths refused', async () => {
    const body = {
      aggregations: [
        { field: 'machineDetails.coreCount', sum: {} },
        { field: 'machineDetails.powerState', frequency: {} },
        { field: 'machineDetails.guestOs.family', frequency: {} },
      ],
      filter: 'machineDetails.memoryMb >= 2048',
    };
    expect(ok(await call(app, 'POST', `${V1}/assets:aggregateValues`, body))).toEqual({
      results: [
        { field: 'machineDetails.coreCount', sum: { value: 26 } },
        { field: 'machineDetails.powerState', frequency: { values: { ACTIVE: '1', SUSPENDED: '2' } } },
        { field: 'machineDetails.guestOs.family', frequency: { values: { OS_FAMILY_LINUX: '2', OS_FAMILY_WINDOWS: '1' } } },
      ],
    });
    const refused = googleError(
      await call(app, 'POST', `${V1}/assets:aggregateValues`, { aggregations: [{ field: 'virtualMachineDetails.coreCount', sum: {} }] }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(violations(refused)[0]).toMatchObject({ field: 'aggregations[0].field' });
    expect(violations(refused)[0].description).toMatch(/^unknown field 'virtualMachineDetails.coreCount'/);
  });
});
