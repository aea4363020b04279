/**
 * The asset the import engine hands to its sink: the emulator's stored form of a Migration Center
 * machine asset. Field names follow the real API's JSON (`MachineDetails`, `MachineDiskDetails`,
 * `MachineNetworkDetails`, `GuestOsDetails`, `PlatformDetails`, `AssetPerformanceData`), trimmed to
 * what the import formats can fill. int64 fields (`*Bytes`) are decimal strings, as on the wire.
 */

export type PowerState =
  | 'POWER_STATE_UNSPECIFIED'
  | 'PENDING'
  | 'ACTIVE'
  | 'SUSPENDING'
  | 'SUSPENDED'
  | 'DELETING'
  | 'DELETED';

export type OsFamily = 'OS_FAMILY_UNKNOWN' | 'OS_FAMILY_WINDOWS' | 'OS_FAMILY_LINUX' | 'OS_FAMILY_UNIX';

export interface DiskEntry {
  diskLabel?: string;
  /** int64 as a decimal string. */
  capacityBytes?: string;
  freeBytes?: string;
  /** Storage type as the source names it (for example `SSD`, `gp3`, `Premium_LRS`). */
  interfaceType?: string;
}

export interface MachineDiskDetails {
  totalCapacityBytes?: string;
  totalFreeBytes?: string;
  disks?: { entries: DiskEntry[] };
}

export interface NetworkAddress {
  ipAddress: string;
  assignment?: 'ADDRESS_ASSIGNMENT_UNSPECIFIED' | 'ADDRESS_ASSIGNMENT_STATIC' | 'ADDRESS_ASSIGNMENT_DHCP';
}

export interface NetworkAdapterDetails {
  macAddress?: string;
  addresses?: { entries: NetworkAddress[] };
}

export interface MachineNetworkDetails {
  primaryIpAddress?: string;
  publicIpAddress?: string;
  primaryMacAddress?: string;
  /** Every address the source lists, primary first (convenience copy of the adapters' addresses). */
  ipAddresses?: string[];
  adapters?: { entries: NetworkAdapterDetails[] };
}

export interface GuestOsDetails {
  family?: OsFamily;
  osName?: string;
  version?: string;
}

export interface PlatformDetails {
  genericDetails?: { location?: string };
  physicalDetails?: { location?: string };
}

export interface MachineDetails {
  uuid?: string;
  machineName?: string;
  createTime?: string;
  coreCount?: number;
  memoryMb?: number;
  powerState?: PowerState;
  platform?: PlatformDetails;
  disks?: MachineDiskDetails;
  network?: MachineNetworkDetails;
  guestOs?: GuestOsDetails;
}

export interface UsageStats {
  average: number;
  median: number;
  ninteyFifthPercentile: number; // sic: the real API's spelling
  peak: number;
}

export interface DailyResourceUsageAggregation {
  date: { year: number; month: number; day: number };
  cpu?: { utilizationPercentage: UsageStats };
  memory?: { utilizationPercentage: UsageStats };
  disk?: { iops?: UsageStats; readIops?: UsageStats; writeIops?: UsageStats };
  network?: { ingressBps?: UsageStats; egressBps?: UsageStats };
}

export interface AssetPerformanceData {
  /** Oldest first; day boundaries at midnight UTC. */
  dailyResourceUsageAggregations: DailyResourceUsageAggregation[];
}

export interface Asset {
  /** The resource name; left to the caller (the engine does not know project or location). */
  name?: string;
  /** The source's unique machine id (`MachineId` of vmInfo.csv). */
  machineId: string;
  machineName?: string;
  /** Source fields without a typed home (`HostingLocation`, `MachineTypeLabel`, ...). */
  attributes: Record<string, string>;
  labels: Record<string, string>;
  machineDetails: MachineDetails;
  performanceData?: AssetPerformanceData;
}

/**
 * Receives assets in batches (at most `EngineOptions.sinkBatchSize`, default 1000); an async
 * `write` is awaited before reading on. Strings in the assets may share memory with the reader's
 * current batch of text: a sink that keeps assets in memory for long should store copies (a JSON
 * round trip does), a sink that serialises them (the SQLite store) need not care.
 */
export interface AssetSink {
  write(assets: Asset[]): void | Promise<void>;
}
