/**
 * Resource names of Migration Center v1alpha1 and the wire constants every module shares.
 */
export const API_VERSION = 'v1alpha1';
export const API_BASE = `/${API_VERSION}`;
export const TYPE_PREFIX = 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.';

export const TYPES = {
  importJob: `${TYPE_PREFIX}ImportJob`,
  importDataFile: `${TYPE_PREFIX}ImportDataFile`,
  source: `${TYPE_PREFIX}Source`,
  assetsExportJob: `${TYPE_PREFIX}AssetsExportJob`,
  runAssetsExportJobResponse: `${TYPE_PREFIX}RunAssetsExportJobResponse`,
  reportExportJob: `${TYPE_PREFIX}ReportExportJob`,
  runReportExportJobResponse: `${TYPE_PREFIX}RunReportExportJobResponse`,
  operationMetadata: `${TYPE_PREFIX}OperationMetadata`,
  empty: 'type.googleapis.com/google.protobuf.Empty',
} as const;

/** Resource types, as `google.rpc.ResourceInfo.resourceType` names them. */
export const RESOURCE_TYPES = {
  importJob: 'migrationcenter.googleapis.com/ImportJob',
  importDataFile: 'migrationcenter.googleapis.com/ImportDataFile',
  source: 'migrationcenter.googleapis.com/Source',
  asset: 'migrationcenter.googleapis.com/Asset',
  assetsExportJob: 'migrationcenter.googleapis.com/AssetsExportJob',
  report: 'migrationcenter.googleapis.com/Report',
  reportExportJob: 'migrationcenter.googleapis.com/ReportExportJob',
  operation: 'migrationcenter.googleapis.com/Operation',
} as const;

/** Store collections owned by Migration Center. */
export const COLLECTIONS = {
  importJobs: 'migrationcenter.importJobs',
  /** Import data files; key `{job}/importDataFiles/{id}` (their bytes: data-file-bytes.ts). */
  importDataFiles: 'migrationcenter.importDataFiles',
  sources: 'migrationcenter.sources',
  assetsExportJobs: 'migrationcenter.assetsExportJobs',
  /** Reports, keyed by name, the wire Report as value (the reports family's collection; export jobs read it). */
  reports: 'migrationcenter.reports',
  /** Report export jobs; key `{report}/reportExportJobs/{id}`. */
  reportExportJobs: 'migrationcenter.reportExportJobs',
  /** The export run in progress of an export job, keyed by the job's name (exports/export-runs.ts). */
  exportRuns: 'migrationcenter.exportRuns',
  requestIds: 'migrationcenter.requestIds',
} as const;

/** A path segment as it may appear in a project or location (checked loosely; ids are checked strictly). */
const SEGMENT = /^[^/\s:]+$/;

export interface Parent {
  project: string;
  location: string;
}

export function parentName(p: Parent): string {
  return `projects/${p.project}/locations/${p.location}`;
}

export function isSegment(value: string): boolean {
  return SEGMENT.test(value);
}

export function childName(parent: string, collection: 'importJobs' | 'sources' | 'assets' | 'operations', id: string): string {
  return `${parent}/${collection}/${id}`;
}

/** `projects/p/locations/l/sources/s` -> {parent, id}; undefined when it is not a source name. */
export function parseSourceName(name: string): { parent: string; id: string } | undefined {
  const m = /^(projects\/[^/\s]+\/locations\/[^/\s]+)\/sources\/([^/\s]+)$/.exec(name);
  return m ? { parent: m[1], id: m[2] } : undefined;
}

/** The id part of a resource name (the last segment). */
export function lastSegment(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}

/** The parent (`projects/p/locations/l`) of a resource name under it. */
export function parentOf(name: string): string {
  const m = /^(projects\/[^/]+\/locations\/[^/]+)\//.exec(name);
  return m ? m[1] : '';
}
