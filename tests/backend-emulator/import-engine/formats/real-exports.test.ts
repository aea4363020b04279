/**
 * What the real-export shapes (tests/support/real-exports.ts) become: child rows joined to the
 * right VM on the key both tabs carry, the scripts' unknowable values left unknown, ServiceNow disk
 * rows joined by server name.
 */
import { awsCsv } from '../../../../backend-emulator/import-engine/formats/aws-csv';
import { azureCsv } from '../../../../backend-emulator/import-engine/formats/azure-csv';
import { cmdb } from '../../../../backend-emulator/import-engine/formats/cmdb';
import { rvtoolsCsv } from '../../../../backend-emulator/import-engine/formats/rvtools-csv';
// Expected bytes and times are literals (worked out by hand from the fixtures), never the code's own conversions.
import { byId, execute, fixtureFiles } from '../../../support/import-formats';

describe('RVTools tabs joined on the strongest shared key', () => {
  it('joins vCPU by VM + Datacenter + Host, vPartition by VM UUID, vDisk by VM ID + server: each VM of a shared name gets its own rows', async () => {
    const { report, assets } = await execute(rvtoolsCsv, fixtureFiles('rvtools/csv-4x-partial-keys'));
    expect(report.executionErrors.fileValidations.flatMap((f) => f.rowErrors).filter((r) => r.errors.some((e) => e.severity === 'ERROR'))).toEqual([]);
    const m = byId(assets);
    const east = m.get('50120000-0000-4000-8000-000000000101')!.virtualMachineDetails;
    const west = m.get('50120000-0000-4000-8000-000000000201')!.virtualMachineDetails;
    const db = m.get('50120000-0000-4000-8000-000000000102')!.virtualMachineDetails;
    // vCPU (no VM ID, no VM UUID): the two "app-01" are told apart by their datacenter and host
    expect(east.vmArchitecture?.cpuSocketCount).toBe(1);
    expect(west.vmArchitecture?.cpuSocketCount).toBe(2);
    // vPartition (VM UUID only): free space per VM
    expect(east.vmDisks?.hddTotalFreeBytes).toBe('32505856000' /* 31,000 MiB */);
    expect(west.vmDisks?.hddTotalFreeBytes).toBe('62914560000' /* 60,000 MiB */);
    // vDisk (VM ID + VI SDK Server)
    expect(east.vmDisks?.disks?.entries).toEqual([{ diskLabel: 'Hard disk 1', totalCapacityBytes: '53687091200' /* 50 GiB */, interfaceType: 'SCSI' }]);
    expect(db.vmDisks?.disks?.entries).toEqual([{ diskLabel: 'Hard disk 1', totalCapacityBytes: '429496729600' /* 400 GiB */, interfaceType: 'SATA' }]);
    // vNetwork (VM name only): db-01 is one VM
    expect(db.vmNetwork?.primaryMacAddress).toBe('00:50:56:aa:00:02');
    expect(assets).toHaveLength(3);
  });

  it('refuses rows no shared key matches, naming the keys tried, and imports the VMs without them', async () => {
    const { assets } = await execute(rvtoolsCsv, fixtureFiles('rvtools/csv-unmatched'));
    expect(assets.map((a) => a.virtualMachineDetails.vmArchitecture?.cpuSocketCount)).toEqual([undefined, undefined, undefined]);
  });
});

describe('collection scripts: what they cannot know stays unknown', () => {
  it('AWS 1.4.1: the 0 disk totals are unknown (summed from diskInfo.csv), dates of both forms read', async () => {
    const { assets } = await execute(awsCsv, fixtureFiles('aws/script-1.4.1'));
    const m = byId(assets);
    const web = m.get('i-0141aa0000000001')!.virtualMachineDetails;
    expect(web.vmDisks?.hddTotalCapacityBytes).toBe('8589934592' /* 8 GiB */);
    expect(web.vmDisks?.hddTotalFreeBytes).toBeUndefined();
    expect(web.createTime).toBe('2022-03-01T10:20:30Z');
    expect(m.get('i-0141aa0000000002')!.virtualMachineDetails.createTime).toBe('2022-03-02T11:22:33.123Z');
    expect(web.osName).toBeUndefined();
    expect(m.get('i-0141aa0000000001')!.performanceData?.dailyResourceUsageAggregations.map((d) => d.date)).toEqual([{ year: 2022, month: 3, day: 1 }]);
  });

  it('Azure 1.4.1: PowerShell AM/PM dates, no tags from the 0-byte tagInfo.csv', async () => {
    const { assets } = await execute(azureCsv, fixtureFiles('azure/script-1.4.1'));
    const m = byId(assets);
    expect(m.get('6a3f0c1e-1411-4a2b-9c3d-000000000001')!.virtualMachineDetails.createTime).toBe('2023-01-15T09:30:00Z');
    expect(m.get('6a3f0c1e-1411-4a2b-9c3d-000000000002')!.virtualMachineDetails.createTime).toBe('2022-12-03T23:05:09Z');
    expect(assets.every((a) => Object.keys(a.labels).length === 0)).toBe(true);
    const samples = m.get('6a3f0c1e-1411-4a2b-9c3d-000000000001')!.performanceData!.dailyResourceUsageAggregations;
    expect(samples.map((d) => d.date)).toEqual([{ year: 2023, month: 1, day: 15 }]);
  });
});

describe('ServiceNow list exports', () => {
  it('identifies servers by name without sys_id, joins disks by name, reads display values and thousands separators', async () => {
    const { assets } = await execute(cmdb, fixtureFiles('cmdb/servicenow-list'));
    const m = byId(assets);
    expect([...m.keys()].sort()).toEqual(['lnx-db-01', 'lnx-web-01']);
    const web = m.get('lnx-web-01')!;
    expect(web.virtualMachineDetails.memoryMb).toBe(16384);
    expect(web.virtualMachineDetails.osFamily).toBe('OS_FAMILY_LINUX');
    // the description kept its tab and line break inside the quotes
    expect(web.attributes.short_description).toBe('Web front end\r\nowner:\tteam-web');
    const db = m.get('lnx-db-01')!.virtualMachineDetails;
    expect(db.vmDisks?.disks?.entries.map((d) => d.diskLabel)).toEqual(['sda', 'sdb']);
    expect(db.powerState).toBe('poweredOff');
  });

  it('reads the base table with column labels, skipping the classes that are not servers', async () => {
    const { assets } = await execute(cmdb, fixtureFiles('cmdb/servicenow-base-table'));
    const m = byId(assets);
    expect([...m.keys()].sort()).toEqual(['6816f79cc0a8016401c5a33be04be441', '6816f79cc0a8016401c5a33be04be443']);
    const aix = m.get('6816f79cc0a8016401c5a33be04be443')!.virtualMachineDetails;
    expect(aix).toMatchObject({ memoryMb: 262144, coreCount: 16, osFamily: 'OS_FAMILY_UNIX' });
    expect(aix.vmDisks?.hddTotalCapacityBytes).toBe('2199023255552' /* 2 TiB */);
  });
});
