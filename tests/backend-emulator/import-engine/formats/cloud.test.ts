/**
 * The two cloud exports, what Google's published collection scripts write: AWS
 * (IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV: Python csv, `01/31/2022, 13:30:00` timestamps, empty disk
 * totals, IsPhysical 0, AvailableMemoryBytes 0) and Azure (IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV:
 * PowerShell Export-Csv, every field quoted, CRLF, `MM/dd/yyyy HH:mm:ss`).
 */
import { countBySeverity, hasBlockingErrors } from '../../../../backend-emulator/import-engine';
import { awsCsv, labelKeyOf, labelValueOf } from '../../../../backend-emulator/import-engine/formats/aws-csv';
import { azureCsv } from '../../../../backend-emulator/import-engine/formats/azure-csv';
import { gibToBytes } from '../../../../backend-emulator/import-engine/util';
import { isoString } from '../../../../backend-emulator/import-engine/timestamps';
import { bufferFile, byId, execute, fileReport, fixtureFiles, validate } from '../../../support/import-formats';
import { csvRow, issue } from '../../../support/report-rows';

const AWS1 = 'i-0a1b2c3d4e5f60001';
const AWS2 = 'i-0a1b2c3d4e5f60002';
const AWS3 = 'i-0a1b2c3d4e5f60003';
const AZ = (n: number) => `8f1c5a52-3b1e-4c1e-9a55-0d6c2a9b1f0${n}`;
const noIssues = { rowErrors: [], partialReport: false, fileErrors: [] };
// What the scripts cannot know: one INFO per file (backend-emulator/import-engine/formats/script-gaps.ts).
const DISK_TOTALS = (source: string): ['INFO', string] => [
  'INFO',
  `TotalDiskAllocatedGiB and TotalDiskUsedGiB are empty or 0: the ${source} script does not compute them; the disk total is summed from diskInfo.csv and the free space stays unknown`,
];
const NO_OS_NAME: ['INFO', string] = [
  'INFO',
  'OsName and OsVersion are empty: the AWS script does not write them (the AMI description is in OsPublisher); the asset has no OS name or version',
];
const DISK_USE = (source: string): ['INFO', string] => [
  'INFO',
  `UsedInGib is empty: the ${source} script cannot see inside a disk, so the free space of its disks stays unknown`,
];

describe('AWS export (IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV)', () => {
  it('validates what the script writes: tags become labels (WARNING), AvailableMemoryBytes 0 is not measured (INFO)', async () => {
    const report = await validate(awsCsv, fixtureFiles('aws/valid'));
    expect(report.jobErrors).toEqual([]);
    expect(hasBlockingErrors(report)).toBe(false);
    expect(fileReport(report, 'vmInfo.csv')).toEqual({
      fileName: 'vmInfo.csv',
      ...noIssues,
      rowErrors: [csvRow(2, 'web-prod-1', AWS1, [DISK_TOTALS('AWS'), NO_OS_NAME])],
    });
    expect(fileReport(report, 'diskInfo.csv')).toEqual({ fileName: 'diskInfo.csv', ...noIssues, rowErrors: [csvRow(2, '', AWS1, [DISK_USE('AWS')])] });
    expect(fileReport(report, 'perfInfo.csv')).toEqual({
      fileName: 'perfInfo.csv',
      partialReport: false,
      fileErrors: [],
      rowErrors: [
        csvRow(2, '', AWS1, [['INFO', 'AvailableMemoryBytes is 0: the AWS script writes 0 when memory is not measured, so 0 is ignored in this file']]),
      ],
    });
    expect(fileReport(report, 'tagInfo.csv')).toEqual({
      fileName: 'tagInfo.csv',
      partialReport: false,
      fileErrors: [],
      rowErrors: [
        csvRow(2, '', AWS1, [['WARNING', 'the tag Name=web-prod-1 is imported as the label name=web-prod-1 (Google label rules)']]),
        csvRow(3, '', AWS1, [['WARNING', 'the tag Environment=Production is imported as the label environment=production (Google label rules)']]),
        csvRow(4, '', AWS1, [
          ['WARNING', 'the tag aws:cloudformation:stack-name=WebStack is imported as the label aws_cloudformation_stack-name=webstack (Google label rules)'],
        ]),
        csvRow(5, '', AWS2, [['WARNING', 'the tag Name=db-prod-1 is imported as the label name=db-prod-1 (Google label rules)']]),
      ],
    });
  });

  it('executes it: three assets with disks, labels and daily performance without memory', async () => {
    const { report, assets } = await execute(awsCsv, fixtureFiles('aws/valid'));
    expect(report.totalRowsCount).toBe(18);
    // one frame per machine plus one per performance sample
    expect(report.framesReported).toBe(3 + 6);
    const m = byId(assets);
    const web = m.get(AWS1)!;
    expect(web.virtualMachineDetails.vmName).toBe('web-prod-1');
    expect(web.labels).toEqual({ name: 'web-prod-1', environment: 'production', 'aws_cloudformation_stack-name': 'webstack' });
    expect(web.attributes).toEqual({
      HostingLocation: 'us-east-1',
      MachineTypeLabel: 't3.large',
      OsType: 'Linux/UNIX',
      OsPublisher: 'Canonical Ubuntu 22.04 LTS amd64 jammy image build on 2023-05-16',
      MachineStatus: 'running',
      Source: 'AWS',
      IsPhysical: 'false',
    });
    expect(web.virtualMachineDetails).toEqual({
      vmUuid: AWS1,
      vmName: 'web-prod-1',
      createTime: isoString(Date.UTC(2023, 5, 1, 9, 15, 42)),
      coreCount: 1,
      memoryMb: 8192,
      powerState: 'poweredOn',
      // the cloud's own platform member: location and machine type in AWS's words
      platform: { awsEc2Details: { location: 'us-east-1', machineTypeLabel: 't3.large' } },
      // empty vmInfo totals: summed from diskInfo.csv; gp3 and gp2 are storage classes, not interfaces
      vmDisks: {
        hddTotalCapacityBytes: gibToBytes(130),
        disks: {
          entries: [
            { diskLabel: '/dev/sda1', totalCapacityBytes: gibToBytes(30) },
            { diskLabel: '/dev/sdf', totalCapacityBytes: gibToBytes(100) },
          ],
        },
      },
      vmNetwork: {
        primaryIpAddress: '172.31.10.11',
        publicIpAddress: '54.210.1.11',
        networkAdapters: { networkAdapters: [{ addresses: { addresses: [{ ipAddress: '172.31.10.11' }, { ipAddress: '172.31.20.11' }] } }] },
      },
      osFamily: 'OS_FAMILY_LINUX',
    });
    const days = web.performanceData!.dailyResourceUsageAggregations;
    expect(days.map((d) => d.date)).toEqual([
      { year: 2024, month: 1, day: 31 },
      { year: 2024, month: 2, day: 1 },
    ]);
    expect(days[0].cpu).toEqual({ utilizationPercentage: { average: 20, median: 20, ninteyFifthPercentile: 30, peak: 30 } });
    // AvailableMemoryBytes 0 is "not measured": no memory aggregation at all
    expect(days.every((d) => d.memory === undefined)).toBe(true);
    expect(days[0].network).toEqual({
      ingressBps: { average: 4000, median: 4000, ninteyFifthPercentile: 6000, peak: 6000 },
      egressBps: { average: 3000, median: 3000, ninteyFifthPercentile: 5000, peak: 5000 },
    });
    expect(m.get(AWS2)!.virtualMachineDetails.powerState).toBe('poweredOff');
    expect(m.get(AWS2)!.virtualMachineDetails.osFamily).toBe('OS_FAMILY_WINDOWS');
    expect(m.get(AWS2)!.virtualMachineDetails.osName).toBeUndefined();
    expect(m.get(AWS2)!.labels).toEqual({ name: 'db-prod-1', 'cost-center': 'cc-1234' });
    // no Name tag: the script writes the instance id as the name
    expect(m.get(AWS3)!.virtualMachineDetails.vmName).toBe(AWS3);
    expect(m.get(AWS3)!.virtualMachineDetails.createTime).toBe(isoString(Date.UTC(2024, 0, 10, 7, 0, 0, 123)));
    expect(m.get(AWS3)!.labels).toEqual({});
  });

  it('reports the invalid fixture field by field', async () => {
    const report = await validate(awsCsv, fixtureFiles('aws/invalid'));
    expect(report.jobErrors).toEqual([]);
    expect(fileReport(report, 'vmInfo.csv')).toEqual({
      fileName: 'vmInfo.csv',
      partialReport: false,
      fileErrors: [],
      rowErrors: [
        csvRow(2, 'ok-1', 'i-0000000000000000a', [DISK_TOTALS('AWS'), NO_OS_NAME]),
        csvRow(3, 'bad-cores', 'i-0000000000000000b', [['ERROR', 'AllocatedProcessorCoreCount must be a whole number (cores), got "two"']]),
        csvRow(4, 'dup', 'i-0000000000000000a', [
          ['ERROR', 'PrimaryIPAddress must be an IPv4 or IPv6 address, got "172.31.999.1"'],
          ['ERROR', 'MachineId "i-0000000000000000a" is a duplicate: row 2 has the same MachineId'],
        ]),
        csvRow(5, 'from-azure', 'i-0000000000000000c', [['WARNING', 'Source is "Azure" but this is an AWS export import; check the import job format']]),
      ],
    });
    expect(fileReport(report, 'perfInfo.csv').rowErrors).toEqual([
      csvRow(2, '', 'i-0000000000000000a', [
        ['INFO', 'AvailableMemoryBytes is 0: the AWS script writes 0 when memory is not measured, so 0 is ignored in this file'],
      ]),
      csvRow(3, '', 'i-0000000000000000a', [
        ['ERROR', 'TimeStamp must be a timestamp (ISO 8601 like 2024-01-31T13:30:00Z, or MM/dd/yyyy HH:mm:ss), got "31/01/2024 25:00"'],
      ]),
      csvRow(4, '', 'i-0000000000000000z', [
        ['ERROR', 'CpuUtilizationPercentage must be at most 100 (percent), got 150'],
        ['ERROR', 'MachineId "i-0000000000000000z" matches no MachineId of vmInfo.csv'],
      ]),
    ]);
    expect(fileReport(report, 'tagInfo.csv').rowErrors).toEqual([
      csvRow(2, '', 'i-0000000000000000a', [['WARNING', 'the tag Name=ok-1 is imported as the label name=ok-1 (Google label rules)']]),
      csvRow(3, '', 'i-0000000000000000a', [
        ['WARNING', 'the label key "name" is given more than once for MachineId "i-0000000000000000a"; the last value wins'],
      ]),
    ]);
    expect(countBySeverity(report)).toEqual({ ERROR: 6, WARNING: 3, INFO: 3 });
    const { assets } = await execute(awsCsv, fixtureFiles('aws/invalid'));
    expect(assets.map((a) => a.machineId)).toEqual(['i-0000000000000000a', 'i-0000000000000000c']);
    expect(assets[0].labels).toEqual({ name: 'ok-one' });
  });

  it('explains the header of the early script version (MemoryMiB)', async () => {
    const report = await validate(awsCsv, fixtureFiles('aws/invalid-v1-header'));
    expect(fileReport(report, 'vmInfo.csv').fileErrors).toEqual([
      issue(['ERROR', 'the header has MemoryMiB instead of MemoryGiB: it was written by an early version of the collection script; run a current version']),
      issue(['ERROR', 'the required column MemoryGiB is missing from the header of vmInfo.csv']),
      issue(['INFO', 'the column "MemoryMiB" is not part of the vmInfo.csv template; it is ignored']),
    ]);
  });

  it('turns tags into Google labels', () => {
    expect(labelKeyOf('Name')).toBe('name');
    expect(labelKeyOf('aws:autoscaling:groupName')).toBe('aws_autoscaling_groupname');
    expect(labelKeyOf('1st tier')).toBe('tag_1st_tier');
    expect(labelKeyOf('   ')).toBe('');
    expect(labelKeyOf('K'.repeat(80))).toHaveLength(63);
    expect(labelValueOf('Web Server #1')).toBe('web_server__1');
    expect(labelValueOf('Ünïcode')).toBe('ünïcode');
  });
});

describe('Azure export (IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV)', () => {
  it('validates what the script writes (every field quoted, CRLF)', async () => {
    const report = await validate(azureCsv, fixtureFiles('azure/valid'));
    expect(report.jobErrors).toEqual([]);
    expect(fileReport(report, 'perfInfo.csv')).toEqual({ fileName: 'perfInfo.csv', ...noIssues });
    expect(fileReport(report, 'vmInfo.csv').rowErrors).toEqual([csvRow(2, 'app-vm-01', AZ(1), [DISK_TOTALS('Azure')])]);
    expect(fileReport(report, 'diskInfo.csv').rowErrors).toEqual([csvRow(2, '', AZ(1), [DISK_USE('Azure')])]);
    expect(fileReport(report, 'tagInfo.csv').rowErrors).toEqual([
      csvRow(2, '', AZ(1), [['WARNING', 'the tag Environment=Prod is imported as the label environment=prod (Google label rules)']]),
      csvRow(3, '', AZ(1), [['WARNING', 'the tag CostCenter=CC 42 is imported as the label costcenter=cc_42 (Google label rules)']]),
    ]);
  });

  it('executes it: image offer and SKU as OS, VM power states, measured memory', async () => {
    const { report, assets } = await execute(azureCsv, fixtureFiles('azure/valid'));
    expect(report.totalRowsCount).toBe(15);
    expect(report.framesReported).toBe(3 + 4);
    const m = byId(assets);
    const app = m.get(AZ(1))!;
    const { osFamily, osName, osVersion } = app.virtualMachineDetails;
    expect({ osFamily, osName, osVersion }).toEqual({ osFamily: 'OS_FAMILY_LINUX', osName: '0001-com-ubuntu-server-jammy', osVersion: '22_04-lts-gen2' });
    expect(app.virtualMachineDetails.createTime).toBe(isoString(Date.UTC(2024, 0, 15, 9, 12, 45)));
    // StandardSSD_LRS and Premium_LRS are storage classes, not interfaces: no interfaceType
    expect(app.virtualMachineDetails.vmDisks).toEqual({
      hddTotalCapacityBytes: gibToBytes(158),
      disks: {
        entries: [
          { diskLabel: 'app-vm-01-data-0', totalCapacityBytes: gibToBytes(128) },
          { diskLabel: 'app-vm-01_OsDisk_1_a1b2c3', totalCapacityBytes: gibToBytes(30) },
        ],
      },
    });
    expect(app.virtualMachineDetails.platform).toEqual({
      azureVmDetails: {
        location: app.attributes.HostingLocation,
        machineTypeLabel: app.attributes.MachineTypeLabel,
        provisioningState: 'Provisioning succeeded',
      },
    });
    expect(app.virtualMachineDetails.platform?.azureVmDetails?.location).toBeDefined();
    expect(app.labels).toEqual({ environment: 'prod', costcenter: 'cc_42' });
    expect(app.attributes).toMatchObject({ MachineStatus: 'VM running', ProvisioningState: 'Provisioning succeeded', Source: 'Azure' });
    const day = app.performanceData!.dailyResourceUsageAggregations[0];
    // 8 GiB of memory, 4 GiB then 2 GiB available: 50 % and 75 % used
    expect(day.memory).toEqual({ utilizationPercentage: { average: 62.5, median: 62.5, ninteyFifthPercentile: 75, peak: 75 } });
    expect(m.get(AZ(2))!.virtualMachineDetails.powerState).toBe('poweredOff');
    expect(m.get(AZ(3))!.virtualMachineDetails.powerState).toBe('poweredOff');
    expect(m.get(AZ(3))!.virtualMachineDetails.createTime).toBeUndefined();
    // Azure measures memory: a 0 is a real 0 (100 % used)
    expect(m.get(AZ(3))!.performanceData!.dailyResourceUsageAggregations[0].memory?.utilizationPercentage.peak).toBe(100);
  });

  it('reports the invalid fixture field by field', async () => {
    const report = await validate(azureCsv, fixtureFiles('azure/invalid'));
    const id = (n: string) => `8f1c5a52-0000-0000-0000-${n}`;
    expect(fileReport(report, 'vmInfo.csv').rowErrors).toEqual([
      csvRow(2, 'ok-vm', id('000000000001'), [DISK_TOTALS('Azure')]),
      csvRow(3, 'no-cores', id('000000000002'), [
        ['ERROR', 'AllocatedProcessorCoreCount is required'],
        ['ERROR', 'CreateDate must be a timestamp (ISO 8601 like 2024-01-31T13:30:00Z, or MM/dd/yyyy HH:mm:ss), got "13/15/2024 09:12:45"'],
      ]),
    ]);
    expect(fileReport(report, 'perfInfo.csv').rowErrors).toEqual([
      csvRow(2, '', id('000000000001'), [
        ['ERROR', 'TimeStamp must be a timestamp (ISO 8601 like 2024-01-31T13:30:00Z, or MM/dd/yyyy HH:mm:ss), got "31.01.2024 00:00:00"'],
        ['ERROR', 'CpuUtilizationPercentage must be a number (percent), got "12,5" (use a dot as decimal separator)'],
      ]),
    ]);
    expect(fileReport(report, 'diskInfo.csv').rowErrors).toEqual([
      csvRow(2, '', id('000000000001'), [['ERROR', 'SizeInGib must be a number (GiB), got "abc"'], DISK_USE('Azure')]),
      csvRow(3, '', id('00000000dead'), [['ERROR', `MachineId "${id('00000000dead')}" matches no MachineId of vmInfo.csv`]]),
    ]);
    expect(hasBlockingErrors(report)).toBe(true);
  });
});

describe('quoted fields before CRLF (PowerShell Export-Csv)', () => {
  it('gives the last quoted row of an Azure file without a quote error', async () => {
    const vm = '"MachineId","MachineName","AllocatedProcessorCoreCount","MemoryGiB"\r\n"x","y","1","2"\r\n';
    const { assets, report } = await execute(azureCsv, [bufferFile('vmInfo.csv', vm)]);
    expect(hasBlockingErrors(report.executionErrors)).toBe(false);
    expect(assets.map((a) => [a.machineId, a.virtualMachineDetails.memoryMb])).toEqual([['x', 2048]]);
  });
});
