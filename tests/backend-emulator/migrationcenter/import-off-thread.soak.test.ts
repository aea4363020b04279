/**
 * Import work runs off the request thread (issue 27): the request thread answers while a large
 * inline payload is read, and `:cancel` takes effect while the run is under way, over the REST
 * wire (fastify's inject: a request waits for the same thread an HTTP one does).
 *
 * 100,000 machines inline: the size the issue measured the emulator frozen with (an Operation poll
 * answered only 8.4 s later, a cancel only after the run had COMPLETED).
 */
import type { FastifyInstance } from 'fastify';
import { RUN_BATCH_SIZE } from '../../../backend-emulator/migrationcenter/import-jobs/import-job-work';
import { closeIdleImportWorker } from '../../../backend-emulator/migrationcenter/import-jobs/import-thread';
import { VM_HEADER, call, createJob, inlinePayload, jobName, newApp, ok, vmRow, waitOperation } from '../../support/migrationcenter';

const MACHINES = 100_000;

/** A vmInfo.csv of `n` distinct machines (the support's row, with its id and name varied). */
function vmInfo(n: number): string {
  const lines = [VM_HEADER];
  for (let i = 1; i <= n; i++) lines.push(vmRow(`m-${i}`, `vm-${i}`));
  return lines.join('\n') + '\n';
}

const payload = inlinePayload({ 'vmInfo.csv': vmInfo(MACHINES) });

let app: FastifyInstance;

beforeEach(async () => {
  app = newApp();
  ok(await createJob(app, 'big', { inlinePayload: payload }));
});

afterEach(async () => {
  await app.close();
});

afterAll(async () => {
  await closeIdleImportWorker();
});

/** Polls the Operation every 10 ms until done; returns the polls answered while it was not done. */
async function pollsUntilDone(name: string): Promise<{ notDone: any[]; done: any }> {
  const notDone: any[] = [];
  for (;;) {
    const op = ok(await call(app, 'GET', `/v1alpha1/${name}`));
    if (op.done) return { notDone, done: op };
    notDone.push(op);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Validates the job to READY (a run needs it), with a timeout for a loaded machine. */
async function validated(): Promise<void> {
  await waitOperation(app, ok(await call(app, 'POST', `/v1alpha1/${jobName('big')}:validate`, {})).name, 120_000);
  expect(ok(await call(app, 'GET', `/v1alpha1/${jobName('big')}`)).state).toBe('IMPORT_JOB_STATE_READY');
}

/** Waits until the Operation's status message matches `progress` (failing if it ends first). */
async function underWay(name: string, progress: RegExp): Promise<void> {
  for (;;) {
    const op = ok(await call(app, 'GET', `/v1alpha1/${name}`));
    expect(op.done).toBeUndefined();
    if (progress.test(op.metadata.statusMessage ?? '')) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

test(`operations.get is answered while a ${MACHINES.toLocaleString('en-US')}-machine inline :run reads and writes`, async () => {
  await validated();
  const started = ok(await call(app, 'POST', `/v1alpha1/${jobName('big')}:run`, {}));
  const { notDone, done } = await pollsUntilDone(started.name);
  // Answered before the run ended: the poll saw the Operation not done, with the run under way.
  expect(notDone.length).toBeGreaterThan(0);
  expect(notDone.some((op) => /assets written$/.test(op.metadata.statusMessage ?? ''))).toBe(true);
  expect(done.error).toBeUndefined();
  const job = ok(await call(app, 'GET', `/v1alpha1/${jobName('big')}`));
  expect(job.state).toBe('IMPORT_JOB_STATE_COMPLETED');
  expect(job.executionReport.framesReported).toBe(MACHINES);
}, 180_000);

test(`operations.get is answered while a ${MACHINES.toLocaleString('en-US')}-machine inline :validate reads`, async () => {
  const started = ok(await call(app, 'POST', `/v1alpha1/${jobName('big')}:validate`, {}));
  const { notDone, done } = await pollsUntilDone(started.name);
  expect(notDone.length).toBeGreaterThan(0);
  expect(done.error).toBeUndefined();
  expect(ok(await call(app, 'GET', `/v1alpha1/${jobName('big')}`)).state).toBe('IMPORT_JOB_STATE_READY');
}, 180_000);

test(':cancel during a run ends it at once: CANCELLED, the job FAILED with whole batches written and counted', async () => {
  await validated();
  const started = ok(await call(app, 'POST', `/v1alpha1/${jobName('big')}:run`, {}));
  // Wait until the run has written at least one batch, so the cancel lands in the middle of it.
  await underWay(started.name, /[1-9][\d,]* assets written$/);
  ok(await call(app, 'POST', `/v1alpha1/${started.name}:cancel`, {}));
  // The very next read sees the Operation ended: the cancel does not wait for the run to finish.
  const op = ok(await call(app, 'GET', `/v1alpha1/${started.name}`));
  expect(op.done).toBe(true);
  expect(op.error).toMatchObject({ code: 1 });
  expect(op.metadata.requestedCancellation).toBe(true);
  const job = ok(await call(app, 'GET', `/v1alpha1/${jobName('big')}`));
  expect(job.state).toBe('IMPORT_JOB_STATE_FAILED');
  expect(job.executionReport.executionErrors.jobErrors[0].errorDetails).toMatch(/^cancelled: /);
  const frames = Number(job.executionReport.framesReported);
  // Whole batches only, all of them counted, and the run stopped before its end.
  expect(frames % RUN_BATCH_SIZE).toBe(0);
  expect(frames).toBeGreaterThan(0);
  expect(frames).toBeLessThan(MACHINES);
  expect(app.emulator.store.assets.count()).toBe(frames);
  // Nothing more is written after the cancel (a batch the worker had sent is dropped).
  await new Promise((r) => setTimeout(r, 500));
  expect(app.emulator.store.assets.count()).toBe(frames);
}, 180_000);

test(':cancel during a validation ends it at once with CANCELLED and the job FAILED_VALIDATION', async () => {
  const started = ok(await call(app, 'POST', `/v1alpha1/${jobName('big')}:validate`, {}));
  await underWay(started.name, /[1-9][\d,]* rows read$/);
  ok(await call(app, 'POST', `/v1alpha1/${started.name}:cancel`, {}));
  const op = ok(await call(app, 'GET', `/v1alpha1/${started.name}`));
  expect(op.done).toBe(true);
  expect(op.error).toMatchObject({ code: 1 });
  const job = ok(await call(app, 'GET', `/v1alpha1/${jobName('big')}`));
  expect(job.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
  expect(job.validationReport.jobErrors[0].errorDetails).toMatch(/^cancelled: /);
  // The job can be validated again at once, to its end.
  const again = await waitOperation(app, ok(await call(app, 'POST', `/v1alpha1/${jobName('big')}:validate`, {})).name, 120_000);
  expect(again.error).toBeUndefined();
}, 180_000);
