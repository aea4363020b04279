/**
 * IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV: what Google's published AWS collection script writes
 * (`aws-import-files.zip`, unzipped): the manual import's four files with the script's headers.
 *
 * - `vmInfo.csv`: MachineId, MachineName, PrimaryIPAddress, PublicIPAddress,
 *   IpAddressListSemiColonDelimited, TotalDiskAllocatedGiB, TotalDiskUsedGiB, MachineTypeLabel,
 *   AllocatedProcessorCoreCount, MemoryGiB, HostingLocation, OsType, OsPublisher, OsName, OsVersion,
 *   MachineStatus, ProvisioningState, CreateDate, IsPhysical, Source. The script leaves the disk
 *   totals, OsName, OsVersion and ProvisioningState empty, writes IsPhysical as 0, Source as AWS,
 *   CreateDate as Python prints a datetime (`2022-01-31 13:30:00+00:00`).
 * - `perfInfo.csv`: MachineId, TimeStamp (`01/31/2022, 13:30:00`), CpuUtilizationPercentage,
 *   AvailableMemoryBytes (always 0: EC2 does not measure memory without the CloudWatch agent, so a
 *   0 is read as "not measured", INFO once per file), DiskReadOperationsPerSec,
 *   DiskWriteOperationsPerSec, NetworkBytesPerSecSent, NetworkBytesPerSecReceived.
 * - `diskInfo.csv`: MachineId, DiskLabel (device name), SizeInGib, UsedInGib (empty),
 *   StorageTypeLabel (gp2, gp3, io1, ...).
 * - `tagInfo.csv`: MachineId, Key, Value: EC2 tags as they are (`Name`, `aws:cloudformation:...`),
 *   turned into Google labels (WARNING when a key or value changes).
 *
 * The Azure format shares everything but the source name (azure-csv.ts). docs/formats/aws-csv.md.
 */
import type { Asset } from '../asset';
import { clip, normaliseHeader } from '../columns';
import { csvReader } from '../readers/csv';
import { error } from '../report';
import type { AssetMapping, ColumnSpec, FileKind, FormatDefinition, ImportJobFormat, Reader, ReaderEvent, RowRecord, RowRule } from '../types';
import { flat } from '../util';
import { fallbackDiskSize, unknownDiskTotals, unknownDiskUse, unknownMemoryUse, unknownOsName } from './script-gaps';
import { MANUAL_CSV_KINDS, manualCsvAssets, MAX_LABELS_PER_MACHINE, type ManualChildren } from './manual-csv';

// ---------------------------------------------------------------------------------------------
// Labels from cloud tags
// ---------------------------------------------------------------------------------------------

const NOT_LABEL_CHAR = /[^\p{Ll}\p{Lo}\p{N}_-]/gu;

/**
 * A cloud tag key as a Google label key: lower case, every other character than letters, digits,
 * `_` and `-` becomes `_`, `tag_` in front when it does not start with a letter, at most 63
 * characters. Empty when nothing is left.
 */
export function labelKeyOf(key: string): string {
  let k = key.trim().toLowerCase().replace(NOT_LABEL_CHAR, '_');
  if (k === '') return '';
  if (!/^\p{Ll}/u.test(k)) k = `tag_${k}`;
  return k.slice(0, 63);
}

/** A cloud tag value as a Google label value (same characters, at most 63, may be empty). */
export function labelValueOf(value: string): string {
  return value.trim().toLowerCase().replace(NOT_LABEL_CHAR, '_').slice(0, 63);
}

const TAG_COLUMNS: readonly ColumnSpec[] = [
  { name: 'MachineId', type: 'string', presence: 'required', description: 'The MachineId of a row of vmInfo.csv.', example: 'vm-0001' },
  {
    name: 'Key',
    type: 'string',
    presence: 'required',
    description: 'Tag key as the cloud writes it; turned into a Google label key (lower case, other characters become `_`, at most 63).',
    example: 'Environment',
  },
  {
    name: 'Value',
    type: 'string',
    presence: 'required',
    allowEmpty: true,
    description: 'Tag value; turned into a Google label value the same way (may be empty).',
    example: 'Production',
  },
];

const tagRules: RowRule[] = [
  {
    id: 'tag-as-label',
    severity: 'WARNING',
    description:
      'A tag whose key or value is not a valid Google label is imported under the converted key and value (WARNING); a key with nothing left is an ERROR; at most 64 labels per machine; a key seen twice: the last value wins.',
    create: () => {
      const seen = new Map<string, string[]>();
      return (r, report) => {
        const id = r.MachineId as string | undefined;
        const rawKey = r.Key as string | undefined;
        if (id === undefined || rawKey === undefined) return;
        const rawValue = (r.Value as string | undefined) ?? '';
        const key = labelKeyOf(rawKey);
        if (key === '') {
          report.error(`the tag key "${clip(rawKey)}" cannot be turned into a label key`);
          return;
        }
        const value = labelValueOf(rawValue);
        if (key !== rawKey || value !== rawValue) {
          report.warning(`the tag ${clip(rawKey)}=${clip(rawValue)} is imported as the label ${key}=${value} (Google label rules)`);
        }
        let keys = seen.get(id);
        if (!keys) seen.set(flat(id), (keys = []));
        if (keys.includes(key)) report.warning(`the label key "${key}" is given more than once for MachineId "${clip(id)}"; the last value wins`);
        else if (keys.length >= MAX_LABELS_PER_MACHINE)
          report.error(`MachineId "${clip(id)}" has more than ${MAX_LABELS_PER_MACHINE} labels; "${clip(key)}" is one too many`);
        else keys.push(flat(key));
      };
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Kinds, rules, reader, mapping shared by the two cloud exports
// ---------------------------------------------------------------------------------------------

export interface CloudExport {
  format: ImportJobFormat;
  label: string;
  /** What the script writes in `Source`. */
  source: string;
  description: string;
  /** AWS: AvailableMemoryBytes = 0 means "not measured". */
  zeroMemoryIsMissing: boolean;
  /** AWS: OsName and OsVersion are always empty (INFO once per file). */
  writesNoOsName: boolean;
  /** Google's PlatformDetails member for the cloud: `awsEc2Details` or `azureVmDetails`. */
  platform: 'awsEc2Details' | 'azureVmDetails';
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * The cloud's own PlatformDetails member (location and machine type in the cloud's format, and
 * Azure's provisioning state) instead of the manual import's generic one. A row marked physical
 * keeps `physicalDetails`.
 */
function cloudPlatform(c: CloudExport, asset: Asset, m: RowRecord): void {
  const details = asset.virtualMachineDetails;
  if (details.platform?.physicalDetails) return;
  const location = text(m.HostingLocation);
  const machineTypeLabel = text(m.MachineTypeLabel);
  const provisioningState = c.platform === 'azureVmDetails' ? text(m.ProvisioningState) : undefined;
  details.platform = {
    [c.platform]: {
      ...(location !== undefined ? { location } : {}),
      ...(machineTypeLabel !== undefined ? { machineTypeLabel } : {}),
      ...(provisioningState !== undefined ? { provisioningState } : {}),
    },
  };
}

function sourceRule(source: string): RowRule {
  return {
    id: 'source-matches-format',
    severity: 'WARNING',
    description: `\`Source\`, when given, is ${source}: another value means the files come from another collection script.`,
    create: () => (r, report) => {
      const s = r.Source as string | undefined;
      if (s !== undefined && s.toLowerCase() !== source.toLowerCase()) {
        report.warning(`Source is "${clip(s)}" but this is an ${source} export import; check the import job format`);
      }
    },
  };
}

const zeroMemoryRule: RowRule = {
  id: 'available-memory-zero-is-not-measured',
  severity: 'INFO',
  description: 'AvailableMemoryBytes = 0 is what the AWS script writes when memory is not measured: it is ignored (one INFO per file).',
  create: () => {
    let told = false;
    return (r, report) => {
      if (r.AvailableMemoryBytes === 0 && !told) {
        told = true;
        report.info('AvailableMemoryBytes is 0: the AWS script writes 0 when memory is not measured, so 0 is ignored in this file');
      }
    };
  },
};

export function cloudKinds(c: CloudExport): FileKind[] {
  return MANUAL_CSV_KINDS.map((k) => {
    switch (k.kind) {
      case 'machines':
        return {
          ...k,
          rules: [...(k.rules ?? []), sourceRule(c.source), unknownDiskTotals(c.source), ...(c.writesNoOsName ? [unknownOsName(c.source)] : [])],
        };
      case 'performance':
        return { ...k, rules: [...(k.rules ?? []), ...(c.zeroMemoryIsMissing ? [zeroMemoryRule] : []), unknownMemoryUse(c.source)] };
      case 'disks':
        return { ...k, rules: [...(k.rules ?? []), unknownDiskUse(c.source), fallbackDiskSize(c.source)] };
      case 'tags':
        return {
          ...k,
          columns: TAG_COLUMNS,
          rules: tagRules,
          description: `${c.source} tags, imported as asset labels (converted to Google label rules): one row per machine and key.`,
        };
      default:
        return k;
    }
  });
}

/**
 * The CSV reader, plus one hint: version 1.0 of the AWS script wrote `MemoryMiB` in the header of
 * vmInfo.csv (and, failing on its own rows, no rows): the missing MemoryGiB gets an explanation.
 */
export const cloudCsvReader: Reader = async function* (bytes, ctx): AsyncGenerator<ReaderEvent> {
  for await (const ev of csvReader(bytes, ctx)) {
    if (ev.type === 'table' && /^vmInfo\.csv$/i.test(ctx.fileName)) {
      const norm = ev.header.map((h) => normaliseHeader(String(h ?? '')));
      if (norm.includes('memorymib') && !norm.includes('memorygib')) {
        yield {
          type: 'fileIssue',
          issue: error('the header has MemoryMiB instead of MemoryGiB: it was written by an early version of the collection script; run a current version'),
          fatal: false,
        };
      }
    }
    yield ev;
  }
};

export function cloudAssets(c: CloudExport): AssetMapping<ManualChildren> {
  return {
    machineKind: 'machines',
    newChildren: manualCsvAssets.newChildren,
    addChild(kind, ch, r) {
      if (kind === 'tags') {
        const key = labelKeyOf((r.Key as string | undefined) ?? '');
        if (key === '') return;
        manualCsvAssets.addChild(kind, ch, { ...r, Key: key, Value: labelValueOf((r.Value as string | undefined) ?? '') });
        return;
      }
      if (kind === 'performance' && c.zeroMemoryIsMissing && r.AvailableMemoryBytes === 0) {
        const copy: RowRecord = { ...r, AvailableMemoryBytes: undefined };
        manualCsvAssets.addChild(kind, ch, copy);
        return;
      }
      manualCsvAssets.addChild(kind, ch, r);
    },
    build(machine, children): { asset: Asset; frames: number } {
      // The scripts never compute the disk totals (AWS writes 0): unknown, so diskInfo.csv's sum
      // gives the total instead of a 0 that would win over it.
      const m = machine.TotalDiskAllocatedGiB === 0 ? { ...machine, TotalDiskAllocatedGiB: undefined, TotalDiskUsedGiB: undefined } : machine;
      const built = manualCsvAssets.build(m, children);
      cloudPlatform(c, built.asset, machine);
      return built;
    },
  };
}

export function cloudExportFormat(c: CloudExport): FormatDefinition<ManualChildren> {
  return {
    format: c.format,
    label: c.label,
    description: c.description,
    fileKinds: cloudKinds(c),
    reader: cloudCsvReader,
    assets: cloudAssets(c),
  };
}

export const AWS_EXPORT: CloudExport = {
  format: 'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV',
  label: 'AWS exported CSV',
  source: 'AWS',
  description:
    "The files Google's AWS collection script writes: vmInfo.csv (required), perfInfo.csv, diskInfo.csv and tagInfo.csv, unzipped from aws-import-files.zip.",
  zeroMemoryIsMissing: true,
  writesNoOsName: true,
  platform: 'awsEc2Details',
};

export const awsCsv: FormatDefinition<ManualChildren> = cloudExportFormat(AWS_EXPORT);
