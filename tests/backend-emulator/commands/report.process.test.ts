/**
 * `google-native-local report` as users run it: the compiled command, spawned, against a
 * listening emulator seeded with the planning inventory (tests/support/mc-inventory.ts; the same
 * five machines as report.test.ts, which runs the command in-process). A `.process` test: it starts
 * the compiled package, so `test:quick` leaves it to `npm test`.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../backend-emulator';
import { compiledPackage, ROOT } from '../../../support/compiled';
import { seedPlanningInventory } from '../../support/mc-inventory';
import { restApi } from '../../support/rest-api';

const PARENT = 'projects/cli-report/locations/us-central1';
const MODERATE = `${PARENT}/preferenceSets/moderate`;
const WEB = `${PARENT}/groups/web`;

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent' });
  await seedPlanningInventory(
    restApi(() => emulator.url),
    PARENT,
  );
}, 60_000);
afterAll(() => emulator?.close());

describe('the compiled command, spawned', () => {
  let main: string;
  // One build per source state (support/compiled.ts), shared with the other CLI tests.
  beforeAll(() => {
    main = path.join(compiledPackage(), 'backend-emulator', 'commands', 'main.js');
  }, 300_000);

  it('google-native-local report: prints the summary of the group and exits 0', async () => {
    const args = ['report', '--project', 'cli-report', '--location', 'us-central1', '--group', WEB, '--preference-set', MODERATE, '--id', 'spawned'];
    const child = spawn(process.execPath, [main, ...args], { cwd: ROOT, env: { ...process.env, GOOGLE_NATIVE_LOCAL_ENDPOINT: emulator.url }, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    // m-1, m-2, m-5: 2+4+1 cores, 8+16+2 GiB, 100+200+20 GiB of disk (40+50+10 used); each fits an N2 shape.
    expect(stdout.split('\n').slice(0, 4)).toEqual([
      `created report config ${PARENT}/reportConfigs/spawned (1 group, preference set ${MODERATE})`,
      `report ${PARENT}/reportConfigs/spawned/reports/spawned: SUCCEEDED`,
      'All assets: 3 assets, 7 cores, 26 GiB of memory, 320 GiB of storage',
      '  Memory used: 26 GiB of 26 GiB (100%)',
    ]);
    expect(stdout).toContain(`  Preference set ${MODERATE} (Moderate): region europe-west1, 3 of 3 assets allocated (N2 3)\n`);
  }, 60_000);

  it("help report prints the command's usage", async () => {
    const child = spawn(process.execPath, [main, 'help', 'report'], { cwd: ROOT, stdio: 'pipe' });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    expect(await new Promise<number | null>((resolve) => child.on('exit', resolve))).toBe(0);
    expect(stdout).toMatch(/^Usage: google-native-local report --project PROJECT --location LOCATION/);
  }, 60_000);
});
