/**
 * The program's settings: each is a stack config key of this project (`pulumi config set KEY
 * VALUE`) with the default below, so that a change of one field of one resource is one command.
 * tests/example/all-resources-program.test.ts reads the defaults from here and changes each.
 */
export const DEFAULT_PROJECT = 'example-project';

export const DEFAULTS = {
  /** EndpointPolicy `web-sidecars`: its description (updated in place). */
  webPolicyDescription: 'Sidecars of the web tier',
  /** EndpointPolicyIamPolicy `web-iam`: the viewers in the whole policy it owns, comma-separated (updated in place). */
  webViewers: 'user:alice@example.com,group:web-ops@example.com',
  /** EndpointPolicyIamBinding `api-viewers`: every viewer of the api policy, comma-separated (updated in place). */
  apiViewers: 'group:api-readers@example.com',
  /** EndpointPolicyIamMember `api-admin`: the one admin it grants (a new member is another grant: a replace). */
  apiAdmin: 'user:carol@example.com',
  /** Source `uploads` (updated in place). */
  sourceDisplayName: 'Spreadsheet uploads',
  /** ImportJob `inventory` (updated in place). */
  jobDisplayName: 'November inventory',
  /** ImportDataFile `batch-hosts`: the name the import reads the file under (Google cannot change a data file: a replace). */
  dataFileDisplayName: 'vm-inventory.csv',
  /** Group `web-tier` (updated in place). */
  groupDisplayName: 'Web tier',
  /** PreferenceSet `compute-engine`: its commitment plan (updated in place). */
  commitmentPlan: 'COMMITMENT_PLAN_NONE',
  /** Report `wave-1-tco`: its description (Google has no update of reports: a replace). */
  reportDescription: 'Total cost of ownership of wave 1',
  /** DiscoveryClient `collector`: its display name (updated in place). */
  clientDisplayName: 'Datacenter collector',
  /** DiscoveryClient `collector`: the source it reports to, `discovered` or `uploads` (fixed at create: a replace). */
  clientSource: 'discovered',
};

export type Settings = typeof DEFAULTS;

/** The settings of a stack: each configured value, or its default. */
export function readSettings(get: (key: string) => string | undefined): Settings {
  return Object.fromEntries(Object.entries(DEFAULTS).map(([key, value]) => [key, get(key) ?? value])) as Settings;
}

/** A comma-separated list of members, as a config value holds it. */
export function memberList(value: string): string[] {
  return value
    .split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
}
