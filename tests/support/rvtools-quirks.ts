/**
 * The five classes of quirks seven real RVTools exports showed (issue 26), one fixture each, built
 * here at test time (nothing binary committed). The real-export cases (tests/support/real-exports.ts)
 * run them through REST and the `validate` command; tests/backend-emulator/import-engine/formats/
 * rvtools-quirks.test.ts checks what each becomes, field by field.
 */
import { buildWorkbook, type Cell } from '../../support/xlsx-build';
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
