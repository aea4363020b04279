/**
 * The disk interface (`DiskEntry.interfaceType`, Google: "Disks interface type (e.g. SATA/SCSI)")
 * from a source's text. Only a text that names a bus counts: a controller name (RVTools'
 * `SCSI controller 0`, `NVME controller 0`) or a CMDB storage type that is a bus (`SCSI`). A storage
 * class (`SSD`, `gp3`, `Premium_LRS`) says nothing about the interface and gives undefined.
 */
const BUS = /\b(scsi|sata|ide|nvme|sas)\b/i;

export function diskInterfaceOf(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const m = BUS.exec(text);
  return m ? m[1].toUpperCase() : undefined;
}
