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
  group: `${TYPE_PREFIX}Group`,
  reportConfig: `${TYPE_PREFIX}ReportConfig`,
  report: `${TYPE_PREFIX}Report`,
  preferenceSet: `${TYPE_PREFIX}PreferenceSet`,
  settings: `${TYPE_PREFIX}Settings`,
  discoveryClient: `${TYPE_PREFIX}DiscoveryClient`,
  relation: `${TYPE_PREFIX}Relation`,
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
  group: 'migrationcenter.googleapis.com/Group',
  reportConfig: 'migrationcenter.googleapis.com/ReportConfig',
  report: 'migrationcenter.googleapis.com/Report',
  preferenceSet: 'migrationcenter.googleapis.com/PreferenceSet',
  settings: 'migrationcenter.googleapis.com/Settings',
  discoveryClient: 'migrationcenter.googleapis.com/DiscoveryClient',
  location: 'locations.googleapis.com/Location',
  errorFrame: 'migrationcenter.googleapis.com/ErrorFrame',
  relation: 'migrationcenter.googleapis.com/Relation',
  assetsExportJob: 'migrationcenter.googleapis.com/AssetsExportJob',
  reportExportJob: 'migrationcenter.googleapis.com/ReportExportJob',
  operation: 'migrationcenter.googleapis.com/Operation',
} as const;

/** Store collections owned by Migration Center. */
export const COLLECTIONS = {
  importJobs: 'migrationcenter.importJobs',
  /** Import data files; key `{job}/importDataFiles/{id}` (their bytes: data-file-bytes.ts). */
  importDataFiles: 'migrationcenter.importDataFiles',
  sources: 'migrationcenter.sources',
  /** Groups; key = name (their members: the asset store's membership table). */
  groups: 'migrationcenter.groups',
  /** Report configs; key = name. */
  reportConfigs: 'migrationcenter.reportConfigs',
  /** Reports; key `{reportConfig}/reports/{id}`, value the wire Report with its whole summary. */
  reports: 'migrationcenter.reports',
  /** The Operation computing a PENDING report's summary, keyed by the report's name (reports/report-work.ts). */
  reportRuns: 'migrationcenter.reportRuns',
  preferenceSets: 'migrationcenter.preferenceSets',
  /** The settings of a location; key `projects/{p}/locations/{l}/settings`. */
  settings: 'migrationcenter.settings',
  discoveryClients: 'migrationcenter.discoveryClients',
  /** Frames a source reported that broke a rule; key `{source}/errorFrames/{id}`. */
  errorFrames: 'migrationcenter.errorFrames',
  /** Relations between assets (no frame carries them in v1alpha1: always empty, see relations/). */
  relations: 'migrationcenter.relations',
  assetsExportJobs: 'migrationcenter.assetsExportJobs',
  /** The API version an assets export job was created through (its filter's and columns' names), keyed by the job's name. */
  assetsExportJobVersions: 'migrationcenter.assetsExportJobVersions',
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
