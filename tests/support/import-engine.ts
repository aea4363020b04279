/** Test helpers: payload files from strings, buffers, fixture folders and generated streams. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import type { Asset, AssetSink, PayloadFile } from '../../backend-emulator/import-engine';

export const FIXTURES = path.join(__dirname, '..', 'fixtures', 'manual-csv');

/** A payload file over fixed content, delivered in chunks of `chunk` bytes (default: one chunk). */
export function memFile(name: string, content: string | Buffer, chunk?: number): PayloadFile {
  const buf = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return {
    name,
    size: buf.length,
    open: () => {
      if (!chunk) return Readable.from([buf]);
      const parts: Buffer[] = [];
      for (let at = 0; at < buf.length; at += chunk) parts.push(buf.subarray(at, at + chunk));
      return Readable.from(parts);
    },
  };
}

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

/** A generated stream: `head`, then `count` repetitions of `unit`, then `tail`, produced lazily. */
export function generatedFile(name: string, head: string, unit: Buffer | string, count: number, tail = ''): PayloadFile {
  const u = typeof unit === 'string' ? Buffer.from(unit) : unit;
  return {
    name,
    open: () => {
      let i = -1;
      return new Readable({
        read() {
          if (i === -1) this.push(Buffer.from(head));
          else if (i < count) this.push(u);
          else if (i === count) this.push(Buffer.from(tail));
          else this.push(null);
          i++;
        },
      });
    },
  };
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
