/**
 * planning-model.js (the computing of the console's groups, preference sets and reports views)
 * without a browser: run as the browser runs it, after constants.js and kit.js, in a `vm` context
 * with a fake window. The report summary is the one the reports test works out by hand for five
 * machines (tests/backend-emulator/migrationcenter/reports.test.ts), written out as literals.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';

const STATIC = path.join(__dirname, '..', '..', '..', 'backend-emulator', 'console', 'static');
const GIB = 1024 ** 3;

type Fn = (...args: never[]) => any;

function loadPlanning(): Record<string, Fn> {
  const window: Record<string, unknown> = {
    addEventListener: () => {},
    location: { origin: 'http://127.0.0.1:8085', hash: '', pathname: '/', search: '' },
    document: { readyState: 'loading', addEventListener: () => {}, getElementById: () => null },
    sessionStorage: { getItem: () => null, setItem: () => {}, removeItem: () => {} },
    history: { replaceState: () => {} },
    URL,
    URLSearchParams,
  };
  window.window = window;
  const context = vm.createContext(window);
  for (const file of ['constants.js', 'kit.js', 'planning-model.js']) {
    vm.runInContext(fs.readFileSync(path.join(STATIC, file), 'utf8'), context, { filename: file });
  }
  return (window.GNL as { planning: Record<string, Fn> }).planning;
}

const P = loadPlanning();
const call = (name: string, ...args: unknown[]) => JSON.parse(JSON.stringify((P[name] as (...a: unknown[]) => unknown)(...args)));

/** The all-assets stats of the five machines (reports.test.ts): 31 cores, 122 GiB, 1,820 GiB of disk, 450 used. */
const STATS = {
  totalAssets: '5',
  totalCores: '31',
  totalMemoryBytes: String(122 * GIB),
  totalStorageBytes: String(1820 * GIB),
  coreCountHistogram: {
    buckets: [
      { upperBound: '2', count: '1' },
      { lowerBound: '2', upperBound: '4', count: '1' },
      { lowerBound: '4', upperBound: '8', count: '1' },
      { lowerBound: '8', upperBound: '16', count: '1' },
      { lowerBound: '16', upperBound: '32', count: '1' },
      { lowerBound: '32', upperBound: '64' },
      { lowerBound: '64', upperBound: '128' },
      { lowerBound: '128' },
    ],
  },
  memoryBytesHistogram: { buckets: [{ upperBound: String(2 * GIB) }, { lowerBound: String(2 * GIB), upperBound: String(4 * GIB), count: '1' }] },
  storageBytesHistogram: {
    buckets: [
      { upperBound: String(50 * GIB), count: '1' },
      { lowerBound: String(10000 * GIB), count: '2' },
    ],
  },
  memoryUtilizationChart: { used: String(122 * GIB) },
  storageUtilizationChart: { used: String(450 * GIB), free: String(1370 * GIB) },
  operatingSystem: {
    dataPoints: [{ label: 'OS_FAMILY_LINUX', value: 3 }, { label: 'OS_FAMILY_WINDOWS', value: 2 }, { label: 'OS_FAMILY_UNKNOWN' }],
  },
};

describe('planning-model.js, without a browser', () => {
  test('sizes in GiB, totals in one line', () => {
    expect([call('gib', String(122 * GIB)), call('gib', 1.5 * GIB), call('gib', undefined), call('gib', String(1820 * GIB))]).toEqual([
      '122 GiB',
      '1.5 GiB',
      '0 GiB',
      '1,820 GiB',
    ]);
    expect(call('totalsText', STATS)).toBe('5 assets · 31 cores · 122 GiB of memory · 1,820 GiB of storage');
    expect(call('totalsText', { totalAssets: '1', totalCores: '1' })).toBe('1 asset · 1 core · 0 GiB of memory · 0 GiB of storage');
  });

  test("a report summary's stats as chart series: histograms, utilisation, OS breakdown", () => {
    const charts = call('reportCharts', STATS);
    expect(charts.map((c: { id: string; title: string }) => [c.id, c.title])).toEqual([
      ['cores', 'Cores per machine'],
      ['memory', 'Memory per machine'],
      ['storage', 'Storage per machine'],
      ['memory-use', 'Memory utilisation'],
      ['storage-use', 'Storage utilisation'],
      ['os', 'Operating systems'],
    ]);
    expect(charts[0].bars).toEqual([
      { label: '< 2', value: 1 },
      { label: '2–4', value: 1 },
      { label: '4–8', value: 1 },
      { label: '8–16', value: 1 },
      { label: '16–32', value: 1 },
      { label: '32–64', value: 0 },
      { label: '64–128', value: 0 },
      { label: '≥ 128', value: 0 },
    ]);
    expect(charts[1].bars).toEqual([
      { label: '< 2 GiB', value: 0 },
      { label: '2–4 GiB', value: 1 },
    ]);
    expect(charts[2].bars).toEqual([
      { label: '< 50 GiB', value: 1 },
      { label: '≥ 10,000 GiB', value: 2 },
    ]);
    expect(charts[3].bars).toEqual([
      { label: 'Used', value: 122, text: '122 GiB (100%)' },
      { label: 'Free', value: 0, text: '0 GiB (0%)' },
    ]);
    expect(charts[4].bars).toEqual([
      { label: 'Used', value: 450, text: '450 GiB (25%)' },
      { label: 'Free', value: 1370, text: '1,370 GiB (75%)' },
    ]);
    expect(charts[5].bars).toEqual([
      { label: 'Linux', value: 3 },
      { label: 'Windows', value: 2 },
      { label: 'Unknown', value: 0 },
    ]);
    // An empty summary draws empty charts, and utilisation of nothing has no share.
    expect(call('reportCharts', undefined)[3].bars).toEqual([
      { label: 'Used', value: 0, text: '0 GiB' },
      { label: 'Free', value: 0, text: '0 GiB' },
    ]);
  });

  test('findings as rows: group, preference set, region, allocated of how many, machine series', () => {
    const summary = {
      groupFindings: [
        {
          group: 'projects/p/locations/l/groups/web',
          displayName: 'Web tier',
          assetAggregateStats: { totalAssets: '3' },
          preferenceSetFindings: [
            {
              displayName: 'Moderate',
              preferenceSet: { name: 'projects/p/locations/l/preferenceSets/moderate' },
              preferredRegion: 'europe-west1',
              machineFinding: {
                allocatedAssetCount: '3',
                machineSeriesAllocations: [
                  { machineSeries: { code: 'N2' }, allocatedAssetCount: '2' },
                  { machineSeries: { code: 'E2' }, allocatedAssetCount: '1' },
                ],
              },
            },
            { preferenceSet: { name: 'projects/p/locations/l/preferenceSets/vmware' }, preferredRegion: 'us-central1' },
          ],
        },
      ],
    };
    expect(call('findingRows', summary)).toEqual([
      {
        group: 'projects/p/locations/l/groups/web',
        groupTitle: 'Web tier',
        preferenceSet: 'projects/p/locations/l/preferenceSets/moderate',
        preferenceSetTitle: 'Moderate',
        region: 'europe-west1',
        allocated: '3 of 3 assets',
        series: 'N2 2, E2 1',
      },
      {
        group: 'projects/p/locations/l/groups/web',
        groupTitle: 'Web tier',
        preferenceSet: 'projects/p/locations/l/preferenceSets/vmware',
        preferenceSetTitle: 'vmware',
        region: 'us-central1',
        allocated: 'not sized (no machine finding)',
        series: '',
      },
    ]);
    expect(call('findingRows', {})).toEqual([]);
  });

  test("a preference set's fields as rows: nested paths, enum values in words from the schema", () => {
    expect(
      call(
        'preferenceRows',
        {
          targetProduct: 'COMPUTE_MIGRATION_TARGET_PRODUCT_COMPUTE_ENGINE',
          commitmentPlan: 'COMMITMENT_PLAN_ONE_YEAR',
          sizingOptimizationStrategy: 'SIZING_OPTIMIZATION_STRATEGY_SAME_AS_SOURCE',
          computeEnginePreferences: {
            machinePreferences: { allowedMachineSeries: [{ code: 'N2' }, { code: 'E2' }] },
            licenseType: 'LICENSE_TYPE_BRING_YOUR_OWN_LICENSE',
          },
          vmwareEnginePreferences: { commitmentPlan: 'ON_DEMAND', cpuOvercommitRatio: 1.5 },
          regionPreferences: { preferredRegions: ['europe-west1', 'us-central1'] },
        },
        '',
      ),
    ).toEqual([
      ['Target product', 'Compute engine'],
      ['Commitment plan', 'One year'],
      ['Sizing optimization strategy', 'Same as source'],
      ['Compute engine preferences › Machine preferences › Allowed machine series', 'N2, E2'],
      ['Compute engine preferences › License type', 'Bring your own license'],
      ['Vmware engine preferences › Commitment plan', 'On demand'],
      ['Vmware engine preferences › Cpu overcommit ratio', '1.5'],
      ['Region preferences › Preferred regions', 'europe-west1, us-central1'],
    ]);
    expect(call('enumWord', 'COMMITMENT_PLAN_UNSPECIFIED')).toBe('Unspecified');
    expect(call('enumWord', 'SOMETHING_NEW')).toBe('SOMETHING_NEW');
  });

  test("requests of a group's assets: the assignedGroups filter, page size and token", () => {
    const group = 'projects/p/locations/l/groups/web';
    expect(call('groupAssetsQuery', group, 50, 'tok')).toEqual({ filter: `assignedGroups:"${group}"`, pageSize: 50, pageToken: 'tok' });
    expect(call('groupAssetsQuery', group, 50)).toEqual({ filter: `assignedGroups:"${group}"`, pageSize: 50, pageToken: '' });
    expect(call('groupCountBody', group)).toEqual({ aggregations: [{ field: 'name', count: {} }], filter: `assignedGroups:"${group}"` });
  });

  test('paging over page tokens: the page asked is clamped to the pages seen; an answer teaches the next token', () => {
    expect(call('pageAt', [''], '3')).toEqual({ page: 0, token: '' });
    expect(call('pageAt', ['', 't1', 't2'], '1')).toEqual({ page: 1, token: 't1' });
    expect(call('pageAt', ['', 't1'], 'x')).toEqual({ page: 0, token: '' });
    expect(call('pageAt', ['', 't1'], '-2')).toEqual({ page: 0, token: '' });
    expect(call('learnPage', [''], 0, 't1')).toEqual(['', 't1']);
    expect(call('learnPage', ['', 't1', 'old'], 1, 't2')).toEqual(['', 't1', 't2']);
    expect(call('learnPage', ['', 't1', 't2'], 1, undefined)).toEqual(['', 't1']);
  });
});
