/**
 * The schema of each Migration Center method's request body, by Google method id (the same id in
 * v1alpha1 and v1): what Google's JSON parser reads a body into before the method runs. The
 * version edge (version-translation.ts) checks every body against it as it arrives, so that a name
 * the message has not is refused first, in the parser's words (http/unknown-names.ts), before the
 * method's own rules (an id or field required, a resource not found) as on Google.
 *
 * Import jobs are not here: their bodies (inline payloads up to the body limit) are refused field
 * by field as they are read (wire-names.ts), without a schema pass over the payload.
 */
import type { SchemaName } from '../../schemas/registry';

const M = 'migrationcenter.projects.locations';

export const REQUEST_BODY_SCHEMAS: Readonly<Record<string, SchemaName>> = {
  [`${M}.updateSettings`]: 'Settings',
  [`${M}.sources.create`]: 'Source',
  [`${M}.sources.patch`]: 'Source',
  [`${M}.importJobs.importDataFiles.create`]: 'ImportDataFile',
  [`${M}.assets.patch`]: 'Asset',
  [`${M}.assets.batchUpdate`]: 'BatchUpdateAssetsRequest',
  [`${M}.assets.batchDelete`]: 'BatchDeleteAssetsRequest',
  [`${M}.assets.reportAssetFrames`]: 'Frames',
  [`${M}.groups.create`]: 'Group',
  [`${M}.groups.patch`]: 'Group',
  [`${M}.groups.addAssets`]: 'AddAssetsToGroupRequest',
  [`${M}.groups.removeAssets`]: 'RemoveAssetsFromGroupRequest',
  [`${M}.preferenceSets.create`]: 'PreferenceSet',
  [`${M}.preferenceSets.patch`]: 'PreferenceSet',
  [`${M}.discoveryClients.create`]: 'DiscoveryClient',
  [`${M}.discoveryClients.patch`]: 'DiscoveryClient',
  [`${M}.discoveryClients.sendHeartbeat`]: 'DiscoveryClientHeartbeat',
  [`${M}.assetsExportJobs.create`]: 'AssetsExportJob',
  [`${M}.reportConfigs.create`]: 'ReportConfig',
  [`${M}.reportConfigs.reports.create`]: 'Report',
  [`${M}.reportConfigs.reports.reportExportJobs.create`]: 'ReportExportJob',
};
