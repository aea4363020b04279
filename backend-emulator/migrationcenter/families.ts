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
import type { Groups } from './groups/groups';
import type { ReportConfigs } from './report-configs/report-configs';
import type { Reports } from './reports/reports';
import type { PreferenceSets } from './preference-sets/preference-sets';
import type { LocationsDomain } from './locations/family';
import { assetsFamily } from './assets/family';
import { sourcesFamily } from './sources/family';
import { importDataFilesFamily } from './import-data-files/family';
import { importJobsFamily } from './import-jobs/family';
import { groupsFamily } from './groups/family';
import { reportConfigsFamily } from './report-configs/family';
import { reportsFamily } from './reports/family';
import { preferenceSetsFamily } from './preference-sets/family';
import { locationsFamily } from './locations/family';

/** Each family's domain object, by the family's key. */
export interface MigrationCenterDomains {
  assets: Assets;
  sources: Sources;
  importDataFiles: ImportDataFiles;
  importJobs: ImportJobs;
  groups: Groups;
  reportConfigs: ReportConfigs;
  reports: Reports;
  preferenceSets: PreferenceSets;
  locations: LocationsDomain;
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
  groupsFamily,
  reportConfigsFamily,
  reportsFamily,
  preferenceSetsFamily,
  locationsFamily,
]);
