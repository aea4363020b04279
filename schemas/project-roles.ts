/**
 * What the predefined roles grant beyond an endpoint policy's permissions
 * (schemas/endpoint-policy-roles.ts): the permissions `--auth` checks on every other method, held
 * through a binding on a project (or on a resource under it).
 *
 * Migration Center: Google's "Migration Center roles and permissions" page (IAM reference,
 * `iam/docs/roles-permissions/migrationcenter`, updated 2026-04-10) lists its permissions and its
 * roles: `roles/migrationcenter.admin` (`migrationcenter.*`), `roles/migrationcenter.viewer` (the
 * `get` and `list` permissions, `settings.get`), `roles/migrationcenter.discoveryClient` and
 * `roles/migrationcenter.discoveryClientRegistrator`; there is no `migrationcenter.editor`. The
 * basic roles hold them as that page says: Owner and Editor every one, Viewer the viewer's; the
 * Security Admin and Security Reviewer roles hold every `list` permission.
 *
 * Google lists no permission for report export jobs (a v1alpha1 method); the emulator names them
 * `migrationcenter.reportExportJobs.{create,delete,get,list,run}`, like the assets export jobs',
 * and gives the read ones to the viewers (docs/emulator.md, known differences).
 *
 * Network Services: its `locations` and `operations` permissions, held by the service's roles and
 * the basic roles as the endpoint policy's are (Google's "Network Services roles and permissions").
 */

/** The Migration Center permission prefix. */
export const MC = 'migrationcenter';

/** Every Migration Center permission Google documents, and the emulator's report export jobs ones. */
export const MIGRATION_CENTER_PERMISSIONS = [
  `${MC}.assets.delete`,
  `${MC}.assets.get`,
  `${MC}.assets.list`,
  `${MC}.assets.reportFrames`,
  `${MC}.assets.update`,
  `${MC}.assetsExportJobs.create`,
  `${MC}.assetsExportJobs.delete`,
  `${MC}.assetsExportJobs.get`,
  `${MC}.assetsExportJobs.list`,
  `${MC}.assetsExportJobs.run`,
  `${MC}.discoveryClients.create`,
  `${MC}.discoveryClients.delete`,
  `${MC}.discoveryClients.get`,
  `${MC}.discoveryClients.list`,
  `${MC}.discoveryClients.sendHeartbeat`,
  `${MC}.discoveryClients.update`,
  `${MC}.errorFrames.get`,
  `${MC}.errorFrames.list`,
  `${MC}.groups.create`,
  `${MC}.groups.delete`,
  `${MC}.groups.get`,
  `${MC}.groups.list`,
  `${MC}.groups.update`,
  `${MC}.importDataFiles.create`,
  `${MC}.importDataFiles.delete`,
  `${MC}.importDataFiles.get`,
  `${MC}.importDataFiles.list`,
  `${MC}.importJobs.create`,
  `${MC}.importJobs.delete`,
  `${MC}.importJobs.get`,
  `${MC}.importJobs.list`,
  `${MC}.importJobs.update`,
  `${MC}.locations.get`,
  `${MC}.locations.list`,
  `${MC}.operations.cancel`,
  `${MC}.operations.delete`,
  `${MC}.operations.get`,
  `${MC}.operations.list`,
  `${MC}.preferenceSets.create`,
  `${MC}.preferenceSets.delete`,
  `${MC}.preferenceSets.get`,
  `${MC}.preferenceSets.list`,
  `${MC}.preferenceSets.update`,
  `${MC}.relations.get`,
  `${MC}.relations.list`,
  `${MC}.reportConfigs.create`,
  `${MC}.reportConfigs.delete`,
  `${MC}.reportConfigs.get`,
  `${MC}.reportConfigs.list`,
  `${MC}.reportExportJobs.create`,
  `${MC}.reportExportJobs.delete`,
  `${MC}.reportExportJobs.get`,
  `${MC}.reportExportJobs.list`,
  `${MC}.reportExportJobs.run`,
  `${MC}.reports.create`,
  `${MC}.reports.delete`,
  `${MC}.reports.get`,
  `${MC}.reports.list`,
  `${MC}.settings.get`,
  `${MC}.settings.update`,
  `${MC}.sources.create`,
  `${MC}.sources.delete`,
  `${MC}.sources.get`,
  `${MC}.sources.list`,
  `${MC}.sources.update`,
] as const;

/** What `roles/migrationcenter.viewer` (and the basic Viewer) hold: every `get` and `list`. */
const MIGRATION_CENTER_READS: readonly string[] = MIGRATION_CENTER_PERMISSIONS.filter((p) => /\.(get|list)$/.test(p));

/** Network Services' own mixin permissions (the endpoint policy ones are endpoint-policy-roles.ts'). */
const NS_READS = ['networkservices.locations.get', 'networkservices.locations.list', 'networkservices.operations.get', 'networkservices.operations.list'];
const NS_OPERATION_WRITES = ['networkservices.operations.cancel', 'networkservices.operations.delete'];

export interface ProjectRole {
  /** What the role is for, in the docs. */
  title: string;
  /** Permission patterns (as in endpoint-policy-roles.ts: `*`, `service.*`, `*.verb`). */
  grants: readonly string[];
}

/**
 * The grants beyond endpoint policies, by role. A role of both tables grants the union
 * (auth/permissions.ts); `roles/owner` (`*`) and `roles/networkservices.admin`
 * (`networkservices.*`) need nothing here.
 */
export const PROJECT_ROLES: Readonly<Record<string, ProjectRole>> = {
  'roles/editor': { title: 'Editor (basic role)', grants: [`${MC}.*`, ...NS_READS, ...NS_OPERATION_WRITES] },
  'roles/viewer': { title: 'Viewer (basic role)', grants: [...MIGRATION_CENTER_READS, ...NS_READS] },
  'roles/networkservices.viewer': { title: 'Network Services Viewer', grants: NS_READS },
  'roles/iam.securityAdmin': { title: 'Security Admin: also lists every resource', grants: ['*.list'] },
  'roles/iam.securityReviewer': { title: 'Security Reviewer: also lists every resource', grants: ['*.list'] },
  'roles/migrationcenter.admin': { title: 'Migration Center Admin: every Migration Center permission', grants: [`${MC}.*`] },
  'roles/migrationcenter.viewer': { title: 'Migration Center Viewer: read every Migration Center resource', grants: MIGRATION_CENTER_READS },
  'roles/migrationcenter.discoveryClient': {
    title: 'Migration Center Discovery Client: report frames and heartbeats',
    grants: [`${MC}.assets.reportFrames`, `${MC}.discoveryClients.get`, `${MC}.discoveryClients.sendHeartbeat`],
  },
  'roles/migrationcenter.discoveryClientRegistrator': {
    title: 'Migration Center Discovery Client Registrator: register discovery clients and their sources',
    grants: [
      `${MC}.discoveryClients.create`,
      `${MC}.discoveryClients.delete`,
      `${MC}.discoveryClients.update`,
      `${MC}.operations.get`,
      `${MC}.sources.create`,
      `${MC}.sources.delete`,
    ],
  },
};
