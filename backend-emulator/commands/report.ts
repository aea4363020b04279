/**
 * `google-native-local report --project P --location L [--group G]... [--preference-set S]`: a
 * Migration Center report of a project, through the REST API of an emulator or of Google, as a
 * user would make it:
 *
 *   1. the preference set: `--preference-set`, else the location's default (`getSettings`
 *      `preferenceSet`); none is a failure that creates nothing;
 *   2. the groups: `--group` (each an id of the location or a full name), else a new group (the
 *      report's id) holding every asset of the location (`assets.list` pages, `:addAssets` in
 *      chunks);
 *   3. a report config pairing each group with the preference set, then a report of it; waits
 *      for the report's Operation and for the report to leave PENDING (Google computes it in the
 *      background), and prints its summary (report-summary-text.ts), or the Report JSON (`--json`).
 *
 * Requests go through the provider's one REST client (rest-session.ts), as `import`'s do.
 */
import { parseArgs } from 'node:util';
import { ENDPOINT_ENV } from '../../provider/backends';
import { isGoogleApiCallError, type GoogleRestClient, type Operation } from '../../provider/client';
import { RESOURCE_ID } from '../http/names';
import { UsageError } from './local-files';
import { API, connect, DEFAULT_ENDPOINT, failureMessage, isMissing, wait } from './rest-session';
import { formatReportSummary, type ReportWire } from './report-summary-text';

export const REPORT_HELP = `Usage: google-native-local report --project PROJECT --location LOCATION [--group GROUP]...
                                  [--preference-set SET] [--id ID] [--endpoint URL] [--json]

Creates a Migration Center report of a project's assets and prints its summary: asset counts,
cores, memory and storage (totals, used, histograms), the OS breakdown, and for each group and
preference set where the sizing puts the assets (machine series). Cost fields are not printed.

It creates a report config pairing each group with the preference set, then a report of it
(both with the id --id), waits for the report, and prints it.

Options:
  --project PROJECT      the project
  --location LOCATION    the location (us-central1, ...)
  --group GROUP          a group to report on: an id of the location or
                         projects/{project}/locations/{location}/groups/{id}; repeatable.
                         None: a new group (id --id) of every asset of the location
  --preference-set SET   the preference set: an id or a full name; default: the one the
                         location's settings name (getSettings preferenceSet)
  --id ID                the id of the report config, the report and a new group
                         (default report-YYYYMMDD-HHMMSS, UTC)
  --endpoint URL         an emulator (default ${ENDPOINT_ENV}, else ${DEFAULT_ENDPOINT}), or
                         "google" for the real API with Application Default Credentials
                         (GOOGLE_NATIVE_LOCAL_TOKEN is sent to an emulator started with --auth)
  --json                 print the Report (FULL view) as JSON instead
  -h, --help             this text

Exit status: 0 when the report SUCCEEDED, 1 when it FAILED or a request fails, 2 on bad usage.
`;

/** assets.list's largest page, and the most assets one `:addAssets` takes here (Google's limit is 2,000 ids). */
const ASSET_PAGE = 1000;
/** How often a PENDING report is read again, and for how long at most. */
const REPORT_POLL_MS = 1000;
const REPORT_WAIT_MS = 60 * 60 * 1000;

const ID = RESOURCE_ID.source.replace(/^\^|\$$/g, '');

/** The default id: report-YYYYMMDD-HHMMSS of `now` (UTC). */
export function defaultReportId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `report-${stamp.toLowerCase()}`;
}

/** `ID` or a full name of `segment` in `parent`; anything else is a usage error naming the flag. */
export function resourceName(parent: string, segment: string, value: string, flag: string): string {
  const full = value.includes('/') ? value : `${parent}/${segment}/${value}`;
  if (!new RegExp(`^${parent.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/${segment}/${ID}$`).test(full)) {
    throw new UsageError(`${flag} '${value}' is not an id (a resource id) nor ${parent}/${segment}/{id}`);
  }
  return full;
}

function segmentFlag(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required`);
  if (!/^[a-z0-9][a-z0-9-]*$/.test(value)) throw new UsageError(`${flag} '${value}' is not a project or location id (lower-case letters, digits, hyphens)`);
  return value;
}

/** The location's default preference set, from its settings (undefined when they name none). */
async function defaultPreferenceSet(client: GoogleRestClient, parent: string): Promise<string | undefined> {
  const settings = await client.get<{ preferenceSet?: string }>(`/${API}/${parent}/settings`);
  return settings.preferenceSet || undefined;
}

/** A new group `id` of every asset of the location; returns its name and how many assets it holds. */
async function groupOfAllAssets(client: GoogleRestClient, parent: string, id: string, note: (line: string) => void): Promise<string> {
  const created = await wait(
    client,
    await client.post<Operation>(`/${API}/${parent}/groups`, { displayName: `All assets (${id})` }, { groupId: id }),
    'creating the group',
  );
  const group = (created.response as { name?: string } | undefined)?.name ?? `${parent}/groups/${id}`;
  let added = 0;
  let pageToken: string | undefined;
  do {
    const page = await client.get<{ assets?: Array<{ name: string }>; nextPageToken?: string }>(`/${API}/${parent}/assets`, {
      pageSize: ASSET_PAGE,
      pageToken,
    });
    const names = (page.assets ?? []).map((a) => a.name);
    if (names.length > 0) {
      await wait(client, await client.post<Operation>(`/${API}/${group}:addAssets`, { assets: { assetIds: names }, allowExisting: true }), 'adding assets');
      added += names.length;
    }
    pageToken = page.nextPageToken || undefined;
  } while (pageToken);
  note(`created group ${group} (${added} asset${added === 1 ? '' : 's'})`);
  return group;
}

/** The report in the FULL view once it is no longer PENDING (its Operation is done by then, on the emulator as on Google). */
async function finishedReport(client: GoogleRestClient, name: string): Promise<ReportWire> {
  const deadline = Date.now() + REPORT_WAIT_MS;
  for (;;) {
    const report = await client.get<ReportWire>(`/${API}/${name}`, { view: 'REPORT_VIEW_FULL' });
    if (report.state !== 'PENDING' || Date.now() > deadline) return report;
    await new Promise((resolve) => setTimeout(resolve, REPORT_POLL_MS));
  }
}

export async function reportCommand(argv: string[], out: NodeJS.WritableStream = process.stdout, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      project: { type: 'string' },
      location: { type: 'string' },
      group: { type: 'string', multiple: true },
      'preference-set': { type: 'string' },
      id: { type: 'string' },
      endpoint: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    out.write(REPORT_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`report takes no arguments, only options (got '${positionals[0]}')`);
  const parent = `projects/${segmentFlag(values.project, '--project')}/locations/${segmentFlag(values.location, '--location')}`;
  const id = values.id ?? defaultReportId();
  if (!RESOURCE_ID.test(id)) throw new UsageError(`--id '${id}' is not a resource id (lower-case letters, digits and hyphens, 1 to 63, a letter first)`);
  const groups = [...new Set((values.group ?? []).map((g) => resourceName(parent, 'groups', g, '--group')))];
  const given = values['preference-set'] === undefined ? undefined : resourceName(parent, 'preferenceSets', values['preference-set'], '--preference-set');
  const session = connect(values.endpoint, env);
  const { client } = session;
  // With --json, standard output is the Report alone: what was created is said on standard error.
  const note = (line: string): void => void (values.json ? process.stderr : out).write(`${line}\n`);
  const fail = (message: string): number => {
    process.stderr.write(`google-native-local report: ${message}\n`);
    return 1;
  };

  try {
    // Everything that can be checked is checked before anything is created.
    const preferenceSet = given ?? (await defaultPreferenceSet(client, parent));
    if (!preferenceSet) return fail(`the settings of ${parent} name no preference set: give --preference-set, or set the location's default`);
    try {
      await client.get(`/${API}/${preferenceSet}`);
    } catch (err) {
      if (isMissing(err)) return fail(`preference set ${preferenceSet} does not exist`);
      throw err;
    }
    for (const group of groups) {
      try {
        await client.get(`/${API}/${group}`);
      } catch (err) {
        if (isMissing(err)) return fail(`group ${group} does not exist`);
        throw err;
      }
    }

    if (groups.length === 0) groups.push(await groupOfAllAssets(client, parent, id, note));
    const config = `${parent}/reportConfigs/${id}`;
    await wait(
      client,
      await client.post<Operation>(
        `/${API}/${parent}/reportConfigs`,
        { displayName: id, groupPreferencesetAssignments: groups.map((group) => ({ group, preferenceSet })) },
        { reportConfigId: id },
      ),
      'creating the report config',
    );
    note(`created report config ${config} (${groups.length} group${groups.length === 1 ? '' : 's'}, preference set ${preferenceSet})`);
    const name = `${config}/reports/${id}`;
    await wait(
      client,
      await client.post<Operation>(`/${API}/${config}/reports`, { displayName: id, type: 'TOTAL_COST_OF_OWNERSHIP' }, { reportId: id }),
      'creating the report',
    );
    const report = await finishedReport(client, name);
    out.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReportSummary(report));
    return report.state === 'SUCCEEDED' ? 0 : 1;
  } catch (err) {
    if (err instanceof UsageError || !isGoogleApiCallError(err)) throw err;
    return fail(failureMessage(err, session));
  }
}
