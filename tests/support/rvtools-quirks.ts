/**
 * The five classes of quirks seven real RVTools exports showed (issue 26), one fixture each, built
 * here at test time (nothing binary committed). The real-export cases (tests/support/real-exports.ts)
 * run them through REST and the `validate` command; tests/backend-emulator/import-engine/formats/
 * rvtools-quirks.test.ts checks what each becomes, field by field.
 */
import { buildWorkbook, type Cell } from '../../support/xlsx-build';
import { aws15Zip } from './cloud-zips';
import { csv as manualCsv, VM_HEADER, vmRow } from './manual-csv';
import type { NamedBytes } from './real-exports';

const VINFO_HEADER = ['VM', 'Powerstate', 'Template', 'CPUs', 'Memory', 'Datacenter', 'Host', 'VM ID', 'VM UUID', 'VI SDK Server'];

/** A vInfo row of the header above. */
function vm(name: string, cpus: number, dc: string, host: string, n: number): Cell[] {
  return [name, 'poweredOn', 'False', cpus, 4096, dc, host, `vm-${n}`, `50120000-0000-4000-8000-${String(n).padStart(12, '0')}`, 'vc01.example.com'];
}

const uuid = (n: number) => `50120000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * Class 1: a workbook filtered by hand. vPartition has rows for web-01 and web-02 and for two
 * machines vInfo lacks (the vCenter appliance, a backup proxy: rows 3 and 5); vDisk's rows all
 * join. The orphans are WARNINGs and left out, the two VMs import with web-01's free space.
 */
export async function orphanRows(): Promise<NamedBytes[]> {
  return [
    {
      name: 'RVTools_filtered.xlsx',
      data: await buildWorkbook([
        { name: 'vInfo', rows: [VINFO_HEADER, vm('web-01', 2, 'DC1', 'esx-01', 1), vm('web-02', 4, 'DC1', 'esx-02', 2)] },
        {
          name: 'vPartition',
          rows: [
            ['VM', 'Powerstate', 'Template', 'Disk', 'Capacity MiB', 'Consumed MiB', 'Free MiB', 'VM UUID'],
            ['web-01', 'poweredOn', 'False', '/', 10240, 4096, 6144, uuid(1)],
            ['vcsa-01', 'poweredOn', 'False', '/', 20480, 10240, 10240, uuid(901)],
            ['web-02', 'poweredOn', 'False', '/', 10240, 2048, 8192, uuid(2)],
            ['backup-proxy', 'poweredOn', 'False', 'C:\\', 40960, 20480, 20480, uuid(902)],
          ],
        },
        {
          name: 'vDisk',
          rows: [
            ['VM', 'Powerstate', 'Template', 'Disk', 'Capacity MiB', 'VM ID', 'VI SDK Server'],
            ['web-01', 'poweredOn', 'False', 'Hard disk 1', 10240, 'vm-1', 'vc01.example.com'],
          ],
        },
      ]),
    },
  ];
}

/** Class 1, the other side: a vCPU sheet none of whose rows names a VM of vInfo stays an ERROR. */
export async function orphanTabOnly(): Promise<NamedBytes[]> {
  return [
    {
      name: 'RVTools_other_vcpu.xlsx',
      data: await buildWorkbook([
        { name: 'vInfo', rows: [VINFO_HEADER, vm('web-01', 2, 'DC1', 'esx-01', 1)] },
        {
          name: 'vCPU',
          rows: [
            ['VM', 'Powerstate', 'Template', 'CPUs', 'Sockets', 'Cores p/s'],
            ['other-01', 'poweredOn', 'False', 2, 1, 2],
            ['other-02', 'poweredOn', 'False', 4, 2, 2],
          ],
        },
      ]),
    },
  ];
}

/**
 * Class 3: an anonymised export whose vCPU carries only VM, Datacenter and Host, with hosts that
 * differ from vInfo's. web-01 (a unique name) matches on its name alone; the two app-01 (DC1 and
 * DC2) are told apart by their datacenter, as the datacenter + host pair names none.
 */
export async function tieBreakers(): Promise<NamedBytes[]> {
  return [
    {
      name: 'RVTools_anonymised.xlsx',
      data: await buildWorkbook([
        {
          name: 'vInfo',
          rows: [VINFO_HEADER, vm('web-01', 2, 'DC1', 'esx-01', 1), vm('app-01', 4, 'DC1', 'esx-02', 2), vm('app-01', 8, 'DC2', 'esx-03', 3)],
        },
        {
          name: 'vCPU',
          rows: [
            ['VM', 'Powerstate', 'Template', 'CPUs', 'Sockets', 'Cores p/s', 'Datacenter', 'Host'],
            ['web-01', 'poweredOn', 'False', 2, 1, 2, 'DC1', 'host-7f3a'],
            ['app-01', 'poweredOn', 'False', 4, 2, 2, 'DC1', 'host-9c1e'],
            ['app-01', 'poweredOn', 'False', 8, 4, 2, 'DC2', 'host-0b5d'],
          ],
        },
      ]),
    },
  ];
}

/**
 * Class 2: RVTools' "no creation date" placeholder, the epoch in the exporting machine's time zone:
 * a date cell of 1969-12-31 22:00 (UTC-2), one of 1970-01-01 01:00 (UTC+1), a text of 12/31/1969
 * 19:00:00 (UTC-5). web-04 was really created (2023-05-01 08:00), web-05 a day after the epoch
 * (outside the ±14 h window, so a date, however unlikely).
 */
export async function noCreationDate(): Promise<NamedBytes[]> {
  const header = ['VM', 'Powerstate', 'Template', 'CPUs', 'Memory', 'VM ID', 'VM UUID', 'Creation date'];
  const row = (name: string, n: number, created: Cell): Cell[] => [name, 'poweredOn', 'False', 2, 4096, `vm-${n}`, uuid(n), created];
  return [
    {
      name: 'RVTools_no_dates.xlsx',
      data: await buildWorkbook([
        {
          name: 'vInfo',
          rows: [
            header,
            row('web-01', 1, new Date(Date.UTC(1969, 11, 31, 22, 0, 0))),
            row('web-02', 2, new Date(Date.UTC(1970, 0, 1, 1, 0, 0))),
            row('web-03', 3, '12/31/1969 19:00:00'),
            row('web-04', 4, new Date(Date.UTC(2023, 4, 1, 8, 0, 0))),
            row('web-05', 5, '1970/01/02 00:00:00'),
          ],
        },
      ]),
    },
  ];
}

/**
 * Class 4: a workbook shaped as RVTools 4.7 writes it: vInfo with the columns 4.6 and 4.7 added,
 * `Backup status` and `ClusterInvariantVMMId` on every tab, and one vCenter custom attribute
 * (`owner`), the only column no RVTools version writes.
 */
export async function rvtools47Columns(): Promise<NamedBytes[]> {
  const added = [
    'Suspended To Memory',
    'Suspend Interval',
    'Overall Cpu Readiness',
    'Active Memory',
    'Fixed Passthru HotPlug',
    'Op Notification Timeout',
    'Vm Failover In Progress',
    'Customization Info',
    'Guest Detailed Data',
  ];
  const header = ['VM', 'Powerstate', 'Template', 'CPUs', 'Memory', ...added, 'owner', 'VM ID', 'VM UUID', 'Backup status', 'ClusterInvariantVMMId'];
  const values = ['False', '0', '0', '1024', 'False', '0', 'False', 'None', 'None'];
  return [
    {
      name: 'RVTools_export_all_4.7.1.xlsx',
      data: await buildWorkbook([
        {
          name: 'vInfo',
          rows: [
            header,
            ['web-01', 'poweredOn', 'False', 2, 4096, ...values, 'team-a', 'vm-1', uuid(1), 'OK', 'inv-1'],
            ['web-02', 'poweredOn', 'False', 4, 8192, ...values, 'team-b', 'vm-2', uuid(2), 'OK', 'inv-2'],
          ],
        },
        {
          name: 'vPartition',
          rows: [
            ['VM', 'Powerstate', 'Template', 'Disk', 'Capacity MiB', 'Free MiB', 'VM ID', 'Backup status', 'ClusterInvariantVMMId'],
            ['web-01', 'poweredOn', 'False', '/', 10240, 5120, 'vm-1', 'OK', 'inv-1'],
          ],
        },
      ]),
    },
  ];
}

/**
 * Class 5, CSV files: a manual import whose files were saved as `vminfo-1` and `diskinfo-1` (no
 * extension): their header rows say which template each is. `tagInfo.csv` keeps its telling name.
 */
export function manualCsvUnnamed(): NamedBytes[] {
  const disk = ['MachineId,DiskLabel,SizeInGib,UsedInGib,StorageTypeLabel', 'vm-1,disk0,100,40,pd-ssd', 'vm-2,disk0,200,50,pd-ssd'];
  return [
    { name: 'vminfo-1', data: Buffer.from(manualCsv(VM_HEADER, vmRow('vm-1', 'web-01'), vmRow('vm-2', 'web-02'))) },
    { name: 'diskinfo-1', data: Buffer.from(manualCsv(...disk)) },
    { name: 'tagInfo.csv', data: Buffer.from(manualCsv('MachineId,Key,Value', 'vm-1,env,prod')) },
  ];
}

/** Class 5, the name wins: vmInfo.csv's content saved as `diskInfo.csv` is read as diskInfo.csv (and fails as one). */
export function manualCsvMisnamed(): NamedBytes[] {
  return [
    { name: 'vmInfo.csv', data: Buffer.from(manualCsv(VM_HEADER, vmRow('vm-1', 'web-01'))) },
    { name: 'diskInfo.csv', data: Buffer.from(manualCsv(VM_HEADER, vmRow('vm-1', 'web-01'))) },
  ];
}

/** Class 5, zips: the AWS 1.5 script's zip downloaded as `vm-aws-import-files` (no `.zip`). */
export function awsZipUnnamed(): NamedBytes[] {
  return [{ name: 'vm-aws-import-files', data: aws15Zip().data }];
}

/** Class 5, workbooks: an RVTools workbook saved as `rvtools-export-1`, and RVTools CSV tabs without their names. */
export async function rvtoolsUnnamed(): Promise<NamedBytes[]> {
  return [{ name: 'rvtools-export-1', data: (await orphanRows())[0].data }];
}

export function rvtoolsCsvUnnamed(): NamedBytes[] {
  return [
    { name: 'vinfo-export', data: Buffer.from(manualCsv('VM,CPUs,Memory,VM UUID', `web-01,2,4096,${uuid(1)}`, `web-02,4,8192,${uuid(2)}`)) },
    {
      name: 'partitions-export',
      data: Buffer.from(manualCsv('VM,Disk,Capacity MiB,Consumed MiB,Free MiB,VM UUID', `web-01,/,10240,4096,6144,${uuid(1)}`)),
    },
  ];
}
