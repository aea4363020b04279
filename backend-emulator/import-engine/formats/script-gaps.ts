/**
 * What Google's AWS and Azure collection scripts cannot know, and write anyway: empty disk totals
 * (Azure) or 0 (AWS, the script's default), an empty `UsedInGib` for every disk, the 52.5 GiB
 * disk size the scripts write when a disk's size is unknown, empty memory measurements (AWS has no
 * memory metric), and AWS's empty `OsName`/`OsVersion`. None of them is an error: the report says
 * so once per file (INFO), on the first row concerned, so a user knows which asset fields stay
 * empty and why. docs/formats/aws-csv.md and azure-csv.md list them per script version.
 */
import type { RowRecord, RowRule } from '../types';

const blank = (v: unknown): boolean => v === undefined;

/** One INFO per file (per table) for the first row where `applies` holds. */
function gap(id: string, description: string, applies: (r: RowRecord) => boolean, message: string): RowRule {
  return {
    id,
    severity: 'INFO',
    description,
    create: () => {
      let told = false;
      return (r, report) => {
        if (!told && applies(r)) {
          told = true;
          report.info(message);
        }
      };
    },
  };
}

/** The disk totals are 0 (AWS's default) or empty (Azure): taken as unknown, summed from diskInfo.csv. */
export const unknownDiskTotals = (source: string): RowRule =>
  gap(
    'disk-totals-unknown',
    `The ${source} script never computes TotalDiskAllocatedGiB and TotalDiskUsedGiB: empty or 0, they are taken as unknown (one INFO per file).`,
    (r) => (blank(r.TotalDiskAllocatedGiB) || r.TotalDiskAllocatedGiB === 0) && (blank(r.TotalDiskUsedGiB) || r.TotalDiskUsedGiB === 0),
    `TotalDiskAllocatedGiB and TotalDiskUsedGiB are empty or 0: the ${source} script does not compute them; the disk total is summed from diskInfo.csv and the free space stays unknown`,
  );

export const unknownOsName = (source: string): RowRule =>
  gap(
    'os-name-unknown',
    `The ${source} script leaves OsName and OsVersion empty (one INFO per file).`,
    (r) => blank(r.OsName) && blank(r.OsVersion),
    `OsName and OsVersion are empty: the ${source} script does not write them (the AMI description is in OsPublisher); the asset has no OS name or version`,
  );

export const unknownDiskUse = (source: string): RowRule =>
  gap(
    'disk-used-unknown',
    `The ${source} script leaves UsedInGib empty: a disk's free space is unknown (one INFO per file).`,
    (r) => blank(r.UsedInGib),
    `UsedInGib is empty: the ${source} script cannot see inside a disk, so the free space of its disks stays unknown`,
  );

/** 52.5 GiB: what both scripts write when they cannot read a disk's size. */
export const FALLBACK_DISK_GIB = 52.5;

export const fallbackDiskSize = (source: string): RowRule =>
  gap(
    'disk-size-fallback',
    `SizeInGib = ${FALLBACK_DISK_GIB} is the ${source} script's fallback when it cannot read a disk's size (one INFO per file).`,
    (r) => r.SizeInGib === FALLBACK_DISK_GIB,
    `SizeInGib ${FALLBACK_DISK_GIB} is what the ${source} script writes when it cannot read a disk's size: it is imported as written, check these disks`,
  );

export const unknownMemoryUse = (source: string): RowRule =>
  gap(
    'memory-not-measured',
    `The ${source} script leaves AvailableMemoryBytes and MemoryUtilizationPercentage empty when memory is not measured (one INFO per file).`,
    (r) => blank(r.AvailableMemoryBytes) && blank(r.MemoryUtilizationPercentage),
    `AvailableMemoryBytes and MemoryUtilizationPercentage are empty: ${source} does not measure memory use, so the performance data has no memory figures`,
  );
