/**
 * Google's own command line, `gcloud network-services endpoint-policies`, as a second real client
 * of the emulator's wire (beside `googleapis`): its requests, its Operation polling, its error
 * rendering. gcloud reaches the emulator through `api_endpoint_overrides/networkservices`, with
 * credentials disabled, in a configuration folder of its own.
 */
import { execFile, execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
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
      [...args, '--project=p1', '--quiet'],
      {
        encoding: 'utf8',
        timeout: 60_000,
        env: {
          ...process.env,
          CLOUDSDK_CONFIG: configDir,
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

(GCLOUD ? describe : describe.skip)('gcloud network-services endpoint-policies', () => {
  jest.setTimeout(120_000);

  beforeAll(async () => {
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-gcloud-'));
    emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent', builtinServices: ['networkservices'] });
  });
  afterAll(async () => {
    await emulator?.close();
    fs.rmSync(configDir, { recursive: true, force: true });
  });

  test('import (create, waiting on the Operation), describe, list, delete', async () => {
    const source = path.join(configDir, 'ep.yaml');
    fs.writeFileSync(
      source,
      [
        'name: ep1',
        'type: SIDECAR_PROXY',
        'description: from gcloud',
        'labels:',
        '  env: test',
        'endpointMatcher:',
        '  metadataLabelMatcher:',
        '    metadataLabelMatchCriteria: MATCH_ANY',
        '    metadataLabels:',
        '    - labelName: app',
        '      labelValue: web',
        '',
      ].join('\n'),
    );
    const imported = await gcloud('network-services', 'endpoint-policies', 'import', 'ep1', `--source=${source}`, '--location=global');
    expect({ status: imported.status, stderr: imported.status === 0 ? '' : imported.stderr }).toEqual({ status: 0, stderr: '' });

    const described = await gcloud('network-services', 'endpoint-policies', 'describe', 'ep1', '--location=global', '--format=json');
    expect(described.status).toBe(0);
    expect(JSON.parse(described.stdout)).toMatchObject({
      name: 'projects/p1/locations/global/endpointPolicies/ep1',
      type: 'SIDECAR_PROXY',
      description: 'from gcloud',
      labels: { env: 'test' },
      endpointMatcher: { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY', metadataLabels: [{ labelName: 'app', labelValue: 'web' }] } },
    });

    const listed = await gcloud('network-services', 'endpoint-policies', 'list', '--location=global', '--format=value(name)');
    expect(listed.stdout.trim().split('\n')).toEqual(['ep1']);

    const deleted = await gcloud('network-services', 'endpoint-policies', 'delete', 'ep1', '--location=global');
    expect(deleted.status).toBe(0);
    const gone = await gcloud('network-services', 'endpoint-policies', 'list', '--location=global', '--format=value(name)');
    expect(gone.stdout.trim()).toBe('');
  });

  test("gcloud renders the emulator's errors as Google's: NOT_FOUND with ResourceInfo, INVALID_ARGUMENT with the field", async () => {
    const missing = await gcloud('network-services', 'endpoint-policies', 'describe', 'nope', '--location=global');
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toMatch(/NOT_FOUND: .*projects\/p1\/locations\/global\/endpointPolicies\/nope/);
    expect(missing.stderr).toContain('type.googleapis.com/google.rpc.ResourceInfo');

    const elsewhere = await gcloud('network-services', 'endpoint-policies', 'describe', 'ep1', '--location=us-central1');
    expect(elsewhere.status).not.toBe(0);
    expect(elsewhere.stderr).toMatch(/INVALID_ARGUMENT: .*global/);
    expect(elsewhere.stderr).toMatch(/field: name/);
  });
});
