/**
 * What the two VM-inventory-tool (RVTools) formats share: the tabs and their column templates,
 * the rules, the join key, the template-row policy and the asset mapping. The XLSX format reads the
 * tabs as sheets of one workbook (rvtools-xlsx.ts), the CSV format as `RVTools_tab<tab>.csv` files
 * (rvtools-csv.ts). docs/formats/rvtools-xlsx.md documents every choice.
 *
 * Tabs read: vInfo (required, one row per VM: becomes the asset), vCPU, vMemory, vDisk, vPartition,
 * vNetwork (optional, rows joined to their VM). Every other tab is ignored with an INFO.
 *
 * Join: the tabs carry no identifier shared by every RVTools version (3.x files lack `VM UUID`,
 * trimmed files even `VM ID`, 4.x child tabs may lack `VM ID`), so a child tab joins to vInfo on the
 * strongest identifier both headers carry (rvtools-join.ts). The reader adds a column `VM key` to
 * every tab: in vInfo `<VM ID>@<VI SDK Server>` (`<VM ID>` when the server is blank or absent), or
 * the VM name when the row has no VM ID, unique; in a child tab, the `VM key` of the vInfo row it
 * joined to.
 *
 * Template rows (`Template` = True) are VM templates, not machines: the reader drops them before
 * validation, with one INFO row entry per template of vInfo and one INFO per other tab counting the
 * dropped rows.
 */
import { isIP } from 'node:net';
import type { Asset, DiskEntry, NetworkAdapterDetails, VirtualMachineDetails } from '../asset';
import { diskInterfaceOf } from './disk-interface';
import { clip, isEmptyCell, normaliseHeader } from '../columns';
import { combineIssues, error, info, warning } from '../report';
import { isoString, parseTimestamp } from '../timestamps';
import type { ImportError } from '../report';
import type { AssetMapping, CellValue, ColumnSpec, FileKind, Reader, ReaderContext, ReaderEvent, ReaderRowIssue, RowRecord, RowRule } from '../types';
import { idCells, VmJoin, type IdColumns } from './rvtools-join';
import { versionColumnsOf } from './rvtools-versions';
import { flat } from '../util';
import { osFamilyOf, powerStateOf } from './manual-csv';

/** The column the reader adds to every tab; see the file comment. */
export const KEY_COLUMN = 'VM key';

export type RvTab = 'vInfo' | 'vCPU' | 'vMemory' | 'vDisk' | 'vPartition' | 'vNetwork';
export const RV_TABS: readonly RvTab[] = ['vInfo', 'vCPU', 'vMemory', 'vDisk', 'vPartition', 'vNetwork'];

const KIND_OF_TAB: Record<RvTab, string> = {
  vInfo: 'machines',
  vCPU: 'cpu',
  vMemory: 'memory',
  vDisk: 'disks',
  vPartition: 'partitions',
  vNetwork: 'network',
};

// ---------------------------------------------------------------------------------------------
// Column templates
// ---------------------------------------------------------------------------------------------

export const NOT_IMPORTED = 'Read and ignored: the emulated asset has no field for it.';

/** Columns RVTools writes that the emulator accepts without importing them (no "unknown column" INFO). */
function known(names: readonly (string | [string, string[]])[]): ColumnSpec[] {
  return names.map((n) =>
    Array.isArray(n)
      ? { name: n[0], aliases: n[1], type: 'string', presence: 'optional', description: NOT_IMPORTED }
      : { name: n, type: 'string', presence: 'optional', description: NOT_IMPORTED },
  );
}

const KEY_SPEC: ColumnSpec = {
  name: KEY_COLUMN,
  type: 'string',
  presence: 'optional',
  derived: true,
  description:
    'Added by the reader, never in the file: in vInfo `VM ID@VI SDK Server` (or `VM ID` without a server), else the VM name; in the other tabs, the key of the vInfo row the row joins (on VM ID, else VM UUID, else the VM name).',
};

const VM_NAME: ColumnSpec = { name: 'VM', type: 'string', presence: 'required', description: 'Virtual machine name.', example: 'web-01' };
const CHILD_VM_NAME: ColumnSpec = {
  ...VM_NAME,
  presence: 'recommended',
  description: 'Name of the VM the row belongs to (joins the row to vInfo when the tab has no VM ID).',
};

/** Identification and context columns every VM tab carries. */
const VM_CONTEXT: ColumnSpec[] = [
  { name: 'Powerstate', type: 'string', presence: 'recommended', description: 'poweredOn, poweredOff or suspended.', example: 'poweredOn' },
  {
    name: 'Template',
    type: 'bool',
    presence: 'recommended',
    description: 'True for a VM template: the row is skipped (INFO), templates are not machines.',
    example: 'False',
  },
  { name: 'VM ID', type: 'string', presence: 'recommended', description: 'vCenter managed object id (4.x, late 3.x). Joins the tabs.', example: 'vm-1001' },
  {
    name: 'VM UUID',
    type: 'string',
    presence: 'optional',
    description: 'vCenter instance UUID (4.x): the asset id when present.',
    example: '5012a3b4-0c1d-4e5f-8a9b-0c1d2e3f4a5b',
  },
  {
    name: 'VI SDK Server',
    type: 'string',
    presence: 'optional',
    description: 'The vCenter or ESXi host the inventory was taken from. Joins the tabs.',
    example: 'vc01.example.com',
  },
];

/**
 * Child tabs: `VM ID` is optional (4.x writes it in vInfo but not in every child tab); the rows join
 * on the strongest identifier both tabs carry (rvtools-join.ts).
 */
const CHILD_CONTEXT: ColumnSpec[] = VM_CONTEXT.map((c) =>
  c.name === 'VM ID'
    ? { ...c, presence: 'optional', description: 'vCenter managed object id: joins the row to vInfo when both tabs have it (else VM UUID, else the VM name).' }
    : c,
);

const CONTEXT_KNOWN = known([
  'SRM Placeholder',
  'Annotation',
  'Datacenter',
  'Cluster',
  'Host',
  'Folder',
  'OS according to the configuration file',
  'OS according to the VMware Tools',
  'VI SDK UUID',
  'Internal Sort Column',
  'VMRef',
  'Last Backup',
]);

/** Child tabs declare the context columns they share with vInfo as known-but-ignored. */
function childColumns(own: ColumnSpec[]): ColumnSpec[] {
  const names = new Set(own.map((c) => c.name));
  return [CHILD_VM_NAME, ...CHILD_CONTEXT, ...own, ...CONTEXT_KNOWN.filter((c) => !names.has(c.name)), KEY_SPEC];
}

const MIB = (name: string, aliasMb: string, presence: ColumnSpec['presence'], description: string, example: string): ColumnSpec => ({
  name,
  aliases: [aliasMb],
  type: 'number',
  unit: 'MiB',
  min: 0,
  presence,
  description: `${description} RVTools 3.x writes the same value under \`${aliasMb}\`.`,
  example,
});

export const VINFO_COLUMNS: readonly ColumnSpec[] = [
  VM_NAME,
  ...VM_CONTEXT,
  { name: 'CPUs', type: 'int', presence: 'required', unit: 'cores', min: 0, description: 'Number of virtual CPUs.', example: '4' },
  { name: 'Memory', type: 'number', presence: 'required', unit: 'MiB', min: 0, description: 'Configured memory.', example: '16384' },
  { name: 'NICs', type: 'int', presence: 'optional', min: 0, description: 'Number of network adapters.', example: '1' },
  { name: 'Disks', type: 'int', presence: 'optional', min: 0, description: 'Number of virtual disks.', example: '2' },
  MIB('Total disk capacity MiB', 'Total disk capacity MB', 'optional', 'Sum of the virtual disks (4.x); used when there is no vDisk tab.', '163840'),
  MIB(
    'Provisioned MiB',
    'Provisioned MB',
    'recommended',
    'Provisioned storage; the disk total when neither vDisk nor `Total disk capacity MiB` gives it.',
    '172032',
  ),
  MIB('In Use MiB', 'In Use MB', 'optional', 'Storage in use; gives the free space when there is no vPartition tab.', '98304'),
  MIB('Unshared MiB', 'Unshared MB', 'optional', NOT_IMPORTED, '98304'),
  { name: 'DNS Name', type: 'string', presence: 'optional', description: 'Guest host name (kept as an attribute).', example: 'web-01.example.com' },
  {
    name: 'Primary IP Address',
    type: 'string',
    presence: 'optional',
    description: 'Primary guest IP address (4.x). A value that is not an IP address is a WARNING and is ignored.',
    example: '10.0.0.11',
  },
  {
    name: 'Creation date',
    type: 'string',
    presence: 'optional',
    description:
      'When the VM was created (4.x): a date cell, ISO 8601, `MM/dd/yyyy HH:mm:ss` or `yyyy/MM/dd HH:mm:ss`; another text is a WARNING and is ignored.',
    example: '2023-05-01T08:00:00Z',
  },
  { name: 'Datacenter', type: 'string', presence: 'recommended', description: 'vSphere datacenter: the asset location.', example: 'DC1' },
  { name: 'Cluster', type: 'string', presence: 'optional', description: 'vSphere cluster (attribute).', example: 'Cluster1' },
  { name: 'Host', type: 'string', presence: 'optional', description: 'ESXi host (attribute).', example: 'esx01.example.com' },
  { name: 'Folder', type: 'string', presence: 'optional', description: 'VM folder (attribute).', example: '/Production' },
  { name: 'Resource pool', type: 'string', presence: 'optional', description: 'Resource pool (attribute).', example: 'Resources' },
  { name: 'Annotation', type: 'string', presence: 'optional', description: 'VM notes (attribute, first 256 characters).', example: 'Web tier' },
  { name: 'Firmware', type: 'string', presence: 'optional', description: 'bios or efi (attribute).', example: 'efi' },
  { name: 'HW version', type: 'string', presence: 'optional', description: 'Virtual hardware version (attribute).', example: '19' },
  {
    name: 'OS according to the configuration file',
    type: 'string',
    presence: 'recommended',
    description: 'Guest OS chosen when the VM was configured; the OS name when VMware Tools report none.',
    example: 'Ubuntu Linux (64-bit)',
  },
  {
    name: 'OS according to the VMware Tools',
    type: 'string',
    presence: 'recommended',
    description: 'Guest OS as VMware Tools report it; the OS name when present.',
    example: 'Ubuntu Linux (64-bit)',
  },
  {
    name: 'SMBIOS UUID',
    type: 'string',
    presence: 'optional',
    description: 'BIOS UUID (4.x): the asset id when there is no VM UUID.',
    example: '4212a3b4-0c1d-4e5f-8a9b-0c1d2e3f4a5b',
  },
  ...known([
    'SRM Placeholder',
    'Config status',
    'Connection state',
    'Guest state',
    'Heartbeat',
    'Consolidation Needed',
    'PowerOn',
    'Suspend time',
    'Change Version',
    'min Required EVC Mode Key',
    'Latency Sensitivity',
    'EnableUUID',
    'CBT',
    'Network #1',
    'Network #2',
    'Network #3',
    'Network #4',
    'Network #5',
    'Network #6',
    'Network #7',
    'Network #8',
    'Num Monitors',
    ['Video Ram KiB', ['Video Ram KB']],
    'Folder ID',
    'vApp',
    'DAS protection',
    'FT State',
    'FT Role',
    'FT Latency',
    'FT Bandwidth',
    'FT Sec. Latency',
    'HA Restart Priority',
    'HA Isolation Response',
    'HA VM Monitoring',
    'Cluster rule(s)',
    'Cluster rule name(s)',
    'Boot Required',
    'Boot delay',
    'Boot retry delay',
    'Boot retry enabled',
    'Boot BIOS setup',
    'Reboot PowerOff',
    'EFI Secure boot',
    'HW upgrade status',
    'HW upgrade policy',
    'HW target',
    'Path',
    'Log directory',
    'Snapshot directory',
    'Suspend directory',
    'Last Backup',
    'VI SDK Server type',
    'VI SDK API Version',
    'VI SDK UUID',
  ]),
  KEY_SPEC,
];

export const VCPU_COLUMNS: readonly ColumnSpec[] = childColumns([
  { name: 'CPUs', type: 'int', presence: 'optional', min: 0, description: 'Virtual CPUs (same as vInfo).', example: '4' },
  { name: 'Sockets', type: 'int', presence: 'recommended', min: 0, description: 'Virtual sockets (attribute `Sockets`).', example: '2' },
  { name: 'Cores p/s', type: 'int', presence: 'recommended', min: 0, description: 'Cores per socket (attribute `Cores p/s`).', example: '2' },
  ...known(['Max', 'Overall', 'Level', 'Shares', 'Reservation', 'Entitlement', 'DRS Entitlement', 'Limit', 'Hot Add', 'Hot Remove', 'Numa Hotadd Exposed']),
]);

export const VMEMORY_COLUMNS: readonly ColumnSpec[] = childColumns([
  MIB('Size MiB', 'Size MB', 'recommended', 'Configured memory (validated; vInfo `Memory` is the asset memory).', '16384'),
  ...known([
    'Memory Reservation Locked To Max',
    'Overhead',
    'Max',
    'Consumed',
    'Consumed Overhead',
    'Private',
    'Shared',
    'Swapped',
    'Ballooned',
    'Active',
    'Entitlement',
    'DRS Entitlement',
    'Level',
    'Shares',
    'Reservation',
    'Limit',
    'Hot Add',
  ]),
]);

export const VDISK_COLUMNS: readonly ColumnSpec[] = childColumns([
  { name: 'Disk', type: 'string', presence: 'recommended', description: 'Disk label: the disk entry label.', example: 'Hard disk 1' },
  MIB('Capacity MiB', 'Capacity MB', 'required', 'Disk capacity.', '102400'),
  {
    name: 'Controller',
    type: 'string',
    presence: 'optional',
    description: 'Disk controller; its bus (SCSI, SATA, IDE, NVME) is the disk interface type.',
    example: 'SCSI controller 0',
  },
  ...known([
    'Disk Key',
    'Disk UUID',
    'Disk Path',
    'Raw',
    'Disk Mode',
    'Sharing mode',
    'Thin',
    'Eagerly Scrub',
    'Split',
    'Write Through',
    'Level',
    'Shares',
    'Reservation',
    'Limit',
    'Label',
    'SCSI Unit #',
    'Unit #',
    'Shared Bus',
    'Path',
    'Raw LUN ID',
    'Raw Comp. Mode',
  ]),
]);

export const VPARTITION_COLUMNS: readonly ColumnSpec[] = childColumns([
  { name: 'Disk', type: 'string', presence: 'recommended', description: 'Partition (mount point or drive).', example: 'C:\\' },
  MIB('Capacity MiB', 'Capacity MB', 'required', 'Partition capacity.', '102400'),
  MIB('Consumed MiB', 'Consumed MB', 'optional', 'Space used.', '40960'),
  MIB('Free MiB', 'Free MB', 'recommended', 'Free space: summed into the asset free space.', '61440'),
  { name: 'Free %', type: 'number', presence: 'optional', unit: 'percent', min: 0, max: 100, description: NOT_IMPORTED, example: '60' },
  ...known(['Disk Key']),
]);

export const VNETWORK_COLUMNS: readonly ColumnSpec[] = childColumns([
  { name: 'NIC label', type: 'string', presence: 'optional', description: 'Adapter label.', example: 'Network adapter 1' },
  { name: 'Adapter', type: 'string', presence: 'optional', description: 'Adapter type (vmxnet3, e1000e).', example: 'vmxnet3' },
  { name: 'Network', type: 'string', presence: 'optional', description: 'Port group.', example: 'VM Network' },
  {
    name: 'Mac Address',
    type: 'mac',
    presence: 'recommended',
    description: 'Adapter MAC address; the first adapter gives the primary MAC.',
    example: '00:50:56:a1:b2:c3',
  },
  {
    name: 'IPv4 Address',
    type: 'string',
    presence: 'recommended',
    description: 'Adapter IPv4 addresses, separated by `,` or `;`. An entry that is not an IP address is a WARNING and is ignored.',
    example: '10.0.0.11',
  },
  {
    name: 'IPv6 Address',
    type: 'string',
    presence: 'optional',
    description: 'Adapter IPv6 addresses, separated by `,` or `;` (same rule).',
    example: 'fe80::250:56ff:fea1:b2c3',
  },
  ...known(['Switch', 'Connected', 'Starts Connected', 'Type', 'Direct Path IO']),
]);

const COLUMNS_OF_TAB: Record<RvTab, readonly ColumnSpec[]> = {
  vInfo: VINFO_COLUMNS,
  vCPU: VCPU_COLUMNS,
  vMemory: VMEMORY_COLUMNS,
  vDisk: VDISK_COLUMNS,
  vPartition: VPARTITION_COLUMNS,
  vNetwork: VNETWORK_COLUMNS,
};

// ---------------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------------

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const numOf = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

const RV_SLASH = /^(\d{4})\/(\d{1,2})\/(\d{1,2})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/** RVTools dates: a date cell (ISO text once read), ISO 8601, US `MM/dd/yyyy HH:mm:ss`, or `yyyy/MM/dd HH:mm:ss`. */
export function parseRvDate(text: string): number {
  const t = parseTimestamp(text);
  if (Number.isFinite(t)) return t;
  const m = RV_SLASH.exec(text);
  if (!m) return NaN;
  const iso = `${m[1]}-${m[2].padStart(2, '0')}-${m[3].padStart(2, '0')}T${(m[4] ?? '0').padStart(2, '0')}:${m[5] ?? '00'}:${m[6] ?? '00'}Z`;
  return parseTimestamp(iso);
}

/**
 * RVTools writes the Unix epoch in the exporting machine's local time when vCenter has no creation
 * date (`1969-12-31 22:00` from UTC-2, `1970-01-01 01:00` from UTC+1). Time zones
 * run from UTC-12 to UTC+14, so any time within 14 hours of the epoch is that placeholder: no VM of
 * a vCenter was created in the first hours of 1970.
 */
const EPOCH_PLACEHOLDER_MS = 14 * 3600 * 1000;

/** Whether an RVTools `Creation date` (as `parseRvDate` reads it) is the "no creation date" placeholder. */
export function isNoCreationDate(t: number): boolean {
  return Number.isFinite(t) && Math.abs(t) <= EPOCH_PLACEHOLDER_MS;
}

/** Splits an RVTools address cell (`10.0.0.1, 10.0.0.2`) into the valid addresses and the rejected entries. */
export function splitAddresses(text: string | undefined): { ips: string[]; bad: string[] } {
  const ips: string[] = [];
  const bad: string[] = [];
  if (!text) return { ips, bad };
  for (const part of text.split(/[,;\s]+/)) {
    const p = part.trim();
    if (p === '') continue;
    if (isIP(p) !== 0) ips.push(p);
    else bad.push(p);
  }
  return { ips, bad };
}

const vInfoRules: RowRule[] = [
  {
    id: 'primary-ip-is-an-ip',
    severity: 'WARNING',
    description: '`Primary IP Address` is an IPv4 or IPv6 address; another value is ignored.',
    create: () => (r, report) => {
      const ip = str(r['Primary IP Address']);
      if (ip !== undefined && isIP(ip) === 0) report.warning(`Primary IP Address "${clip(ip)}" is not an IP address; it is ignored`);
    },
  },
  {
    id: 'creation-date-readable',
    severity: 'WARNING',
    description: '`Creation date` is a date; another value is ignored.',
    create: () => (r, report) => {
      const d = str(r['Creation date']);
      if (d !== undefined && !Number.isFinite(parseRvDate(d))) report.warning(`Creation date "${clip(d)}" is not a date this importer reads; it is ignored`);
    },
  },
  {
    id: 'vm-uuid-unique',
    severity: 'ERROR',
    description: '`VM UUID`, the asset id, is unique among the VMs.',
    create: () => {
      const seen = new Map<string, string>();
      return (r, report) => {
        const u = str(r['VM UUID']);
        if (u === undefined) return;
        const first = seen.get(u);
        if (first !== undefined) report.error(`VM UUID "${clip(u)}" is also the UUID of VM "${clip(first)}"`);
        else seen.set(flat(u), flat(str(r.VM) ?? ''));
      };
    },
  },
  {
    id: 'memory-not-zero',
    severity: 'WARNING',
    description: 'A VM has some memory: 0 MiB is suspicious.',
    create: () => (r, report) => {
      if (r.Memory === 0) report.warning('Memory is 0 MiB');
    },
  },
];

const addressRule = (column: string): RowRule => ({
  id: `${column.toLowerCase().replace(/\s+/g, '-')}-are-ips`,
  severity: 'WARNING',
  description: `Every entry of \`${column}\` is an IP address; other entries are ignored.`,
  create: () => (r, report) => {
    const { bad } = splitAddresses(str(r[column]));
    if (bad.length > 0) report.warning(`${column} entry "${clip(bad[0])}" is not an IP address; it is ignored`);
  },
});

const partitionRules: RowRule[] = [
  {
    id: 'consumed-within-capacity',
    severity: 'WARNING',
    description: '`Consumed MiB` is not larger than `Capacity MiB`.',
    create: () => (r, report) => {
      const cap = numOf(r['Capacity MiB']);
      const used = numOf(r['Consumed MiB']);
      if (cap !== undefined && used !== undefined && used > cap) report.warning(`Consumed MiB (${used}) is larger than Capacity MiB (${cap})`);
    },
  },
];

const RULES_OF_TAB: Record<RvTab, RowRule[]> = {
  vInfo: vInfoRules,
  vCPU: [],
  vMemory: [],
  vDisk: [],
  vPartition: partitionRules,
  vNetwork: [addressRule('IPv4 Address'), addressRule('IPv6 Address')],
};

const DESCRIPTION_OF_TAB: Record<RvTab, string> = {
  vInfo: 'One row per VM (templates skipped): each becomes an asset. Required.',
  vCPU: 'One row per VM: sockets and cores per socket.',
  vMemory: 'One row per VM: configured memory (validated, not imported).',
  vDisk: 'One row per virtual disk: the asset disk entries and the disk total.',
  vPartition: 'One row per guest partition: the asset free disk space.',
  vNetwork: 'One row per network adapter: MAC and IP addresses.',
};

/** The six file kinds; `fileName` and `sheetName` are the two formats' business. */
export function rvtoolsKinds(place: (tab: RvTab) => Pick<FileKind, 'fileName' | 'sheetName' | 'title'>): FileKind[] {
  return RV_TABS.map((tab) => {
    const machine = tab === 'vInfo';
    return {
      kind: KIND_OF_TAB[tab],
      ...place(tab),
      required: machine,
      columns: COLUMNS_OF_TAB[tab],
      ...(machine ? { key: KEY_COLUMN } : { references: { column: KEY_COLUMN, kind: 'machines' } }),
      identity: { name: 'VM', uuid: 'VM UUID', title: 'VM' },
      rules: RULES_OF_TAB[tab],
      description: DESCRIPTION_OF_TAB[tab],
    };
  });
}

// ---------------------------------------------------------------------------------------------
// The reader wrapper: join key, template rows
// ---------------------------------------------------------------------------------------------

function cellText(v: CellValue): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v.trim();
  if (v instanceof Date) return v.toISOString();
  return String(v);
}

function isTrue(v: CellValue): boolean {
  if (v === true || v === 1) return true;
  const s = cellText(v).toLowerCase();
  return s === 'true' || s === '1' || s === 'yes';
}

/**
 * The held orphan rows of a child tab, as row issues of `severity`: WARNING once a row of the tab
 * joined a VM, ERROR when none did (then the rows were never left out silently).
 */
function* orphanEvents(t: TableCtx, severity: 'WARNING' | 'ERROR'): Generator<ReaderEvent> {
  for (const o of t.orphans) yield orphanEvent(t, o.rowNumber, o.vm, o.why, severity);
  if (t.orphansUnlisted > 0) {
    const n = `${t.orphansUnlisted} more row${t.orphansUnlisted === 1 ? '' : 's'}`;
    yield severity === 'ERROR'
      ? { type: 'fileIssue', issue: error(`${t.label}: ${n} match no VM of vInfo, and no row of the tab does`), fatal: false }
      : { type: 'fileIssue', issue: warning(`${t.label}: ${n} match no VM of vInfo; they are left out`), fatal: false };
  }
  t.orphans = [];
  t.orphansUnlisted = 0;
}

function orphanEvent(t: TableCtx, rowNumber: number, vm: string, why: string, severity: 'WARNING' | 'ERROR'): ReaderEvent {
  const where = `${t.label} row ${rowNumber}`;
  const issue =
    severity === 'ERROR'
      ? error(`${why} (${where}; no row of this tab matches a VM of vInfo)`)
      : warning(`${why} (${where}): its VM is not in vInfo, the row is left out`);
  return { type: 'rowIssue', rowNumber, issue, vmName: flat(clip(vm)) };
}

/** Which tab a sheet name or a CSV file name stands for. */
export function tabOf(name: string): RvTab | undefined {
  const n = name.trim().toLowerCase();
  return RV_TABS.find((t) => n === t.toLowerCase());
}

/**
 * Normalised headers (names and aliases) of the columns a tab reads without importing: the
 * templates' known columns and the columns later RVTools versions added (rvtools-versions.ts).
 */
const IGNORED_OF_TAB: Record<RvTab, Set<string>> = Object.fromEntries(
  RV_TABS.map((tab) => [
    tab,
    new Set([
      ...COLUMNS_OF_TAB[tab].filter((c) => c.description === NOT_IMPORTED).flatMap((c) => [c.name, ...(c.aliases ?? [])].map(normaliseHeader)),
      ...versionColumnsOf(tab).map(normaliseHeader),
    ]),
  ]),
) as Record<RvTab, Set<string>>;

interface TableCtx {
  tab: RvTab | undefined;
  /** Source columns passed on (the ignored known columns are dropped). */
  keep: number[];
  vm: number;
  vmId: number;
  server: number;
  template: number;
  ids: IdColumns;
  /** Child tabs: the vInfo keys tried for each row, strongest first. */
  strategies: ReturnType<VmJoin['strategies']>;
  headerLength: number;
  templatesDropped: number;
  label: string;
  /** Child tabs: rows joined to a VM, and the orphan rows held until the first join (see `orphans`). */
  joined: number;
  /** vInfo: its `Creation date` column, and the rows whose value is RVTools' "no creation date" placeholder. */
  created: number;
  noCreationDate: number;
  orphans: Array<{ rowNumber: number; vm: string; why: string }>;
  orphansUnlisted: number;
}

/**
 * Orphan rows held while a child tab has joined no row yet: past this many only a count is kept
 * (the report lists at most 1,000 row errors per file anyway), so a hostile tab costs no memory.
 */
const MAX_HELD_ORPHANS = 1000;

function columnIndex(norm: readonly string[], spec: ColumnSpec | undefined, name: string): number {
  const names = [name, ...(spec?.aliases ?? [])].map((n) => normaliseHeader(n));
  return norm.findIndex((h) => names.includes(h));
}

const JOIN_STATE = 'rvtools-join';

/** The join of this import run (shared by the tab files of one payload). */
function joinOf(ctx: ReaderContext): VmJoin {
  const state = ctx.runState;
  if (!state) return new VmJoin();
  let join = state.get(JOIN_STATE) as VmJoin | undefined;
  if (!join) {
    join = new VmJoin();
    state.set(JOIN_STATE, join);
  }
  return join;
}

/**
 * Wraps a reader (the CSV reader, one table per file; or the XLSX reader, one table per sheet):
 * adds the `VM key` column (the vInfo row's key, resolved for child rows by rvtools-join.ts) and
 * drops template rows. `tabOfTable` says which tab a table is.
 */
export function rvtoolsReader(inner: Reader, tabOfTable: (fileName: string, sheet: string | undefined) => RvTab | undefined): Reader {
  return async function* rvReader(bytes, ctx): AsyncGenerator<ReaderEvent> {
    const join = joinOf(ctx);
    let t: TableCtx | undefined;
    let fatal = false;
    const endTable = function* (): Generator<ReaderEvent> {
      // vInfo read to its end: child rows that match none of its keys are errors from now on.
      if (t?.tab === 'vInfo' && !fatal) join.complete = true;
      // A child tab none of whose rows joins a VM is not this vInfo's tab (another workbook's, or
      // the keys are broken): its orphans stay errors, as before issue 26.
      if (t && t.joined === 0) yield* orphanEvents(t, 'ERROR');
      if (t && t.noCreationDate > 0) {
        const n = t.noCreationDate;
        yield {
          type: 'fileIssue',
          issue: info(
            `${t.label}: ${n} row${n === 1 ? ' has' : 's have'} a Creation date within 14 hours of 1970-01-01T00:00:00Z, RVTools' placeholder for "no creation date" (the epoch in the exporting machine's time zone): ${n === 1 ? 'its VM gets' : 'their VMs get'} no createTime`,
          ),
          fatal: false,
        };
      }
      if (t && t.tab && t.tab !== 'vInfo' && t.templatesDropped > 0) {
        yield {
          type: 'fileIssue',
          issue: info(`${t.label}: ${t.templatesDropped} row${t.templatesDropped === 1 ? '' : 's'} of VM templates skipped (templates are not machines)`),
          fatal: false,
        };
      }
    };
    for await (const ev of inner(bytes, ctx)) {
      if (ev.type === 'fileIssue' && ev.fatal) fatal = true;
      if (ev.type === 'table') {
        yield* endTable();
        const tab = tabOfTable(ctx.fileName, ev.sheet);
        const norm = ev.header.map((h) => normaliseHeader(String(h ?? '')));
        const cols = tab ? COLUMNS_OF_TAB[tab] : [];
        const byName = (n: string) =>
          columnIndex(
            norm,
            cols.find((c) => c.name === n),
            n,
          );
        const ignored = tab ? IGNORED_OF_TAB[tab] : new Set<string>();
        // Unnamed cells after the last named one (a re-save in Excel or LibreOffice) are dropped
        // here: the key column goes after them, so the pipeline would no longer see them as trailing.
        let lastNamed = -1;
        norm.forEach((h, i) => {
          if (h !== '') lastNamed = i;
        });
        const keep: number[] = [];
        norm.forEach((h, i) => {
          if (!ignored.has(h) && i <= lastNamed) keep.push(i);
        });
        const ids: IdColumns = {
          vmId: byName('VM ID'),
          server: byName('VI SDK Server'),
          uuid: byName('VM UUID'),
          name: byName('VM'),
          datacenter: byName('Datacenter'),
          host: byName('Host'),
        };
        if (tab === 'vInfo') join.startVInfo(ids);
        t = {
          tab,
          keep,
          vm: ids.name,
          vmId: ids.vmId,
          server: ids.server,
          template: byName('Template'),
          ids,
          strategies: tab && tab !== 'vInfo' ? join.strategies(ids) : [],
          headerLength: ev.header.length,
          templatesDropped: 0,
          label: ev.sheet !== undefined ? `sheet "${ev.sheet}"` : ctx.fileName,
          joined: 0,
          created: tab === 'vInfo' ? byName('Creation date') : -1,
          noCreationDate: 0,
          orphans: [],
          orphansUnlisted: 0,
        };
        if (tab && t.vm === -1 && t.vmId === -1 && ids.uuid === -1) {
          yield {
            type: 'fileIssue',
            issue: {
              severity: 'ERROR',
              errorDetails: `${t.label}: the header has none of the columns VM, VM ID or VM UUID: its rows cannot be matched to ${tab === 'vInfo' ? 'their VMs' : 'vInfo'}`,
            },
            fatal: false,
          };
        } else if (tab && tab !== 'vInfo' && join.complete && t.strategies.length === 0) {
          yield {
            type: 'fileIssue',
            issue: {
              severity: 'ERROR',
              errorDetails: `${t.label}: the header shares none of the columns VM ID, VM UUID or VM with vInfo: its rows cannot be matched to vInfo`,
            },
            fatal: false,
          };
        }
        yield tab ? { ...ev, header: [...keep.map((i) => ev.header[i]), KEY_COLUMN] } : ev;
        continue;
      }
      if (ev.type !== 'rows' || !t || !t.tab) {
        yield ev;
        continue;
      }
      const tc = t;
      let rows: CellValue[][] = [];
      let rowNumbers: number[] = [];
      const short = new Map<number, string>();
      const joinErrors = new Map<number, string>();
      const n = tc.headerLength;
      const keep = tc.keep;
      const issuesOf = new Map<number, ImportError>();
      for (const i of ev.issues ?? []) issuesOf.set(i.rowNumber, i.issue);
      // Rows go out in order: a template row's INFO comes between the rows around it.
      const flushRows = (): ReaderEvent | undefined => {
        if (rows.length === 0) return undefined;
        const issues: ReaderRowIssue[] = [];
        for (const rowNumber of rowNumbers) {
          const list: ImportError[] = [];
          const inner = issuesOf.get(rowNumber);
          if (inner) list.push(inner);
          const j = joinErrors.get(rowNumber);
          if (j) list.push(error(j));
          const s = short.get(rowNumber);
          if (s) list.push(warning(s));
          if (list.length > 0) issues.push({ rowNumber, issue: combineIssues(list) });
        }
        const out: ReaderEvent = { type: 'rows', firstRow: rowNumbers[0], rows, rowNumbers, issues: issues.length > 0 ? issues : undefined };
        rows = [];
        rowNumbers = [];
        return out;
      };
      for (let r = 0; r < ev.rows.length; r++) {
        const row = ev.rows[r];
        const rowNumber = ev.rowNumbers ? ev.rowNumbers[r] : ev.firstRow + r;
        const name = tc.vm >= 0 ? cellText(row[tc.vm]) : '';
        const id = tc.vmId >= 0 ? cellText(row[tc.vmId]) : '';
        const server = tc.server >= 0 ? cellText(row[tc.server]) : '';
        let key = id !== '' ? (server !== '' ? `${id}@${server}` : id) : name;
        let template = tc.template >= 0 && isTrue(row[tc.template]);
        if (tc.tab === 'vInfo') {
          if (key !== '')
            join.addVm(
              idCells(tc.ids, (i) => cellText(row[i])),
              key,
              template,
            );
        } else {
          const joined = join.resolve(
            tc.strategies,
            idCells(tc.ids, (i) => cellText(row[i])),
          );
          if (joined && 'key' in joined) {
            key = joined.key;
            template ||= joined.template;
            if (tc.joined++ === 0 && (tc.orphans.length > 0 || tc.orphansUnlisted > 0)) {
              // The first join: the tab is this vInfo's, so the orphans held so far were VMs missing from it.
              const before = flushRows();
              if (before) yield before;
              yield* orphanEvents(tc, 'WARNING');
            }
          } else if (joined && joined.orphan && !template) {
            // A row for a VM vInfo lacks (a filtered or split workbook): left out, not a row of the import.
            if (tc.joined > 0) {
              const before = flushRows();
              if (before) yield before;
              yield orphanEvent(tc, rowNumber, name, joined.error, 'WARNING');
            } else if (tc.orphans.length < MAX_HELD_ORPHANS) tc.orphans.push({ rowNumber, vm: flat(name), why: joined.error });
            else tc.orphansUnlisted++;
            continue;
          } else if (joined) {
            key = '';
            if (!template) joinErrors.set(rowNumber, joined.error);
          }
        }
        if (template) {
          if (tc.tab === 'vInfo') {
            const before = flushRows();
            if (before) yield before;
            yield {
              type: 'rowIssue',
              rowNumber,
              issue: info(`VM "${clip(name || id)}" is a template (Template = True): templates are not machines, the row is skipped`),
            };
          } else tc.templatesDropped++;
          continue;
        }
        // The projected row: the kept columns, the key right after them, then any surplus fields
        // (so the pipeline's field count check still sees them). A short row is padded to the
        // header, and the pipeline's warning about it is given here.
        let blank = true;
        for (let c = 0; c < row.length; c++) {
          if (!isEmptyCell(row[c])) {
            blank = false;
            break;
          }
        }
        if (blank) continue;
        if (tc.created >= 0 && isNoCreationDate(parseRvDate(cellText(row[tc.created])))) tc.noCreationDate++;
        const out: CellValue[] = new Array(keep.length + 1);
        for (let c = 0; c < keep.length; c++) out[c] = row[keep[c]];
        out[keep.length] = key === '' ? undefined : key;
        for (let c = n; c < row.length; c++) out.push(row[c]);
        if (row.length < n) {
          short.set(rowNumber, `the row has ${row.length} fields but the header has ${n}; the missing fields are taken as empty`);
        }
        rows.push(out);
        rowNumbers.push(rowNumber);
      }
      const last = flushRows();
      if (last) yield last;
    }
    yield* endTable();
  };
}

// ---------------------------------------------------------------------------------------------
// Asset mapping
// ---------------------------------------------------------------------------------------------

interface NicRow {
  mac?: string;
  ips: string[];
  network?: string;
}

export interface RvChildren {
  disks: Array<{ label?: string; capMiB?: number; iface?: string }>;
  partitions: { count: number; freeMiB: number };
  nics: NicRow[];
  sockets?: number;
  coresPerSocket?: number;
}

const MIB_BYTES = 1024n * 1024n;

/** MiB -> int64 bytes as a decimal string. */
export function mibToBytes(mib: number): string {
  const whole = Math.max(0, mib);
  return Number.isInteger(whole) ? (BigInt(whole) * MIB_BYTES).toString() : BigInt(Math.round(whole * 1024 * 1024)).toString();
}

/** `SCSI controller 0` -> SCSI; `NVME controller 0` -> NVME; a controller that names no bus -> undefined. */
export const busOf = diskInterfaceOf;

function buildRvAsset(m: RowRecord, ch: RvChildren | undefined): { asset: Asset; frames: number } {
  const name = str(m.VM);
  const key = str(m[KEY_COLUMN]);
  const machineId = str(m['VM UUID']) ?? str(m['SMBIOS UUID']) ?? key ?? name ?? '';
  const attributes: Record<string, string> = {};
  const datacenter = str(m.Datacenter);
  if (datacenter !== undefined) attributes.HostingLocation = datacenter;
  const power = str(m.Powerstate);
  if (power !== undefined) attributes.MachineStatus = power;
  attributes.IsPhysical = 'false';
  for (const k of [
    'Cluster',
    'Host',
    'Folder',
    'Resource pool',
    'DNS Name',
    'Firmware',
    'HW version',
    'VM ID',
    'SMBIOS UUID',
    'VI SDK Server',
    'OS according to the configuration file',
  ]) {
    const v = str(m[k]);
    if (v !== undefined) attributes[k] = flat(v);
  }
  const note = str(m.Annotation);
  if (note !== undefined) attributes.Annotation = flat(note.slice(0, 256));
  if (ch?.sockets !== undefined) attributes.Sockets = String(ch.sockets);
  if (ch?.coresPerSocket !== undefined) attributes['Cores p/s'] = String(ch.coresPerSocket);

  const details: VirtualMachineDetails = { vmUuid: machineId };
  if (name !== undefined) details.vmName = name;
  const folder = str(m.Folder);
  if (folder !== undefined) details.vcenterFolder = flat(folder);
  const vmId = str(m['VM ID']);
  if (vmId !== undefined) details.vcenterVmId = flat(vmId);
  const created = str(m['Creation date']);
  if (created !== undefined) {
    const t = parseRvDate(created);
    // The epoch placeholder means "unknown" (counted in one INFO by the reader): no createTime.
    if (Number.isFinite(t) && !isNoCreationDate(t)) details.createTime = isoString(t);
  }
  if (typeof m.CPUs === 'number') details.coreCount = m.CPUs;
  const memory = numOf(m.Memory);
  if (memory !== undefined) details.memoryMb = Math.round(memory);
  const powerState = powerStateOf(power);
  if (powerState !== undefined) details.powerState = powerState;
  const firmware = str(m.Firmware);
  if (ch?.sockets !== undefined || firmware !== undefined) {
    details.vmArchitecture = {};
    if (ch?.sockets !== undefined) details.vmArchitecture.cpuSocketCount = ch.sockets;
    if (firmware !== undefined) details.vmArchitecture.firmware = flat(firmware);
  }
  details.platform = { genericDetails: datacenter ? { location: datacenter } : {} };

  // Disks: vDisk rows, else the vInfo totals; free space: vPartition, else capacity minus in use.
  const entries: DiskEntry[] = (ch?.disks ?? []).map((d) => {
    const e: DiskEntry = {};
    if (d.label !== undefined) e.diskLabel = d.label;
    if (d.capMiB !== undefined) e.totalCapacityBytes = mibToBytes(d.capMiB);
    if (d.iface !== undefined) e.interfaceType = d.iface;
    return e;
  });
  const fromDisks = ch && ch.disks.length > 0 ? ch.disks.reduce((s, d) => s + (d.capMiB ?? 0), 0) : undefined;
  const capMiB = fromDisks ?? numOf(m['Total disk capacity MiB']) ?? numOf(m['Provisioned MiB']);
  const inUse = numOf(m['In Use MiB']);
  const freeMiB = ch && ch.partitions.count > 0 ? ch.partitions.freeMiB : capMiB !== undefined && inUse !== undefined ? Math.max(0, capMiB - inUse) : undefined;
  if (capMiB !== undefined || freeMiB !== undefined || entries.length > 0) {
    details.vmDisks = {};
    if (capMiB !== undefined) details.vmDisks.hddTotalCapacityBytes = mibToBytes(capMiB);
    if (freeMiB !== undefined) details.vmDisks.hddTotalFreeBytes = mibToBytes(freeMiB);
    if (entries.length > 0) details.vmDisks.disks = { entries };
  }

  // Network: vInfo's primary address first, then every adapter address.
  const primaryRaw = str(m['Primary IP Address']);
  const primaryIp = primaryRaw !== undefined && isIP(primaryRaw) !== 0 ? primaryRaw : undefined;
  const nics = ch?.nics ?? [];
  const ips = [...new Set([...(primaryIp ? [primaryIp] : []), ...nics.flatMap((n) => n.ips)])];
  const mac = nics.find((n) => n.mac !== undefined)?.mac;
  if (primaryIp || ips.length > 0 || mac) {
    details.vmNetwork = {};
    if (primaryIp) details.vmNetwork.primaryIpAddress = primaryIp;
    if (mac) details.vmNetwork.primaryMacAddress = mac;
    const adapters: NetworkAdapterDetails[] =
      nics.length > 0
        ? nics.map((n) => ({
            ...(n.mac ? { macAddress: n.mac } : {}),
            ...(n.ips.length > 0 ? { addresses: { addresses: n.ips.map((ipAddress) => ({ ipAddress })) } } : {}),
          }))
        : [{ addresses: { addresses: ips.map((ipAddress) => ({ ipAddress })) } }];
    details.vmNetwork.networkAdapters = { networkAdapters: adapters };
  }

  const osName = str(m['OS according to the VMware Tools']) ?? str(m['OS according to the configuration file']);
  details.osFamily = osFamilyOf(undefined, osName);
  if (osName !== undefined) details.osName = osName;

  const asset: Asset = { machineId, attributes, labels: {}, virtualMachineDetails: details };
  // Frames: one per machine (RVTools carries no performance samples).
  return { asset, frames: 1 };
}

export const rvtoolsAssets: AssetMapping<RvChildren> = {
  machineKind: 'machines',
  newChildren: () => ({ disks: [], partitions: { count: 0, freeMiB: 0 }, nics: [] }),
  addChild(kind, ch, r) {
    switch (kind) {
      case 'disks': {
        const label = str(r.Disk);
        const iface = busOf(str(r.Controller));
        ch.disks.push({
          label: label === undefined ? undefined : flat(label),
          capMiB: numOf(r['Capacity MiB']),
          iface: iface === undefined ? undefined : flat(iface),
        });
        return;
      }
      case 'partitions': {
        const cap = numOf(r['Capacity MiB']);
        const free =
          numOf(r['Free MiB']) ?? (cap !== undefined && numOf(r['Consumed MiB']) !== undefined ? Math.max(0, cap - numOf(r['Consumed MiB'])!) : undefined);
        ch.partitions.count++;
        if (free !== undefined) ch.partitions.freeMiB += free;
        return;
      }
      case 'network': {
        const mac = str(r['Mac Address']);
        const { ips: v4 } = splitAddresses(str(r['IPv4 Address']));
        const { ips: v6 } = splitAddresses(str(r['IPv6 Address']));
        const network = str(r.Network);
        ch.nics.push({
          mac: mac === undefined ? undefined : flat(mac),
          ips: [...v4, ...v6].map(flat),
          network: network === undefined ? undefined : flat(network),
        });
        return;
      }
      case 'cpu': {
        const s = numOf(r.Sockets);
        const c = numOf(r['Cores p/s']);
        if (s !== undefined) ch.sockets = s;
        if (c !== undefined) ch.coresPerSocket = c;
        return;
      }
      default:
        return;
    }
  },
  build: buildRvAsset,
};
