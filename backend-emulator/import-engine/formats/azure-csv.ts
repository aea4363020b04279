/**
 * IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV: what Google's published Azure collection script writes
 * (`azure-import-files.zip`, unzipped; PowerShell `Export-Csv -NoTypeInformation`, so every field
 * is quoted): the manual import's four files with the same headers as the AWS export.
 *
 * - `vmInfo.csv`: the AWS header; MachineId is the VM's `VmId` GUID, OsName the image offer,
 *   OsVersion the image SKU, MachineStatus `VM running` / `VM deallocated`, ProvisioningState
 *   `Provisioning succeeded`, CreateDate `MM/dd/yyyy HH:mm:ss`, IsPhysical 0, Source Azure; the
 *   disk totals are empty.
 * - `perfInfo.csv`: the AWS header, TimeStamp `MM/dd/yyyy HH:mm:ss`; AvailableMemoryBytes is
 *   measured (a 0 is a real 0 here).
 * - `diskInfo.csv`: the OS disk and data disks, UsedInGib empty, StorageTypeLabel Premium_LRS, ...
 * - `tagInfo.csv`: Azure tags, turned into Google labels like the AWS ones.
 *
 * docs/formats/azure-csv.md.
 */
import type { FormatDefinition } from '../types';
import { cloudExportFormat, type CloudExport } from './aws-csv';
import type { ManualChildren } from './manual-csv';

export const AZURE_EXPORT: CloudExport = {
  format: 'IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV',
  label: 'Azure exported CSV',
  source: 'Azure',
  description:
    "The files Google's Azure collection script writes: vmInfo.csv (required), perfInfo.csv, diskInfo.csv and tagInfo.csv, unzipped from azure-import-files.zip.",
  zeroMemoryIsMissing: false,
  writesNoOsName: false,
  platform: 'azureVmDetails',
};

export const azureCsv: FormatDefinition<ManualChildren> = cloudExportFormat(AZURE_EXPORT);
