/** Builders of the import engine tests: manual CSV fixture folders, a memory sink, vmInfo rows. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Asset, AssetSink, PayloadFile } from '../../backend-emulator/import-engine';
export { memFile, generatedFile } from './payload-files';

export const FIXTURES = path.join(__dirname, '..', 'fixtures', 'manual-csv');

/** Every file of a fixture folder (recursively; names keep the sub-folder, like an upload would). */
export function fixtureFiles(folder: string): PayloadFile[] {
  const root = path.join(FIXTURES, folder);
  const out: PayloadFile[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full, `${prefix}${entry.name}/`);
      else out.push({ name: `${prefix}${entry.name}`, size: fs.statSync(full).size, open: () => fs.createReadStream(full) });
    }
  };
  walk(root, '');
  return out;
}

/** Orders a fixture's files so vmInfo.csv comes last: the pipeline must reorder. */
export function vmInfoLast(files: PayloadFile[]): PayloadFile[] {
  return [...files.filter((f) => !/vmInfo\.csv$/i.test(f.name)), ...files.filter((f) => /vmInfo\.csv$/i.test(f.name))];
}

export class MemorySink implements AssetSink {
  readonly batches: number[] = [];
  readonly assets: Asset[] = [];
  write(assets: Asset[]): void {
    this.batches.push(assets.length);
    this.assets.push(...assets);
  }
  byId(id: string): Asset {
    const a = this.assets.find((x) => x.machineId === id);
    if (!a) throw new Error(`no asset ${id}`);
    return a;
  }
}

export const VM_HEADER =
  'MachineId,MachineName,PrimaryIPAddress,PrimaryMACAddress,PublicIPAddress,IpAddressListSemiColonDelimited,TotalDiskAllocatedGiB,TotalDiskUsedGiB,MachineTypeLabel,AllocatedProcessorCoreCount,MemoryGiB,HostingLocation,OsType,OsPublisher,OsName,OsVersion,MachineStatus,ProvisioningState,CreateDate,IsPhysical';

/** A minimal valid vmInfo.csv row for the VM_HEADER columns. */
export function vmRow(id: string, name = `host-${id}`): string {
  return `${id},${name},10.0.0.1,,,,100,50,,2,4,eu,Linux,,Ubuntu,22.04,running,,2023-01-01T00:00:00Z,0`;
}
