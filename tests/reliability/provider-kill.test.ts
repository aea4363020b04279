/**
 * The embedded backend under SIGKILL: the dynamic-provider host (the process the Pulumi engine
 * starts, driven over gRPC by support/harness) is killed while an ImportJob create is under way
 * (create, validate, run of a 30,000-row storage payload). The next host on the same program
 * folder must open the store (the dead host's lock file is taken over), read everything the killed
 * one had acknowledged, and find the interrupted job in a final state, never VALIDATING or RUNNING.
 */
import * as fs from 'fs';
import * as path from 'path';
import { prng } from '../../bench/reliability';
import { testSeed } from '../support/seeds';
import { createTestProgram, type TestProgram } from '../../support/harness/program';
import { dynamicUrn, HostCallError, startProviderHost, type ProviderHost } from '../../support/harness/provider-host';
import { isProcessAlive, readLockFile } from '../../backend-emulator/store/lock';

jest.setTimeout(240_000);

type LazyProviderModule = typeof import('../../provider/lazy-provider');

const PROJECT = 'killed-project';
const ROWS = 30_000;
const ROUNDS = 3;
const POLICY_URN = dynamicUrn('networkservices/v1:EndpointPolicy', 'ep');
const JOB_URN = dynamicUrn('migrationcenter/v1alpha1:ImportJob', 'job');
const SOURCE_URN = dynamicUrn('migrationcenter/v1alpha1:Source', 'source');
const MATCHER = { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY', metadataLabels: [{ labelName: 'app', labelValue: 'web' }] } };

let program: TestProgram;
let serialized: { policy: string; job: string; source: string };
let dataDir: string;
const hosts: ProviderHost[] = [];

beforeAll(async () => {
  program = await createTestProgram();
  const lazy = program.requirePackage<LazyProviderModule>('dist/provider/lazy-provider');
  serialized = {
    policy: lazy.providerModuleText('endpoint-policy-impl'),
    job: lazy.providerModuleText('import-job-impl'),
    source: lazy.providerModuleText('source-impl'),
  };
  dataDir = path.join(program.dir, '.google-native-local');
  // The embedded emulator reads storage payloads from <data dir>/storage/<bucket>/...
  const bucket = path.join(dataDir, 'storage', 'imports');
  fs.mkdirSync(bucket, { recursive: true });
  const lines = ['MachineId,MachineName,PrimaryIPAddress,AllocatedProcessorCoreCount,MemoryGiB,OsName\n'];
  for (let i = 0; i < ROWS; i++) lines.push(`m-${i},vm-${i},10.1.${(i >> 8) & 255}.${i & 255},2,8,Ubuntu\n`);
  fs.writeFileSync(path.join(bucket, 'vmInfo.csv'), lines.join(''));
}, 180_000);

afterAll(async () => {
  for (const h of hosts) await h.close().catch(() => undefined);
  program?.cleanup();
});

async function startHost(): Promise<ProviderHost> {
  // No endpoint configured: the embedded backend, with its store under <program>/.google-native-local.
  const host = await startProviderHost({ cwd: program.dir, provider: serialized.policy, project: 'killed', env: { GOOGLE_NATIVE_LOCAL_ENDPOINT: undefined } });
  hosts.push(host);
  await host.configure({ 'google-native-local:project': PROJECT });
  return host;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test(`${ROUNDS} hosts killed with SIGKILL mid-create: the next run takes the stale lock over and reads every acknowledged resource; interrupted jobs end FAILED or FAILED_VALIDATION`, async () => {
  // Printed; replay with TEST_SEED=<seed> (RELIABILITY_SEED is still read, as before).
  const random = prng(process.env.RELIABILITY_SEED ? Number(process.env.RELIABILITY_SEED) : testSeed('kill moments'));
  const acknowledged: Array<{ id: string; properties: Record<string, unknown> }> = [];
  const jobs: string[] = [];
  const outcomes: string[] = [];
  for (let round = 1; round <= ROUNDS + 1; round++) {
    const host = await startHost();

    // Everything the killed hosts acknowledged is readable (the first call opens the store).
    for (const policy of acknowledged) {
      const read = await host.read(policy.id, POLICY_URN, policy.properties);
      expect(read.id).toBe(policy.id);
      expect(read.properties).toMatchObject({ endpointPolicyId: policy.properties.endpointPolicyId, type: 'GRPC_SERVER' });
    }
    // The stale lock file of the dead host was replaced by this one's.
    if (acknowledged.length > 0) expect(readLockFile(dataDir)?.pid).toBe(host.pid);
    host.provider = serialized.job;
    for (const id of jobs) {
      const read = await host.read(id, JOB_URN, {});
      if (read.id === '') {
        outcomes.push('not created before the kill');
        continue;
      }
      const state = read.properties.state as string;
      expect([
        'IMPORT_JOB_STATE_PENDING',
        'IMPORT_JOB_STATE_READY',
        'IMPORT_JOB_STATE_FAILED_VALIDATION',
        'IMPORT_JOB_STATE_COMPLETED',
        'IMPORT_JOB_STATE_FAILED',
      ]).toContain(state);
      if (state === 'IMPORT_JOB_STATE_FAILED') {
        const report = read.properties.executionReport as { executionErrors: { jobErrors: Array<{ errorDetails: string }> } };
        expect(report.executionErrors.jobErrors[0].errorDetails).toBe('interrupted: the emulator stopped while this job was IMPORT_JOB_STATE_RUNNING');
      }
      if (state === 'IMPORT_JOB_STATE_FAILED_VALIDATION') {
        const report = read.properties.validationReport as { jobErrors: Array<{ errorDetails: string }> };
        expect(report.jobErrors[0].errorDetails).toBe('interrupted: the emulator stopped while this job was IMPORT_JOB_STATE_VALIDATING');
      }
      outcomes.push(state);
    }
    jobs.splice(0);
    if (round > ROUNDS) {
      await host.close();
      break;
    }

    // An acknowledged create, then a long one killed part way.
    host.provider = serialized.policy;
    const checked = await host.check(POLICY_URN, {}, { endpointPolicyId: `ep-${round}`, type: 'GRPC_SERVER', endpointMatcher: MATCHER });
    expect(checked.failures).toEqual([]);
    acknowledged.push(await host.create(POLICY_URN, checked.inputs));
    expect(readLockFile(dataDir)?.pid).toBe(host.pid);

    // The job's source first: assetSource must name an existing source.
    host.provider = serialized.source;
    const source = await host.check(SOURCE_URN, {}, { sourceId: `src-${round}` });
    expect(source.failures).toEqual([]);
    await host.create(SOURCE_URN, source.inputs);

    host.provider = serialized.job;
    const job = await host.check(
      JOB_URN,
      {},
      {
        importJobId: `job-${round}`,
        assetSource: `projects/${PROJECT}/locations/global/sources/src-${round}`,
        gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://imports/vmInfo.csv' },
      },
    );
    expect(job.failures).toEqual([]);
    jobs.push(`projects/${PROJECT}/locations/global/importJobs/job-${round}`);
    const creating = host.create(JOB_URN, job.inputs).then(
      () => 'finished before the kill',
      (err: unknown) => (err instanceof HostCallError ? `host gone (${err.codeName})` : String(err)),
    );
    await sleep(50 + random() * 1500);
    const pid = host.pid!;
    process.kill(pid, 'SIGKILL');
    const outcome = await creating;
    expect(outcome).toMatch(/^(finished before the kill|host gone)/);
    await host.close();
    expect(isProcessAlive(pid)).toBe(false);
    // The lock file still names the dead host: the next run must take it over.
    expect(readLockFile(dataDir)?.pid).toBe(pid);
  }
  expect(outcomes).toHaveLength(ROUNDS);
  console.log(`provider host kills: jobs found as ${outcomes.join(', ')}`);
});
