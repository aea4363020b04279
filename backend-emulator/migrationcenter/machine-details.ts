/**
 * One machine, two spellings: the table from the stored v1alpha1 `VirtualMachineDetails` (what
 * imports and frames write) to v1's `MachineDetails`, as rows of wire-version.ts' v1 table. It is
 * the only statement of the mapping: the version edge reads it both ways (answers out, asset
 * frames in; version-translation.ts), and the asset lists derive from it the field paths that
 * filters, orderBy and aggregations take in v1 (assets/asset-field-paths.ts).
 *
 * Drawn field by field from Google's clients (googleapis@188 `apis/migrationcenter/v1.d.ts` against
 * `v1alpha1.d.ts`; tests/backend-emulator/migrationcenter/wire-version.test.ts checks the rows):
 *
 * - renamed: `vmUuid` -> `uuid`, `vmName` -> `machineName`, `vmArchitecture` -> `architecture`,
 *   `vmDisks` -> `disks` (its `hddTotal*Bytes` -> `total*Bytes`),
 *   `vmNetwork` -> `network` (`defaultGw` -> `defaultGateway`, `networkAdapters` -> `adapters`),
 *   `firmware` -> `firmwareType`, and the lists' `networkAdapters` / `addresses` -> `entries`;
 * - moved into v1's messages: `osFamily`, `osName`, `osVersion` -> `guestOs.family`, `.osName`,
 *   `.version`; `vcenterFolder`, `vcenterVmId`, `vcenterUrl` -> `platform.vmwareDetails.vcenterFolder`,
 *   `.vcenterVmId`, `.vcenterUri`; a disk's `totalCapacityBytes` -> `capacityBytes`,
 *   `totalFreeBytes` and `freeSpaceBytes` -> `freeBytes`;
 * - enums: v1alpha1's `powerState` is a string ("poweredOn or poweredOff", vSphere's words, which
 *   the imports write, with `suspended`); v1's is `MachineDetails.PowerState`. `poweredOn` is
 *   `ACTIVE`, `poweredOff` and `suspended` are `SUSPENDED` ("the machine is off"); v1's other
 *   values are stored as v1 spells them. `firmware` (a string, "BIOS/efi") is v1's `FirmwareType`
 *   (`BIOS`, `EFI`), read without regard to case;
 * - v1 has no counterpart of a disk's `status` nor of the disks' raw `lsblkJson` (v1alpha1's
 *   MachineDiskDetails has a `rawScanResult`, v1's has not): left out.
 *
 * Below these messages both versions share their messages (`guestOs`, `platform`, `diskPartitions`,
 * a disk's `partitions`), which pass as they are but for the fields v1's have not (BiosDetails,
 * GuestConfigDetails, GuestRuntimeDetails).
 */
import type { MessageDifference } from './wire-version';

/** v1's `MachineDetails.PowerState`, POWER_STATE_UNSPECIFIED (0) to DELETED (6). */
const POWER_STATES = ['POWER_STATE_UNSPECIFIED', 'PENDING', 'ACTIVE', 'SUSPENDING', 'SUSPENDED', 'DELETING', 'DELETED'];

/** v1's `MachineArchitectureDetails.FirmwareType`. */
const FIRMWARE_TYPES = ['FIRMWARE_TYPE_UNSPECIFIED', 'BIOS', 'EFI'];

export const V1_MACHINE_MESSAGES: Readonly<Record<string, MessageDifference>> = {
  MachineDetails: {
    stored: 'VirtualMachineDetails',
    fields: [
      'uuid',
      'machineName',
      'createTime',
      'coreCount',
      'memoryMb',
      'powerState',
      'architecture',
      'guestOs',
      'network',
      'disks',
      'platform',
      'diskPartitions',
    ],
    renames: { vmUuid: 'uuid', vmName: 'machineName', vmArchitecture: 'architecture', vmDisks: 'disks', vmNetwork: 'network' },
    moves: {
      osFamily: 'guestOs.family',
      osName: 'guestOs.osName',
      osVersion: 'guestOs.version',
      vcenterFolder: 'platform.vmwareDetails.vcenterFolder',
      vcenterVmId: 'platform.vmwareDetails.vcenterVmId',
      vcenterUrl: 'platform.vmwareDetails.vcenterUri',
    },
    enums: {
      powerState: {
        type: 'MachineDetails.PowerState',
        renames: { poweredOn: 'ACTIVE', poweredOff: 'SUSPENDED', suspended: 'SUSPENDED' },
        values: POWER_STATES,
      },
    },
    children: {
      vmArchitecture: 'MachineArchitectureDetails',
      vmDisks: 'MachineDiskDetails',
      vmNetwork: 'MachineNetworkDetails',
      guestOs: 'GuestOsDetails',
    },
  },
  MachineArchitectureDetails: {
    stored: 'VirtualMachineArchitectureDetails',
    fields: ['bios', 'cpuArchitecture', 'cpuManufacturer', 'cpuName', 'cpuSocketCount', 'cpuThreadCount', 'firmwareType', 'hyperthreading', 'vendor'],
    // v1's bios has no stored counterpart: what a v1 body sends there is checked by its row, not stored.
    children: { bios: 'BiosDetails' },
    renames: { firmware: 'firmwareType' },
    enums: {
      firmware: { type: 'MachineArchitectureDetails.FirmwareType', renames: { bios: 'BIOS', efi: 'EFI' }, values: FIRMWARE_TYPES },
    },
  },
  MachineDiskDetails: {
    stored: 'VirtualMachineDiskDetails',
    fields: ['disks', 'totalCapacityBytes', 'totalFreeBytes'],
    lacks: ['lsblkJson'],
    renames: { hddTotalCapacityBytes: 'totalCapacityBytes', hddTotalFreeBytes: 'totalFreeBytes' },
    children: { disks: 'DiskEntryList' },
  },
  DiskEntryList: { children: { entries: 'DiskEntry' } },
  DiskEntry: {
    lacks: ['status'],
    // Revision 140's v1alpha1 disk has `vmwareConfig` (188 has dropped it), v1's the same message as `vmware`.
    renames: { vmwareConfig: 'vmware' },
    moves: { totalCapacityBytes: 'capacityBytes', totalFreeBytes: 'freeBytes', freeSpaceBytes: 'freeBytes' },
  },
  MachineNetworkDetails: {
    stored: 'VirtualMachineNetworkDetails',
    renames: { defaultGw: 'defaultGateway', networkAdapters: 'adapters' },
    children: { networkAdapters: 'NetworkAdapterList' },
  },
  NetworkAdapterList: { moves: { networkAdapters: 'entries' }, children: { networkAdapters: 'NetworkAdapterDetails', entries: 'NetworkAdapterDetails' } },
  NetworkAdapterDetails: { children: { addresses: 'NetworkAddressList' } },
  NetworkAddressList: { moves: { addresses: 'entries' } },
  // The messages both versions share by name, with fewer fields in v1.
  BiosDetails: { lacks: ['biosManufacturer', 'biosReleaseDate', 'biosVersion', 'releaseTime'] },
  GuestOsDetails: { children: { config: 'GuestConfigDetails', runtime: 'GuestRuntimeDetails' } },
  GuestConfigDetails: { lacks: ['selinux'] },
  // v1alpha1's `networkInfo` is v1's `network`: the same RuntimeNetworkInfo, less the raw scans.
  GuestRuntimeDetails: { lacks: ['lastUptime'], renames: { networkInfo: 'network' }, children: { networkInfo: 'RuntimeNetworkInfo' } },
  RuntimeNetworkInfo: { lacks: ['netstat', 'netstatTime', 'rawScanResult'] },
};
