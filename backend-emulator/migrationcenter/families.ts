/**
 * The registry of Migration Center's resource families: one typed table. Adding a family touches
 * its folder and this file (its domain type below, its entry in FAMILIES); docs/architecture.md
 * walks through it. FAMILIES is in dependency order: a family may read, with `scope.domain`, the
 * domains of the families above it.
 */
import type { Family, FamilyKey } from './family';
import type { Assets } from './assets/assets';
import type { Sources } from './sources/sources';
import type { ImportDataFiles } from './import-data-files/import-data-files';
import type { ImportJobs } from './import-jobs/import-jobs';
import type { AssetsExportJobs } from './assets-export-jobs/assets-export-jobs';
import type { ReportExportJobs } from './report-export-jobs/report-export-jobs';
import { assetsFamily } from './assets/family';
import { sourcesFamily } from './sources/family';
import { importDataFilesFamily } from './import-data-files/family';
import { importJobsFamily } from './import-jobs/family';
import { assetsExportJobsFamily } from './assets-export-jobs/family';
import { reportExportJobsFamily } from './report-export-jobs/family';

/** Each family's domain object, by the family's key. */
export interface MigrationCenterDomains {
  assets: Assets;
  sources: Sources;
  importDataFiles: ImportDataFiles;
  importJobs: ImportJobs;
  assetsExportJobs: AssetsExportJobs;
  reportExportJobs: ReportExportJobs;
}

/** A family for every key of MigrationCenterDomains (a missing or extra one fails to compile). */
type Registry = { [K in FamilyKey]: Family<K> }[FamilyKey];
type Covers<T extends readonly Registry[]> = Exclude<FamilyKey, T[number]['key']> extends never ? T : never;
function registry<const T extends readonly Registry[]>(families: Covers<T>): readonly Registry[] {
  return families;
}

export const FAMILIES: readonly Registry[] = registry([
  assetsFamily,
  sourcesFamily,
  importDataFilesFamily,
  importJobsFamily,
  assetsExportJobsFamily,
  reportExportJobsFamily,
]);
