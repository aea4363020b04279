/**
 * IMPORT_JOB_FORMAT_MANUAL_CSV: Migration Center's "Import manually generated tables" — four CSV
 * templates, `vmInfo.csv` (required), `perfInfo.csv`, `diskInfo.csv`, `tagInfo.csv`. The column
 * lists follow the public copies of the templates and Google's own collection scripts (which write
 * the same files); docs/formats/manual-csv.md documents every choice made where the record is silent.
 */
import { diskInterfaceOf } from './disk-interface';
import type {
  Asset,
  DiskEntry,
  NetworkAdapterDetails,
  OsFamily,
  PowerState,
  VirtualMachineDetails,
  VirtualMachineDiskDetails,
  VirtualMachineNetworkDetails,
} from '../asset';
import { clip } from '../columns';
import { aggregateDaily, SAMPLE } from '../performance';
import { isoString } from '../timestamps';
import type { AssetMapping, ColumnSpec, FileKind, FormatDefinition, RowRecord, RowRule } from '../types';
import { flat, gibToBytes } from '../util';

const MACHINE_ID: ColumnSpec = {
  name: 'MachineId',
  type: 'string',
  presence: 'required',
  description: 'Unique id of the machine in its source (an instance id, a VM UUID, a CMDB key). Other files refer to it.',
  example: 'vm-0001',
};

const REF_MACHINE_ID: ColumnSpec = {
  ...MACHINE_ID,
  description: 'The MachineId of a row of vmInfo.csv.',
};

export const VM_INFO_COLUMNS: readonly ColumnSpec[] = [
  MACHINE_ID,
  { name: 'MachineName', type: 'string', presence: 'required', description: 'Display name of the machine.', example: 'web-01' },
  { name: 'PrimaryIPAddress', type: 'ip', presence: 'optional', description: 'Primary (private) IP address.', example: '10.0.0.11' },
  { name: 'PrimaryMACAddress', type: 'mac', presence: 'optional', description: 'MAC address of the primary network adapter.', example: '00:1a:2b:3c:4d:5e' },
  { name: 'PublicIPAddress', type: 'ip', presence: 'optional', description: 'Public IP address.', example: '203.0.113.7' },
  {
    name: 'IpAddressListSemiColonDelimited',
    type: 'ipList',
    presence: 'optional',
    description: 'Every IP address of the machine, separated by semicolons.',
    example: '10.0.0.11;10.0.1.11',
  },
  { name: 'TotalDiskAllocatedGiB', type: 'number', presence: 'recommended', unit: 'GiB', min: 0, description: 'Total provisioned disk space.', example: '120' },
  { name: 'TotalDiskUsedGiB', type: 'number', presence: 'optional', unit: 'GiB', min: 0, description: 'Total used disk space.', example: '64.5' },
  {
    name: 'MachineTypeLabel',
    type: 'string',
    presence: 'optional',
    description: 'Machine type or size in its source (t3.large, Standard_D2s_v3).',
    example: 'n2-standard-4',
  },
  {
    name: 'AllocatedProcessorCoreCount',
    type: 'int',
    presence: 'required',
    unit: 'cores',
    min: 0,
    description: 'Number of allocated CPU cores.',
    example: '4',
  },
  { name: 'MemoryGiB', type: 'number', presence: 'required', unit: 'GiB', min: 0, description: 'Allocated memory.', example: '16' },
  { name: 'HostingLocation', type: 'string', presence: 'optional', description: 'Where the machine runs (a region, a data center).', example: 'eu-west-1' },
  { name: 'OsType', type: 'string', presence: 'optional', description: 'Operating system family (Windows, Linux).', example: 'Linux' },
  { name: 'OsPublisher', type: 'string', presence: 'optional', description: 'Operating system publisher.', example: 'Canonical' },
  { name: 'OsName', type: 'string', presence: 'recommended', description: 'Operating system name.', example: 'Ubuntu' },
  { name: 'OsVersion', type: 'string', presence: 'optional', description: 'Operating system version.', example: '22.04' },
  {
    name: 'MachineStatus',
    type: 'string',
    presence: 'optional',
    description: 'Power state as the source writes it (running, stopped, VM deallocated).',
    example: 'running',
  },
  {
    name: 'ProvisioningState',
    type: 'string',
    presence: 'optional',
    description: 'Provisioning state as the source writes it.',
    example: 'Provisioning succeeded',
  },
  { name: 'CreateDate', type: 'timestamp', presence: 'optional', description: 'When the machine was created.', example: '2023-05-01T08:00:00Z' },
  {
    name: 'IsPhysical',
    type: 'bool',
    presence: 'recommended',
    description: '1 (or true) for a physical server, 0 (or false) for a virtual machine.',
    example: '0',
  },
  {
    name: 'Source',
    type: 'string',
    presence: 'optional',
    description: "Written by Google's collection scripts (AWS, Azure); kept as an attribute.",
    example: 'manual',
  },
];

const PERCENT = { type: 'number', unit: 'percent', min: 0, max: 100 } as const;
const RATE = { type: 'number', min: 0 } as const;

export const PERF_INFO_COLUMNS: readonly ColumnSpec[] = [
  REF_MACHINE_ID,
  {
    name: 'TimeStamp',
    type: 'timestamp',
    presence: 'required',
    description: 'When the sample was taken (samples are usually 30 minutes apart).',
    example: '2024-01-31T13:30:00Z',
  },
  { name: 'CpuUtilizationPercentage', ...PERCENT, presence: 'recommended', description: 'CPU utilisation, 0 to 100.', example: '37.5' },
  { name: 'MemoryUtilizationPercentage', ...PERCENT, presence: 'optional', description: 'Memory utilisation, 0 to 100.', example: '62' },
  { name: 'UtilizedMemoryBytes', ...RATE, unit: 'bytes', presence: 'optional', description: 'Memory in use.', example: '10737418240' },
  { name: 'AvailableMemoryBytes', ...RATE, unit: 'bytes', presence: 'optional', description: 'Memory available.', example: '6442450944' },
  { name: 'DiskReadOperationsPerSec', ...RATE, unit: 'operations/s', presence: 'optional', description: 'Disk read operations per second.', example: '120' },
  { name: 'DiskWriteOperationsPerSec', ...RATE, unit: 'operations/s', presence: 'optional', description: 'Disk write operations per second.', example: '80' },
  { name: 'NetworkBytesPerSecSent', ...RATE, unit: 'bytes/s', presence: 'optional', description: 'Network egress.', example: '250000' },
  { name: 'NetworkBytesPerSecReceived', ...RATE, unit: 'bytes/s', presence: 'optional', description: 'Network ingress.', example: '480000' },
];

export const DISK_INFO_COLUMNS: readonly ColumnSpec[] = [
  REF_MACHINE_ID,
  { name: 'DiskLabel', type: 'string', presence: 'recommended', description: 'Disk name or mount point.', example: '/dev/sda' },
  { name: 'SizeInGib', type: 'number', presence: 'required', unit: 'GiB', min: 0, description: 'Disk capacity.', example: '100' },
  { name: 'UsedInGib', type: 'number', presence: 'optional', unit: 'GiB', min: 0, description: 'Used space on the disk.', example: '42.5' },
  {
    name: 'StorageTypeLabel',
    type: 'string',
    presence: 'optional',
    description:
      "Storage type in its source (SSD, gp3, Premium_LRS, SCSI): the disk interface type when it names a bus (IDE, SATA, SCSI, NVME, SAS); a storage class is not stored (Google's DiskEntry has no field for it).",
    example: 'SSD',
  },
];

export const TAG_INFO_COLUMNS: readonly ColumnSpec[] = [
  REF_MACHINE_ID,
  { name: 'Key', type: 'labelKey', presence: 'required', description: 'Label key (Google label rules).', example: 'env' },
  {
    name: 'Value',
    type: 'labelValue',
    presence: 'required',
    allowEmpty: true,
    description: 'Label value (Google label rules; may be empty).',
    example: 'prod',
  },
];

export const MAX_LABELS_PER_MACHINE = 64;

const PERF_METRICS = PERF_INFO_COLUMNS.slice(2).map((c) => c.name);

const machineRules: RowRule[] = [
  {
    id: 'disk-used-within-allocated',
    severity: 'WARNING',
    description: 'TotalDiskUsedGiB is not larger than TotalDiskAllocatedGiB.',
    create: () => (r, report) => {
      const used = r.TotalDiskUsedGiB as number | undefined;
      const allocated = r.TotalDiskAllocatedGiB as number | undefined;
      if (used !== undefined && allocated !== undefined && used > allocated) {
        report.warning(`TotalDiskUsedGiB (${used}) is larger than TotalDiskAllocatedGiB (${allocated})`);
      }
    },
  },
  {
    id: 'create-date-not-in-future',
    severity: 'WARNING',
    description: 'CreateDate is not more than one day in the future.',
    create: () => {
      const limit = Date.now() + 86_400_000;
      return (r, report) => {
        const t = r.CreateDate as number | undefined;
        if (t !== undefined && t > limit) report.warning(`CreateDate ${new Date(t).toISOString()} is in the future`);
      };
    },
  },
];

const perfRules: RowRule[] = [
  {
    id: 'at-least-one-metric',
    severity: 'WARNING',
    description: 'A sample has at least one metric value; an empty sample is ignored.',
    create: () => (r, report) => {
      if (PERF_METRICS.every((m) => r[m] === undefined)) report.warning('the sample has no metric value; it is ignored');
    },
  },
];

const diskRules: RowRule[] = [
  {
    id: 'disk-used-within-size',
    severity: 'WARNING',
    description: 'UsedInGib is not larger than SizeInGib.',
    create: () => (r, report) => {
      const used = r.UsedInGib as number | undefined;
      const size = r.SizeInGib as number | undefined;
      if (used !== undefined && size !== undefined && used > size) report.warning(`UsedInGib (${used}) is larger than SizeInGib (${size})`);
    },
  },
];

const tagRules: RowRule[] = [
  {
    id: 'labels-per-machine',
    severity: 'ERROR',
    description: `At most ${MAX_LABELS_PER_MACHINE} distinct keys per machine (Google label rules); a repeated key is a WARNING and its last value wins.`,
    create: () => {
      // Keys seen per machine, at most MAX_LABELS_PER_MACHINE each: bounded by the machines of the file.
      const seen = new Map<string, string[]>();
      return (r, report) => {
        const id = r.MachineId as string | undefined;
        const key = r.Key as string | undefined;
        if (id === undefined || key === undefined) return;
        let keys = seen.get(id);
        if (!keys) {
          keys = [];
          seen.set(flat(id), keys);
        }
        if (keys.includes(key)) {
          report.warning(`the label key "${clip(key)}" is given more than once for MachineId "${clip(id)}"; the last value wins`);
        } else if (keys.length >= MAX_LABELS_PER_MACHINE) {
          report.error(`MachineId "${clip(id)}" has more than ${MAX_LABELS_PER_MACHINE} labels; "${clip(key)}" is one too many`);
        } else {
          keys.push(flat(key));
        }
      };
    },
  },
];

export const MANUAL_CSV_KINDS: readonly FileKind[] = [
  {
    kind: 'machines',
    title: 'vmInfo.csv',
    fileName: /^vmInfo\.csv$/i,
    required: true,
    columns: VM_INFO_COLUMNS,
    key: 'MachineId',
    identity: { name: 'MachineName', uuid: 'MachineId', title: 'MachineName' },
    rules: machineRules,
    description: 'Machine information: one row per machine. Required in every import.',
  },
  {
    kind: 'performance',
    title: 'perfInfo.csv',
    fileName: /^perfInfo\.csv$/i,
    required: false,
    columns: PERF_INFO_COLUMNS,
    references: { column: 'MachineId', kind: 'machines' },
    identity: { uuid: 'MachineId' },
    rules: perfRules,
    description: 'Performance data: one row per machine and sample time.',
  },
  {
    kind: 'disks',
    title: 'diskInfo.csv',
    fileName: /^diskInfo\.csv$/i,
    required: false,
    columns: DISK_INFO_COLUMNS,
    references: { column: 'MachineId', kind: 'machines' },
    identity: { uuid: 'MachineId' },
    rules: diskRules,
    description: 'Disk data: one row per disk.',
  },
  {
    kind: 'tags',
    title: 'tagInfo.csv',
    fileName: /^tagInfo\.csv$/i,
    required: false,
    columns: TAG_INFO_COLUMNS,
    references: { column: 'MachineId', kind: 'machines' },
    identity: { uuid: 'MachineId' },
    rules: tagRules,
    description: 'System tags, imported as asset labels: one row per machine and key.',
  },
];

// ---- asset mapping ----

interface DiskRow {
  label?: string;
  sizeGiB?: number;
  usedGiB?: number;
  /** The bus StorageTypeLabel names, if it names one. */
  iface?: string;
}

export interface ManualChildren {
  disks: DiskRow[];
  labels: Record<string, string> | null;
  /** Flat samples, SAMPLE.stride numbers each. */
  samples: number[];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number => (typeof v === 'number' ? v : NaN);

/**
 * MachineStatus words -> Google's power state strings. Transitional states (pending, stopping,
 * terminating, ...) and unknown words have no power state of their own: the field is left out and
 * the source's word stays in `attributes.MachineStatus`.
 */
const POWER_STATES = new Map<string, PowerState>([
  ...['running', 'poweredon', 'on', 'active', 'started', 'ready', 'up'].map((s) => [s, 'poweredOn'] as const),
  ...['stopped', 'poweredoff', 'off', 'deallocated', 'down', 'terminated'].map((s) => [s, 'poweredOff'] as const),
  ...['suspended', 'paused', 'hibernated'].map((s) => [s, 'suspended'] as const),
]);

/** MachineStatus as AWS, Azure, VMware or a person writes it -> VirtualMachineDetails.powerState. */
export function powerStateOf(status: string | undefined): PowerState | undefined {
  if (!status) return undefined;
  const direct = POWER_STATES.get(status);
  if (direct) return direct;
  const s = status
    .toLowerCase()
    .replace(/^vm\s+/, '')
    .replace(/[\s_-]+/g, '');
  return POWER_STATES.get(s);
}

/** Text -> family, for the few distinct OsType and OsName values that repeat over millions of rows. */
const OS_FAMILY_CACHE = new Map<string, OsFamily>();

function cachedFamily(text: string): OsFamily {
  let family = OS_FAMILY_CACHE.get(text);
  if (family === undefined) {
    family = osFamilyOfText(text.toLowerCase());
    if (OS_FAMILY_CACHE.size < 10_000) OS_FAMILY_CACHE.set(flat(text), family);
  }
  return family;
}

/** OsType and OsName -> VirtualMachineDetails.osFamily (OsType decides when it names a family). */
export function osFamilyOf(osType: string | undefined, osName: string | undefined): OsFamily {
  if (osType !== undefined) {
    const family = cachedFamily(osType);
    if (family !== 'OS_FAMILY_UNKNOWN') return family;
  }
  return osName !== undefined ? cachedFamily(osName) : 'OS_FAMILY_UNKNOWN';
}

function osFamilyOfText(t: string): OsFamily {
  if (t.includes('windows')) return 'OS_FAMILY_WINDOWS';
  if (/linux|ubuntu|debian|centos|rhel|red ?hat|suse|sles|amazon|fedora|rocky|alma|coreos|photon|oracle/.test(t)) return 'OS_FAMILY_LINUX';
  if (/unix|solaris|aix|hp-?ux|bsd/.test(t)) return 'OS_FAMILY_UNIX';
  return 'OS_FAMILY_UNKNOWN';
}

/** vmInfo.csv columns kept as `attributes` (written out one by one below: named stores are much cheaper). */
export const ATTRIBUTE_COLUMNS = ['HostingLocation', 'MachineTypeLabel', 'OsType', 'OsPublisher', 'MachineStatus', 'ProvisioningState', 'Source'];

function diskEntry(d: DiskRow): DiskEntry {
  const e: DiskEntry = {};
  if (d.label !== undefined) e.diskLabel = d.label;
  if (d.sizeGiB !== undefined) e.totalCapacityBytes = gibToBytes(d.sizeGiB);
  if (d.sizeGiB !== undefined && d.usedGiB !== undefined) e.totalFreeBytes = gibToBytes(d.sizeGiB - d.usedGiB);
  if (d.iface !== undefined) e.interfaceType = d.iface;
  return e;
}

/** Disks: the vmInfo totals win; without them the totals are summed from diskInfo.csv. */
function diskDetails(m: RowRecord, disks: DiskRow[] | undefined): VirtualMachineDiskDetails | undefined {
  const allocated = m.TotalDiskAllocatedGiB as number | undefined;
  const used = m.TotalDiskUsedGiB as number | undefined;
  let totalCap = allocated;
  let totalFree = allocated !== undefined && used !== undefined ? allocated - used : undefined;
  if (disks && disks.length > 0) {
    if (allocated === undefined) {
      let size = 0;
      let free = 0;
      let allUsedKnown = true; // the free total is only known when every disk says how much is used
      for (const d of disks) {
        size += d.sizeGiB ?? 0;
        if (d.sizeGiB !== undefined && d.usedGiB !== undefined) free += d.sizeGiB - d.usedGiB;
        else allUsedKnown = false;
      }
      totalCap = size;
      totalFree = allUsedKnown ? free : undefined;
    }
  } else if (totalCap === undefined && totalFree === undefined) {
    return undefined;
  }
  const out: VirtualMachineDiskDetails = {};
  if (totalCap !== undefined) out.hddTotalCapacityBytes = gibToBytes(totalCap);
  if (totalFree !== undefined) out.hddTotalFreeBytes = gibToBytes(totalFree);
  if (disks && disks.length > 0) out.disks = { entries: disks.map(diskEntry) };
  return out;
}

function networkDetails(m: RowRecord): VirtualMachineNetworkDetails | undefined {
  const primaryIp = str(m.PrimaryIPAddress);
  const publicIp = str(m.PublicIPAddress);
  const mac = str(m.PrimaryMACAddress);
  const list = m.IpAddressListSemiColonDelimited as string[] | undefined;
  if (!primaryIp && !publicIp && !mac && !list) return undefined;
  const ips: string[] = primaryIp ? [primaryIp] : [];
  if (list) for (const ip of list) if (!ips.includes(ip)) ips.push(ip);
  const net: VirtualMachineNetworkDetails = {};
  if (primaryIp) net.primaryIpAddress = primaryIp;
  if (publicIp) net.publicIpAddress = publicIp;
  if (mac) net.primaryMacAddress = mac;
  if (mac || ips.length) {
    // The files describe no adapters: one adapter carries the MAC and every address, primary first.
    // Built by assignment, not by spreading conditional literals (a row per machine, millions of rows).
    const adapter: NetworkAdapterDetails = {};
    if (mac) adapter.macAddress = mac;
    if (ips.length) adapter.addresses = { addresses: ips.map((ipAddress) => ({ ipAddress })) };
    net.networkAdapters = { networkAdapters: [adapter] };
  }
  return net;
}

function buildAsset(m: RowRecord, ch: ManualChildren | undefined): { asset: Asset; frames: number } {
  const machineId = m.MachineId as string;
  const machineName = str(m.MachineName);
  const attributes: Record<string, string> = {};
  if (m.HostingLocation !== undefined) attributes.HostingLocation = m.HostingLocation as string;
  if (m.MachineTypeLabel !== undefined) attributes.MachineTypeLabel = m.MachineTypeLabel as string;
  if (m.OsType !== undefined) attributes.OsType = m.OsType as string;
  if (m.OsPublisher !== undefined) attributes.OsPublisher = m.OsPublisher as string;
  if (m.MachineStatus !== undefined) attributes.MachineStatus = m.MachineStatus as string;
  if (m.ProvisioningState !== undefined) attributes.ProvisioningState = m.ProvisioningState as string;
  if (m.Source !== undefined) attributes.Source = m.Source as string;
  const isPhysical = typeof m.IsPhysical === 'boolean' ? m.IsPhysical : undefined;
  if (isPhysical !== undefined) attributes.IsPhysical = isPhysical ? 'true' : 'false';

  const memoryGiB = m.MemoryGiB as number | undefined;
  const memoryMb = memoryGiB !== undefined ? Math.round(memoryGiB * 1024) : undefined;
  const details: VirtualMachineDetails = { vmUuid: machineId };
  if (machineName !== undefined) details.vmName = machineName;
  if (typeof m.CreateDate === 'number') details.createTime = isoString(m.CreateDate);
  if (typeof m.AllocatedProcessorCoreCount === 'number') details.coreCount = m.AllocatedProcessorCoreCount;
  if (memoryMb !== undefined) details.memoryMb = memoryMb;
  const power = powerStateOf(str(m.MachineStatus));
  if (power !== undefined) details.powerState = power;
  const location = str(m.HostingLocation);
  const where = location !== undefined ? { location } : {};
  details.platform = isPhysical ? { physicalDetails: where } : { genericDetails: where };
  const disks = diskDetails(m, ch?.disks);
  if (disks) details.vmDisks = disks;
  const network = networkDetails(m);
  if (network) details.vmNetwork = network;
  const osName = str(m.OsName);
  const osVersion = str(m.OsVersion);
  details.osFamily = osFamilyOf(str(m.OsType), osName);
  if (osName !== undefined) details.osName = osName;
  if (osVersion !== undefined) details.osVersion = osVersion;

  const asset: Asset = { machineId, attributes, labels: ch?.labels ? { ...ch.labels } : {}, virtualMachineDetails: details };
  const sampleCount = ch ? ch.samples.length / SAMPLE.stride : 0;
  if (sampleCount > 0) asset.performanceData = { dailyResourceUsageAggregations: aggregateDaily(ch!.samples, memoryMb) };
  // Frames: one for the machine (with its disks and labels) plus one per performance sample.
  return { asset, frames: 1 + sampleCount };
}

export const manualCsvAssets: AssetMapping<ManualChildren> = {
  machineKind: 'machines',
  newChildren: () => ({ disks: [], labels: null, samples: [] }),
  addChild(kind, ch, r) {
    if (kind === 'disks') {
      const label = str(r.DiskLabel);
      ch.disks.push({
        label: label === undefined ? undefined : flat(label),
        sizeGiB: r.SizeInGib as number | undefined,
        usedGiB: r.UsedInGib as number | undefined,
        // StorageTypeLabel fills the interface only when it names a bus (SCSI, SATA, ...); a storage
        // class (SSD, gp3, Premium_LRS) has no field in Google's DiskEntry and is not stored.
        iface: diskInterfaceOf(str(r.StorageTypeLabel)),
      });
    } else if (kind === 'tags') {
      (ch.labels ??= {})[flat(r.Key as string)] = flat(str(r.Value) ?? '');
    } else if (kind === 'performance') {
      if (PERF_METRICS.every((c) => r[c] === undefined)) return;
      ch.samples.push(
        r.TimeStamp as number,
        num(r.CpuUtilizationPercentage),
        num(r.MemoryUtilizationPercentage),
        num(r.UtilizedMemoryBytes),
        num(r.AvailableMemoryBytes),
        num(r.DiskReadOperationsPerSec),
        num(r.DiskWriteOperationsPerSec),
        num(r.NetworkBytesPerSecSent),
        num(r.NetworkBytesPerSecReceived),
      );
    }
  },
  build: buildAsset,
};

export const manualCsv: FormatDefinition<ManualChildren> = {
  format: 'IMPORT_JOB_FORMAT_MANUAL_CSV',
  label: 'Manual CSV',
  description:
    "Migration Center's manually populated CSV templates: vmInfo.csv (required), perfInfo.csv, diskInfo.csv and tagInfo.csv; at most 100 MiB per file.",
  fileKinds: MANUAL_CSV_KINDS,
  assets: manualCsvAssets,
};
