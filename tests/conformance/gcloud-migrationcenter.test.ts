/**
 * gcloud and Migration Center. The installed gcloud (checked with 528.0.0) has no Migration Center
 * at all: no `migration-center` command group in GA, alpha or beta, no generated client, and so
 * no `api_endpoint_overrides/migrationcenter` property to point at the emulator. The first test
 * records that, so that a gcloud which gains the commands fails here and gets them tested.
 *
 * What gcloud does reach is the path Migration Center v1 shares with Network Services: with both
 * services on one emulator URL, `gcloud network-services` waits on its operations and lists them
 * at `/v1/projects/*\/locations/global/operations`, where Migration Center v1 operations live too.
 * gcloud reaches the emulator through `api_endpoint_overrides/networkservices`, with credentials
 * disabled, in a configuration folder of its own; without gcloud the tests are a reported skip.
 */
import { execFile, execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { google } from 'googleapis-latest';
import { startEmulator, type RunningEmulator } from '../../backend-emulator';

const GCLOUD = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v gcloud'], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
})();

let emulator: RunningEmulator;
let configDir: string;

/** Runs gcloud without blocking: the emulator answers from this very process. */
function gcloud(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      GCLOUD,
      [...args, '--quiet'],
      {
        encoding: 'utf8',
        timeout: 90_000,
        env: {
          ...process.env,
          CLOUDSDK_CONFIG: configDir,
          CLOUDSDK_CORE_PROJECT: 'p1',
          CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSERVICES: `${emulator.url}/`,
          CLOUDSDK_AUTH_DISABLE_CREDENTIALS: 'true',
          CLOUDSDK_CORE_DISABLE_PROMPTS: '1',
          CLOUDSDK_CORE_DISABLE_USAGE_REPORTING: 'true',
          CLOUDSDK_COMPONENT_MANAGER_DISABLE_UPDATE_CHECK: 'true',
        },
      },
      (err, stdout, stderr) => resolve({ status: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

(GCLOUD ? describe : describe.skip)(`gcloud and Migration Center${GCLOUD ? '' : ' (skipped: gcloud is not installed)'}`, () => {
  jest.setTimeout(240_000);

  beforeAll(async () => {
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-gcloud-mc-'));
    emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent' });
  });
  afterAll(async () => {
    await emulator?.close();
    fs.rmSync(configDir, { recursive: true, force: true });
  });

  test('the installed gcloud has no Migration Center commands and no endpoint override for it', async () => {
    for (const track of [[], ['alpha'], ['beta']]) {
      const res = await gcloud(...track, 'migration-center', '--help');
      expect(res.status).not.toBe(0);
      expect(res.stderr).toContain("Invalid choice: 'migration-center'");
    }
    const override = await gcloud('config', 'set', 'api_endpoint_overrides/migrationcenter', `${emulator.url}/`);
    expect(override.status).not.toBe(0);
    expect(override.stderr).toContain('Section [api_endpoint_overrides] has no property [migrationcenter]');
  });

  test('gcloud network-services waits on and lists its operations where Migration Center v1 keeps operations too', async () => {
    // A Migration Center v1 operation in `global`, before and beside Network Services' own.
    const mc = google.migrationcenter({ version: 'v1', rootUrl: `${emulator.url}/`, retry: false, fetchImplementation: fetch });
    const { data: mcOp } = await mc.projects.locations.sources.create({ parent: 'projects/p1/locations/global', sourceId: 'src' });
    expect(mcOp.done).toBe(true);

    const source = path.join(configDir, 'ep.yaml');
    fs.writeFileSync(
      source,
      ['name: ep1', 'type: SIDECAR_PROXY', 'endpointMatcher:', '  metadataLabelMatcher:', '    metadataLabelMatchCriteria: MATCH_ANY', ''].join('\n'),
    );
    const imported = await gcloud('network-services', 'endpoint-policies', 'import', 'ep1', `--source=${source}`, '--location=global');
    expect({ status: imported.status, stderr: imported.status === 0 ? '' : imported.stderr }).toEqual({ status: 0, stderr: '' });

    const listed = await gcloud('network-services', 'operations', 'list', '--location=global', '--format=json');
    expect(listed.status).toBe(0);
    const operations = JSON.parse(listed.stdout) as Array<{ name: string; metadata: { '@type': string; target: string } }>;
    // Network Services' operation only: none of Migration Center's, though it shares the path.
    expect(operations.map((o) => [o.metadata['@type'], o.metadata.target])).toEqual([
      ['type.googleapis.com/google.cloud.networkservices.v1.OperationMetadata', 'projects/p1/locations/global/endpointPolicies/ep1'],
    ]);
    expect(operations.map((o) => o.name)).not.toContain(mcOp.name);
  });
});
