/**
 * Migration Center's whole workflow through Google's own Node clients, end to end against one
 * listening emulator (issue 28): the pinned `googleapis` (revision 140, 65 methods of v1alpha1)
 * and the newest `googleapis-latest` (revision 188, 72 methods), each in its own project.
 *
 * import (source, import job, data file uploaded through its signed URL, validate, run,
 * operations) -> assets (get, list, aggregateValues, patch, batchUpdate, batchDelete, delete) ->
 * groups (create, addAssets, removeAssets, list with a filter, patch) -> preference set ->
 * settings -> report config -> report (FULL) -> exports (CSV downloaded through the signed URL) ->
 * discovery client (create, heartbeat, get, list, patch, delete) -> frames (reportAssetFrames) ->
 * assets -> relations -> error frames -> deletes.
 *
 * Every method of the client is wrapped to record that it was called and what it answered; the
 * last test of each client compares the calls with the client's `projects.locations` surface read
 * from the client object itself, so a method left out of the workflow fails it, and checks that
 * no call answered 501 or 404 `Method not found`. docs/migration-center.md ("The whole workflow")
 * shows the same steps.
 */
import { migrationcenter as pinnedClient, type migrationcenter_v1alpha1 as pinned } from 'googleapis/build/src/apis/migrationcenter';
import { migrationcenter as latestClient, type migrationcenter_v1alpha1 as latest } from 'googleapis-latest/build/src/apis/migrationcenter';
import Papa from 'papaparse';
import { startEmulator, type RunningEmulator } from '../../backend-emulator';
import { loadResponseSchemas, loadSchemas, responseSchemaOf, shapeViolations, type ClientPackage, type Schemas } from '../support/googleapis-schema';
import { VM_HEADER, csv, vmRow } from '../support/manual-csv';

// Two whole workflows of ~70 calls each, with background validation, runs and exports, on a
// loaded 2-core machine: each test gets minutes, not seconds.
jest.setTimeout(180_000);

const LOCATION = 'us-central1';
const EMPTY = 'type.googleapis.com/google.protobuf.Empty';
const GIB = 1024 ** 3;
/** The machine ids of the frames (discovery clients identify machines by UUID). */
const WEB_UUID = '6f1c2a9e-0b7d-4e3a-8c5f-1d2e3f4a5b6c';
const CACHE_UUID = '9d8c7b6a-5e4f-4a3b-9c2d-1e0f9a8b7c6d';

/** The workflow is written against the pinned client's typings, which the newest client's extend. */
type Client = pinned.Migrationcenter;
type Operation = pinned.Schema$Operation;

interface Answer {
  method: string;
  status: number;
  message: string;
  /** The body of a successful answer. */
  data?: unknown;
}

/**
 * The methods of a client's `projects` tree, as `projects.locations.assets.patch`, read from the
 * client object (the methods of each resource object's class, and its resource-valued fields).
 */
function resourcesOf(client: Client): Array<[string, Record<string, unknown>, string[]]> {
  const found: Array<[string, Record<string, unknown>, string[]]> = [];
  const walk = (resource: Record<string, unknown>, path: string): void => {
    const proto = Object.getPrototypeOf(resource) as object;
    const methods = Object.getOwnPropertyNames(proto).filter((n) => n !== 'constructor' && typeof resource[n] === 'function');
    found.push([path, resource, methods]);
    for (const [key, value] of Object.entries(resource)) {
      // `context` holds the client's options (the same object in every resource), not a resource.
      if (key !== 'context' && value !== null && typeof value === 'object') walk(value as Record<string, unknown>, `${path}.${key}`);
    }
  };
  walk(client.projects as unknown as Record<string, unknown>, 'projects');
  return found;
}

function surfaceOf(client: Client): string[] {
  return resourcesOf(client)
    .flatMap(([path, , methods]) => methods.map((m) => `${path}.${m}`))
    .sort();
}

/** Replaces every method of the client with one that records its id and the HTTP status of its answer. */
function recordAnswers(client: Client, answers: Answer[]): void {
  for (const [path, resource, methods] of resourcesOf(client)) {
    for (const name of methods) {
      const method = `${path}.${name}`;
      const original = resource[name] as (...args: unknown[]) => Promise<{ status: number; data?: unknown }>;
      resource[name] = (...args: unknown[]) =>
        original.apply(resource, args).then(
          (res) => {
            answers.push({ method, status: res.status, message: '', data: res.data });
            return res;
          },
          (err: { status?: number; response?: { status: number; data?: { error?: { message?: string } } } }) => {
            answers.push({ method, status: err.response?.status ?? err.status ?? 0, message: String(err.response?.data?.error?.message ?? '') });
            throw err;
          },
        );
    }
  }
}

const TYPE_PREFIX = 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.';

/**
 * Where a successful answer differs from the schema the client's typings give the method: a field
 * the schema lacks, a value of another JSON type, an int64 that is not a decimal string. An
 * Operation's `metadata` and `response` (typed `any` by the client) are checked against the
 * schemas their `@type` names.
 */
function typingViolations(schemas: Schemas, responses: Map<string, string>, answer: Answer): string[] {
  const schema = responseSchemaOf(responses, answer.method);
  if (!schema) return [`${answer.method}: the typings give no response schema`];
  const at = (problems: string[], where: string) => problems.map((p) => `${answer.method} ${where}${p}`);
  const problems = at(shapeViolations(schemas, schema, answer.data), '');
  if (schema !== 'Operation') return problems;
  for (const key of ['metadata', 'response'] as const) {
    const { '@type': type, ...value } = ((answer.data as Operation)[key] ?? {}) as Record<string, unknown>;
    if (type === undefined || type === EMPTY) continue;
    if (typeof type !== 'string' || !type.startsWith(TYPE_PREFIX)) problems.push(`${answer.method} ${key}: @type ${String(type)}`);
    else problems.push(...at(shapeViolations(schemas, type.slice(TYPE_PREFIX.length), value), `${key}.`));
  }
  return problems;
}

/** The HTTP status and Google error of a call that must fail. */
async function failure(call: Promise<unknown>): Promise<{ status: number; error: { status: string; message: string; details?: any[] } }> {
  try {
    await call;
  } catch (err) {
    const e = err as { response?: { status: number; data: { error: any } } };
    if (!e.response) throw err;
    return { status: e.response.status, error: e.response.data.error };
  }
  throw new Error('the call succeeded');
}

/** Polls an Operation through the client until it is done, as a program against Google does. */
async function settled(mc: Client, name: string): Promise<Operation> {
  // The first import of a process starts its worker thread: seconds on a loaded machine.
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { data } = await mc.projects.locations.operations.get({ name });
    if (data.done) return data;
    if (Date.now() > deadline) throw new Error(`operation ${name} not done: ${JSON.stringify(data)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function rowsOf(text: string): Array<Record<string, string>> {
  return Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true }).data;
}

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent' });
});
afterAll(() => emulator?.close());

interface Revision {
  label: string;
  /** The package, whose typings the answers are checked against. */
  client: ClientPackage;
  project: string;
  /** The client, pointed at the emulator. */
  make(rootUrl: string): Client;
  /** The same client typed as revision 188 for its methods the pinned one lacks; undefined for the pinned client. */
  newest(client: Client): latest.Migrationcenter | undefined;
  methods: number;
  /** Fields the emulator answers (today's API, revision 188) that this revision's typings do not have, as `Schema.field`. */
  fieldsItsTypingsLack: string[];
}

const REVISIONS: Revision[] = [
  {
    label: 'googleapis 140 (pinned)',
    client: 'googleapis',
    project: 'pinned-140',
    make: (rootUrl) => pinnedClient({ version: 'v1alpha1', rootUrl, retry: false }),
    newest: () => undefined,
    methods: 65,
    fieldsItsTypingsLack: ['AssetsExportJobExecution.requestedAssetCount', 'AssetsExportJobExecutionResult.outputFiles', 'SignedUriDestination.fileFormat'],
  },
  {
    label: 'googleapis-latest 188',
    client: 'googleapis-latest',
    project: 'latest-188',
    // gaxios 7 loads node-fetch with a dynamic import(), which jest's module system refuses: Node's own fetch instead.
    make: (rootUrl) => latestClient({ version: 'v1alpha1', rootUrl, retry: false, fetchImplementation: fetch }) as unknown as Client,
    newest: (client) => client as unknown as latest.Migrationcenter,
    methods: 72,
    fieldsItsTypingsLack: [],
  },
];

describe.each(REVISIONS)('the whole workflow through $label', (revision) => {
  const P = `projects/${revision.project}/locations/${LOCATION}`;
  const SOURCE = `${P}/sources/inventory`;
  const COLLECTOR = `${P}/sources/collector`;
  const JOB = `${P}/importJobs/first-import`;
  const asset = (machineId: string) => `${P}/assets/vm-${machineId}`;
  const PRODUCTION = `${P}/groups/production`;
  const RETIRED = `${P}/groups/retired`;
  const PREFS = `${P}/preferenceSets/e2-n2`;
  const CONFIG = `${P}/reportConfigs/quarterly`;
  const REPORT = `${CONFIG}/reports/q1`;
  const answers: Answer[] = [];
  let mc: Client;
  let newest: latest.Migrationcenter | undefined;
  let loc: Client['projects']['locations'];
  const operationNames: string[] = [];

  beforeAll(() => {
    mc = revision.make(`${emulator.url}/`);
    recordAnswers(mc, answers);
    newest = revision.newest(mc);
    loc = mc.projects.locations;
  });

  /** A write's Operation, polled until done; its error fails the test. */
  async function done(call: Promise<{ data: Operation }>): Promise<Operation> {
    const { data } = await call;
    operationNames.push(data.name!);
    const ended = data.done ? data : await settled(mc, data.name!);
    expect(ended.error).toBeUndefined();
    return ended;
  }

  test('locations: the emulator answers its Migration Center regions', async () => {
    const { data: list } = await loc.list({ name: `projects/${revision.project}`, pageSize: 100 });
    expect(list.locations!.map((l) => l.locationId)).toEqual(expect.arrayContaining(['europe-west1', 'us-central1', 'us-east4']));
    expect((await loc.get({ name: P })).data).toEqual({ name: P, locationId: LOCATION, displayName: 'Council Bluffs, Iowa' });
  });

  test('import: source, import job, a data file uploaded through its signed URL, validate, run, operations', async () => {
    const created = await done(loc.sources.create({ parent: P, sourceId: 'inventory', requestBody: { type: 'SOURCE_TYPE_UPLOAD', displayName: 'Inventory' } }));
    expect(created.response).toMatchObject({ name: SOURCE, type: 'SOURCE_TYPE_UPLOAD', displayName: 'Inventory', state: 'ACTIVE' });
    await done(loc.sources.patch({ name: SOURCE, updateMask: 'description', requestBody: { description: 'CSV exports of the data centre' } }));
    expect((await loc.sources.get({ name: SOURCE })).data).toMatchObject({ name: SOURCE, description: 'CSV exports of the data centre' });
    expect((await loc.sources.list({ parent: P })).data.sources!.map((s) => s.name)).toEqual([SOURCE]);

    const job = await done(
      loc.importJobs.create({ parent: P, importJobId: 'first-import', requestBody: { assetSource: SOURCE, displayName: 'First import' } }),
    );
    expect(job.response).toMatchObject({ name: JOB, assetSource: SOURCE, state: 'IMPORT_JOB_STATE_PENDING' });
    await done(loc.importJobs.patch({ name: JOB, updateMask: 'labels', requestBody: { labels: { wave: '1' } } }));
    expect((await loc.importJobs.get({ name: JOB })).data).toMatchObject({ displayName: 'First import', labels: { wave: '1' } });
    expect((await loc.importJobs.list({ parent: P })).data.importJobs!.map((j) => [j.name, j.state])).toEqual([[JOB, 'IMPORT_JOB_STATE_PENDING']]);

    const files = loc.importJobs.importDataFiles;
    const file = (
      await done(files.create({ parent: JOB, importDataFileId: 'vm-info', requestBody: { displayName: 'vmInfo.csv', format: 'IMPORT_JOB_FORMAT_MANUAL_CSV' } }))
    ).response as pinned.Schema$ImportDataFile;
    expect(file).toMatchObject({ name: `${JOB}/importDataFiles/vm-info`, state: 'CREATING', format: 'IMPORT_JOB_FORMAT_MANUAL_CSV' });
    const { signedUri, headers } = file.uploadFileInfo!;
    expect(signedUri!.startsWith(`${emulator.url}/uploads/${JOB}/importDataFiles/vm-info?`)).toBe(true);
    const vmInfo = csv(
      VM_HEADER,
      vmRow('m-1', 'web-1', { AllocatedProcessorCoreCount: '2', MemoryGiB: '8' }),
      vmRow('m-2', 'db-1', { AllocatedProcessorCoreCount: '8', MemoryGiB: '32' }),
      vmRow('m-3', 'batch-1', { AllocatedProcessorCoreCount: '48', MemoryGiB: '192' }),
      vmRow('m-4', 'old-1', { AllocatedProcessorCoreCount: '2', MemoryGiB: '4' }),
      vmRow('m-5', 'old-2', { AllocatedProcessorCoreCount: '1', MemoryGiB: '2' }),
    );
    const put = await fetch(signedUri!, { method: 'PUT', headers: headers as Record<string, string>, body: vmInfo });
    expect(put.status).toBe(200);
    expect((await files.get({ name: file.name! })).data.state).toBe('ACTIVE');
    // A second data file, deleted before validation (data files change only before a run).
    await done(files.create({ parent: JOB, importDataFileId: 'spare', requestBody: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV' } }));
    expect((await done(files.delete({ name: `${JOB}/importDataFiles/spare` }))).response).toEqual({ '@type': EMPTY });
    expect((await files.list({ parent: JOB })).data.importDataFiles!.map((f) => [f.name, f.state])).toEqual([[file.name, 'ACTIVE']]);

    const validating = (await loc.importJobs.validate({ name: JOB, requestBody: {} })).data;
    expect(validating.done).toBeUndefined();
    expect((await settled(mc, validating.name!)).response).toEqual({ '@type': EMPTY });
    expect((await loc.importJobs.get({ name: JOB })).data.state).toBe('IMPORT_JOB_STATE_READY');
    const running = (await loc.importJobs.run({ name: JOB, requestBody: {} })).data;
    expect((await settled(mc, running.name!)).response).toEqual({ '@type': EMPTY });
    const { data: ran } = await loc.importJobs.get({ name: JOB });
    expect([ran.state, ran.executionReport?.framesReported, ran.executionReport?.totalRowsCount]).toEqual(['IMPORT_JOB_STATE_COMPLETED', 5, 5]);

    const { data: ops } = await loc.operations.list({ name: P, pageSize: 100 });
    expect(ops.operations!.map((o) => o.name)).toEqual(expect.arrayContaining([validating.name, running.name]));
    // Cancelling an Operation that is done changes nothing and answers Empty, as on Google.
    expect((await loc.operations.cancel({ name: running.name!, requestBody: {} })).data).toEqual({});
    expect((await loc.operations.get({ name: running.name! })).data.error).toBeUndefined();
  });

  test('assets: get, list, aggregateValues, patch, batchUpdate, batchDelete, delete', async () => {
    const { data: list } = await loc.assets.list({ parent: P, orderBy: 'name' });
    expect(list.assets!.map((a) => [a.name, a.title, a.sources])).toEqual([
      [asset('m-1'), 'web-1', [SOURCE]],
      [asset('m-2'), 'db-1', [SOURCE]],
      [asset('m-3'), 'batch-1', [SOURCE]],
      [asset('m-4'), 'old-1', [SOURCE]],
      [asset('m-5'), 'old-2', [SOURCE]],
    ]);
    const { data: big } = await loc.assets.get({ name: asset('m-3'), view: 'ASSET_VIEW_FULL' });
    expect(big.virtualMachineDetails).toMatchObject({ vmName: 'batch-1', coreCount: 48, memoryMb: 196608 });
    const { data: aggregated } = await loc.assets.aggregateValues({
      parent: P,
      requestBody: {
        aggregations: [
          { field: 'name', count: {} },
          { field: 'virtualMachineDetails.coreCount', sum: {} },
        ],
      },
    });
    expect(aggregated).toEqual({
      results: [
        { field: 'name', count: { value: '5' } },
        { field: 'virtualMachineDetails.coreCount', sum: { value: 61 } },
      ],
    });

    const { data: patched } = await loc.assets.patch({ name: asset('m-1'), updateMask: 'labels', requestBody: { labels: { tier: 'web' } } });
    expect([patched.name, patched.labels]).toEqual([asset('m-1'), { tier: 'web' }]);
    const { data: batch } = await loc.assets.batchUpdate({
      parent: P,
      requestBody: {
        requests: [
          { asset: { name: asset('m-2'), labels: { tier: 'db' } }, updateMask: 'labels' },
          { asset: { name: asset('m-3'), labels: { tier: 'batch' } }, updateMask: 'labels' },
        ],
      },
    });
    expect(batch.assets!.map((a) => [a.name, a.labels])).toEqual([
      [asset('m-2'), { tier: 'db' }],
      [asset('m-3'), { tier: 'batch' }],
    ]);
    // allowMissing: an asset that does not exist is skipped, the others go.
    expect((await loc.assets.batchDelete({ parent: P, requestBody: { names: [asset('m-4'), asset('never-was')], allowMissing: true } })).data).toEqual({});
    expect((await loc.assets.delete({ name: asset('m-5') })).data).toEqual({});
    expect((await failure(loc.assets.get({ name: asset('m-5') }))).status).toBe(404);
    const { data: dbs } = await loc.assets.list({ parent: P, filter: 'labels.tier = db' });
    expect(dbs.assets!.map((a) => a.name)).toEqual([asset('m-2')]);
    // Paging through the client: two pages of two and one.
    const { data: first } = await loc.assets.list({ parent: P, orderBy: 'name', pageSize: 2 });
    const { data: second } = await loc.assets.list({ parent: P, orderBy: 'name', pageSize: 2, pageToken: first.nextPageToken! });
    expect([first.assets!.map((a) => a.name), second.assets!.map((a) => a.name), second.nextPageToken]).toEqual([
      [asset('m-1'), asset('m-2')],
      [asset('m-3')],
      undefined,
    ]);
  });

  test('groups: create, addAssets, removeAssets, list with a filter, patch; assets listed by group', async () => {
    await done(loc.groups.create({ parent: P, groupId: 'production', requestBody: { displayName: 'Production', labels: { env: 'prod' } } }));
    await done(loc.groups.create({ parent: P, groupId: 'retired', requestBody: { displayName: 'Retired' } }));
    const added = await done(loc.groups.addAssets({ group: PRODUCTION, requestBody: { assets: { assetIds: [asset('m-1'), asset('m-2'), asset('m-3')] } } }));
    expect(added.response).toMatchObject({ name: PRODUCTION, displayName: 'Production' });
    // Already a member: refused unless allowExisting.
    const again = await failure(loc.groups.addAssets({ group: PRODUCTION, requestBody: { assets: { assetIds: [asset('m-1')] } } }));
    expect([again.status, again.error.status]).toEqual([409, 'ALREADY_EXISTS']);
    await done(loc.groups.addAssets({ group: PRODUCTION, requestBody: { assets: { assetIds: [asset('m-1')] }, allowExisting: true } }));
    await done(loc.groups.addAssets({ group: RETIRED, requestBody: { assets: { assetIds: [asset('m-1')] } } }));
    // m-2 is not a member of `retired`: allowMissing skips it.
    await done(loc.groups.removeAssets({ group: RETIRED, requestBody: { assets: { assetIds: [asset('m-1'), asset('m-2')] }, allowMissing: true } }));

    expect((await loc.groups.list({ parent: P, filter: 'labels.env = prod' })).data.groups!.map((g) => g.name)).toEqual([PRODUCTION]);
    expect((await loc.groups.list({ parent: P, filter: 'displayName = "Retired"' })).data.groups!.map((g) => g.name)).toEqual([RETIRED]);
    await done(loc.groups.patch({ name: PRODUCTION, updateMask: 'description', requestBody: { description: 'Machines in production' } }));
    expect((await loc.groups.get({ name: PRODUCTION })).data).toMatchObject({ displayName: 'Production', description: 'Machines in production' });

    const inProduction = await loc.assets.list({ parent: P, filter: `assignedGroups:${PRODUCTION}` });
    expect(inProduction.data.assets!.map((a) => [a.name, a.assignedGroups])).toEqual([
      [asset('m-1'), [PRODUCTION]],
      [asset('m-2'), [PRODUCTION]],
      [asset('m-3'), [PRODUCTION]],
    ]);
    expect((await loc.assets.list({ parent: P, filter: `assignedGroups:${RETIRED}` })).data.assets).toBeUndefined();
  });

  test('preference set and settings', async () => {
    const created = await done(
      loc.preferenceSets.create({
        parent: P,
        preferenceSetId: 'e2-n2',
        requestBody: {
          displayName: 'E2 or N2',
          virtualMachinePreferences: {
            targetProduct: 'COMPUTE_MIGRATION_TARGET_PRODUCT_COMPUTE_ENGINE',
            sizingOptimizationStrategy: 'SIZING_OPTIMIZATION_STRATEGY_SAME_AS_SOURCE',
            commitmentPlan: 'COMMITMENT_PLAN_NONE',
            regionPreferences: { preferredRegions: ['europe-west1'] },
            computeEnginePreferences: { machinePreferences: { allowedMachineSeries: [{ code: 'E2' }, { code: 'N2' }] } },
          },
        },
      }),
    );
    expect(created.response).toMatchObject({ name: PREFS, displayName: 'E2 or N2' });
    await done(
      loc.preferenceSets.patch({
        name: PREFS,
        updateMask: 'virtualMachinePreferences.commitmentPlan',
        requestBody: { virtualMachinePreferences: { commitmentPlan: 'COMMITMENT_PLAN_ONE_YEAR' } },
      }),
    );
    const { data: set } = await loc.preferenceSets.get({ name: PREFS });
    expect(set.virtualMachinePreferences).toEqual({
      targetProduct: 'COMPUTE_MIGRATION_TARGET_PRODUCT_COMPUTE_ENGINE',
      sizingOptimizationStrategy: 'SIZING_OPTIMIZATION_STRATEGY_SAME_AS_SOURCE',
      commitmentPlan: 'COMMITMENT_PLAN_ONE_YEAR',
      regionPreferences: { preferredRegions: ['europe-west1'] },
      computeEnginePreferences: { machinePreferences: { allowedMachineSeries: [{ code: 'E2' }, { code: 'N2' }] } },
    });
    expect((await loc.preferenceSets.list({ parent: P })).data.preferenceSets!.map((s) => s.name)).toEqual([PREFS]);

    expect((await loc.getSettings({ name: `${P}/settings` })).data).toEqual({ name: `${P}/settings` });
    const updated = await done(loc.updateSettings({ name: `${P}/settings`, updateMask: 'preferenceSet', requestBody: { preferenceSet: PREFS } }));
    expect(updated.response).toMatchObject({ name: `${P}/settings`, preferenceSet: PREFS });
    expect((await loc.getSettings({ name: `${P}/settings` })).data.preferenceSet).toBe(PREFS);
  });

  test('report config and report: the summary of the group, sized by the preference set', async () => {
    await done(
      loc.reportConfigs.create({
        parent: P,
        reportConfigId: 'quarterly',
        requestBody: { displayName: 'Quarterly', groupPreferencesetAssignments: [{ group: PRODUCTION, preferenceSet: PREFS }] },
      }),
    );
    expect((await loc.reportConfigs.get({ name: CONFIG })).data.groupPreferencesetAssignments).toEqual([{ group: PRODUCTION, preferenceSet: PREFS }]);
    expect((await loc.reportConfigs.list({ parent: P })).data.reportConfigs!.map((c) => c.name)).toEqual([CONFIG]);

    const created = await done(
      loc.reportConfigs.reports.create({ parent: CONFIG, reportId: 'q1', requestBody: { displayName: 'Q1', type: 'TOTAL_COST_OF_OWNERSHIP' } }),
    );
    expect(created.response).toMatchObject({ name: REPORT, state: 'SUCCEEDED' });
    const { data: report } = await loc.reportConfigs.reports.get({ name: REPORT, view: 'REPORT_VIEW_FULL' });
    const stats = report.summary!.allAssetsStats!;
    // web-1 2 cores 8 GiB, db-1 8 cores 32 GiB, batch-1 48 cores 192 GiB; 100 GiB of disk each, 40 used.
    expect([stats.totalAssets, stats.totalCores, stats.totalMemoryBytes, stats.totalStorageBytes]).toEqual(['3', '58', String(232 * GIB), String(300 * GIB)]);
    expect(stats.storageUtilizationChart).toEqual({ used: String(120 * GIB), free: String(180 * GIB) });
    // Lower bounds 2, 4, 8, 16, 32, 64, 128 cores: one machine in [2, 4), one in [8, 16), one in [32, 64).
    expect(stats.coreCountHistogram).toEqual({
      buckets: [
        { upperBound: '2' },
        { lowerBound: '2', upperBound: '4', count: '1' },
        { lowerBound: '4', upperBound: '8' },
        { lowerBound: '8', upperBound: '16', count: '1' },
        { lowerBound: '16', upperBound: '32' },
        { lowerBound: '32', upperBound: '64', count: '1' },
        { lowerBound: '64', upperBound: '128' },
        { lowerBound: '128' },
      ],
    });
    expect(report.summary!.virtualMachineStats).toEqual(stats);
    const [finding] = report.summary!.groupFindings!;
    expect([finding.group, finding.displayName, finding.description]).toEqual([PRODUCTION, 'Production', 'Machines in production']);
    // The sizing rule, same as source, E2 or N2: 2 vCPU/8 GiB and 8 vCPU/32 GiB fit E2 standard types; 48 vCPUs exceed E2's 32: N2.
    expect(finding.preferenceSetFindings!.map((f) => [f.displayName, f.preferredRegion, f.machineFinding])).toEqual([
      [
        'E2 or N2',
        'europe-west1',
        {
          allocatedAssetCount: '3',
          allocatedRegions: ['europe-west1'],
          machineSeriesAllocations: [
            { machineSeries: { code: 'E2' }, allocatedAssetCount: '2' },
            { machineSeries: { code: 'N2' }, allocatedAssetCount: '1' },
          ],
        },
      ],
    ]);
    // Prices are not the emulator's to invent.
    expect(JSON.stringify(report.summary)).not.toMatch(/monthlyCost/);
    const { data: listed } = await loc.reportConfigs.reports.list({ parent: CONFIG });
    expect(listed.reports!.map((r) => [r.name, r.displayName, r.state, r.summary])).toEqual([[REPORT, 'Q1', 'SUCCEEDED', undefined]]);
    // STANDARD: the summary without the copies of the preference set in its findings.
    const { data: standard } = await loc.reportConfigs.reports.list({ parent: CONFIG, view: 'REPORT_VIEW_STANDARD' });
    const standardFinding = standard.reports![0].summary!.groupFindings![0].preferenceSetFindings![0];
    expect([standardFinding.machineFinding, standardFinding.preferenceSet, standardFinding.machinePreferences]).toEqual([
      finding.preferenceSetFindings![0].machineFinding,
      undefined,
      undefined,
    ]);
    expect(finding.preferenceSetFindings![0].preferenceSet).toMatchObject({ name: PREFS, displayName: 'E2 or N2' });
  });

  test('exports: an assets export job and (revision 188) a report export job, each CSV downloaded through its signed URL', async () => {
    const exportJob = `${P}/assetsExportJobs/big-machines`;
    // Revision 140's AssetsExportJob has one export type, networkDependencies; 188 adds inventory and performanceData.
    // Its SignedUriDestination has no field at all: `fileFormat` (required since) is sent all the same.
    const exportType = newest ? { inventory: {} } : { networkDependencies: {} };
    await done(
      loc.assetsExportJobs.create({
        parent: P,
        assetsExportJobId: 'big-machines',
        requestBody: { ...exportType, condition: { filter: 'virtualMachineDetails.coreCount >= 8' }, signedUriDestination: { fileFormat: 'CSV' } },
      }),
    );
    expect((await loc.assetsExportJobs.get({ name: exportJob })).data).toMatchObject({ condition: { filter: 'virtualMachineDetails.coreCount >= 8' } });
    expect((await loc.assetsExportJobs.list({ parent: P })).data.assetsExportJobs!.map((j) => j.name)).toEqual([exportJob]);
    const run = await done(loc.assetsExportJobs.run({ name: exportJob, requestBody: {} }));
    const execution = (run.response as any).assetsExportJobExecution;
    expect(execution.requestedAssetCount).toBe(2);
    const [signed] = execution.result.signedUris.signedUris as Array<{ file: string; uri: string }>;
    expect(signed.uri.startsWith(`${emulator.url}/downloads/`)).toBe(true);
    const download = await fetch(signed.uri);
    expect([download.status, download.headers.get('content-type')]).toEqual([200, 'text/csv; charset=utf-8']);
    const text = await download.text();
    if (newest) {
      expect(signed.file).toBe('inventory.csv');
      expect(rowsOf(text).map((r) => [r.name, r.title, r['virtualMachineDetails.coreCount'], r['virtualMachineDetails.memoryMb'], r.labels])).toEqual([
        [asset('m-2'), 'db-1', '8', '32768', '{"tier":"db"}'],
        [asset('m-3'), 'batch-1', '48', '196608', '{"tier":"batch"}'],
      ]);
    } else {
      // Imports carry no network connections: the header alone.
      expect(signed.file).toBe('network-dependencies.csv');
      expect(text).toBe('name,localIpAddress,localPort,remoteIpAddress,remotePort,protocol,state,pid,processName\r\n');
    }
    expect((await done(loc.assetsExportJobs.delete({ name: exportJob }))).response).toEqual({ '@type': EMPTY });
    expect((await fetch(signed.uri)).status).toBe(404);

    if (!newest) return; // revision 140 has no report export jobs
    const jobs = newest.projects.locations.reportConfigs.reports.reportExportJobs;
    const reportJob = `${REPORT}/reportExportJobs/summary`;
    await done(jobs.create({ parent: REPORT, reportExportJobId: 'summary', requestBody: { signedUriDestination: { fileFormat: 'CSV' } } }));
    expect((await jobs.get({ name: reportJob })).data).toEqual({ name: reportJob, signedUriDestination: { fileFormat: 'CSV' } });
    expect((await jobs.list({ parent: REPORT })).data.reportExportJobs!.map((j) => j.name)).toEqual([reportJob]);
    const reportRun = await done(jobs.run({ name: reportJob, requestBody: {} }));
    const reportExecution = (reportRun.response as any).reportExportExecution;
    expect(reportExecution.progressPercentage).toBe(100);
    const summary = rowsOf(await (await fetch(reportExecution.result.signedUris.signedUris[0].uri)).text());
    const value = (field: string) => summary.find((r) => r.field === field)?.value;
    expect([
      value('allAssetsStats.totalAssets'),
      value('allAssetsStats.totalCores'),
      value('groupFindings[0].group'),
      value('groupFindings[0].preferenceSetFindings[0].machineFinding.machineSeriesAllocations[1].machineSeries.code'),
    ]).toEqual(['3', '58', PRODUCTION, 'N2']);
    expect((await done(jobs.delete({ name: reportJob }))).response).toEqual({ '@type': EMPTY });
  });

  test('discovery client: create, sendHeartbeat, get, list, patch, delete', async () => {
    await done(loc.sources.create({ parent: P, sourceId: 'collector', requestBody: { type: 'SOURCE_TYPE_GUEST_OS_SCAN' } }));
    const CLIENT = `${P}/discoveryClients/rack-4`;
    const account = `collector@${revision.project}.iam.gserviceaccount.com`;
    const created = await done(
      loc.discoveryClients.create({ parent: P, discoveryClientId: 'rack-4', requestBody: { source: COLLECTOR, serviceAccount: account, ttl: '86400s' } }),
    );
    expect(created.response).toMatchObject({ name: CLIENT, source: COLLECTOR, serviceAccount: account, state: 'OFFLINE' });
    expect((await done(loc.discoveryClients.sendHeartbeat({ name: CLIENT, requestBody: { version: '1.4.0' } }))).response).toEqual({ '@type': EMPTY });
    expect((await loc.discoveryClients.get({ name: CLIENT })).data).toMatchObject({ state: 'ACTIVE', version: '1.4.0' });
    await done(loc.discoveryClients.patch({ name: CLIENT, updateMask: 'displayName', requestBody: { displayName: 'Rack 4 collector' } }));
    const { data: active } = await loc.discoveryClients.list({ parent: P, filter: 'state = ACTIVE' });
    expect(active.discoveryClients!.map((c) => [c.name, c.displayName, c.state])).toEqual([[CLIENT, 'Rack 4 collector', 'ACTIVE']]);
    await done(loc.discoveryClients.delete({ name: CLIENT }));
    expect((await loc.discoveryClients.list({ parent: P })).data.discoveryClients).toBeUndefined();
  });

  test('frames: reported machines are the imported assets (one identity), a bad frame is an error frame; relations; error frames', async () => {
    const reported = await loc.assets.reportAssetFrames({
      parent: P,
      source: COLLECTOR,
      requestBody: {
        framesData: [
          // The imported m-1, now seen by the collector: the same asset.
          {
            attributes: { MachineId: 'm-1' },
            labels: { tier: 'web' },
            virtualMachineDetails: { vmUuid: WEB_UUID, vmName: 'web-1', coreCount: 2, memoryMb: 8192 },
          },
          { virtualMachineDetails: { vmUuid: CACHE_UUID, vmName: 'cache-1', coreCount: 4, memoryMb: 16384 } },
          { virtualMachineDetails: { vmName: 'no-id', coreCount: -1 } },
        ],
      },
    });
    expect([reported.status, reported.data]).toEqual([200, {}]);

    const { data: web } = await loc.assets.get({ name: asset('m-1') });
    expect([web.title, web.sources, web.assignedGroups, web.virtualMachineDetails?.vmUuid]).toEqual(['web-1', [SOURCE, COLLECTOR], [PRODUCTION], WEB_UUID]);
    const { data: all } = await loc.assets.list({ parent: P, orderBy: 'name' });
    expect(all.assets!.map((a) => [a.name, a.sources])).toEqual([
      [asset(CACHE_UUID), [COLLECTOR]],
      [asset('m-1'), [SOURCE, COLLECTOR]],
      [asset('m-2'), [SOURCE]],
      [asset('m-3'), [SOURCE]],
    ]);

    if (newest) {
      // No client message carries a relation (revision 188): the list is empty, a get is 404 naming the relation.
      expect((await newest.projects.locations.relations.list({ parent: P })).data).toEqual({});
      const missing = await failure(newest.projects.locations.relations.get({ name: `${P}/relations/r-1` }));
      expect([missing.status, missing.error.status]).toEqual([404, 'NOT_FOUND']);
      expect(missing.error.message).not.toMatch(/^Method not found/);
    }

    const { data: frames } = await loc.sources.errorFrames.list({ parent: COLLECTOR, view: 'ERROR_FRAMES_VIEW_FULL' });
    expect(frames.errorFrames!.map((f) => [f.originalFrame, f.violations])).toEqual([
      [
        { virtualMachineDetails: { vmName: 'no-id', coreCount: -1 } },
        [
          { field: 'virtualMachineDetails.coreCount', violation: 'must be at least 0' },
          { field: 'virtualMachineDetails.vmUuid', violation: 'is required (or attributes.MachineId): it identifies the machine' },
        ],
      ],
    ]);
    const { data: one } = await loc.sources.errorFrames.get({ name: frames.errorFrames![0].name! });
    expect(one).toMatchObject({ name: frames.errorFrames![0].name, violations: frames.errorFrames![0].violations });
    expect(one.originalFrame).toBeUndefined(); // BASIC, the default view
    expect((await loc.sources.get({ name: COLLECTOR })).data.errorFrameCount).toBe(1);
  });

  test('deletes: report, report config, preference set (once the settings let it go), groups, import job, sources, operations', async () => {
    expect((await done(loc.reportConfigs.reports.delete({ name: REPORT }))).response).toEqual({ '@type': EMPTY });
    expect((await done(loc.reportConfigs.delete({ name: CONFIG }))).response).toEqual({ '@type': EMPTY });
    const inUse = await failure(loc.preferenceSets.delete({ name: PREFS }));
    expect([inUse.status, inUse.error.status]).toEqual([400, 'FAILED_PRECONDITION']);
    await done(loc.updateSettings({ name: `${P}/settings`, updateMask: 'preferenceSet', requestBody: {} }));
    expect((await done(loc.preferenceSets.delete({ name: PREFS }))).response).toEqual({ '@type': EMPTY });
    await done(loc.groups.delete({ name: PRODUCTION }));
    await done(loc.groups.delete({ name: RETIRED }));
    expect((await loc.assets.get({ name: asset('m-1') })).data.assignedGroups).toBeUndefined();
    await done(loc.importJobs.delete({ name: JOB, force: true }));
    await done(loc.sources.delete({ name: SOURCE }));
    await done(loc.sources.delete({ name: COLLECTOR }));
    // The assets stay (the location's inventory), with no source left to name.
    const { data: left } = await loc.assets.list({ parent: P, orderBy: 'name' });
    expect(left.assets!.map((a) => [a.name, a.sources])).toEqual([
      [asset(CACHE_UUID), undefined],
      [asset('m-1'), undefined],
      [asset('m-2'), undefined],
      [asset('m-3'), undefined],
    ]);
    for (const name of [...new Set(operationNames)]) expect((await loc.operations.delete({ name })).data).toEqual({});
    expect((await failure(loc.operations.get({ name: operationNames[0] }))).status).toBe(404);
  });

  test('every method of the client was called, and none answered 501 or 404 Method not found', () => {
    const surface = surfaceOf(mc);
    expect(surface).toHaveLength(revision.methods);
    expect(surface.every((m) => m.startsWith('projects.locations.'))).toBe(true);
    const called = new Set(answers.map((a) => a.method));
    expect(surface.filter((m) => !called.has(m))).toEqual([]);
    const refused = answers.filter((a) => a.status === 501 || (a.status === 404 && a.message.startsWith('Method not found')));
    expect(refused).toEqual([]);
    // The only refusals are the ones the workflow asked for.
    const failed = answers.filter((a) => a.status >= 400).map((a) => [a.method, a.status]);
    expect(failed).toEqual([
      ['projects.locations.assets.get', 404],
      ['projects.locations.groups.addAssets', 409],
      ...(newest ? [['projects.locations.relations.get', 404]] : []),
      ['projects.locations.preferenceSets.delete', 400],
      ['projects.locations.operations.get', 404],
    ]);
  });

  test("every answer has the shape the newest typings give its method; the client's own typings lack only fields Google added since", () => {
    const succeeded = answers.filter((a) => a.status === 200);
    expect(succeeded.length).toBeGreaterThan(100);
    const newestSchemas = loadSchemas('migrationcenter', 'v1alpha1', 'googleapis-latest');
    const newestResponses = loadResponseSchemas('migrationcenter', 'v1alpha1', 'googleapis-latest');
    expect(succeeded.flatMap((a) => typingViolations(newestSchemas, newestResponses, a))).toEqual([]);
    // The service answers today's fields; an older client's typings just do not name them.
    const own = loadSchemas('migrationcenter', 'v1alpha1', revision.client);
    const ownResponses = loadResponseSchemas('migrationcenter', 'v1alpha1', revision.client);
    const unknown = new Set(
      succeeded.flatMap((a) => typingViolations(own, ownResponses, a)).map((p) => /Schema\$(\w+) has no field "(\w+)"$/.exec(p)?.slice(1).join('.') ?? p),
    );
    expect([...unknown].sort()).toEqual(revision.fieldsItsTypingsLack);
    for (const field of unknown) expect([field, newestSchemas.get(field.split('.')[0])?.has(field.split('.')[1])]).toEqual([field, true]);
  });
});
