/**
 * Issue 26: what the five classes of RVTools quirks become through the engine's `validate` and
 * `execute`, on the fixtures of tests/support/rvtools-quirks.ts. Expected values are literals
 * worked out by hand from those fixtures.
 */
import { rvtoolsCsv } from '../../../../backend-emulator/import-engine/formats/rvtools-csv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rvtoolsXlsx } from '../../../../backend-emulator/import-engine/formats/rvtools-xlsx';
import { RVTOOLS_VERSION_COLUMNS } from '../../../../backend-emulator/import-engine/formats/rvtools-versions';
import { hasBlockingErrors } from '../../../../backend-emulator/import-engine';
import {
  awsZipUnnamed,
  manualCsvMisnamed,
  manualCsvUnnamed,
  noCreationDate,
  orphanRows,
  orphanTabOnly,
  rvtools47Columns,
  rvtoolsCsvUnnamed,
  rvtoolsUnnamed,
  tieBreakers,
} from '../../../support/rvtools-quirks';
import { awsCsv } from '../../../../backend-emulator/import-engine/formats/aws-csv';
import { manualCsv } from '../../../../backend-emulator/import-engine/formats/manual-csv';
import type { NamedBytes } from '../../../support/real-exports';
import { bufferFile, byId, execute, fileReport, validate } from '../../../support/import-formats';

const payload = (files: NamedBytes[]) => files.map((f) => bufferFile(f.name, f.data));

describe('class 1: child rows for VMs vInfo lacks', () => {
  it('reports each orphan row as a WARNING naming its sheet, row and keys, and leaves it out', async () => {
    const files = payload(await orphanRows());
    const report = await validate(rvtoolsXlsx, files);
    expect(hasBlockingErrors(report)).toBe(false);
    expect(fileReport(report, 'RVTools_filtered.xlsx').rowErrors).toEqual([
      {
        rowNumber: 3,
        vmName: 'vcsa-01',
        vmUuid: '',
        assetTitle: 'vcsa-01',
        xlsxError: { sheet: 'vPartition', rowNumber: 3 },
        errors: [
          {
            severity: 'WARNING',
            errorDetails:
              'the row matches no VM of vInfo: tried VM UUID "50120000-0000-4000-8000-000000000901"; then VM "vcsa-01" (sheet "vPartition" row 3): its VM is not in vInfo, the row is left out',
          },
        ],
      },
      {
        rowNumber: 5,
        vmName: 'backup-proxy',
        vmUuid: '',
        assetTitle: 'backup-proxy',
        xlsxError: { sheet: 'vPartition', rowNumber: 5 },
        errors: [
          {
            severity: 'WARNING',
            errorDetails:
              'the row matches no VM of vInfo: tried VM UUID "50120000-0000-4000-8000-000000000902"; then VM "backup-proxy" (sheet "vPartition" row 5): its VM is not in vInfo, the row is left out',
          },
        ],
      },
    ]);
    const { assets } = await execute(rvtoolsXlsx, files);
    const m = byId(assets);
    expect(assets).toHaveLength(2);
    // Free MiB of the one partition each: 6,144 MiB and 8,192 MiB; the orphans add nothing.
    expect(m.get('50120000-0000-4000-8000-000000000001')!.virtualMachineDetails.vmDisks?.hddTotalFreeBytes).toBe('6442450944');
    expect(m.get('50120000-0000-4000-8000-000000000002')!.virtualMachineDetails.vmDisks?.hddTotalFreeBytes).toBe('8589934592');
  });

  it('keeps them ERRORs when no row of the sheet names a VM of vInfo', async () => {
    const report = await validate(rvtoolsXlsx, payload(await orphanTabOnly()));
    expect(hasBlockingErrors(report)).toBe(true);
    expect(fileReport(report, 'RVTools_other_vcpu.xlsx').rowErrors.map((r) => [r.rowNumber, r.errors.map((e) => [e.severity, e.errorDetails])])).toEqual([
      [2, [['ERROR', 'the row matches no VM of vInfo: tried VM "other-01" (sheet "vCPU" row 2; no row of this tab matches a VM of vInfo)']]],
      [3, [['ERROR', 'the row matches no VM of vInfo: tried VM "other-02" (sheet "vCPU" row 3; no row of this tab matches a VM of vInfo)']]],
    ]);
  });
});

describe('class 3: datacenter and host break ties, nothing else', () => {
  it('matches a unique name whatever its host, and two VMs of one name by their datacenter', async () => {
    const files = payload(await tieBreakers());
    const report = await validate(rvtoolsXlsx, files);
    expect(fileReport(report, 'RVTools_anonymised.xlsx').rowErrors).toEqual([]);
    const { assets } = await execute(rvtoolsXlsx, files);
    const sockets = (n: number) => byId(assets).get(`50120000-0000-4000-8000-00000000000${n}`)!.virtualMachineDetails.vmArchitecture?.cpuSocketCount;
    expect([sockets(1), sockets(2), sockets(3)]).toEqual([1, 2, 4]);
  });
});

describe('class 2: the "no creation date" placeholder', () => {
  it('gives no createTime for a date within 14 hours of the epoch, with one INFO counting them', async () => {
    const files = payload(await noCreationDate());
    const report = await validate(rvtoolsXlsx, files);
    const f = fileReport(report, 'RVTools_no_dates.xlsx');
    expect(f.rowErrors).toEqual([]);
    expect(f.fileErrors.filter((e) => e.errorDetails.includes('Creation date'))).toEqual([
      {
        severity: 'INFO',
        errorDetails:
          'sheet "vInfo": 3 rows have a Creation date within 14 hours of 1970-01-01T00:00:00Z, RVTools\' placeholder for "no creation date" (the epoch in the exporting machine\'s time zone): their VMs get no createTime',
      },
    ]);
    const { assets } = await execute(rvtoolsXlsx, files);
    const created = [1, 2, 3, 4, 5].map((n) => byId(assets).get(`50120000-0000-4000-8000-00000000000${n}`)!.virtualMachineDetails.createTime);
    expect(created).toEqual([undefined, undefined, undefined, '2023-05-01T08:00:00Z', '1970-01-02T00:00:00Z']);
  });

  it('reads the placeholder of a CSV tab the same way (text, UTC+1 and UTC-10)', async () => {
    const csv = [
      '"VM","CPUs","Memory","VM UUID","Creation date"',
      '"db-01","2","4096","uuid-1","1970-01-01 01:00"',
      '"db-02","2","4096","uuid-2","1969-12-31 14:00:00"',
      '"db-03","2","4096","uuid-3","2021-11-02 10:15:00"',
    ].join('\r\n');
    const files = [bufferFile('RVTools_tabvInfo.csv', Buffer.from(csv))];
    const f = fileReport(await validate(rvtoolsCsv, files), 'RVTools_tabvInfo.csv');
    expect(f.fileErrors.filter((e) => e.errorDetails.includes('Creation date')).map((e) => [e.severity, e.errorDetails.slice(0, 96)])).toEqual([
      ['INFO', 'RVTools_tabvInfo.csv: 2 rows have a Creation date within 14 hours of 1970-01-01T00:00:00Z, RVToo'],
    ]);
    const { assets } = await execute(rvtoolsCsv, files);
    expect(['uuid-1', 'uuid-2', 'uuid-3'].map((id) => byId(assets).get(id)!.virtualMachineDetails.createTime)).toEqual([
      undefined,
      undefined,
      '2021-11-02T10:15:00Z',
    ]);
  });
});

describe('class 4: the columns of RVTools 4.6 and 4.7', () => {
  it('are known columns (silent); only a column of no RVTools version gets the INFO', async () => {
    const report = await validate(rvtoolsXlsx, payload(await rvtools47Columns()));
    const f = fileReport(report, 'RVTools_export_all_4.7.1.xlsx');
    expect(f.rowErrors).toEqual([]);
    expect(f.fileErrors.filter((e) => e.errorDetails.includes('is not part of'))).toEqual([
      { severity: 'INFO', errorDetails: 'the column "owner" is not part of the sheet vInfo template; it is ignored' },
    ]);
  });

  it('are listed per version in docs/formats/rvtools-xlsx.md', () => {
    const doc = readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'formats', 'rvtools-xlsx.md'), 'utf8');
    const table = doc.slice(doc.indexOf('### Columns later versions added'), doc.indexOf('## Template rows'));
    for (const row of RVTOOLS_VERSION_COLUMNS) for (const c of row.columns) expect(table).toContain(`\`${c}\``);
  });
});

describe('class 5: a file whose name says nothing is recognised by its content', () => {
  const infos = (r: Awaited<ReturnType<typeof validate>>) =>
    r.fileValidations.flatMap((f) => f.fileErrors.filter((e) => e.errorDetails.includes(' is read as ')).map((e) => [f.fileName, e.severity, e.errorDetails]));

  it('CSV files by their header row (manual templates), each with an INFO', async () => {
    const files = payload(manualCsvUnnamed());
    const report = await validate(manualCsv, files);
    expect(hasBlockingErrors(report)).toBe(false);
    expect(infos(report)).toEqual([
      ['vminfo-1', 'INFO', '"vminfo-1" is read as vmInfo.csv: its name does not say what it is, and its header is that file\'s'],
      ['diskinfo-1', 'INFO', '"diskinfo-1" is read as diskInfo.csv: its name does not say what it is, and its header is that file\'s'],
    ]);
    const { assets } = await execute(manualCsv, files);
    // diskinfo-1's rows joined: 200 GiB for vm-2
    expect(byId(assets).get('vm-2')!.virtualMachineDetails.vmDisks?.disks?.entries?.[0].totalCapacityBytes).toBe('214748364800');
  });

  it('RVTools CSV tabs by their header (vInfo, and vPartition over vDisk by the most columns)', async () => {
    const files = payload(rvtoolsCsvUnnamed());
    const { assets } = await execute(rvtoolsCsv, files);
    // partitions-export joined web-01: 6,144 MiB free
    expect(byId(assets).get('50120000-0000-4000-8000-000000000001')!.virtualMachineDetails.vmDisks?.hddTotalFreeBytes).toBe('6442450944');
    expect(assets).toHaveLength(2);
  });

  it('a zip by its signature, a workbook by its workbook part', async () => {
    const aws = await validate(awsCsv, payload(awsZipUnnamed()));
    expect(hasBlockingErrors(aws)).toBe(false);
    expect(infos(aws)).toEqual([
      [
        'vm-aws-import-files',
        'INFO',
        '"vm-aws-import-files" is read as a .zip archive: its name does not say what it is, and it starts with a zip signature (PK\\x03\\x04)',
      ],
    ]);
    const workbook = payload(await rvtoolsUnnamed());
    expect(infos(await validate(rvtoolsXlsx, workbook))).toEqual([
      ['rvtools-export-1', 'INFO', '"rvtools-export-1" is read as a workbook (.xlsx): its name does not say what it is, and its content is a workbook'],
    ]);
    expect((await execute(rvtoolsXlsx, workbook)).assets).toHaveLength(2);
  });

  it('the name wins when it tells: vmInfo.csv content named diskInfo.csv is a diskInfo.csv', async () => {
    const report = await validate(manualCsv, payload(manualCsvMisnamed()));
    expect(infos(report)).toEqual([]);
    expect(fileReport(report, 'diskInfo.csv').fileErrors.map((e) => e.errorDetails)).toContain(
      'the required column SizeInGib is missing from the header of diskInfo.csv',
    );
  });
});
