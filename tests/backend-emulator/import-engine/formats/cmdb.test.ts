/**
 * IMPORT_JOB_FORMAT_CMDB with the emulator's own template (no column specification was ever
 * published): ServiceNow-like server exports (`cmdb_ci_<class>.csv`) and `cmdb_ci_disk.csv`.
 */
import { countBySeverity, hasBlockingErrors } from '../../../../backend-emulator/import-engine';
import { cmdb, CMDB_DISK_FILE, CMDB_SERVER_FILE, powerStateOfCi } from '../../../../backend-emulator/import-engine/formats/cmdb';
import { isoString } from '../../../../backend-emulator/import-engine/timestamps';
import { bufferFile, byId, execute, fileReport, fixtureFiles, validate } from '../../../support/import-formats';
import { csvRow, issue } from '../../../support/report-rows';

const APP = '3f1c2b9a8d7e4f60a1b2c3d4e5f60718';
const BATCH = '3f1c2b9a8d7e4f60a1b2c3d4e5f60719';
const SQL = '9a8b7c6d5e4f30211a2b3c4d5e6f7081';
const noIssues = { rowErrors: [], partialReport: false, fileErrors: [] };

describe('CMDB (IMPORT_JOB_FORMAT_CMDB)', () => {
  it('validates the valid fixture: two server classes and a disk file, no issue', async () => {
    const report = await validate(cmdb, fixtureFiles('cmdb/valid'));
    expect(report).toEqual({
      jobErrors: [],
      fileValidations: ['cmdb_ci_disk.csv', 'cmdb_ci_linux_server.csv', 'cmdb_ci_win_server.csv'].map((fileName) => ({ fileName, ...noIssues })),
    });
  });

  it('executes it: virtual and physical servers with disks', async () => {
    const { report, assets } = await execute(cmdb, fixtureFiles('cmdb/valid'));
    expect(report.framesReported).toBe(3);
    expect(report.totalRowsCount).toBe(6);
    const m = byId(assets);
    expect(m.get(APP)).toEqual({
      machineId: APP,
      attributes: {
        sys_class_name: 'cmdb_ci_linux_server',
        serial_number: 'VMware-42 1a 2b 3c',
        fqdn: 'app-server-01.corp.example.com',
        manufacturer: 'VMware, Inc.',
        operational_status: 'Operational',
        install_status: 'Installed',
        HostingLocation: 'Frankfurt DC2',
        IsPhysical: 'false',
      },
      labels: {},
      virtualMachineDetails: {
        vmUuid: APP,
        vmName: 'app-server-01',
        createTime: isoString(Date.UTC(2023, 4, 1, 8)),
        coreCount: 8,
        memoryMb: 32768,
        powerState: 'poweredOn',
        platform: { genericDetails: { location: 'Frankfurt DC2' } },
        // no disk_space: the disk rows are summed; storage_type SSD and SAN name no bus: no interfaceType
        vmDisks: {
          hddTotalCapacityBytes: '644245094400',
          hddTotalFreeBytes: '53687091200',
          disks: {
            entries: [
              { diskLabel: 'disk0', totalCapacityBytes: '107374182400', totalFreeBytes: '53687091200' },
              { diskLabel: 'disk1', totalCapacityBytes: '536870912000' },
            ],
          },
        },
        vmNetwork: {
          primaryIpAddress: '10.20.0.15',
          primaryMacAddress: '00:50:56:aa:bb:01',
          networkAdapters: { networkAdapters: [{ macAddress: '00:50:56:aa:bb:01', addresses: { addresses: [{ ipAddress: '10.20.0.15' }] } }] },
        },
        osFamily: 'OS_FAMILY_LINUX',
        osName: 'Linux Red Hat',
        osVersion: '8.6',
      },
    });
    const batch = m.get(BATCH)!;
    // disk_space (GB) gives the total; `os` is empty: the CI class gives the family
    expect(batch.virtualMachineDetails.vmDisks).toEqual({ hddTotalCapacityBytes: String(200 * 2 ** 30) });
    expect(batch.virtualMachineDetails.osFamily).toBe('OS_FAMILY_LINUX');
    expect(batch.virtualMachineDetails.osName).toBeUndefined();
    expect(batch.virtualMachineDetails.powerState).toBe('poweredOff');
    const sql = m.get(SQL)!;
    expect(sql.virtualMachineDetails.platform).toEqual({ physicalDetails: { location: 'Paris DC1' } });
    expect(sql.attributes.IsPhysical).toBe('true');
    expect(sql.virtualMachineDetails.vmNetwork?.primaryMacAddress).toBe('00:1a:2b:3c:4d:5e');
    expect(sql.virtualMachineDetails.vmDisks?.disks?.entries).toEqual([
      { diskLabel: 'PHYSICALDRIVE0', totalCapacityBytes: '480103981056', totalFreeBytes: '240051990528' },
    ]);
    const { osFamily, osName, osVersion } = sql.virtualMachineDetails;
    expect({ osFamily, osName, osVersion }).toEqual({ osFamily: 'OS_FAMILY_WINDOWS', osName: 'Windows 2019 Datacenter', osVersion: '10.0.17763' });
  });

  it('reports the invalid fixture field by field', async () => {
    const report = await validate(cmdb, fixtureFiles('cmdb/invalid'));
    expect(report.jobErrors).toEqual([]);
    expect(fileReport(report, 'cmdb_ci_server.csv')).toEqual({
      fileName: 'cmdb_ci_server.csv',
      partialReport: false,
      fileErrors: [
        issue([
          'WARNING',
          "the column disk_space is missing from the header of cmdb_ci_server.csv; it is recommended: add the column 'Disk space (GB)' (field disk_space): in the list view, ☰ > Configure > List Layout",
        ]),
      ],
      rowErrors: [
        csvRow(3, 'lots-of-ram', 'aaaa0000000000000000000000000002', [
          ['ERROR', 'ram must be a number (MiB), got "lots"'],
          ['WARNING', 'cpu_core_count (1) is smaller than cpu_count (2)'],
          ['WARNING', 'operational_status "Broken" is not a known value; the power state is left unspecified'],
        ]),
        csvRow(4, 'dup-01', 'aaaa0000000000000000000000000001', [
          ['ERROR', 'sys_id "aaaa0000000000000000000000000001" is a duplicate: row 2 of cmdb_ci_server.csv has the same sys_id'],
          ['ERROR', 'ip_address must be an IPv4 or IPv6 address, got "10.0.0.300"'],
        ]),
      ],
    });
    expect(fileReport(report, 'cmdb_ci_disk.csv')).toEqual({
      fileName: 'cmdb_ci_disk.csv',
      partialReport: false,
      fileErrors: [],
      rowErrors: [
        csvRow(2, '', 'aaaa0000000000000000000000000001', [['WARNING', 'free_space_bytes (2000) is larger than size_bytes (1000)']]),
        csvRow(3, '', 'ffff0000000000000000000000000000', [
          ['ERROR', 'computer "ffff0000000000000000000000000000" names no server of the server files (neither a sys_id nor a name)'],
        ]),
      ],
    });
    expect(countBySeverity(report)).toEqual({ ERROR: 4, WARNING: 4, INFO: 0 });
  });

  it('a server file without a required column is a file error', async () => {
    const report = await validate(cmdb, fixtureFiles('cmdb/invalid-header'));
    expect(fileReport(report, 'cmdb_ci_server.csv').fileErrors).toEqual([
      issue([
        'ERROR',
        "the required column cpu_count is missing from the header of cmdb_ci_server.csv: add the column 'CPU count' (field cpu_count): in the list view, ☰ > Configure > List Layout",
      ]),
      issue([
        'WARNING',
        "the column disk_space is missing from the header of cmdb_ci_server.csv; it is recommended: add the column 'Disk space (GB)' (field disk_space): in the list view, ☰ > Configure > List Layout",
      ]),
      issue([
        'WARNING',
        "the column os is missing from the header of cmdb_ci_server.csv; it is recommended: add the column 'Operating System' (field os): in the list view, ☰ > Configure > List Layout",
      ]),
    ]);
    expect(hasBlockingErrors(report)).toBe(true);
  });

  it("names the file the user has in a header error, not the template's name", async () => {
    // A server table of another CI class is read as servers: the message names that file.
    const header = 'name,sys_id,ram\r\nweb-01,aaaa0000000000000000000000000001,4096\r\n';
    const report = await validate(cmdb, [bufferFile('cmdb_ci_linux_server.csv', header)]);
    const [first] = fileReport(report, 'cmdb_ci_linux_server.csv').fileErrors;
    expect(first).toEqual(
      issue([
        'ERROR',
        "the required column cpu_count is missing from the header of cmdb_ci_linux_server.csv: add the column 'CPU count' (field cpu_count): in the list view, ☰ > Configure > List Layout",
      ]),
    );
  });

  it('needs a server file; recognises file names; forgives header case, spaces and a BOM', async () => {
    const disks = await validate(cmdb, [bufferFile('cmdb_ci_disk.csv', 'computer,size_bytes\r\nx,1\r\n')]);
    expect(disks.jobErrors).toEqual([issue(['ERROR', 'cmdb_ci_server.csv is required in every CMDB import, and the payload has none'])]);
    for (const n of ['cmdb.csv', 'cmdb_ci_server.csv', 'CMDB_CI_Linux_Server.csv', 'cmdb_ci_server (1).csv']) expect(CMDB_SERVER_FILE.test(n)).toBe(true);
    for (const n of ['cmdb_ci_disk.csv', 'servers.csv', 'cmdb_ci_server.xlsx']) expect(CMDB_SERVER_FILE.test(n)).toBe(false);
    expect(CMDB_DISK_FILE.test('cmdb_ci_disk.csv')).toBe(true);
    const text = '\uFEFF  SYS_ID , Name ,CPU_COUNT,ram\r\nz1,zed,2,1024\r\n';
    const { assets, report } = await execute(cmdb, [bufferFile('cmdb.csv', text)]);
    expect(countBySeverity(report.executionErrors)).toEqual({ ERROR: 0, WARNING: 2, INFO: 0 });
    // no operational_status: no power state
    expect(
      assets.map((a) => [
        a.machineId,
        a.virtualMachineDetails.vmName,
        a.virtualMachineDetails.coreCount,
        a.virtualMachineDetails.memoryMb,
        a.virtualMachineDetails.powerState,
      ]),
    ).toEqual([['z1', 'zed', 2, 1024, undefined]]);
  });

  it('fills a disk interfaceType only when storage_type names a bus', async () => {
    const servers = 'sys_id,name,cpu_count,ram\r\ns1,one,2,1024\r\n';
    const disks = 'computer,name,size_bytes,storage_type\r\ns1,d0,10,SCSI\r\ns1,d1,10,nvme\r\ns1,d2,10,SSD\r\ns1,d3,10,SAN\r\n';
    const { assets } = await execute(cmdb, [bufferFile('cmdb_ci_server.csv', servers), bufferFile('cmdb_ci_disk.csv', disks)]);
    expect(assets[0].virtualMachineDetails.vmDisks?.disks?.entries.map((d) => [d.diskLabel, d.interfaceType])).toEqual([
      ['d0', 'SCSI'],
      ['d1', 'NVME'],
      ['d2', undefined],
      ['d3', undefined],
    ]);
  });

  it('maps operational status labels and numbers', () => {
    expect(powerStateOfCi('1')).toBe('poweredOn');
    expect(powerStateOfCi(' Operational ')).toBe('poweredOn');
    expect(powerStateOfCi('Non-Operational')).toBe('poweredOff');
    expect(powerStateOfCi('6')).toBe('poweredOff');
    expect(powerStateOfCi('Retired')).toBe('poweredOff');
    expect(powerStateOfCi('Broken')).toBeUndefined();
  });
});
