/**
 * Restart recovery: a job a stopped emulator left RUNNING or VALIDATING (written straight into a
 * file-backed store, as a crash would leave it) becomes FAILED / FAILED_VALIDATION with a job-level
 * error when a new app starts on that store, and its Operation ends with ABORTED. State that was
 * acknowledged (jobs, request ids, operations) survives the restart.
 */
import * as fs from 'fs';
import { SqliteStore } from '../../../backend-emulator/store/sqlite-store';
import { COLLECTIONS } from '../../../backend-emulator/migrationcenter/names';
import type { StoredJob } from '../../../backend-emulator/migrationcenter/types';
import type { Operation } from '../../../backend-emulator/operations/operations';
import { validateOutput } from '../../../schemas';
import { BASE, GOOD_VM_INFO, METADATA_TYPE, PARENT, call, createJob, inlinePayload, jobName, newApp, ok, tempDir } from '../../support/migrationcenter';

const OPS = 'operations/migrationcenter';

let dataDir: string;
beforeEach(() => {
  dataDir = tempDir('mc-data-');
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function crashedJob(id: string, state: 'IMPORT_JOB_STATE_RUNNING' | 'IMPORT_JOB_STATE_VALIDATING', opId: string): { stored: StoredJob; op: Operation } {
  const time = '2024-05-01T10:00:00.000Z';
  const opName = `${PARENT}/operations/${opId}`;
  return {
    stored: {
      job: { name: jobName(id), createTime: time, updateTime: time, state, inlinePayload: inlinePayload({ 'vmInfo.csv': GOOD_VM_INFO }) as any },
      attempt: 2,
      activeOperation: opName,
    },
    op: {
      name: opName,
      metadata: {
        '@type': METADATA_TYPE,
        createTime: time,
        target: jobName(id),
        verb: state.endsWith('RUNNING') ? 'run' : 'validate',
        requestedCancellation: false,
        apiVersion: 'v1alpha1',
      },
      done: false,
    },
  };
}

test('a RUNNING and a VALIDATING job left by a crash are failed with a job error on start-up; their Operations end ABORTED', async () => {
  const store = new SqliteStore({ dataDir });
  const running = crashedJob('was-running', 'IMPORT_JOB_STATE_RUNNING', 'op-run');
  const validating = crashedJob('was-validating', 'IMPORT_JOB_STATE_VALIDATING', 'op-validate');
  for (const { stored, op } of [running, validating]) {
    store.put(COLLECTIONS.importJobs, stored.job.name, stored);
    store.put(OPS, op.name, op);
  }
  // Frames a crashed run had already written are reported.
  store.put('migrationcenter.runProgress', running.stored.job.name, { operation: running.op.name, framesWritten: 1000 });
  store.close();

  const app = newApp({ dataDir, inMemory: false });
  try {
    const job = ok(await call(app, 'GET', `/v1alpha1/${jobName('was-running')}`));
    expect(job.state).toBe('IMPORT_JOB_STATE_FAILED');
    expect(job.completeTime).toMatch(/Z$/);
    expect(job.updateTime > job.createTime).toBe(true);
    expect(job.executionReport).toEqual({
      framesReported: 1000,
      executionErrors: {
        jobErrors: [{ errorDetails: 'interrupted: the emulator stopped while this job was IMPORT_JOB_STATE_RUNNING', severity: 'ERROR' }],
      },
    });
    expect(validateOutput('ExecutionReport', job.executionReport)).toEqual([]);
    const runOp = ok(await call(app, 'GET', `/v1alpha1/${running.op.name}`));
    expect(runOp).toMatchObject({
      done: true,
      error: { code: 10, message: 'interrupted: the emulator stopped while this job was IMPORT_JOB_STATE_RUNNING' },
    });
    expect(runOp.metadata.endTime).toMatch(/Z$/);

    const vjob = ok(await call(app, 'GET', `/v1alpha1/${jobName('was-validating')}`));
    expect(vjob.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
    expect(vjob.completeTime).toBeUndefined();
    expect(vjob.validationReport).toEqual({
      jobErrors: [{ errorDetails: 'interrupted: the emulator stopped while this job was IMPORT_JOB_STATE_VALIDATING', severity: 'ERROR' }],
    });
    expect(ok(await call(app, 'GET', `/v1alpha1/${validating.op.name}`)).error.code).toBe(10);

    // A job failed in validation can be validated again, and then run.
    const op = ok(await call(app, 'POST', `/v1alpha1/${jobName('was-validating')}:validate`, {}));
    expect(op.done).toBeUndefined();
  } finally {
    await app.close();
  }
});

test('a bare wire job written by hand is recovered too', async () => {
  const store = new SqliteStore({ dataDir });
  const time = '2024-05-01T10:00:00.000Z';
  store.put(COLLECTIONS.importJobs, jobName('bare'), { name: jobName('bare'), createTime: time, updateTime: time, state: 'IMPORT_JOB_STATE_RUNNING' });
  store.close();
  const app = newApp({ dataDir, inMemory: false });
  try {
    const job = ok(await call(app, 'GET', `/v1alpha1/${jobName('bare')}`));
    expect(job.state).toBe('IMPORT_JOB_STATE_FAILED');
    expect(job.executionReport.executionErrors.jobErrors[0].errorDetails).toBe('interrupted: the emulator stopped while this job was IMPORT_JOB_STATE_RUNNING');
  } finally {
    await app.close();
  }
});

test('jobs, request ids and operations survive a restart', async () => {
  const rid = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
  const app1 = newApp({ dataDir, inMemory: false });
  const first = ok(await createJob(app1, 'kept', { inlinePayload: inlinePayload({ 'vmInfo.csv': GOOD_VM_INFO }) }, `&requestId=${rid}`));
  await app1.close();

  const app2 = newApp({ dataDir, inMemory: false });
  try {
    expect(ok(await call(app2, 'GET', `/v1alpha1/${jobName('kept')}`)).state).toBe('IMPORT_JOB_STATE_PENDING');
    const again = ok(await createJob(app2, 'kept', { inlinePayload: inlinePayload({ 'vmInfo.csv': GOOD_VM_INFO }) }, `&requestId=${rid}`));
    expect(again.name).toBe(first.name);
    const ops: any[] = ok(await call(app2, 'GET', `${BASE}/operations`)).operations ?? [];
    expect(ops.filter((o) => o.metadata.target.includes('/importJobs/'))).toHaveLength(1);
  } finally {
    await app2.close();
  }
});
