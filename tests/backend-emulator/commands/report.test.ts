/**
 * `google-native-local report` against a listening emulator: five hand-made machines imported
 * through the REST wire, a preference set as the location's default, a group of three of them
 * (tests/support/mc-inventory.ts, seedPlanningInventory). The figures printed are worked out by
 * hand from the machines' table (expected values are literals).
 */
import { startEmulator, type RunningEmulator } from '../../../backend-emulator';
import { reportCommand, defaultReportId } from '../../../backend-emulator/commands/report';
import { main } from '../../../backend-emulator/commands/main';
import { seedPlanningInventory } from '../../support/mc-inventory';
import { textSink } from '../../support/text-sink';
import { restApi } from '../../support/rest-api';

jest.setTimeout(60_000);

const PARENT = 'projects/cli-report/locations/us-central1';
const MODERATE = `${PARENT}/preferenceSets/moderate`;
const WEB = `${PARENT}/groups/web`;

let emulator: RunningEmulator;

const api = restApi(() => emulator.url);

async function run(args: string[]): Promise<{ code: number; text: string; stderr: string }> {
  const out = textSink();
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    const code = await reportCommand(args, out, { GOOGLE_NATIVE_LOCAL_ENDPOINT: emulator.url });
    return { code, text: out.text, stderr: stderr.mock.calls.map((c) => String(c[0])).join('') };
  } finally {
    stderr.mockRestore();
  }
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent' });
  await seedPlanningInventory(api, PARENT);
}, 60_000);
afterAll(() => emulator?.close());

describe('google-native-local report', () => {
  it('no group: a new group of every asset, the default preference set, and the summary in plain text', async () => {
    const { code, text } = await run(['--project', 'cli-report', '--location', 'us-central1', '--id', 'everything']);
    // 2+4+8+16+1 cores; 8+16+32+64+2 GiB of memory (no performance data: all used); 100+200+500+1000+20
    // GiB of disk with 60+150+400+750+10 GiB free. Moderate with no estimated usage sizes each machine
    // as it is, N2 before E2 on ties: every machine fits an N2 shape (2/2, 2/8, 4/16, 8/32, 16/64).
    const stats = [
      '  Memory used: 122 GiB of 122 GiB (100%)',
      '  Storage used: 450 GiB of 1,820 GiB (25%)',
      '  Operating systems: OS_FAMILY_LINUX 3, OS_FAMILY_WINDOWS 2',
      '  Cores per machine: 0-2: 1, 2-4: 1, 4-8: 1, 8-16: 1, 16-32: 1',
      '  Memory per machine: 2-4 GiB: 1, 8-16 GiB: 1, 16-32 GiB: 1, 32-64 GiB: 1, 64-128 GiB: 1',
      '  Storage per machine: 0-50 GiB: 1, 100-250 GiB: 2, 500-1,000 GiB: 1, 1,000-2,000 GiB: 1',
    ];
    expect(text).toBe(
      [
        `created group ${PARENT}/groups/everything (5 assets)`,
        `created report config ${PARENT}/reportConfigs/everything (1 group, preference set ${MODERATE})`,
        `report ${PARENT}/reportConfigs/everything/reports/everything: SUCCEEDED`,
        'All assets: 5 assets, 31 cores, 122 GiB of memory, 1,820 GiB of storage',
        ...stats,
        '',
        `Group ${PARENT}/groups/everything (All assets (everything)): 5 assets, 31 cores, 122 GiB of memory, 1,820 GiB of storage`,
        ...stats,
        `  Preference set ${MODERATE} (Moderate): region europe-west1, 5 of 5 assets allocated (N2 5)`,
        '',
      ].join('\n'),
    );
    expect(code).toBe(0);
    const members = await api<{ assets: Array<{ name: string }> }>(
      'GET',
      `/v1alpha1/${PARENT}/assets?filter=${encodeURIComponent(`assignedGroups:"${PARENT}/groups/everything"`)}`,
    );
    expect(members.assets.map((a) => a.name.slice(a.name.lastIndexOf('/') + 1)).sort()).toEqual(['vm-m-1', 'vm-m-2', 'vm-m-3', 'vm-m-4', 'vm-m-5']);
  });

  it('--group and --preference-set by id, --json: standard output is the Report (FULL view) alone', async () => {
    const { code, text, stderr } = await run([
      '--project',
      'cli-report',
      '--location',
      'us-central1',
      '--group',
      'web',
      '--preference-set',
      'moderate',
      '--id',
      'web-only',
      '--json',
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(text);
    expect(report).toMatchObject({ name: `${PARENT}/reportConfigs/web-only/reports/web-only`, state: 'SUCCEEDED', type: 'TOTAL_COST_OF_OWNERSHIP' });
    // m-1, m-2, m-5: 2+4+1 cores, 8+16+2 GiB.
    expect(report.summary.allAssetsStats).toMatchObject({ totalAssets: '3', totalCores: '7', totalMemoryBytes: String(26 * 1024 ** 3) });
    expect(report.summary.groupFindings.map((g: { group: string }) => g.group)).toEqual([WEB]);
    expect(report.summary.groupFindings[0].preferenceSetFindings[0].preferenceSet.name).toBe(MODERATE);
    expect(stderr).toContain(`created report config ${PARENT}/reportConfigs/web-only (1 group, preference set ${MODERATE})`);
    expect((await api('GET', `/v1alpha1/${PARENT}/reportConfigs/web-only`)).groupPreferencesetAssignments).toEqual([{ group: WEB, preferenceSet: MODERATE }]);
  });

  it('no preference set given and none in the settings: exits 1 saying so, and creates nothing', async () => {
    const { code, stderr } = await run(['--project', 'cli-report', '--location', 'europe-west1', '--id', 'nothing']);
    expect(code).toBe(1);
    expect(stderr).toContain(
      "google-native-local report: the settings of projects/cli-report/locations/europe-west1 name no preference set: give --preference-set, or set the location's default",
    );
    expect(await api('GET', '/v1alpha1/projects/cli-report/locations/europe-west1/groups')).toEqual({});
    expect(await api('GET', '/v1alpha1/projects/cli-report/locations/europe-west1/reportConfigs')).toEqual({});
  });

  it('a group that does not exist: exits 1 naming it, before creating anything', async () => {
    const { code, stderr } = await run(['--project', 'cli-report', '--location', 'us-central1', '--group', 'nope', '--id', 'missing-group']);
    expect(code).toBe(1);
    expect(stderr).toContain(`group ${PARENT}/groups/nope does not exist`);
    await expect(api('GET', `/v1alpha1/${PARENT}/reportConfigs/missing-group`)).rejects.toThrow(/404/);
  });

  it('exits 2 on bad usage, naming the flag', async () => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await main(['report', '--location', 'us-central1'])).toBe(2);
      expect(await main(['report', '--project', 'p', '--location', 'l', '--group', 'projects/other/locations/l/groups/g'])).toBe(2);
      expect(await main(['report', '--project', 'p', '--location', 'l', '--id', 'Bad_Id'])).toBe(2);
      expect(await main(['report', '--project', 'p', '--location', 'l', 'extra'])).toBe(2);
      const said = stderr.mock.calls.map((c) => String(c[0])).join('');
      expect(said).toContain('--project is required');
      expect(said).toContain("--group 'projects/other/locations/l/groups/g' is not an id (a resource id) nor projects/p/locations/l/groups/{id}");
      expect(said).toContain("--id 'Bad_Id' is not a resource id");
      expect(said).toContain("report takes no arguments, only options (got 'extra')");
    } finally {
      stderr.mockRestore();
    }
  });

  it('the default id is report-YYYYMMDD-HHMMSS in UTC', () => {
    expect(defaultReportId(new Date('2026-11-25T23:04:05.678Z'))).toBe('report-20261125-230405');
  });
});
