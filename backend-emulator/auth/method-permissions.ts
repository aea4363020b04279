/**
 * The IAM permission each Google method needs, for every method of the generated method table
 * (http/google-methods-table.ts): the one table `--auth` decides by (auth/request-permission.ts).
 *
 * Google names a permission `{service}.{collection}.{verb}` after the resource's collection (the
 * last one: an import job's data files are `migrationcenter.importDataFiles.*`). Standard methods
 * take the standard verbs (`patch` is `update`), the IAM mixin its own; every custom method is
 * listed below, so a method added to the table with a verb of its own has no permission until one
 * is chosen here (a test walks the table). Names are Google's (docs/emulator.md links the pages);
 * where Google documents none, the choice is marked.
 */

/** Standard methods and the IAM mixin: method verb -> permission verb; `null`: none needed. */
const STANDARD_VERBS: Readonly<Record<string, string | null>> = {
  get: 'get',
  list: 'list',
  create: 'create',
  patch: 'update',
  delete: 'delete',
  getIamPolicy: 'getIamPolicy',
  setIamPolicy: 'setIamPolicy',
  // Anyone may ask which permissions they hold: Google requires none for testIamPermissions.
  testIamPermissions: null,
};

/** Custom methods, `{service}.{collection}.{verb}` -> permission. */
const CUSTOM_METHODS: Readonly<Record<string, string>> = {
  'networkservices.operations.cancel': 'networkservices.operations.cancel',
  'migrationcenter.operations.cancel': 'migrationcenter.operations.cancel',
  'migrationcenter.locations.getSettings': 'migrationcenter.settings.get',
  'migrationcenter.locations.updateSettings': 'migrationcenter.settings.update',
  // Choice: aggregating reads the assets, as listing them does (Google names none for it).
  'migrationcenter.assets.aggregateValues': 'migrationcenter.assets.list',
  'migrationcenter.assets.batchUpdate': 'migrationcenter.assets.update',
  'migrationcenter.assets.batchDelete': 'migrationcenter.assets.delete',
  'migrationcenter.assets.reportAssetFrames': 'migrationcenter.assets.reportFrames',
  'migrationcenter.assetsExportJobs.run': 'migrationcenter.assetsExportJobs.run',
  // Choice: Google documents no permission of report export jobs (schemas/project-roles.ts).
  'migrationcenter.reportExportJobs.run': 'migrationcenter.reportExportJobs.run',
  // Google has no importJobs.run or .validate permission: both change the job (`update`).
  'migrationcenter.importJobs.run': 'migrationcenter.importJobs.update',
  'migrationcenter.importJobs.validate': 'migrationcenter.importJobs.update',
  'migrationcenter.discoveryClients.sendHeartbeat': 'migrationcenter.discoveryClients.sendHeartbeat',
  // Choice: adding or removing assets changes the group (Google names no permission of its own).
  'migrationcenter.groups.addAssets': 'migrationcenter.groups.update',
  'migrationcenter.groups.removeAssets': 'migrationcenter.groups.update',
};

/** Nested collections whose permissions Google names otherwise: a wasm plugin's versions. */
const PERMISSION_COLLECTIONS: Readonly<Record<string, string>> = { 'wasmPlugins.versions': 'wasmPluginVersions' };

/**
 * The permission the method `id` (`migrationcenter.projects.locations.groups.addAssets`) needs:
 * a permission name, `null` when the method needs none, undefined when the table has none.
 */
export function methodPermission(id: string): string | null | undefined {
  const parts = id.split('.');
  if (parts.length < 3) return undefined;
  const service = parts[0];
  const verb = parts[parts.length - 1];
  const collections = parts.slice(1, -1);
  const collection = collections[collections.length - 1];
  const custom = CUSTOM_METHODS[`${service}.${collection}.${verb}`];
  if (custom !== undefined) return custom;
  const standard = STANDARD_VERBS[verb];
  if (standard === undefined) return undefined;
  if (standard === null) return null;
  const named = PERMISSION_COLLECTIONS[collections.slice(-2).join('.')] ?? collection;
  return `${service}.${named}.${standard}`;
}
