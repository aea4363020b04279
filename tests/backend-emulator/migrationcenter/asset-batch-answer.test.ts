/**
 * batchUpdate's answer (up to 1,000 whole assets) is built in ProtoJSON from the stored assets and
 * sent as text (asset-text.ts, http/protojson.ts ProtoJsonText), not as wire objects walked by the
 * front end. These tests hold it to what Google's ProtoJSON is, with expectations written here:
 * defaults left out at every depth (a zero, an empty string, an enum's zero value, an int64 "0"),
 * list elements and messages kept even when empty, map entries kept as they are; the same asset
 * as GET then reads it; and the v1 edge still rewriting it.
 */
import type { FastifyInstance } from 'fastify';
import { migrationCenterOf } from '../../../backend-emulator/migrationcenter/routes';
import type { Asset } from '../../../backend-emulator/import-engine/asset';
import { BASE, PARENT, call, newApp, ok } from '../../support/migrationcenter';
import { sharedApp } from '../../support/app';

const S1 = `${PARENT}/sources/s1`;
const S0 = `${PARENT}/sources/s0`;
const GROUP = `${PARENT}/groups/g1`;

/** Stored assets with defaults at several depths (written through the store, as an import writes them). */
const ASSETS = [
  {
    machineId: 'plain-1',
    attributes: { HostingLocation: 'x' },
    labels: { env: 'prod' },
    virtualMachineDetails: { vmUuid: 'plain-1', vmName: 'one', coreCount: 2, memoryMb: 4096, powerState: 'poweredOn', osFamily: 'OS_FAMILY_LINUX' },
  },
  {
    machineId: 'zeros-2',
    attributes: {},
    virtualMachineDetails: {
      vmUuid: 'u2',
      vmName: '',
      coreCount: 0,
      memoryMb: 0,
      osFamily: 'OS_FAMILY_UNKNOWN',
      osName: '',
      vmDisks: {
        hddTotalCapacityBytes: '0',
        hddTotalFreeBytes: '0',
        disks: {
          entries: [
            { diskLabel: '', totalCapacityBytes: '0' },
            { diskLabel: 'b', totalCapacityBytes: '10', interfaceType: 'SCSI' },
          ],
        },
      },
      vmNetwork: { primaryIpAddress: '', networkAdapters: { networkAdapters: [] } },
      platform: { genericDetails: {} },
      vmArchitecture: { cpuSocketCount: 0, firmware: 'BIOS' },
    },
  },
  {
    machineId: 'disk-3',
    attributes: { MachineId: 'disk-3', A: '' },
    labels: { e: '' },
    virtualMachineDetails: {
      vmUuid: 'disk-3',
      vmName: 'three',
      vmDisks: { hddTotalCapacityBytes: '123456789012', disks: { entries: [{ diskLabel: 'a', totalCapacityBytes: '1' }] } },
    },
    performanceData: {
      dailyResourceUsageAggregations: [
        {
          date: { year: 2024, month: 1, day: 2 },
          cpu: { utilizationPercentage: { average: 0, median: 1.5, nintyFifthPercentile: 2, peak: 0 } },
          memory: { utilizationPercentage: { average: 10 } },
          disk: { iops: { average: 0 } },
        },
        {},
      ],
    },
  },
] as unknown as Asset[];

const A1 = `${PARENT}/assets/vm-plain-1`;
const A2 = `${PARENT}/assets/vm-zeros-2`;
const A3 = `${PARENT}/assets/vm-disk-3`;

let app: FastifyInstance;
const sharedAppOfBlock = sharedApp(() => newApp());
beforeEach(async () => {
  app = sharedAppOfBlock();
  await app.ready();
  const assets = migrationCenterOf(app.emulator)!.assets;
  app.emulator.store.transaction(() => assets.upsert(PARENT, S1, ASSETS));
  app.emulator.store.transaction(() => assets.upsert(PARENT, S0, ASSETS.slice(0, 1)));
  ok(await call(app, 'POST', `${BASE}/groups?groupId=g1`, {}));
  ok(await call(app, 'POST', `/v1alpha1/${GROUP}:addAssets`, { assets: { assetIds: [A1] } }));
});

const BATCH = {
  requests: [
    { asset: { name: A1, labels: { env: 'dev', empty: '' } }, updateMask: 'labels' },
    { asset: { name: A2, attributes: { owner: 'ops' } }, updateMask: 'attributes' },
    { asset: { name: A3, labels: {} }, updateMask: 'labels' },
  ],
};

/** An asset's fields but its two times (checked on their own). */
function timeless(asset: Record<string, unknown>): Record<string, unknown> {
  const { createTime: _c, updateTime: _u, ...rest } = asset;
  return rest;
}

describe('assets.batchUpdate answers ProtoJSON written from the stored assets', () => {
  test('defaults are left out at every depth; empty list elements and messages stay; map entries stay as given', async () => {
    const res = await call(app, 'POST', `${BASE}/assets:batchUpdate`, BATCH);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const assets = res.body.assets as Array<Record<string, unknown>>;
    for (const asset of assets) {
      expect(asset.createTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(asset.updateTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    expect(assets.map(timeless)).toEqual([
      {
        name: A1,
        title: 'one',
        labels: { env: 'dev', empty: '' },
        attributes: { HostingLocation: 'x', MachineId: 'plain-1' },
        sources: [S1, S0],
        assignedGroups: [GROUP],
        virtualMachineDetails: { vmUuid: 'plain-1', vmName: 'one', coreCount: 2, memoryMb: 4096, powerState: 'poweredOn', osFamily: 'OS_FAMILY_LINUX' },
      },
      {
        name: A2,
        attributes: { owner: 'ops' },
        sources: [S1],
        virtualMachineDetails: {
          vmUuid: 'u2',
          vmDisks: { disks: { entries: [{}, { diskLabel: 'b', totalCapacityBytes: '10', interfaceType: 'SCSI' }] } },
          vmNetwork: { networkAdapters: {} },
          platform: { genericDetails: {} },
          vmArchitecture: { firmware: 'BIOS' },
        },
      },
      {
        name: A3,
        title: 'three',
        attributes: { A: '', MachineId: 'disk-3' },
        sources: [S1],
        virtualMachineDetails: {
          vmUuid: 'disk-3',
          vmName: 'three',
          vmDisks: { hddTotalCapacityBytes: '123456789012', disks: { entries: [{ diskLabel: 'a', totalCapacityBytes: '1' }] } },
        },
        performanceData: {
          dailyResourceUsageAggregations: [
            {
              date: { year: 2024, month: 1, day: 2 },
              cpu: { utilizationPercentage: { median: 1.5, nintyFifthPercentile: 2 } },
              memory: { utilizationPercentage: { average: 10 } },
              disk: { iops: {} },
            },
            {},
          ],
        },
      },
    ]);
    // The text is one JSON document, keys not repeated (JSON.parse would keep the last of two).
    expect(res.raw.match(/"virtualMachineDetails":/g)).toHaveLength(3);
  });

  test('each answered asset is the asset GET then reads, field for field and in the same order', async () => {
    const res = await call(app, 'POST', `${BASE}/assets:batchUpdate`, BATCH);
    const answered = JSON.parse(res.raw).assets as Array<Record<string, unknown>>;
    for (const asset of answered) {
      const got = await call(app, 'GET', `/v1alpha1/${asset.name as string}?view=FULL`);
      expect(asset).toEqual(got.body);
      expect(JSON.stringify(asset)).toBe(got.raw);
    }
  });

  test("through v1, the same answer in v1's shape: the machine as machineDetails", async () => {
    const res = await call(app, 'POST', `/v1/${PARENT}/assets:batchUpdate`, { requests: [BATCH.requests[0]] });
    expect(res.status).toBe(200);
    expect(res.body.assets.map(timeless)).toEqual([
      {
        name: A1,
        title: 'one',
        labels: { env: 'dev', empty: '' },
        attributes: { HostingLocation: 'x', MachineId: 'plain-1' },
        sources: [S1, S0],
        assignedGroups: [GROUP],
        machineDetails: { uuid: 'plain-1', machineName: 'one', coreCount: 2, memoryMb: 4096, powerState: 'ACTIVE', guestOs: { family: 'OS_FAMILY_LINUX' } },
      },
    ]);
  });
});
