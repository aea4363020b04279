/**
 * At most four import workers at work at once (import-thread.ts MAX_IMPORT_WORKERS): each is a V8
 * heap of its own, and 40 validations started together took an emulator from 125 MB to 1.15 GB.
 * Seven `:validate`s sent together: four workers at work, the others wait their turn, every job
 * gets its own report; a job cancelled while it waits ends CANCELLED without ever having a worker.
 */
import type { FastifyInstance } from 'fastify';
import { closeIdleImportWorker, importWorkerUse } from '../../../backend-emulator/migrationcenter/import-jobs/import-thread';
import { VM_HEADER, call, createJob, csv, inlinePayload, jobName, newApp, ok, vmRow, waitOperation } from '../../support/migrationcenter';

/** The cap, written here as the design says it, not read from the module. */
const CAP = 4;
const JOBS = 7;
/** Enough rows that a validation outlasts the seven requests that start them. */
const ROWS = 3_000;

function vmInfo(job: number): string {
  const rows: string[] = [];
  for (let i = 0; i < ROWS; i++) rows.push(vmRow(`j${job}-m${i}`, `host-${job}-${i}`));
  return csv(VM_HEADER, ...rows);
}

let app: FastifyInstance;

beforeAll(async () => {
  app = newApp();
  for (let j = 0; j < JOBS; j++) ok(await createJob(app, `cap-${j}`, { inlinePayload: inlinePayload({ 'vmInfo.csv': vmInfo(j) }) }));
}, 60_000);

afterAll(async () => {
  await app.close();
  await closeIdleImportWorker();
});

test(`${JOBS} validations sent together: at most ${CAP} workers at work, the others wait their turn, each job its own report; one cancelled while it waits is CANCELLED`, async () => {
  let most = 0;
  let mostWaiting = 0;
  const sample = () => {
    const use = importWorkerUse();
    most = Math.max(most, use.atWork);
    mostWaiting = Math.max(mostWaiting, use.waiting);
  };
  const sampler = setInterval(sample, 2);
  try {
    const operations: string[] = [];
    for (let j = 0; j < JOBS; j++) {
      operations.push(ok(await call(app, 'POST', `/v1alpha1/${jobName(`cap-${j}`)}:validate`, {})).name);
      sample();
    }
    // The last job came when four workers were starting or at work (a worker's start alone takes
    // longer than these requests): it waits. Cancelled there, it never gets a worker.
    expect(importWorkerUse().waiting).toBeGreaterThan(0);
    ok(await call(app, 'POST', `/v1alpha1/${operations[JOBS - 1]}:cancel`, {}));
    const cancelled = await waitOperation(app, operations[JOBS - 1], 60_000);
    expect(cancelled.error?.code).toBe(1);

    for (let j = 0; j < JOBS - 1; j++) {
      const done = await waitOperation(app, operations[j], 120_000);
      expect(done.error).toBeUndefined();
      const job = ok(await call(app, 'GET', `/v1alpha1/${jobName(`cap-${j}`)}`));
      expect([j, job.state]).toEqual([j, 'IMPORT_JOB_STATE_READY']);
      expect(job.validationReport.fileValidations).toEqual([{ fileName: 'vmInfo.csv' }]);
    }
    sample();
    expect(most).toBe(CAP);
    expect(mostWaiting).toBeGreaterThanOrEqual(JOBS - CAP - 1);
    expect(importWorkerUse()).toEqual({ atWork: 0, waiting: 0 });
  } finally {
    clearInterval(sampler);
  }
}, 180_000);
