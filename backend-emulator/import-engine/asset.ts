/**
 * The asset the import engine hands to its sink: a Migration Center machine asset in the shape of
 * Google's v1alpha1 REST client (`googleapis` migrationcenter/v1alpha1: `Schema$Asset`,
 * `Schema$VirtualMachineDetails`, `Schema$VirtualMachineDiskDetails`, `Schema$DiskEntry`,
 * `Schema$VirtualMachineNetworkDetails`, `Schema$NetworkAdapterList`, `Schema$NetworkAddressList`,
 * `Schema$PlatformDetails`, `Schema$AssetPerformanceData`), trimmed to what the import formats can
 * fill. Every key below exists there with the same name and shape (tests/backend-emulator/import-engine/
 * asset-shape.test.ts checks it against the client's type definitions), so the store writes it
 * as it is. int64 fields (`*Bytes`) are decimal strings, as on the wire.
 *
 * The only key Google's Asset does not have is `machineId`: the engine's key for a machine (the
 * asset id is derived from it; the store keeps it in `attributes.MachineId`).
 */

/**
 * `VirtualMachineDetails.powerState` is a plain string in v1alpha1, documented as "poweredOn or
 * poweredOff" (vSphere's words; vSphere also has `suspended`). Sources' other vocabularies (AWS
 * `running`, Azure `VM deallocated`, ...) are mapped onto these three.
 */
export type PowerState = 'poweredOn' | 'poweredOff' | 'suspended';

/** `VirtualMachineDetails.osFamily`: the enum's names in v1alpha1. */
export type OsFamily = 'OS_FAMILY_UNKNOWN' | 'OS_FAMILY_WINDOWS' | 'OS_FAMILY_LINUX' | 'OS_FAMILY_UNIX';

export interface DiskEntry {
  diskLabel?: string;
  /** int64 as a decimal string. */
  totalCapacityBytes?: string;
  totalFreeBytes?: string;
  /**
   * The disk's bus (`IDE`, `SATA`, `SCSI`, `NVME`, `SAS`): Google's "Disks interface type (e.g.
   * SATA/SCSI)". Set only when the source says it (RVTools' vDisk `Controller`); a storage class
   * (`SSD`, `gp3`, `Premium_LRS`) is not an interface and has no field in DiskEntry.
   */
  interfaceType?: string;
}

export interface VirtualMachineDiskDetails {
  hddTotalCapacityBytes?: string;
  hddTotalFreeBytes?: string;
  disks?: { entries: DiskEntry[] };
}

export interface NetworkAddress {
  ipAddress: string;
}

export interface NetworkAdapterDetails {
  macAddress?: string;
  addresses?: { addresses: NetworkAddress[] };
}

export interface VirtualMachineNetworkDetails {
  primaryIpAddress?: string;
  publicIpAddress?: string;
  primaryMacAddress?: string;
  networkAdapters?: { networkAdapters: NetworkAdapterDetails[] };
}

export interface PlatformDetails {
  genericDetails?: { location?: string };
  physicalDetails?: { location?: string };
  awsEc2Details?: { location?: string; machineTypeLabel?: string };
  azureVmDetails?: { location?: string; machineTypeLabel?: string; provisioningState?: string };
}

export interface VirtualMachineArchitectureDetails {
  cpuSocketCount?: number;
  firmware?: string;
}

export interface VirtualMachineDetails {
  vmUuid?: string;
  vmName?: string;
  createTime?: string;
  coreCount?: number;
  memoryMb?: number;
  powerState?: PowerState;
  osFamily?: OsFamily;
  osName?: string;
  osVersion?: string;
  vcenterFolder?: string;
  vcenterVmId?: string;
  platform?: PlatformDetails;
  vmArchitecture?: VirtualMachineArchitectureDetails;
  vmDisks?: VirtualMachineDiskDetails;
  vmNetwork?: VirtualMachineNetworkDetails;
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
  /** The source's unique machine id (`MachineId` of vmInfo.csv): the engine's key, not a wire field. */
  machineId: string;
  /** Source fields without a typed home (`HostingLocation`, `MachineTypeLabel`, ...). */
  attributes: Record<string, string>;
  labels: Record<string, string>;
  virtualMachineDetails: VirtualMachineDetails;
  performanceData?: AssetPerformanceData;
}

/**
 * Receives assets in batches (at most `EngineOptions.sinkBatchSize`, default 1000); an async
 * `write` is awaited before reading on. Strings in the assets may share memory with the reader's
 * current batch of text: a sink that keeps assets in memory for long should store copies (a JSON
 * round trip does), a sink that serialises them (the SQLite store) need not care.
 *
 * A sink with `prepare` receives, instead of the assets, what `prepare` made of each one, called
 * as soon as the asset is built (T is Asset without it). The engine holds a whole batch until
 * `write`: holding each asset's compact form (the store's row, its JSON body a single string)
 * rather than its graph of a dozen objects leaves the garbage collector far less to copy while
 * the batch fills (measured: about 10% of a large run's time).
 */
export interface AssetSink<T = Asset> {
  prepare?(asset: Asset): T;
  write(items: T[]): void | Promise<void>;
}
