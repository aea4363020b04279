/**
 * Report configs and reports over the REST wire and through googleapis-latest: references checked
 * at config create, delete with and without force, and a report's summary computed from five
 * hand-made machines (tests/support/mc-inventory.ts) whose totals, histograms, charts and machine
 * allocations are worked out by hand below.
 *
 * Preference sets are written as the preference sets family stores them (collection
 * `migrationcenter.preferenceSets`, key = name, value = the wire PreferenceSet), that family being
 * built apart from this one.
 */
import type { FastifyInstance } from 'fastify';
import { migrationcenter } from 'googleapis-latest/build/src/apis/migrationcenter';
import { BASE, EMPTY_TYPE, PARENT, call, googleError, newApp, ok, violations, waitOperation } from '../../support/migrationcenter';
import { assetOf, importMachines } from '../../support/mc-inventory';
import { startEmulator, type RunningEmulator } from '../../../backend-emulator';

const REPORT_TYPE = 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.Report';
const CONFIG_TYPE = 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.ReportConfig';
const GIB = 1024 ** 3;
const WEB = `${PARENT}/groups/web`;
const DB = `${PARENT}/groups/db`;
const MODERATE = `${PARENT}/preferenceSets/moderate`;
const RIGHTSIZED = `${PARENT}/preferenceSets/rightsized`;
const CONFIG = `${PARENT}/reportConfigs/tco`;

const PREFERENCE_SETS = [
  {
    name: MODERATE,
    displayName: 'Moderate',
    regionPreferences: { preferredRegions: ['europe-west1'] },
    virtualMachinePreferences: {
      sizingOptimizationStrategy: 'SIZING_OPTIMIZATION_STRATEGY_MODERATE',
      computeEnginePreferences: { machinePreferences: { allowedMachineSeries: [{ code: 'N2' }, { code: 'E2' }] } },
    },
  },
  {
    name: RIGHTSIZED,
    displayName: 'Rightsized',
    description: 'half the cores and memory',
    virtualMachinePreferences: {
      sizingOptimizationStrategy: 'SIZING_OPTIMIZATION_STRATEGY_AGGRESSIVE',
      estimatedUsage: { estimatedCpuPercentage: 50, estimatedMemoryPercentage: 50 },
      computeEnginePreferences: { machinePreferences: { allowedMachineSeries: [{ code: 'E2' }, { code: 'N1' }] } },
    },
  },
];

/** Writes the preference sets as their family stores them. */
function storePreferenceSets(app: FastifyInstance): void {
  for (const set of PREFERENCE_SETS) app.emulator.store.put('migrationcenter.preferenceSets', set.name, { ...set, createTime: '2026-01-01T00:00:00Z' });
}

async function makeGroup(app: FastifyInstance, id: string, machines: string[], body: Record<string, unknown> = {}): Promise<void> {
  ok(await call(app, 'POST', `${BASE}/groups?groupId=${id}`, body));
  ok(await call(app, 'POST', `/v1alpha1/${PARENT}/groups/${id}:addAssets`, { assets: { assetIds: machines.map(assetOf) } }));
}

const ASSIGNMENTS = [
  { group: WEB, preferenceSet: MODERATE },
  { group: WEB, preferenceSet: RIGHTSIZED },
  { group: DB, preferenceSet: RIGHTSIZED },
];

/**
 * Creates a report as a client does: the create answers its Operation at once, not done (the
 * summary is computed afterwards), and is polled until done. Returns the done Operation.
 */
async function createReport(app: FastifyInstance, config: string, id: string, body: Record<string, unknown> = {}): Promise<any> {
  const started = ok(await call(app, 'POST', `/v1alpha1/${config}/reports?reportId=${id}`, body));
  expect(started).toMatchObject({ metadata: { verb: 'create', target: `${config}/reports/${id}` } });
  expect(started.done).toBeUndefined();
  return waitOperation(app, started.name);
}

/** Counts of a histogram's buckets ('0' where ProtoJSON leaves the count out). */
const counts = (h: { buckets: Array<{ count?: string }> }) => h.buckets.map((b) => b.count ?? '0');

describe('report configs and reports', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = newApp();
    await importMachines(app);
    storePreferenceSets(app);
    await makeGroup(app, 'web', ['m-1', 'm-2', 'm-5'], { displayName: 'Web tier' });
    await makeGroup(app, 'db', ['m-3', 'm-4'], { displayName: 'Databases', description: 'the two SQL servers' });
    ok(await call(app, 'POST', `${BASE}/reportConfigs?reportConfigId=tco`, { displayName: 'TCO', groupPreferencesetAssignments: ASSIGNMENTS }));
  }, 60_000);
  afterAll(() => app.close());

  test('report config: create, get, list; references checked', async () => {
    const config = ok(await call(app, 'GET', `/v1alpha1/${CONFIG}`));
    expect(config).toMatchObject({ name: CONFIG, displayName: 'TCO', groupPreferencesetAssignments: ASSIGNMENTS });
    expect(ok(await call(app, 'GET', `${BASE}/reportConfigs`)).reportConfigs).toEqual([config]);
    expect(ok(await call(app, 'GET', `${BASE}/reportConfigs?filter=${encodeURIComponent('displayName = TCO')}`)).reportConfigs).toHaveLength(1);

    const missingGroup = googleError(
      await call(app, 'POST', `${BASE}/reportConfigs?reportConfigId=bad`, {
        groupPreferencesetAssignments: [{ group: `${PARENT}/groups/nope`, preferenceSet: MODERATE }],
      }),
      404,
      'NOT_FOUND',
    );
    expect(missingGroup.details).toContainEqual(expect.objectContaining({ resourceName: `${PARENT}/groups/nope` }));
    const missingSet = googleError(
      await call(app, 'POST', `${BASE}/reportConfigs?reportConfigId=bad`, {
        groupPreferencesetAssignments: [{ group: WEB, preferenceSet: `${PARENT}/preferenceSets/nope` }],
      }),
      404,
      'NOT_FOUND',
    );
    expect(missingSet.details).toContainEqual(expect.objectContaining({ resourceName: `${PARENT}/preferenceSets/nope` }));
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, 'groupPreferencesetAssignments'],
      [{ groupPreferencesetAssignments: [] }, 'groupPreferencesetAssignments'],
      [{ groupPreferencesetAssignments: [{ group: WEB }] }, 'groupPreferencesetAssignments[0].preferenceSet'],
      [
        { groupPreferencesetAssignments: [{ group: 'projects/p1/locations/europe-west1/groups/web', preferenceSet: MODERATE }] },
        'groupPreferencesetAssignments[0].group',
      ],
      [{ groupPreferencesetAssignments: [ASSIGNMENTS[0], ASSIGNMENTS[0]] }, 'groupPreferencesetAssignments[1]'],
      [{ groupPreferencesetAssignments: ASSIGNMENTS, displayName: 'x'.repeat(64) }, 'displayName'],
    ];
    for (const [body, field] of cases) {
      const error = googleError(await call(app, 'POST', `${BASE}/reportConfigs?reportConfigId=bad`, body), 400, 'INVALID_ARGUMENT');
      expect([field, violations(error).map((v) => v.field)]).toEqual([field, expect.arrayContaining([field])]);
    }
    // Google has no patch of report configs.
    expect((await call(app, 'PATCH', `/v1alpha1/${CONFIG}?updateMask=displayName`, { displayName: 'x' })).status).toBe(404);
  });

  test('a report sums the assets of its groups at creation (totals, histograms, charts, OS)', async () => {
    const op = await createReport(app, CONFIG, 'first', { displayName: 'First', type: 'TOTAL_COST_OF_OWNERSHIP' });
    expect(op).toMatchObject({
      done: true,
      metadata: { verb: 'create', target: `${CONFIG}/reports/first` },
      response: { '@type': REPORT_TYPE, state: 'SUCCEEDED' },
    });
    const report = ok(await call(app, 'GET', `/v1alpha1/${CONFIG}/reports/first?view=REPORT_VIEW_FULL`));
    expect(report).toMatchObject({ name: `${CONFIG}/reports/first`, displayName: 'First', type: 'TOTAL_COST_OF_OWNERSHIP', state: 'SUCCEEDED' });
    const all = report.summary.allAssetsStats;
    // 2+4+8+16+1 cores; 8+16+32+64+2 GiB of memory; 100+200+500+1000+20 GiB of disk, 60+150+400+750+10 GiB free.
    expect(all).toMatchObject({
      totalAssets: '5',
      totalCores: '31',
      totalMemoryBytes: String(122 * GIB),
      totalStorageBytes: String(1820 * GIB),
      // No performance data: all memory counts as used.
      memoryUtilizationChart: { used: String(122 * GIB) },
      memoryUtilization: { dataPoints: [{ label: 'Used', value: 122 * GIB }, { label: 'Free' }] },
      storageUtilizationChart: { used: String(450 * GIB), free: String(1370 * GIB) },
      storageUtilization: {
        dataPoints: [
          { label: 'Used', value: 450 * GIB },
          { label: 'Free', value: 1370 * GIB },
        ],
      },
      operatingSystem: {
        dataPoints: [
          { label: 'OS_FAMILY_LINUX', value: 3 },
          { label: 'OS_FAMILY_WINDOWS', value: 2 },
        ],
      },
    });
    expect(all.coreCountHistogram.buckets.slice(0, 3)).toEqual([
      { upperBound: '2', count: '1' },
      { lowerBound: '2', upperBound: '4', count: '1' },
      { lowerBound: '4', upperBound: '8', count: '1' },
    ]);
    expect(all.coreCountHistogram.buckets.at(-1)).toEqual({ lowerBound: '128' });
    // Core bounds 2,4,8,16,32,64,128: 1 | 2 | 4 | 8 | 16.
    expect(counts(all.coreCountHistogram)).toEqual(['1', '1', '1', '1', '1', '0', '0', '0']);
    // Memory bounds 2..512 GiB: 2 | 8 | 16 | 32 | 64.
    expect(counts(all.memoryBytesHistogram)).toEqual(['0', '1', '0', '1', '1', '1', '1', '0', '0', '0']);
    expect(all.memoryBytesHistogram.buckets[1]).toEqual({ lowerBound: String(2 * GIB), upperBound: String(4 * GIB), count: '1' });
    // Storage bounds 50,100,250,500,1000,2000,5000,10000 GiB: 20 | 100, 200 | 500 | 1000.
    expect(counts(all.storageBytesHistogram)).toEqual(['1', '0', '2', '0', '1', '1', '0', '0', '0']);
    expect(report.summary.virtualMachineStats).toEqual(all);
    expect(report.summary.databaseStats).toBeUndefined();

    const [web, db] = report.summary.groupFindings;
    expect(web).toMatchObject({ group: WEB, displayName: 'Web tier' });
    expect(web.assetAggregateStats).toMatchObject({
      totalAssets: '3',
      totalCores: '7',
      totalMemoryBytes: String(26 * GIB),
      totalStorageBytes: String(320 * GIB),
    });
    expect(db).toMatchObject({ group: DB, displayName: 'Databases', description: 'the two SQL servers' });
    expect(db.assetAggregateStats).toMatchObject({
      totalAssets: '2',
      totalCores: '24',
      totalMemoryBytes: String(96 * GIB),
      operatingSystem: { dataPoints: [{ label: 'OS_FAMILY_WINDOWS', value: 2 }] },
    });
  });

  test('findings: machine series by the sizing rule, no cost fields', async () => {
    await createReport(app, CONFIG, 'findings');
    const report = ok(await call(app, 'GET', `/v1alpha1/${CONFIG}/reports/findings?view=REPORT_VIEW_FULL`));
    const [web, db] = report.summary.groupFindings;
    expect(web.preferenceSetFindings).toHaveLength(2);
    const [moderate, rightsized] = web.preferenceSetFindings;
    // Moderate, no estimated usage: each machine as big as it is; N2 before E2 on ties.
    // 1 core 2 GiB -> 2 vCPU 2 GiB (N2 and E2 tie: N2); 2/8 -> 2 vCPU 8 GiB; 4/16 -> 4 vCPU 16 GiB.
    expect(moderate).toMatchObject({
      displayName: 'Moderate',
      preferredRegion: 'europe-west1',
      preferenceSet: { name: MODERATE },
      machinePreferences: PREFERENCE_SETS[0].virtualMachinePreferences,
      machineFinding: {
        allocatedAssetCount: '3',
        allocatedRegions: ['europe-west1'],
        machineSeriesAllocations: [{ machineSeries: { code: 'N2' }, allocatedAssetCount: '3' }],
      },
    });
    // Aggressive at 50% usage: half of each. 0.5/1 GiB -> N1 1 vCPU 3.75 GiB; 1/4 GiB -> N1 1 vCPU 6.5 GiB;
    // 2/8 GiB -> E2 2 vCPU 8 GiB (N1's 2 vCPU 7.5 GiB is short). No region preferred: the location's.
    expect(rightsized).toMatchObject({
      displayName: 'Rightsized',
      description: 'half the cores and memory',
      preferredRegion: 'us-central1',
      machineFinding: {
        allocatedAssetCount: '3',
        allocatedRegions: ['us-central1'],
        machineSeriesAllocations: [
          { machineSeries: { code: 'E2' }, allocatedAssetCount: '1' },
          { machineSeries: { code: 'N1' }, allocatedAssetCount: '2' },
        ],
      },
    });
    // 4/16 GiB -> E2 4 vCPU 16 GiB; 8/32 GiB -> E2 8 vCPU 32 GiB.
    expect(db.preferenceSetFindings).toHaveLength(1);
    expect(db.preferenceSetFindings[0].machineFinding.machineSeriesAllocations).toEqual([{ machineSeries: { code: 'E2' }, allocatedAssetCount: '2' }]);
    for (const finding of [moderate, rightsized]) {
      expect(Object.keys(finding).filter((k) => k.startsWith('monthlyCost'))).toEqual([]);
    }
  });

  test('views: BASIC by default (no summary), STANDARD without the preference set copies, FULL', async () => {
    await createReport(app, CONFIG, 'views', { displayName: 'Views' });
    const basic = ok(await call(app, 'GET', `/v1alpha1/${CONFIG}/reports/views`));
    expect(basic.summary).toBeUndefined();
    expect(basic).toMatchObject({ displayName: 'Views', state: 'SUCCEEDED' });
    const standard = ok(await call(app, 'GET', `/v1alpha1/${CONFIG}/reports/views?view=REPORT_VIEW_STANDARD`));
    expect(standard.summary.allAssetsStats.totalAssets).toBe('5');
    const finding = standard.summary.groupFindings[0].preferenceSetFindings[0];
    expect(finding.preferenceSet).toBeUndefined();
    expect(finding.machinePreferences).toBeUndefined();
    expect(finding.machineFinding.allocatedAssetCount).toBe('3');
    const listed = ok(await call(app, 'GET', `/v1alpha1/${CONFIG}/reports?view=REPORT_VIEW_FULL&filter=${encodeURIComponent('displayName = Views')}`));
    expect(listed.reports).toHaveLength(1);
    expect(listed.reports[0].summary.groupFindings[0].preferenceSetFindings[0].preferenceSet.name).toBe(MODERATE);
    expect(ok(await call(app, 'GET', `/v1alpha1/${CONFIG}/reports`)).reports.every((r: { summary?: unknown }) => r.summary === undefined)).toBe(true);
    googleError(await call(app, 'GET', `/v1alpha1/${CONFIG}/reports/views?view=EVERYTHING`), 400, 'INVALID_ARGUMENT');
  });

  test('a report is a snapshot; a deleted group fails the next report; delete with and without force', async () => {
    ok(await call(app, 'POST', `${BASE}/groups?groupId=temp`, {}));
    ok(await call(app, 'POST', `/v1alpha1/${PARENT}/groups/temp:addAssets`, { assets: { assetIds: [assetOf('m-1')] } }));
    ok(
      await call(app, 'POST', `${BASE}/reportConfigs?reportConfigId=temp`, {
        groupPreferencesetAssignments: [{ group: `${PARENT}/groups/temp`, preferenceSet: MODERATE }],
      }),
    );
    const temp = `${PARENT}/reportConfigs/temp`;
    await createReport(app, temp, 'before');
    ok(await call(app, 'POST', `/v1alpha1/${PARENT}/groups/temp:addAssets`, { assets: { assetIds: [assetOf('m-2')] } }));
    await createReport(app, temp, 'after');
    const total = async (id: string) => ok(await call(app, 'GET', `/v1alpha1/${temp}/reports/${id}?view=REPORT_VIEW_FULL`)).summary.allAssetsStats.totalAssets;
    expect([await total('before'), await total('after')]).toEqual(['1', '2']);

    ok(await call(app, 'DELETE', `/v1alpha1/${PARENT}/groups/temp`));
    googleError(await call(app, 'POST', `/v1alpha1/${temp}/reports?reportId=gone`, {}), 400, 'FAILED_PRECONDITION');
    googleError(await call(app, 'POST', `/v1alpha1/${PARENT}/reportConfigs/nope/reports?reportId=r`, {}), 404, 'NOT_FOUND');

    googleError(await call(app, 'DELETE', `/v1alpha1/${temp}`), 400, 'FAILED_PRECONDITION');
    expect(ok(await call(app, 'DELETE', `/v1alpha1/${temp}/reports/before`))).toMatchObject({ done: true, response: { '@type': EMPTY_TYPE } });
    googleError(await call(app, 'GET', `/v1alpha1/${temp}/reports/before`), 404, 'NOT_FOUND');
    ok(await call(app, 'DELETE', `/v1alpha1/${temp}?force=true`));
    googleError(await call(app, 'GET', `/v1alpha1/${temp}`), 404, 'NOT_FOUND');
    googleError(await call(app, 'GET', `/v1alpha1/${temp}/reports/after`), 404, 'NOT_FOUND');
  });
});

describe('groups, report configs and reports through googleapis-latest', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent' });
    await importMachines(emulator.app);
    storePreferenceSets(emulator.app);
  }, 60_000);
  afterAll(() => emulator.close());

  test('create a group, add assets, create a config and a report, read it FULL', async () => {
    // gaxios 7 loads node-fetch with a dynamic import(), which jest's module system refuses: Node's own fetch instead.
    const mc = migrationcenter({ version: 'v1alpha1', rootUrl: `${emulator.url}/`, retry: false, fetchImplementation: fetch });
    const locations = mc.projects.locations;
    const group = await locations.groups.create({ parent: PARENT, groupId: 'all', requestBody: { displayName: 'All' } });
    expect(group.data).toMatchObject({ done: true, response: { name: `${PARENT}/groups/all` } });
    const added = await locations.groups.addAssets({
      group: `${PARENT}/groups/all`,
      requestBody: { assets: { assetIds: ['m-1', 'm-2', 'm-3', 'm-4', 'm-5'].map(assetOf) }, allowExisting: false },
    });
    expect(added.data).toMatchObject({ done: true, response: { name: `${PARENT}/groups/all` } });
    const removed = await locations.groups.removeAssets({ group: `${PARENT}/groups/all`, requestBody: { assets: { assetIds: [assetOf('m-5')] } } });
    expect(removed.data.done).toBe(true);
    expect((await locations.assets.get({ name: assetOf('m-1') })).data.assignedGroups).toEqual([`${PARENT}/groups/all`]);
    expect((await locations.groups.list({ parent: PARENT })).data.groups?.map((g) => g.name)).toEqual([`${PARENT}/groups/all`]);

    const config = await locations.reportConfigs.create({
      parent: PARENT,
      reportConfigId: 'c1',
      requestBody: { groupPreferencesetAssignments: [{ group: `${PARENT}/groups/all`, preferenceSet: MODERATE }] },
    });
    expect(config.data.response).toMatchObject({ '@type': CONFIG_TYPE, name: `${PARENT}/reportConfigs/c1` });
    const created = await locations.reportConfigs.reports.create({ parent: `${PARENT}/reportConfigs/c1`, reportId: 'r1', requestBody: { displayName: 'R1' } });
    expect(created.data.done).toBeFalsy();
    let done = created.data;
    for (let i = 0; i < 1500 && !done.done; i++) {
      await new Promise((r) => setTimeout(r, 10));
      done = (await locations.operations.get({ name: created.data.name! })).data;
    }
    expect(done).toMatchObject({ done: true, response: { state: 'SUCCEEDED' } });
    const report = await locations.reportConfigs.reports.get({ name: `${PARENT}/reportConfigs/c1/reports/r1`, view: 'REPORT_VIEW_FULL' });
    // m-1..m-4: 2+4+8+16 cores, 8+16+32+64 GiB.
    expect(report.data.summary?.allAssetsStats).toMatchObject({ totalAssets: '4', totalCores: '30', totalMemoryBytes: String(120 * GIB) });
    const listed = await locations.reportConfigs.reports.list({ parent: `${PARENT}/reportConfigs/c1` });
    expect(listed.data.reports?.map((r) => [r.name, r.summary])).toEqual([[`${PARENT}/reportConfigs/c1/reports/r1`, undefined]]);
    await locations.reportConfigs.delete({ name: `${PARENT}/reportConfigs/c1`, force: true });
    await locations.groups.delete({ name: `${PARENT}/groups/all` });
    expect((await locations.assets.get({ name: assetOf('m-1') })).data.assignedGroups).toBeUndefined();
  });
});
