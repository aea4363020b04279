/**
 * The two VM-inventory-tool (RVTools) formats through the engine: XLSX workbooks (the real public
 * samples and workbooks built from the CSV fixture tabs) and the `RVTools_tab<tab>.csv` files.
 * Reports are asserted field by field; the same machines in several formats give the same assets.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateRvtoolsWorkbook } from '../../../../bench/import-xlsx';
import { countBySeverity, hasBlockingErrors } from '../../../../backend-emulator/import-engine';
import type { Asset } from '../../../../backend-emulator/import-engine';
import { manualCsv } from '../../../../backend-emulator/import-engine/formats/manual-csv';
import { rvtoolsCsv } from '../../../../backend-emulator/import-engine/formats/rvtools-csv';
import { busOf, KEY_COLUMN, mibToBytes, parseRvDate } from '../../../../backend-emulator/import-engine/formats/rvtools-common';
import { rvtoolsXlsx, rvtoolsXlsxFormat } from '../../../../backend-emulator/import-engine/formats/rvtools-xlsx';
import { isoString } from '../../../../backend-emulator/import-engine/timestamps';
import { bufferFile, byId, execute, fileReport, FIXTURES, fixtureFiles, validate } from '../../../support/import-formats';
import { buildWorkbook, handWorkbook, inlineRow, sheetsFromCsvFixture, sheetXml } from '../../../../support/xlsx-build';

const UUID = (n: number) => `5012a3b4-0c1d-4e5f-8a9b-00000000000${n}`;
const sample = (name: string) => bufferFile(name, readFileSync(join(FIXTURES, 'rvtools', name)));
const noIssues = { rowErrors: [], partialReport: false, fileErrors: [] };

const customColumnInfos = (file: string) => [
  { severity: 'INFO', errorDetails: `the column "Application Type" is not part of the ${file} template; it is ignored` },
  { severity: 'INFO', errorDetails: `the column "Owner" is not part of the ${file} template; it is ignored` },
];

/** What the valid fixture's machines become (RVTools CSV and XLSX alike). */
const EXPECTED_WEB_01: Asset = {
  machineId: UUID(1),
  attributes: {
    HostingLocation: 'DC1',
    MachineStatus: 'poweredOn',
    IsPhysical: 'false',
    Cluster: 'Cluster1',
    Host: 'esx01.example.com',
    Folder: 'Production',
    'Resource pool': 'Resources',
    'DNS Name': 'web-01.example.com',
    Firmware: 'efi',
    'HW version': '19',
    'VM ID': 'vm-1001',
    'SMBIOS UUID': '4212a3b4-0c1d-4e5f-8a9b-000000000001',
    'VI SDK Server': 'vc01.example.com',
    'OS according to the configuration file': 'Ubuntu Linux (64-bit)',
    Annotation: 'Web tier',
    Sockets: '2',
    'Cores p/s': '2',
  },
  labels: {},
  virtualMachineDetails: {
    vmUuid: UUID(1),
    vmName: 'web-01',
    vcenterFolder: 'Production',
    vcenterVmId: 'vm-1001',
    createTime: isoString(Date.UTC(2023, 4, 1, 8)),
    coreCount: 4,
    memoryMb: 16384,
    powerState: 'poweredOn',
    vmArchitecture: { cpuSocketCount: 2, firmware: 'efi' },
    platform: { genericDetails: { location: 'DC1' } },
    vmDisks: {
      hddTotalCapacityBytes: mibToBytes(122880),
      hddTotalFreeBytes: mibToBytes(74000),
      disks: {
        // vDisk Controller "SCSI controller 0": the interface
        entries: [
          { diskLabel: 'Hard disk 1', totalCapacityBytes: mibToBytes(102400), interfaceType: 'SCSI' },
          { diskLabel: 'Hard disk 2', totalCapacityBytes: mibToBytes(20480), interfaceType: 'SCSI' },
        ],
      },
    },
    vmNetwork: {
      primaryIpAddress: '10.0.0.11',
      primaryMacAddress: '00:50:56:a1:00:01',
      networkAdapters: {
        networkAdapters: [{ macAddress: '00:50:56:a1:00:01', addresses: { addresses: [{ ipAddress: '10.0.0.11' }, { ipAddress: '10.0.1.11' }] } }],
      },
    },
    osFamily: 'OS_FAMILY_LINUX',
    osName: 'Ubuntu Linux (64-bit)',
  },
};

function checkValidAssets(assets: Asset[]): void {
  expect(assets.map((a) => a.virtualMachineDetails.vmName)).toEqual(['web-01', 'db-01', 'app-02']);
  const m = byId(assets);
  expect(m.get(UUID(1))).toEqual(EXPECTED_WEB_01);
  const db = m.get(UUID(2))!;
  expect(db.virtualMachineDetails).toEqual({
    vmUuid: UUID(2),
    vmName: 'db-01',
    vcenterFolder: db.attributes.Folder,
    vcenterVmId: db.attributes['VM ID'],
    createTime: isoString(Date.UTC(2022, 10, 15, 10, 30)),
    coreCount: 8,
    memoryMb: 65536,
    powerState: 'poweredOff',
    vmArchitecture: { cpuSocketCount: Number(db.attributes.Sockets), firmware: db.attributes.Firmware },
    platform: { genericDetails: { location: 'DC1' } },
    vmDisks: {
      hddTotalCapacityBytes: mibToBytes(786432),
      // no vPartition rows for a powered-off VM: capacity minus In Use MiB
      hddTotalFreeBytes: mibToBytes(786432 - 500000),
      disks: {
        entries: [
          { diskLabel: 'Hard disk 1', totalCapacityBytes: mibToBytes(262144), interfaceType: 'SCSI' },
          { diskLabel: 'Hard disk 2', totalCapacityBytes: mibToBytes(524288), interfaceType: 'NVME' },
        ],
      },
    },
    vmNetwork: { primaryMacAddress: '00:50:56:a1:00:02', networkAdapters: { networkAdapters: [{ macAddress: '00:50:56:a1:00:02' }] } },
    osFamily: 'OS_FAMILY_WINDOWS',
    osName: 'Microsoft Windows Server 2019 (64-bit)',
  });
  expect(db.attributes.Folder).toBeDefined();
  expect(db.attributes.MachineStatus).toBe('poweredOff');
  const app = m.get(UUID(3))!;
  expect(app.virtualMachineDetails.powerState).toBe('suspended');
  expect(app.virtualMachineDetails.vmNetwork).toEqual({
    primaryIpAddress: '10.0.0.13',
    primaryMacAddress: '00:50:56:a1:00:03',
    networkAdapters: {
      networkAdapters: [{ macAddress: '00:50:56:a1:00:03', addresses: { addresses: [{ ipAddress: '10.0.0.13' }, { ipAddress: 'fe80::250:56ff:fea1:3' }] } }],
    },
  });
  expect(app.virtualMachineDetails.vmDisks).toEqual({
    hddTotalCapacityBytes: mibToBytes(51200),
    hddTotalFreeBytes: mibToBytes(40000),
    disks: { entries: [{ diskLabel: 'Hard disk 1', totalCapacityBytes: mibToBytes(51200), interfaceType: 'SATA' }] },
  });
  expect([app.virtualMachineDetails.osFamily, app.virtualMachineDetails.osName]).toEqual(['OS_FAMILY_LINUX', 'CentOS 7 (64-bit)']);
  expect(app.attributes).toMatchObject({ HostingLocation: 'DC2', Sockets: '1', 'Cores p/s': '2', Firmware: 'bios' });
}

describe('RVTools CSV (IMPORT_JOB_FORMAT_RVTOOLS_CSV)', () => {
  it('validates the valid fixture: templates and custom columns are INFO, the vHost tab is ignored', async () => {
    const report = await validate(rvtoolsCsv, fixtureFiles('rvtools/csv-valid'));
    expect(report.jobErrors).toEqual([]);
    expect(hasBlockingErrors(report)).toBe(false);
    expect(countBySeverity(report)).toEqual({ ERROR: 0, WARNING: 0, INFO: 18 });
    expect(fileReport(report, 'RVTools_tabvInfo.csv')).toEqual({
      fileName: 'RVTools_tabvInfo.csv',
      rowErrors: [
        {
          rowNumber: 5,
          vmName: '',
          vmUuid: '',
          errors: [{ severity: 'INFO', errorDetails: 'VM "tmpl-rhel8" is a template (Template = True): templates are not machines, the row is skipped' }],
          csvError: { rowNumber: 5 },
        },
      ],
      partialReport: false,
      fileErrors: customColumnInfos('RVTools_tabvInfo.csv'),
    });
    for (const tab of ['vCPU', 'vMemory', 'vDisk', 'vNetwork']) {
      const file = `RVTools_tab${tab}.csv`;
      expect(fileReport(report, file)).toEqual({
        fileName: file,
        rowErrors: [],
        partialReport: false,
        fileErrors: [...customColumnInfos(file), { severity: 'INFO', errorDetails: `${file}: 1 row of VM templates skipped (templates are not machines)` }],
      });
    }
    // vPartition has no row of the template
    expect(fileReport(report, 'RVTools_tabvPartition.csv')).toEqual({
      fileName: 'RVTools_tabvPartition.csv',
      ...noIssues,
      fileErrors: customColumnInfos('RVTools_tabvPartition.csv'),
    });
    expect(fileReport(report, 'RVTools_tabvHost.csv')).toEqual({
      fileName: 'RVTools_tabvHost.csv',
      ...noIssues,
      fileErrors: [{ severity: 'INFO', errorDetails: 'the vHost tab is not read by the RVTools CSV import; the file is ignored' }],
    });
  });

  it('executes the valid fixture: three assets with disks, partitions, adapters, CPU topology', async () => {
    const { report, assets } = await execute(rvtoolsCsv, fixtureFiles('rvtools/csv-valid'));
    expect(report.framesReported).toBe(3);
    // 3 VMs + 3 vCPU + 3 vMemory + 5 vDisk + 3 vPartition + 3 vNetwork rows (templates are not counted)
    expect(report.totalRowsCount).toBe(20);
    expect(hasBlockingErrors(report.executionErrors)).toBe(false);
    checkValidAssets(assets);
  });

  it('executes the same with its child rows folded in a temp database as in memory', async () => {
    const inMemory = await execute(rvtoolsCsv, fixtureFiles('rvtools/csv-valid'));
    const spilled = await execute(rvtoolsCsv, fixtureFiles('rvtools/csv-valid'), { joinMemoryBytes: 1 });
    expect(spilled).toEqual(inMemory);
    checkValidAssets(spilled.assets);
  });

  it('reports the invalid fixture field by field', async () => {
    const report = await validate(rvtoolsCsv, fixtureFiles('rvtools/csv-invalid'));
    expect(report.jobErrors).toEqual([]);
    const row = (rowNumber: number, vmName: string, vmUuid: string, errors: Array<[string, string]>) => ({
      rowNumber,
      vmName,
      vmUuid,
      errors: errors.map(([severity, errorDetails]) => ({ severity, errorDetails })),
      csvError: { rowNumber },
      ...(vmName ? { assetTitle: vmName } : vmUuid ? { assetTitle: vmUuid } : {}),
    });
    expect(fileReport(report, 'RVTools_tabvInfo.csv')).toEqual({
      fileName: 'RVTools_tabvInfo.csv',
      partialReport: false,
      fileErrors: [
        { severity: 'WARNING', errorDetails: 'the column Provisioned MiB is missing from the header of RVTools_tabvInfo.csv; it is recommended' },
        {
          severity: 'WARNING',
          errorDetails: 'the column OS according to the configuration file is missing from the header of RVTools_tabvInfo.csv; it is recommended',
        },
      ],
      rowErrors: [
        row(3, 'bad-cpu', 'uuid-2', [['ERROR', 'CPUs must be a whole number (cores), got "four"']]),
        row(4, 'no-mem', 'uuid-3', [
          ['ERROR', 'Memory is required'],
          ['WARNING', 'Primary IP Address "not-an-ip" is not an IP address; it is ignored'],
          ['WARNING', 'Creation date "someday" is not a date this importer reads; it is ignored'],
        ]),
        row(5, 'dup-id', 'uuid-4', [['ERROR', `${KEY_COLUMN} "vm-1@vc01" is a duplicate: row 2 has the same ${KEY_COLUMN}`]]),
        row(6, 'dup-uuid', 'uuid-1', [['ERROR', 'VM UUID "uuid-1" is also the UUID of VM "ok-01"']]),
        row(7, '', 'uuid-6', [['ERROR', 'VM is required']]),
        {
          rowNumber: 8,
          vmName: '',
          vmUuid: '',
          errors: [{ severity: 'INFO', errorDetails: 'VM "tmpl" is a template (Template = True): templates are not machines, the row is skipped' }],
          csvError: { rowNumber: 8 },
        },
      ],
    });
    expect(fileReport(report, 'RVTools_tabvDisk.csv')).toEqual({
      fileName: 'RVTools_tabvDisk.csv',
      partialReport: false,
      fileErrors: [
        { severity: 'WARNING', errorDetails: 'the column Powerstate is missing from the header of RVTools_tabvDisk.csv; it is recommended' },
        { severity: 'WARNING', errorDetails: 'the column Template is missing from the header of RVTools_tabvDisk.csv; it is recommended' },
      ],
      rowErrors: [
        // ok-01's rows join, so ghost's VM is missing from vInfo: a WARNING, the row left out (issue 26)
        row(3, 'ghost', '', [
          [
            'WARNING',
            'the row matches no VM of vInfo: tried VM ID "vm-999" + VI SDK Server "vc01"; then VM "ghost" (RVTools_tabvDisk.csv row 3): its VM is not in vInfo, the row is left out',
          ],
        ]),
        row(4, 'ok-01', '', [['ERROR', 'Capacity MiB must be at least 0 (MiB), got -5']]),
      ],
    });
    expect(fileReport(report, 'RVTools_tabvNetwork.csv').rowErrors).toEqual([
      row(2, 'ok-01', '', [['ERROR', 'Mac Address must be a MAC address like 00:1a:2b:3c:4d:5e, got "zz:zz:zz:zz:zz:zz"']]),
      row(3, 'ok-01', '', [['WARNING', 'IPv4 Address entry "10.1.0.300" is not an IP address; it is ignored']]),
    ]);
    expect(fileReport(report, 'RVTools_tabvCPU.csv')).toEqual({
      fileName: 'RVTools_tabvCPU.csv',
      rowErrors: [],
      partialReport: false,
      fileErrors: [
        {
          severity: 'ERROR',
          errorDetails: 'RVTools_tabvCPU.csv: the header has none of the columns VM, VM ID or VM UUID: its rows cannot be matched to vInfo',
        },
        { severity: 'WARNING', errorDetails: 'the column VM is missing from the header of RVTools_tabvCPU.csv; it is recommended' },
        { severity: 'WARNING', errorDetails: 'the column Powerstate is missing from the header of RVTools_tabvCPU.csv; it is recommended' },
        { severity: 'WARNING', errorDetails: 'the column Template is missing from the header of RVTools_tabvCPU.csv; it is recommended' },
        { severity: 'INFO', errorDetails: 'the column "Name" is not part of the RVTools_tabvCPU.csv template; it is ignored' },
      ],
    });
    expect(hasBlockingErrors(report)).toBe(true);
  });

  it('needs RVTools_tabvInfo.csv, recognises tab names with or without the prefix, and sends xlsx files elsewhere', async () => {
    const disk = readFileSync(join(FIXTURES, 'rvtools/csv-valid/RVTools_tabvDisk.csv'));
    const noInfo = await validate(rvtoolsCsv, [bufferFile('RVTools_tabvDisk.csv', disk)]);
    expect(noInfo.jobErrors).toEqual([
      { severity: 'ERROR', errorDetails: 'RVTools_tabvInfo.csv is required in every RVTools CSV import, and the payload has none' },
    ]);
    const info = readFileSync(join(FIXTURES, 'rvtools/csv-valid/RVTools_tabvInfo.csv'));
    const bare = await execute(rvtoolsCsv, [bufferFile('vinfo.csv', info), bufferFile('vDisk (1).csv', disk)]);
    expect(bare.assets).toHaveLength(3);
    expect(bare.assets[0].virtualMachineDetails.vmDisks?.disks?.entries).toHaveLength(2);
    const mixed = await validate(rvtoolsCsv, [bufferFile('RVTools_tabvInfo.csv', info), bufferFile('export.xlsx', Buffer.from('x'))]);
    expect(mixed.jobErrors).toEqual([
      {
        severity: 'ERROR',
        errorDetails:
          'the payload mixes formats: the job is RVTools CSV (IMPORT_JOB_FORMAT_RVTOOLS_CSV) but has files of RVTools XLSX (IMPORT_JOB_FORMAT_RVTOOLS_XLSX); one import job takes one format',
      },
    ]);
    expect(fileReport(mixed, 'export.xlsx').fileErrors).toEqual([
      { severity: 'ERROR', errorDetails: '"export.xlsx" is a file of the RVTools XLSX format (IMPORT_JOB_FORMAT_RVTOOLS_XLSX), not of RVTools CSV' },
    ]);
  });

  it('accepts 3.x headers (MB units, no VM ID): joins by VM name', async () => {
    const vInfo =
      'VM,Powerstate,Template,CPUs,Memory,Provisioned MB,In Use MB,Datacenter,OS according to the configuration file,OS according to the VMware Tools\r\nold-01,poweredOn,False,2,2048,20480,10240,DC9,Red Hat Enterprise Linux 6 (64-bit),\r\n';
    const vPart = 'VM,Powerstate,Template,Disk,Capacity MB,Consumed MB,Free MB,Free % \r\nold-01,poweredOn,False,/,18000,8000,10000,55\r\n';
    const { report, assets } = await execute(rvtoolsCsv, [bufferFile('RVTools_tabvInfo.csv', vInfo), bufferFile('RVTools_tabvPartition.csv', vPart)]);
    // vInfo without VM ID is worth a WARNING; a child tab without it joins by name without a word.
    expect(countBySeverity(report.executionErrors)).toEqual({ ERROR: 0, WARNING: 1, INFO: 0 });
    expect(assets).toEqual([
      {
        machineId: 'old-01',
        attributes: {
          HostingLocation: 'DC9',
          MachineStatus: 'poweredOn',
          IsPhysical: 'false',
          'OS according to the configuration file': 'Red Hat Enterprise Linux 6 (64-bit)',
        },
        labels: {},
        virtualMachineDetails: {
          vmUuid: 'old-01',
          vmName: 'old-01',
          coreCount: 2,
          memoryMb: 2048,
          powerState: 'poweredOn',
          platform: { genericDetails: { location: 'DC9' } },
          vmDisks: { hddTotalCapacityBytes: mibToBytes(20480), hddTotalFreeBytes: mibToBytes(10000) },
          osFamily: 'OS_FAMILY_LINUX',
          osName: 'Red Hat Enterprise Linux 6 (64-bit)',
        },
      },
    ]);
  });
});

describe('RVTools XLSX (IMPORT_JOB_FORMAT_RVTOOLS_XLSX)', () => {
  let workbook: Buffer;
  beforeAll(async () => {
    workbook = await buildWorkbook(sheetsFromCsvFixture('rvtools/csv-valid'));
  });

  it('validates a 4.x workbook built from the CSV fixture: errors name their sheet and sheet row', async () => {
    const report = await validate(rvtoolsXlsx, [bufferFile('RVTools_export_all.xlsx', workbook)]);
    expect(report.jobErrors).toEqual([]);
    const f = fileReport(report, 'RVTools_export_all.xlsx');
    expect(f.rowErrors).toEqual([
      {
        rowNumber: 5,
        vmName: '',
        vmUuid: '',
        errors: [{ severity: 'INFO', errorDetails: 'VM "tmpl-rhel8" is a template (Template = True): templates are not machines, the row is skipped' }],
        xlsxError: { sheet: 'vInfo', rowNumber: 5 },
      },
    ]);
    expect(f.fileErrors).toEqual([
      { severity: 'INFO', errorDetails: 'sheets not read by this format: vHost' },
      ...customColumnInfos('sheet vInfo'),
      ...customColumnInfos('sheet vCPU'),
      { severity: 'INFO', errorDetails: 'sheet "vCPU": 1 row of VM templates skipped (templates are not machines)' },
      ...customColumnInfos('sheet vMemory'),
      { severity: 'INFO', errorDetails: 'sheet "vMemory": 1 row of VM templates skipped (templates are not machines)' },
      ...customColumnInfos('sheet vDisk'),
      { severity: 'INFO', errorDetails: 'sheet "vDisk": 1 row of VM templates skipped (templates are not machines)' },
      ...customColumnInfos('sheet vPartition'),
      ...customColumnInfos('sheet vNetwork'),
      { severity: 'INFO', errorDetails: 'sheet "vNetwork": 1 row of VM templates skipped (templates are not machines)' },
    ]);
  });

  it('executes it: the same assets as the RVTools CSV tabs', async () => {
    const xlsx = await execute(rvtoolsXlsx, [bufferFile('RVTools_export_all.xlsx', workbook)]);
    const csv = await execute(rvtoolsCsv, fixtureFiles('rvtools/csv-valid'));
    checkValidAssets(xlsx.assets);
    expect(xlsx.assets).toEqual(csv.assets);
    expect(xlsx.report.framesReported).toBe(3);
    expect(xlsx.report.totalRowsCount).toBe(20);
  });

  it('reads the real 3.x sample (805 VMs, 10 templates, MB units, no VM ID)', async () => {
    const file = sample('SizingWorkshop-RVTools.xlsx');
    const report = await validate(rvtoolsXlsx, [file]);
    const f = fileReport(report, 'SizingWorkshop-RVTools.xlsx');
    expect(f.fileErrors).toEqual([
      { severity: 'INFO', errorDetails: 'sheets not read by this format: vHost' },
      { severity: 'WARNING', errorDetails: 'the column VM ID is missing from the header of sheet vInfo; it is recommended' },
      { severity: 'INFO', errorDetails: 'sheet "vPartition": 1 row of VM templates skipped (templates are not machines)' },
    ]);
    expect(f.rowErrors).toHaveLength(10);
    expect(f.rowErrors.every((r) => r.errors[0].severity === 'INFO' && r.xlsxError?.sheet === 'vInfo')).toBe(true);
    expect(f.rowErrors[0]).toEqual({
      rowNumber: 228,
      vmName: '',
      vmUuid: '',
      errors: [{ severity: 'INFO', errorDetails: 'VM "Bowf17webprod" is a template (Template = True): templates are not machines, the row is skipped' }],
      xlsxError: { sheet: 'vInfo', rowNumber: 228 },
    });
    const { report: ex, assets } = await execute(rvtoolsXlsx, [file]);
    expect(assets).toHaveLength(795);
    expect(ex.framesReported).toBe(795);
    expect(byId(assets).get('wadfs1')).toEqual({
      machineId: 'wadfs1',
      attributes: {
        HostingLocation: 'Datacenter1',
        MachineStatus: 'poweredOn',
        IsPhysical: 'false',
        Cluster: 'Cluster1',
        Host: 'bovmsp-04.customer.com',
        'OS according to the configuration file': 'Microsoft Windows Server 2008 R2 (64-bit)',
      },
      labels: {},
      virtualMachineDetails: {
        vmUuid: 'wadfs1',
        vmName: 'wadfs1',
        coreCount: 1,
        memoryMb: 4096,
        powerState: 'poweredOn',
        platform: { genericDetails: { location: 'Datacenter1' } },
        // Provisioned MB (no vDisk sheet); free space: the vPartition Free MB of its partitions
        vmDisks: { hddTotalCapacityBytes: mibToBytes(86201), hddTotalFreeBytes: mibToBytes(40406) },
        osFamily: 'OS_FAMILY_WINDOWS',
        osName: 'Microsoft Windows Server 2008 R2 (64-bit)',
      },
    });
  });

  it('reads the real damaged sample: the vPartition header lost its VM cell, rows join by VM ID', async () => {
    const file = sample('BillSampleNextRvtoolsFinal.xlsx');
    const report = await validate(rvtoolsXlsx, [file]);
    const f = fileReport(report, 'BillSampleNextRvtoolsFinal.xlsx');
    expect(f.fileErrors).toEqual([
      { severity: 'INFO', errorDetails: 'sheets not read by this format: vCluster, vHost' },
      { severity: 'INFO', errorDetails: 'sheet "vDisk": 2 rows of VM templates skipped (templates are not machines)' },
      { severity: 'WARNING', errorDetails: 'the column VM is missing from the header of sheet vPartition; it is recommended' },
      { severity: 'INFO', errorDetails: 'the column "NEXT Data Center" is not part of the sheet vPartition template; it is ignored' },
      { severity: 'INFO', errorDetails: 'sheet "vPartition": 2 rows of VM templates skipped (templates are not machines)' },
    ]);
    expect(f.rowErrors.map((r) => [r.rowNumber, r.xlsxError?.sheet, r.errors[0].severity])).toEqual([
      [102, 'vInfo', 'INFO'],
      [103, 'vInfo', 'INFO'],
    ]);
    const { assets } = await execute(rvtoolsXlsx, [file]);
    expect(assets).toHaveLength(129);
    const a = byId(assets).get('vm-15333')!;
    expect(a.virtualMachineDetails.vmName).toBe('ADCSCA01');
    expect(a.virtualMachineDetails.vmDisks).toEqual({
      hddTotalCapacityBytes: mibToBytes(40901),
      hddTotalFreeBytes: mibToBytes(17250),
      disks: { entries: [{ diskLabel: 'Hard disk 1', totalCapacityBytes: mibToBytes(40901), interfaceType: 'SAS' }] },
    });
  });

  it('reports invalid cells with their sheet row, and a workbook without vInfo', async () => {
    const buf = await buildWorkbook([
      {
        name: 'vInfo',
        rows: [
          ['VM', 'Powerstate', 'Template', 'CPUs', 'Memory', 'VM ID', 'VI SDK Server'],
          ['good', 'poweredOn', 'False', 2, 2048, 'vm-1', 'vc'],
          [],
          ['bad', 'poweredOn', 'False', 'many', { formula: '1024*2', result: 2048 }, 'vm-2', 'vc'],
        ],
      },
      {
        name: 'vDisk',
        rows: [
          ['VM', 'Disk', 'Capacity MiB', 'VM ID', 'VI SDK Server'],
          ['good', 'Hard disk 1', 'big', 'vm-1', 'vc'],
          ['x', 'Hard disk 1', 10, 'vm-9', 'vc'],
        ],
      },
    ]);
    const report = await validate(rvtoolsXlsx, [bufferFile('bad.xlsx', buf)]);
    const f = fileReport(report, 'bad.xlsx');
    expect(f.rowErrors).toEqual([
      {
        rowNumber: 4,
        vmName: 'bad',
        vmUuid: '',
        assetTitle: 'bad',
        xlsxError: { sheet: 'vInfo', rowNumber: 4 },
        errors: [
          { severity: 'WARNING', errorDetails: 'cell E4 holds a formula (=1024*2); its cached value is used, the formula is not evaluated' },
          { severity: 'ERROR', errorDetails: 'CPUs must be a whole number (cores), got "many"' },
        ],
      },
      {
        rowNumber: 2,
        vmName: 'good',
        vmUuid: '',
        assetTitle: 'good',
        xlsxError: { sheet: 'vDisk', rowNumber: 2 },
        errors: [{ severity: 'ERROR', errorDetails: 'Capacity MiB must be a number (MiB), got "big"' }],
      },
      {
        rowNumber: 3,
        vmName: 'x',
        vmUuid: '',
        assetTitle: 'x',
        xlsxError: { sheet: 'vDisk', rowNumber: 3 },
        errors: [
          {
            severity: 'WARNING',
            errorDetails:
              'the row matches no VM of vInfo: tried VM ID "vm-9" + VI SDK Server "vc"; then VM "x" (sheet "vDisk" row 3): its VM is not in vInfo, the row is left out',
          },
        ],
      },
    ]);
    const none = await validate(rvtoolsXlsx, [bufferFile('none.xlsx', await buildWorkbook([{ name: 'vHost', rows: [['Host'], ['esx']] }]))]);
    expect(fileReport(none, 'none.xlsx').fileErrors).toEqual([
      { severity: 'ERROR', errorDetails: 'the workbook has no "vInfo" sheet; it is required (sheets: "vHost")' },
    ]);
    expect(hasBlockingErrors(none)).toBe(true);
  });

  it('turns hostile workbooks into file errors (no asset written)', async () => {
    const laughs = handWorkbook([['vInfo', '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><worksheet/>']]);
    const merged = await buildWorkbook([
      {
        name: 'vInfo',
        rows: [
          ['VM', null, 'Memory'],
          ['a', 1, 1024],
        ],
        merges: ['A1:B1'],
      },
    ]);
    for (const [name, buf, text] of [
      [
        'laughs.xlsx',
        laughs,
        'sheet "vInfo": xl/worksheets/sheet1.xml carries a DOCTYPE or other declaration (<!...>): document type and entity declarations are refused',
      ],
      ['merged.xlsx', merged, 'sheet "vInfo": header row 1 has merged cells (A1:B1): each column needs its own header cell; the sheet is not read'],
    ] as const) {
      const { report, assets } = await execute(rvtoolsXlsx, [bufferFile(name, buf)]);
      expect(assets).toEqual([]);
      expect(fileReport(report.executionErrors, name).fileErrors).toContainEqual({ severity: 'ERROR', errorDetails: text });
    }
    // The caps are the reader's options: a small cap makes an ordinary sheet too large.
    const small = rvtoolsXlsxFormat({ maxEntryBytes: 64 });
    const ok = handWorkbook([['vInfo', sheetXml(inlineRow(1, ['VM', 'CPUs', 'Memory']) + inlineRow(2, ['a', 1, 1024]))]]);
    const capped = await validate(small, [bufferFile('ok.xlsx', ok)]);
    expect(fileReport(capped, 'ok.xlsx').fileErrors[0].errorDetails).toMatch(/more than the 64 bytes accepted for one part/);
  });
});

describe('the same machines in two formats give the same assets', () => {
  it('manual CSV (vmInfo.csv + diskInfo.csv) and RVTools CSV tabs', async () => {
    const manual = await execute(manualCsv, fixtureFiles('rvtools/manual-equivalent'));
    const rv = await execute(rvtoolsCsv, fixtureFiles('rvtools/csv-valid'));
    expect(hasBlockingErrors(manual.report.executionErrors)).toBe(false);
    expect(manual.assets).toHaveLength(3);
    const shared = ['HostingLocation', 'MachineStatus', 'IsPhysical'];
    const core = (a: Asset) => {
      // vCenter-only fields (folder, VM id, sockets, firmware) have no column in vmInfo.csv.
      const { vcenterFolder: _f, vcenterVmId: _i, vmArchitecture: _a, ...d } = a.virtualMachineDetails;
      return {
        ...a,
        attributes: Object.fromEntries(Object.entries(a.attributes).filter(([k]) => shared.includes(k))),
        virtualMachineDetails: { ...d, createTime: d.createTime && new Date(d.createTime).toISOString() },
      };
    };
    expect(rv.assets.map(core)).toEqual(manual.assets.map(core));
    expect(rv.report.framesReported).toBe(manual.report.framesReported);
  });
});

describe('the benchmark workbook', () => {
  // 100 VMs, the last a template: the bench's rule (one template in each 1,000) at a tenth of the
  // size; the workbook's shape does not change with its length.
  it('is a valid RVTools export: every VM but the templates becomes an asset', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rv-bench-'));
    try {
      const path = join(dir, 'b.xlsx');
      const { rows } = await generateRvtoolsWorkbook(path, 100, 100);
      const file = bufferFile('b.xlsx', readFileSync(path));
      const report = await validate(rvtoolsXlsx, [file]);
      expect(fileReport(report, 'b.xlsx').fileErrors).toEqual([
        { severity: 'INFO', errorDetails: 'sheets not read by this format: vHost' },
        { severity: 'INFO', errorDetails: 'sheet "vDisk": 2 rows of VM templates skipped (templates are not machines)' },
        { severity: 'INFO', errorDetails: 'sheet "vPartition": 1 row of VM templates skipped (templates are not machines)' },
        { severity: 'INFO', errorDetails: 'sheet "vNetwork": 1 row of VM templates skipped (templates are not machines)' },
      ]);
      expect(countBySeverity(report)).toEqual({ ERROR: 0, WARNING: 0, INFO: 5 });
      const { report: ex, assets } = await execute(rvtoolsXlsx, [file]);
      expect(assets).toHaveLength(99);
      // every data row but those of the one template VM (vm-000099: vInfo, 2 disks, 1 partition, 1 adapter)
      expect(ex.totalRowsCount).toBe(rows - 5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Written, validated and executed: well under a second when quiet, many times that at load 25.
  }, 60_000);
});

describe('helpers', () => {
  it('parses RVTools dates, buses, MiB', () => {
    expect(new Date(parseRvDate('2023/05/01 08:00:00')).toISOString()).toBe('2023-05-01T08:00:00.000Z');
    expect(new Date(parseRvDate('2023/5/1')).toISOString()).toBe('2023-05-01T00:00:00.000Z');
    expect(parseRvDate('01.05.2023')).toBeNaN();
    expect(busOf('SCSI controller 0')).toBe('SCSI');
    expect(busOf('LSI Logic SAS')).toBe('SAS');
    // a controller that names no bus says nothing about the interface
    expect(busOf('Odd')).toBeUndefined();
    expect(mibToBytes(1)).toBe('1048576');
    expect(mibToBytes(0.5)).toBe('524288');
  });
});
