/** Manual CSV payloads for tests: a full vmInfo.csv header, rows with defaults, inline payloads. */

export const VM_HEADER =
  'MachineId,MachineName,PrimaryIPAddress,PrimaryMACAddress,PublicIPAddress,IpAddressListSemiColonDelimited,TotalDiskAllocatedGiB,TotalDiskUsedGiB,MachineTypeLabel,AllocatedProcessorCoreCount,MemoryGiB,HostingLocation,OsType,OsName,OsVersion,MachineStatus,ProvisioningState,CreateDate,IsPhysical';

/** A vmInfo.csv row; `over` replaces columns by name. */
export function vmRow(id: string, name: string, over: Record<string, string> = {}): string {
  const values: Record<string, string> = {
    MachineId: id,
    MachineName: name,
    PrimaryIPAddress: '10.0.0.1',
    PrimaryMACAddress: '00:11:22:33:44:55',
    PublicIPAddress: '',
    IpAddressListSemiColonDelimited: '10.0.0.1',
    TotalDiskAllocatedGiB: '100',
    TotalDiskUsedGiB: '40',
    MachineTypeLabel: 'n1-standard-2',
    AllocatedProcessorCoreCount: '2',
    MemoryGiB: '8',
    HostingLocation: 'us-east-1',
    OsType: 'Linux',
    OsName: 'Ubuntu',
    OsVersion: '22.04',
    MachineStatus: 'Running',
    ProvisioningState: '',
    CreateDate: '2023-01-15 10:00:00',
    IsPhysical: '0',
    ...over,
  };
  return VM_HEADER.split(',')
    .map((c) => values[c] ?? '')
    .join(',');
}

export function csv(...lines: string[]): string {
  return lines.join('\n') + '\n';
}

export function b64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/** `{format, payload}` with every file's text base64-encoded, as the API's bytes fields are. */
export function inlinePayload(files: Record<string, string>, format = 'IMPORT_JOB_FORMAT_MANUAL_CSV'): Record<string, unknown> {
  return { format, payload: Object.entries(files).map(([name, text]) => ({ name, data: b64(text) })) };
}
