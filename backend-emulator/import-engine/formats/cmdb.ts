/**
 * IMPORT_JOB_FORMAT_CMDB: a configuration management database export.
 *
 * The real API only says "Configuration management DB format"; the format is deprecated and no
 * column specification was ever published. THIS TEMPLATE IS THE EMULATOR'S OWN DEFINITION, modelled
 * on ServiceNow list exports (List > Export > CSV) of the server tables:
 *
 * - one or more server files named after their table (`cmdb_ci_server.csv`, `cmdb_ci_linux_server.csv`,
 *   the base table `cmdb_ci.csv`, any other `cmdb_ci_<class>.csv`, or `cmdb.csv`): `name`,
 *   `cpu_count`, `ram` (MB) required; `sys_id` recommended (the asset id; list exports rarely carry
 *   it, so servers are then identified by name); headers as field names or as the list's column
 *   labels (`RAM (MB)`); every field may be quoted, with CRLF and tabs inside quotes;
 * - optionally `cmdb_ci_disk.csv`: one row per disk, `computer` naming a server by `sys_id` or by
 *   name (a list export writes the display value), `size_bytes`, `name`, `free_space_bytes`, ...;
 * - exports of other ServiceNow tables (`cmdb_ci_netgear.csv`, ...) are named for what they are and
 *   not read (servicenow-tables.ts); in a base-table export, rows of those classes are skipped.
 *
 * The reader (cmdb-reader.ts) adds the join column `CI key` (the `sys_id`, else the name) to both
 * files. A CMDB carries no performance samples and no labels. docs/formats/cmdb.md.
 */
import type { Asset, DiskEntry, PowerState, VirtualMachineDetails } from '../asset';
import { diskInterfaceOf } from './disk-interface';
import { clip } from '../columns';
import type { AssetMapping, ColumnSpec, FileKind, FormatDefinition, RowRecord, RowRule } from '../types';
import { isoString } from '../timestamps';
import { flat } from '../util';
import { osFamilyOf } from './manual-csv';
import { createCmdbReader } from './cmdb-reader';
import { OTHER_TABLE_FILE, SERVER_TABLE_FILE } from './servicenow-tables';

/** Server files: a table export that is not one of the other tables (servicenow-tables.ts). */
export const CMDB_SERVER_FILE = SERVER_TABLE_FILE;
export const CMDB_DISK_FILE = /^cmdb_ci_disk(?:\s*\(\d+\))?\.csv$/i;
/** Exports of other ServiceNow tables: recognised, not read (the disk table has its own kind, listed first). */
export const CMDB_OTHER_FILE = OTHER_TABLE_FILE;

/** The join column the reader adds (cmdb-reader.ts): `sys_id`, else `name`. */
export const CI_KEY = 'CI key';

/** Where a ServiceNow user adds a column to a list before exporting it. */
const LIST_LAYOUT = 'in the list view, ☰ > Configure > List Layout';
const addColumn = (label: string, field: string) => `add the column '${label}' (field ${field}): ${LIST_LAYOUT}`;

const CI_KEY_SPEC_SERVERS: ColumnSpec = {
  name: CI_KEY,
  type: 'string',
  presence: 'optional',
  derived: true,
  description: 'Added by the reader, never in the file: the `sys_id`, else the `name`. Unique; disk rows join on it.',
};

const CI_KEY_SPEC_DISKS: ColumnSpec = {
  ...CI_KEY_SPEC_SERVERS,
  description: 'Added by the reader, never in the file: the `CI key` of the server `computer` names (by `sys_id` or by name).',
};

export const CMDB_SERVER_COLUMNS: readonly ColumnSpec[] = [
  {
    name: 'sys_id',
    aliases: ['Sys ID'],
    type: 'string',
    presence: 'recommended',
    description: 'Unique id of the configuration item: the asset id. Without the column, servers are identified by `name` (unique then).',
    example: '3f1c2b9a8d7e4f60a1b2c3d4e5f60718',
    missingHint: 'servers are identified by name instead; List Layout does not offer sys_id: export all fields of the table to get it',
  },
  {
    name: 'name',
    aliases: ['Name'],
    type: 'string',
    presence: 'required',
    description: 'Server name.',
    example: 'app-server-01',
    missingHint: addColumn('Name', 'name'),
  },
  {
    name: 'sys_class_name',
    aliases: ['Class'],
    type: 'string',
    presence: 'optional',
    description:
      'CI class, as a table name (`cmdb_ci_linux_server`) or a display value (`Linux Server`); hints the OS family when `os` does not. Rows of classes that are not servers (`Network Gear`, ...) are skipped (INFO).',
    example: 'Linux Server',
  },
  {
    name: 'cpu_count',
    aliases: ['CPU count'],
    type: 'int',
    presence: 'required',
    min: 0,
    description: 'Number of CPUs; the core count when `cpu_core_count` is empty.',
    example: '2',
    missingHint: addColumn('CPU count', 'cpu_count'),
  },
  {
    name: 'cpu_core_count',
    aliases: ['CPU core count'],
    type: 'int',
    presence: 'optional',
    unit: 'cores',
    min: 0,
    description: 'Total CPU cores: the asset core count.',
    example: '8',
  },
  {
    name: 'ram',
    aliases: ['RAM (MB)', 'RAM'],
    missingHint: addColumn('RAM (MB)', 'ram'),
    type: 'number',
    presence: 'required',
    unit: 'MiB',
    min: 0,
    description: 'Memory in MB (1 MB = 1,048,576 bytes, as CMDB discovery computes it).',
    example: '32768',
  },
  {
    name: 'disk_space',
    aliases: ['Disk space (GB)', 'Disk space'],
    missingHint: addColumn('Disk space (GB)', 'disk_space'),
    type: 'number',
    presence: 'recommended',
    unit: 'GiB',
    min: 0,
    description: 'Total disk space in GB (1 GB = 2^30 bytes); without it the disk rows are summed.',
    example: '500',
  },
  {
    name: 'os',
    aliases: ['Operating System'],
    missingHint: addColumn('Operating System', 'os'),
    type: 'string',
    presence: 'recommended',
    description: 'Operating system name.',
    example: 'Linux Red Hat',
  },
  { name: 'os_version', aliases: ['OS Version'], type: 'string', presence: 'optional', description: 'Operating system version.', example: '8.6' },
  { name: 'ip_address', aliases: ['IP Address'], type: 'ip', presence: 'optional', description: 'Primary IP address.', example: '10.20.0.15' },
  { name: 'mac_address', aliases: ['MAC Address'], type: 'mac', presence: 'optional', description: 'Primary MAC address.', example: '00:50:56:aa:bb:01' },
  {
    name: 'fqdn',
    aliases: ['Fully qualified domain name'],
    type: 'string',
    presence: 'optional',
    description: 'Fully qualified domain name (attribute).',
    example: 'app-server-01.corp.example.com',
  },
  { name: 'host_name', aliases: ['Host name'], type: 'string', presence: 'optional', description: 'Host name (attribute).', example: 'app-server-01' },
  { name: 'dns_domain', aliases: ['DNS Domain'], type: 'string', presence: 'optional', description: 'DNS domain (attribute).', example: 'corp.example.com' },
  {
    name: 'virtual',
    aliases: ['Is Virtual', 'Virtual'],
    type: 'bool',
    presence: 'optional',
    description: 'true for a virtual machine, false for a physical server (physical platform details).',
    example: 'true',
  },
  {
    name: 'location',
    aliases: ['Location'],
    type: 'string',
    presence: 'optional',
    description: 'Where the server is (a site, a data center): the asset location.',
    example: 'Frankfurt DC2',
  },
  {
    name: 'serial_number',
    aliases: ['Serial number'],
    type: 'string',
    presence: 'optional',
    description: 'Hardware serial number (attribute).',
    example: 'VMware-42 1a 2b 3c',
  },
  {
    name: 'correlation_id',
    aliases: ['Correlation ID'],
    type: 'string',
    presence: 'optional',
    description: 'Id of the server in another source, for example its BIOS UUID (attribute).',
    example: '421a2b3c-4d5e-6f70-8192-a3b4c5d6e7f8',
  },
  { name: 'manufacturer', aliases: ['Manufacturer'], type: 'string', presence: 'optional', description: 'Manufacturer (attribute).', example: 'VMware, Inc.' },
  { name: 'model_id', aliases: ['Model ID'], type: 'string', presence: 'optional', description: 'Model (attribute).', example: 'VMware Virtual Platform' },
  {
    name: 'operational_status',
    aliases: ['Operational status'],
    type: 'string',
    presence: 'optional',
    description:
      'Operational (1) -> poweredOn; Non-Operational (2), Repair in Progress (3), DR Standby (4), Ready (5), Retired (6) -> poweredOff; label or number.',
    example: 'Operational',
  },
  {
    name: 'install_status',
    aliases: ['Install Status', 'Status'],
    type: 'string',
    presence: 'optional',
    description: 'Install status (attribute).',
    example: 'Installed',
  },
  {
    name: 'short_description',
    aliases: ['Description'],
    type: 'string',
    presence: 'optional',
    description: 'Description (attribute, first 256 characters).',
    example: 'Order service',
  },
  {
    name: 'sys_created_on',
    aliases: ['Created'],
    type: 'timestamp',
    presence: 'optional',
    description: 'When the CI was created (`yyyy-MM-dd HH:mm:ss`, UTC): the asset create time.',
    example: '2023-05-01 08:00:00',
  },
  CI_KEY_SPEC_SERVERS,
];

export const CMDB_DISK_COLUMNS: readonly ColumnSpec[] = [
  {
    name: 'computer',
    aliases: ['computer.sys_id', 'Computer'],
    type: 'string',
    presence: 'required',
    missingHint: addColumn('Computer', 'computer'),
    description: 'The server the disk belongs to: its `sys_id`, or its name (what a list export writes).',
    example: '3f1c2b9a8d7e4f60a1b2c3d4e5f60718',
  },
  { name: 'name', aliases: ['Name'], type: 'string', presence: 'recommended', description: 'Disk name: the disk entry label.', example: 'disk0' },
  {
    name: 'device_id',
    aliases: ['Device ID'],
    type: 'string',
    presence: 'optional',
    description: 'Device id (the label when `name` is empty).',
    example: '/dev/sda',
  },
  {
    name: 'size_bytes',
    aliases: ['Size bytes'],
    missingHint: addColumn('Size bytes', 'size_bytes'),
    type: 'int',
    presence: 'required',
    unit: 'bytes',
    min: 0,
    description: 'Disk capacity in bytes.',
    example: '107374182400',
  },
  {
    name: 'free_space_bytes',
    aliases: ['Free space bytes'],
    type: 'int',
    presence: 'optional',
    unit: 'bytes',
    min: 0,
    description: 'Free space in bytes.',
    example: '53687091200',
  },
  {
    name: 'storage_type',
    aliases: ['Storage type'],
    type: 'string',
    presence: 'optional',
    description:
      'Storage or interface type (SSD, SAN, SCSI): the disk interface type when it names a bus (IDE, SATA, SCSI, NVME, SAS); a storage class is not stored.',
    example: 'SCSI',
  },
  CI_KEY_SPEC_DISKS,
];

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

const serverRules: RowRule[] = [
  {
    id: 'cores-not-below-cpus',
    severity: 'WARNING',
    description: '`cpu_core_count` is not smaller than `cpu_count`.',
    create: () => (r, report) => {
      const cpus = num(r.cpu_count);
      const cores = num(r.cpu_core_count);
      if (cpus !== undefined && cores !== undefined && cores < cpus) report.warning(`cpu_core_count (${cores}) is smaller than cpu_count (${cpus})`);
    },
  },
  {
    id: 'ram-not-zero',
    severity: 'WARNING',
    description: 'A server has some memory: `ram` = 0 is suspicious.',
    create: () => (r, report) => {
      if (r.ram === 0) report.warning('ram is 0 MB');
    },
  },
  {
    id: 'operational-status-known',
    severity: 'WARNING',
    description: '`operational_status` is one of the CMDB values (1 to 6 or their labels); another value gives an unspecified power state.',
    create: () => (r, report) => {
      const s = str(r.operational_status);
      if (s !== undefined && powerStateOfCi(s) === undefined)
        report.warning(`operational_status "${clip(s)}" is not a known value; the power state is left unspecified`);
    },
  },
];

const diskRules: RowRule[] = [
  {
    id: 'free-within-size',
    severity: 'WARNING',
    description: '`free_space_bytes` is not larger than `size_bytes`.',
    create: () => (r, report) => {
      const size = num(r.size_bytes);
      const free = num(r.free_space_bytes);
      if (size !== undefined && free !== undefined && free > size) report.warning(`free_space_bytes (${free}) is larger than size_bytes (${size})`);
    },
  },
];

export const CMDB_KINDS: readonly FileKind[] = [
  {
    kind: 'machines',
    title: 'cmdb_ci_server.csv',
    fileName: CMDB_SERVER_FILE,
    required: true,
    multiple: true,
    columns: CMDB_SERVER_COLUMNS,
    key: CI_KEY,
    identity: { name: 'name', uuid: 'sys_id', title: 'name' },
    rules: serverRules,
    description: 'Servers: one row per configuration item; several files (one per CI class) are accepted. Required.',
  },
  {
    kind: 'disks',
    title: 'cmdb_ci_disk.csv',
    fileName: CMDB_DISK_FILE,
    required: false,
    columns: CMDB_DISK_COLUMNS,
    references: { column: CI_KEY, kind: 'machines' },
    identity: { uuid: 'computer' },
    rules: diskRules,
    description: 'Disks: one row per disk of a server.',
  },
  {
    kind: 'other-tables',
    title: 'other cmdb_ci_*.csv tables',
    fileName: CMDB_OTHER_FILE,
    required: false,
    multiple: true,
    columns: [],
    description: 'Exports of ServiceNow tables that hold no servers (cmdb_ci_netgear.csv, ...): recognised and not read (INFO).',
  },
];

// ---- asset mapping ----

/**
 * ServiceNow's operational_status (number or label) -> Google's power state: only "operational"
 * says the server runs; every other known status is a server that is not running.
 */
const STATUS: Record<string, PowerState> = {
  '1': 'poweredOn',
  operational: 'poweredOn',
  '2': 'poweredOff',
  'non-operational': 'poweredOff',
  nonoperational: 'poweredOff',
  '3': 'poweredOff',
  'repair in progress': 'poweredOff',
  '4': 'poweredOff',
  'dr standby': 'poweredOff',
  '5': 'poweredOff',
  ready: 'poweredOff',
  '6': 'poweredOff',
  retired: 'poweredOff',
};

export function powerStateOfCi(status: string): PowerState | undefined {
  return STATUS[status.trim().toLowerCase()];
}

export interface CmdbChildren {
  disks: Array<{ label?: string; size?: number; free?: number; iface?: string }>;
}

const bytes = (n: number): string => BigInt(Math.round(Math.max(0, n))).toString();
const GIB = 1024 * 1024 * 1024;

function buildCmdbAsset(m: RowRecord, ch: CmdbChildren | undefined): { asset: Asset; frames: number } {
  const machineId = str(m.sys_id) ?? (m[CI_KEY] as string);
  const name = str(m.name);
  const attributes: Record<string, string> = {};
  for (const k of [
    'sys_class_name',
    'serial_number',
    'correlation_id',
    'fqdn',
    'host_name',
    'dns_domain',
    'manufacturer',
    'model_id',
    'operational_status',
    'install_status',
  ]) {
    const v = str(m[k]);
    if (v !== undefined) attributes[k] = v;
  }
  const description = str(m.short_description);
  if (description !== undefined) attributes.short_description = description.slice(0, 256);
  const location = str(m.location);
  if (location !== undefined) attributes.HostingLocation = location;
  const isPhysical = typeof m.virtual === 'boolean' ? !m.virtual : undefined;
  if (isPhysical !== undefined) attributes.IsPhysical = String(isPhysical);

  const details: VirtualMachineDetails = { vmUuid: machineId };
  if (name !== undefined) details.vmName = name;
  if (typeof m.sys_created_on === 'number') details.createTime = isoString(m.sys_created_on);
  const cores = num(m.cpu_core_count) ?? num(m.cpu_count);
  if (cores !== undefined) details.coreCount = cores;
  const ram = num(m.ram);
  if (ram !== undefined) details.memoryMb = Math.round(ram);
  const status = str(m.operational_status);
  const power = status ? powerStateOfCi(status) : undefined;
  if (power !== undefined) details.powerState = power;
  details.platform = isPhysical ? { physicalDetails: location ? { location } : {} } : { genericDetails: location ? { location } : {} };

  const disks = ch?.disks ?? [];
  const entries: DiskEntry[] = disks.map((d) => ({
    ...(d.label !== undefined ? { diskLabel: d.label } : {}),
    ...(d.size !== undefined ? { totalCapacityBytes: bytes(d.size) } : {}),
    ...(d.free !== undefined ? { totalFreeBytes: bytes(d.free) } : {}),
    ...(d.iface !== undefined ? { interfaceType: d.iface } : {}),
  }));
  const space = num(m.disk_space);
  const total = space !== undefined ? space * GIB : disks.length > 0 ? disks.reduce((s, d) => s + (d.size ?? 0), 0) : undefined;
  const withFree = disks.filter((d) => d.free !== undefined);
  const free = withFree.length > 0 ? withFree.reduce((s, d) => s + d.free!, 0) : undefined;
  if (total !== undefined || free !== undefined || entries.length > 0) {
    details.vmDisks = {};
    if (total !== undefined) details.vmDisks.hddTotalCapacityBytes = bytes(total);
    if (free !== undefined) details.vmDisks.hddTotalFreeBytes = bytes(free);
    if (entries.length > 0) details.vmDisks.disks = { entries };
  }

  const ip = str(m.ip_address);
  const mac = str(m.mac_address);
  if (ip || mac) {
    details.vmNetwork = {};
    if (ip) details.vmNetwork.primaryIpAddress = ip;
    if (mac) details.vmNetwork.primaryMacAddress = mac;
    details.vmNetwork.networkAdapters = {
      networkAdapters: [{ ...(mac ? { macAddress: mac } : {}), ...(ip ? { addresses: { addresses: [{ ipAddress: ip }] } } : {}) }],
    };
  }

  const os = str(m.os);
  const cls = (str(m.sys_class_name) ?? '').toLowerCase();
  const classHint = cls.includes('win') ? 'windows' : cls.includes('linux') ? 'linux' : /unix|solaris|aix|hp-?ux/.test(cls) ? 'unix' : undefined;
  let family = osFamilyOf(undefined, os);
  if (family === 'OS_FAMILY_UNKNOWN' && classHint) family = osFamilyOf(classHint, undefined);
  details.osFamily = family;
  if (os !== undefined) details.osName = os;
  const version = str(m.os_version);
  if (version !== undefined) details.osVersion = version;

  const asset: Asset = { machineId, attributes, labels: {}, virtualMachineDetails: details };
  // Frames: one per server (a CMDB carries no performance samples).
  return { asset, frames: 1 };
}

export const cmdbAssets: AssetMapping<CmdbChildren> = {
  machineKind: 'machines',
  newChildren: () => ({ disks: [] }),
  addChild(kind, ch, r) {
    if (kind !== 'disks') return;
    const label = str(r.name) ?? str(r.device_id);
    // storage_type fills the interface only when it names a bus (SCSI, SATA, ...); a storage class
    // (SSD, SAN) has no field in Google's DiskEntry and is not stored.
    ch.disks.push({
      label: label === undefined ? undefined : flat(label),
      size: num(r.size_bytes),
      free: num(r.free_space_bytes),
      iface: diskInterfaceOf(str(r.storage_type)),
    });
  },
  build: buildCmdbAsset,
};

export const cmdb: FormatDefinition<CmdbChildren> = {
  format: 'IMPORT_JOB_FORMAT_CMDB',
  label: 'CMDB',
  description:
    "A configuration management database export (the emulator's own template, modelled on a ServiceNow server export; the real format was never specified): cmdb_ci_server.csv (required, one or more files) and cmdb_ci_disk.csv.",
  fileKinds: CMDB_KINDS,
  reader: createCmdbReader(CI_KEY, CMDB_SERVER_COLUMNS, CMDB_DISK_COLUMNS),
  assets: cmdbAssets,
};
