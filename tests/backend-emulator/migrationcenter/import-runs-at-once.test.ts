/**
 * Two `:run`s at once on a data dir (each written by its own writer thread and connection, holding
 * a transaction across batches: run-writer-worker.ts), beside a user's writes, a `:validate` and a
 * `:cancel`: the runs take turns (writer-turn.ts), so both end COMPLETED with every asset and their
 * reports right, none fails with SQLITE_BUSY, and requests are answered meanwhile.
 */
import type { FastifyInstance } from 'fastify';
import * as fs from 'fs';
import { RUN_BATCH_SIZE } from '../../../backend-emulator/migrationcenter/import-jobs/import-job-work';
import {
  BASE,
  PARENT,
  VM_HEADER,
  call,
  createJob,
  csv,
  ensureSource,
  inlinePayload,
  jobName,
  newApp,
  ok,
  tempDir,
  vmRow,
  waitOperation,
} from '../../support/migrationcenter';
import { MATCHER } from '../../support/networkservices';

// Two large runs and their validations on a loaded 2-core machine.
jest.setTimeout(300_000);

/** Each run's assets: past a hold's 20,000 (run-writer-worker.ts, HOLD_ROWS) and the size that defers indexes (run-writer.ts). */
const ROWS = 30_000;
const SOURCE = `${PARENT}/sources/s`;
const POLICY = 'projects/p1/locations/global/endpointPolicies/ep';

let app: FastifyInstance;
let dataDir: string;
beforeEach(() => {
  dataDir = tempDir('mc-runs-at-once-');
  app = newApp({ dataDir, inMemory: false });
});
afterEach(async () => {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** `n` machines whose ids start with `prefix`. */
const machines = (prefix: string, n: number) => csv(VM_HEADER, ...Array.from({ length: n }, (_, i) => vmRow(`${prefix}-${i}`, `${prefix}-vm-${i}`)));

const getJob = async (id: string) => ok(await call(app, 'GET', `/v1alpha1/${jobName(id)}`));
const start = async (id: string, verb: 'validate' | 'run') => ok(await call(app, 'POST', `/v1alpha1/${jobName(id)}:${verb}`, {})).name as string;

/** Jobs of `rows` machines each, validated (READY). */
async function readyJobs(ids: string[], rows: number): Promise<void> {
  await ensureSource(app, SOURCE);
  for (const id of ids) ok(await createJob(app, id, { assetSource: SOURCE, inlinePayload: inlinePayload({ 'vmInfo.csv': machines(id, rows) }) }));
  const validations = await Promise.all(ids.map((id) => start(id, 'validate')));
  for (const name of validations) expect((await waitOperation(app, name, 240_000)).error).toBeUndefined();
  for (const id of ids) expect((await getJob(id)).state).toBe('IMPORT_JOB_STATE_READY');
}

/** A completed run's report of `rows` rows of vmInfo.csv, as the wire gives it (ProtoJSON: no empty lists). */
const completedReport = (rows: number) => ({ framesReported: rows, totalRowsCount: rows, executionErrors: { fileValidations: [{ fileName: 'vmInfo.csv' }] } });

test('two runs at once, beside a stream of user writes and a :validate: both COMPLETED with every asset, and every request answered meanwhile', async () => {
  // An asset to patch, and an endpoint policy to set a policy on, before the runs.
  await readyJobs(['j0'], 2);
  expect((await waitOperation(app, await start('j0', 'run'), 60_000)).error).toBeUndefined();
  ok(await call(app, 'POST', `/v1/projects/p1/locations/global/endpointPolicies?endpointPolicyId=ep`, { type: 'SIDECAR_PROXY', endpointMatcher: MATCHER }));
  await readyJobs(['ja', 'jb'], ROWS);
  ok(await createJob(app, 'jv', { assetSource: SOURCE, inlinePayload: inlinePayload({ 'vmInfo.csv': machines('jv', 2_000) }) }));

  const runs = [await start('ja', 'run'), await start('jb', 'run')];
  const running = async () => {
    const ops = await Promise.all(runs.map(async (name) => ok(await call(app, 'GET', `/v1alpha1/${name}`))));
    return ops.every((op) => !op.done);
  };
  // Each kind of write, one after the other, until both runs are done: counted when answered while both still ran.
  const answeredDuringBoth = { patch: 0, group: 0, iam: 0 };
  let validation: string | undefined;
  for (let i = 0; await running(); i++) {
    const kind = (['patch', 'group', 'iam'] as const)[i % 3];
    if (kind === 'patch') ok(await call(app, 'PATCH', `${BASE}/assets/vm-j0-0?updateMask=labels`, { labels: { round: `r${i}` } }));
    else if (kind === 'group') ok(await call(app, 'POST', `${BASE}/groups?groupId=g${i}`, {}));
    else
      ok(
        await call(app, 'POST', `/v1/${POLICY}:setIamPolicy`, {
          policy: { bindings: [{ role: 'roles/networkservices.viewer', members: [`user:u${i}@example.com`] }] },
        }),
      );
    if (await running()) answeredDuringBoth[kind]++;
    // A :validate of a third job once both runs are under way.
    if (i === 3) validation = await start('jv', 'validate');
  }
  expect(answeredDuringBoth.patch).toBeGreaterThan(0);
  expect(answeredDuringBoth.group).toBeGreaterThan(0);
  expect(answeredDuringBoth.iam).toBeGreaterThan(0);

  for (const name of runs) expect((await waitOperation(app, name, 240_000)).error).toBeUndefined();
  for (const id of ['ja', 'jb']) {
    const job = await getJob(id);
    expect(job.state).toBe('IMPORT_JOB_STATE_COMPLETED');
    expect(job.executionReport).toEqual(completedReport(ROWS));
  }
  if (validation) expect((await waitOperation(app, validation, 240_000)).error).toBeUndefined();
  expect((await getJob('jv')).state).toBe('IMPORT_JOB_STATE_READY');
  // Both runs' assets, and j0's two.
  expect(app.emulator.store.assets.count()).toBe(2 * ROWS + 2);
  expect(ok(await call(app, 'GET', `/v1alpha1/${PARENT}/assets/vm-ja-${ROWS - 1}`)).sources).toEqual([SOURCE]);
  expect(ok(await call(app, 'GET', `/v1alpha1/${PARENT}/assets/vm-jb-${ROWS - 1}`)).sources).toEqual([SOURCE]);
});

test('a :cancel of one of two runs at once: that one CANCELLED with its whole batches counted, the other COMPLETED with every asset', async () => {
  await readyJobs(['ja', 'jb'], ROWS);
  const [a, b] = [await start('ja', 'run'), await start('jb', 'run')];
  // Cancelled once it has written a batch, while the other runs.
  for (;;) {
    const op = ok(await call(app, 'GET', `/v1alpha1/${a}`));
    if (op.done) throw new Error(`ja's run ended before a batch was seen written: ${JSON.stringify(op)}`);
    if (/[1-9][\d,]* assets written$/.test(op.metadata?.statusMessage ?? '')) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  ok(await call(app, 'POST', `/v1alpha1/${a}:cancel`, {}));
  const cancelled = await waitOperation(app, a, 60_000);
  expect(cancelled.error?.code).toBe(1);
  const stopped = await getJob('ja');
  expect(stopped.state).toBe('IMPORT_JOB_STATE_FAILED');
  const frames = Number(stopped.executionReport.framesReported);
  expect(frames % RUN_BATCH_SIZE).toBe(0);

  expect((await waitOperation(app, b, 240_000)).error).toBeUndefined();
  const completed = await getJob('jb');
  expect(completed.state).toBe('IMPORT_JOB_STATE_COMPLETED');
  expect(completed.executionReport).toEqual(completedReport(ROWS));
  // The cancelled run's assets are exactly those it counted (no batch after its end), the other's all of them.
  expect(ok(await call(app, 'GET', `/v1alpha1/${PARENT}/assets/vm-jb-${ROWS - 1}`)).sources).toEqual([SOURCE]);
  expect(app.emulator.store.assets.count()).toBe(frames + ROWS);
});
