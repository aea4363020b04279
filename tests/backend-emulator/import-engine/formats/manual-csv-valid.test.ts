/**
 * Valid fixture sets (tests/fixtures/manual-csv/valid/<set>/): clean reports, and the assets the
 * execution builds, field by field.
 */
import { executeImport, validateImport, type Asset } from '../../../../backend-emulator/import-engine';
import { validate as validateSchema } from '../../../../schemas';
import { fixtureFiles, MemorySink, vmInfoLast } from '../../../support/import-engine';

const FORMAT = 'IMPORT_JOB_FORMAT_MANUAL_CSV';

async function execute(folder: string) {
  const sink = new MemorySink();
  const report = await executeImport(FORMAT, vmInfoLast(fixtureFiles(folder)), sink);
  expect(validateSchema('ExecutionReport', report)).toEqual([]);
  return { report, sink };
}

const clean = (fileName: string) => ({ fileName, fileErrors: [], rowErrors: [], partialReport: false });

describe('valid/basic: three machines with disks, tags and performance samples', () => {
  test('validation: no error of any severity; files listed in payload order', async () => {
    const files = vmInfoLast(fixtureFiles('valid/basic'));
    const report = await validateImport(FORMAT, files);
    expect(report).toEqual({
      jobErrors: [],
      fileValidations: [clean('diskInfo.csv'), clean('perfInfo.csv'), clean('tagInfo.csv'), clean('vmInfo.csv')],
    });
    expect(validateSchema('ValidationReport', report)).toEqual([]);
  });

  test('execution: counts, frames and batches', async () => {
    const { report, sink } = await execute('valid/basic');
    expect(report.totalRowsCount).toBe(3 + 4 + 5 + 6); // data rows of vmInfo, diskInfo, tagInfo, perfInfo
    expect(report.framesReported).toBe(3 + 6); // one per machine plus one per performance sample
    expect(report.executionErrors.jobErrors).toEqual([]);
    expect(sink.assets.map((a) => a.machineId)).toEqual(['vm-001', 'vm-002', 'pm-003']);
    expect(sink.batches).toEqual([3]);
  });

  test('vm-001: every field', async () => {
    const { sink } = await execute('valid/basic');
    const GiB = 1024 ** 3;
    const expected: Asset = {
      machineId: 'vm-001',
      attributes: {
        HostingLocation: 'eu-west-1',
        MachineTypeLabel: 'n2-standard-4',
        OsType: 'Linux',
        OsPublisher: 'Canonical',
        MachineStatus: 'running',
        ProvisioningState: 'Succeeded',
        IsPhysical: 'false',
      },
      labels: { env: 'prod', team: 'web' },
      virtualMachineDetails: {
        vmUuid: 'vm-001',
        vmName: 'web-01',
        createTime: '2023-05-01T08:00:00Z',
        coreCount: 4,
        memoryMb: 16384,
        powerState: 'poweredOn',
        platform: { genericDetails: { location: 'eu-west-1' } },
        vmDisks: {
          hddTotalCapacityBytes: String(120 * GiB),
          hddTotalFreeBytes: String(55.5 * GiB),
          disks: {
            // StorageTypeLabel (SSD, HDD) is a storage class: no interfaceType.
            entries: [
              { diskLabel: '/dev/sda', totalCapacityBytes: String(100 * GiB), totalFreeBytes: String(49.5 * GiB) },
              { diskLabel: '/dev/sdb', totalCapacityBytes: String(20 * GiB), totalFreeBytes: String(6 * GiB) },
            ],
          },
        },
        vmNetwork: {
          primaryIpAddress: '10.0.0.11',
          publicIpAddress: '203.0.113.7',
          primaryMacAddress: '00:1a:2b:3c:4d:5e',
          networkAdapters: {
            networkAdapters: [{ macAddress: '00:1a:2b:3c:4d:5e', addresses: { addresses: [{ ipAddress: '10.0.0.11' }, { ipAddress: '10.0.1.11' }] } }],
          },
        },
        osFamily: 'OS_FAMILY_LINUX',
        osName: 'Ubuntu',
        osVersion: '22.04',
      },
      performanceData: {
        dailyResourceUsageAggregations: [
          {
            date: { year: 2024, month: 1, day: 31 },
            cpu: { utilizationPercentage: { average: 20, median: 20, ninteyFifthPercentile: 30, peak: 30 } },
            memory: { utilizationPercentage: { average: 50, median: 50, ninteyFifthPercentile: 60, peak: 60 } },
            disk: {
              iops: { average: 300, median: 300, ninteyFifthPercentile: 450, peak: 450 },
              readIops: { average: 200, median: 200, ninteyFifthPercentile: 300, peak: 300 },
              writeIops: { average: 100, median: 100, ninteyFifthPercentile: 150, peak: 150 },
            },
            network: {
              ingressBps: { average: 4000, median: 4000, ninteyFifthPercentile: 6000, peak: 6000 },
              egressBps: { average: 3000, median: 3000, ninteyFifthPercentile: 5000, peak: 5000 },
            },
          },
          {
            // MemoryUtilizationPercentage empty: derived from UtilizedMemoryBytes (8 GiB of 16 GiB).
            date: { year: 2024, month: 2, day: 1 },
            cpu: { utilizationPercentage: { average: 90, median: 90, ninteyFifthPercentile: 90, peak: 90 } },
            memory: { utilizationPercentage: { average: 50, median: 50, ninteyFifthPercentile: 50, peak: 50 } },
            disk: {
              iops: { average: 20, median: 20, ninteyFifthPercentile: 20, peak: 20 },
              readIops: { average: 10, median: 10, ninteyFifthPercentile: 10, peak: 10 },
              writeIops: { average: 10, median: 10, ninteyFifthPercentile: 10, peak: 10 },
            },
            network: {
              ingressBps: { average: 200, median: 200, ninteyFifthPercentile: 200, peak: 200 },
              egressBps: { average: 100, median: 100, ninteyFifthPercentile: 100, peak: 100 },
            },
          },
        ],
      },
    };
    expect(sink.byId('vm-001')).toStrictEqual(expected);
  });

  test('vm-002: totals from diskInfo.csv, empty label value, memory from AvailableMemoryBytes, US timestamps', async () => {
    const { sink } = await execute('valid/basic');
    const a = sink.byId('vm-002');
    const GiB = 1024 ** 3;
    expect(a.labels).toStrictEqual({ env: 'prod', backup: '' });
    const d = a.virtualMachineDetails;
    expect(d.powerState).toBe('poweredOff');
    expect(d.createTime).toBe('2022-11-15T10:30:00Z');
    expect([d.osFamily, d.osName, d.osVersion]).toStrictEqual(['OS_FAMILY_WINDOWS', 'Windows Server 2019 Datacenter', '10.0.17763']);
    // No totals in vmInfo.csv: capacity summed from the disks; free unknown because D: has no UsedInGib.
    expect(d.vmDisks).toStrictEqual({
      hddTotalCapacityBytes: String(768 * GiB),
      disks: {
        entries: [
          { diskLabel: 'C:', totalCapacityBytes: String(256 * GiB), totalFreeBytes: String(156 * GiB) },
          { diskLabel: 'D:', totalCapacityBytes: String(512 * GiB) },
        ],
      },
    });
    expect(d.vmNetwork).toStrictEqual({
      primaryIpAddress: '10.0.0.12',
      networkAdapters: { networkAdapters: [{ addresses: { addresses: [{ ipAddress: '10.0.0.12' }] } }] },
    });
    // 64 GiB machine: 32 GiB and 48 GiB available -> 50 % and 25 % used.
    expect(a.performanceData).toStrictEqual({
      dailyResourceUsageAggregations: [
        {
          date: { year: 2024, month: 1, day: 31 },
          cpu: { utilizationPercentage: { average: 50, median: 50, ninteyFifthPercentile: 55.5, peak: 55.5 } },
          memory: { utilizationPercentage: { average: 37.5, median: 37.5, ninteyFifthPercentile: 50, peak: 50 } },
        },
      ],
    });
  });

  test('pm-003: a physical server, quoted name with a comma, MAC with dashes', async () => {
    const { sink } = await execute('valid/basic');
    const a = sink.byId('pm-003');
    expect(a.virtualMachineDetails.vmName).toBe('rack server, row 3');
    expect(a.attributes.IsPhysical).toBe('true');
    expect(a.virtualMachineDetails.platform).toStrictEqual({ physicalDetails: { location: 'dc-paris' } });
    expect(a.virtualMachineDetails.vmNetwork?.primaryMacAddress).toBe('00:1a:2b:3c:4d:60');
    expect(a.virtualMachineDetails.createTime).toBe('2021-01-31T13:30:00Z');
    expect(a.virtualMachineDetails.coreCount).toBe(32);
    expect(a.virtualMachineDetails.memoryMb).toBe(256 * 1024);
    expect(a.labels).toStrictEqual({ rack: 'r3-u12' });
    expect(a.performanceData).toBeUndefined();
  });
});

describe('valid/template-style: a public template copy filled by hand', () => {
  test('BOM, CRLF, "(optional)" headers, odd header case and spaces, quotes, blank rows: one INFO for the extra column', async () => {
    const report = await validateImport(FORMAT, fixtureFiles('valid/template-style'));
    expect(report).toEqual({
      jobErrors: [],
      fileValidations: [
        clean('tagInfo.csv'),
        {
          ...clean('vmInfo.csv'),
          fileErrors: [{ severity: 'INFO', errorDetails: 'the column "Owner" is not part of the vmInfo.csv template; it is ignored' }],
        },
      ],
    });
  });

  test('assets: escaped quotes, multi-line cells, dotted MAC, IP list with spaces, international label key', async () => {
    const { report, sink } = await execute('valid/template-style');
    expect(report.totalRowsCount).toBe(2 + 3); // blank lines and rows of empty cells are not rows
    const a = sink.byId('srv-01');
    expect(a.virtualMachineDetails.vmName).toBe('Finance "ERP" server');
    expect(a.virtualMachineDetails.vmNetwork?.primaryMacAddress).toBe('00:1a:2b:3c:4d:5e');
    expect(a.virtualMachineDetails.vmNetwork?.networkAdapters?.networkAdapters[0].addresses?.addresses.map((x) => x.ipAddress)).toEqual([
      '10.1.0.5',
      '10.1.0.6',
    ]);
    expect(a.virtualMachineDetails.createTime).toBe('2020-02-29T00:00:00Z');
    expect(a.virtualMachineDetails.platform).toStrictEqual({ physicalDetails: { location: 'Lyon DC' } });
    expect(a.virtualMachineDetails.vmDisks).toStrictEqual({ hddTotalCapacityBytes: String(500 * 1024 ** 3) });
    expect(a.labels).toStrictEqual({ 'cost-center': 'cc_42', équipe: 'finance' });
    const b = sink.byId('srv-02');
    expect(b.virtualMachineDetails.vmName).toBe('multi\r\nline name');
    expect(b.attributes).toStrictEqual({ IsPhysical: 'false' });
    // No MachineStatus: no power state.
    expect(b.virtualMachineDetails).toStrictEqual({
      vmUuid: 'srv-02',
      vmName: 'multi\r\nline name',
      coreCount: 2,
      memoryMb: 8192,
      platform: { genericDetails: {} },
      osFamily: 'OS_FAMILY_UNKNOWN',
    });
  });
});

describe("files written by Google's collection scripts", () => {
  test('aws-script: Source column, empty totals, "MM/dd/yyyy, HH:mm:ss" samples, offsets in CreateDate', async () => {
    expect(await validateImport(FORMAT, fixtureFiles('valid/aws-script'))).toEqual({
      jobErrors: [],
      fileValidations: ['diskInfo.csv', 'perfInfo.csv', 'tagInfo.csv', 'vmInfo.csv'].map(clean),
    });
    const { report, sink } = await execute('valid/aws-script');
    expect(report.framesReported).toBe(2 + 2);
    const a = sink.byId('i-0a1b2c3d4e5f60001');
    expect(a.attributes.Source).toBe('AWS');
    expect(a.virtualMachineDetails.createTime).toBe('2022-03-14T09:26:53Z');
    expect(a.virtualMachineDetails.memoryMb).toBe(8192);
    expect(a.virtualMachineDetails.vmDisks?.hddTotalCapacityBytes).toBe(String(130 * 1024 ** 3));
    expect(a.virtualMachineDetails.vmDisks?.hddTotalFreeBytes).toBeUndefined();
    expect(a.performanceData?.dailyResourceUsageAggregations).toStrictEqual([
      {
        date: { year: 2022, month: 1, day: 31 },
        cpu: { utilizationPercentage: { average: 25, median: 25, ninteyFifthPercentile: 37.5, peak: 37.5 } },
        disk: {
          iops: { average: 3, median: 3, ninteyFifthPercentile: 4, peak: 4 },
          readIops: { average: 1, median: 1, ninteyFifthPercentile: 1.5, peak: 1.5 },
          writeIops: { average: 2, median: 2, ninteyFifthPercentile: 2.5, peak: 2.5 },
        },
        network: {
          ingressBps: { average: 3072, median: 3072, ninteyFifthPercentile: 4096, peak: 4096 },
          egressBps: { average: 2048, median: 2048, ninteyFifthPercentile: 3072, peak: 3072 },
        },
      },
    ]);
    expect(sink.byId('i-0a1b2c3d4e5f60002').virtualMachineDetails.powerState).toBe('poweredOff');
  });

  test('azure-script: every field quoted, "VM running" / "VM deallocated", image offer and SKU as OS', async () => {
    const r = await validateImport(FORMAT, fixtureFiles('valid/azure-script'));
    expect(r.fileValidations.every((f) => f.fileErrors.length === 0 && f.rowErrors.length === 0)).toBe(true);
    const { sink } = await execute('valid/azure-script');
    const web = sink.byId('5f3c2a1e-8b7d-4c6e-9a0b-1c2d3e4f5a6b');
    expect(web.virtualMachineDetails.powerState).toBe('poweredOn');
    const { osFamily, osName, osVersion } = web.virtualMachineDetails;
    expect({ osFamily, osName, osVersion }).toStrictEqual({ osFamily: 'OS_FAMILY_LINUX', osName: '0001-com-ubuntu-server-jammy', osVersion: '22_04-lts-gen2' });
    expect(web.virtualMachineDetails.createTime).toBe('2023-03-01T10:15:00Z');
    // 8 GiB machine, 4 GiB then 2 GiB available: 50 % and 75 % used.
    expect(web.performanceData?.dailyResourceUsageAggregations[0].memory).toStrictEqual({
      utilizationPercentage: { average: 62.5, median: 62.5, ninteyFifthPercentile: 75, peak: 75 },
    });
    const sql = sink.byId('6a4d3b2f-9c8e-4d7f-8b1c-2d3e4f5a6b7c');
    expect(sql.virtualMachineDetails.powerState).toBe('poweredOff');
    expect(sql.labels).toStrictEqual({ workload: 'database' });
    // Premium_LRS and UltraSSD_LRS are storage classes, not interfaces: the entries carry none.
    expect(sql.virtualMachineDetails.vmDisks?.disks?.entries.map((d) => d.interfaceType)).toEqual([undefined, undefined]);
    expect(sql.virtualMachineDetails.vmDisks?.disks?.entries.map((d) => d.diskLabel)).toHaveLength(2);
  });
});
