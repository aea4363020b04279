/**
 * An import job whose `assetSource` was deleted (issue 17: no asset names a source that is gone):
 * `:validate` and `:run` are refused with FAILED_PRECONDITION naming `assetSource`; a run whose
 * source is deleted while it runs ends FAILED before it writes another batch.
 */
import type { FastifyInstance } from 'fastify';
import { COLLECTIONS } from '../../../backend-emulator/migrationcenter/names';
import { RUN_BATCH_SIZE } from '../../../backend-emulator/migrationcenter/import-jobs/import-job-work';
import { migrationCenterOf } from '../../../backend-emulator/migrationcenter/routes';
import {
  BASE,
  GOOD_VM_INFO,
  PARENT,
  VM_HEADER,
  act,
  call,
  createJob,
  csv,
  ensureSource,
  googleError,
  inlinePayload,
  jobName,
  newApp,
  ok,
  vmRow,
  waitOperation,
} from '../../support/migrationcenter';
import { sharedApp } from '../../support/app';

const S3 = `${PARENT}/sources/s3`;

let app: FastifyInstance;
const sharedAppOfBlock = sharedApp(() => newApp());
beforeEach(() => {
  app = sharedAppOfBlock();
});

/** The assets whose `sources` name `source` (none, when the rule holds). */
async function assetsNaming(source: string): Promise<any[]> {
  const filter = encodeURIComponent(`sources:"${source}"`);
  return ok(await call(app, 'GET', `${BASE}/assets?pageSize=1000&filter=${filter}`)).assets ?? [];
}

async function job(id: string): Promise<any> {
  return ok(await call(app, 'GET', `/v1alpha1/${jobName(id)}?view=IMPORT_JOB_VIEW_FULL`));
}

async function deleteSource(name: string): Promise<void> {
  const op = ok(await call(app, 'DELETE', `/v1alpha1/${name}`));
  await waitOperation(app, op.name);
  googleError(await call(app, 'GET', `/v1alpha1/${name}`), 404, 'NOT_FOUND');
}

describe('a job whose source was deleted before :validate or :run', () => {
  beforeEach(async () => {
    await ensureSource(app, S3);
    ok(await createJob(app, 'j4', { assetSource: S3, inlinePayload: inlinePayload({ 'vmInfo.csv': GOOD_VM_INFO }) }));
  });

  test(':run of a READY job is 400 FAILED_PRECONDITION naming assetSource; nothing is imported, the job stays READY', async () => {
    expect((await act(app, 'j4', 'validate'))[1].state).toBe('IMPORT_JOB_STATE_READY');
    await deleteSource(S3);

    const err = googleError(await call(app, 'POST', `/v1alpha1/${jobName('j4')}:run`, {}), 400, 'FAILED_PRECONDITION');
    expect(err.message).toBe(
      `Import job ${jobName('j4')} cannot be run: its assetSource ${S3} was deleted. To import its data, create the source ${S3} again, ` +
        'or create a new import job whose assetSource is an existing source (assetSource cannot be changed after the import job is created).',
    );
    expect(err.details).toEqual([]);
    expect(await assetsNaming(S3)).toEqual([]);
    expect(ok(await call(app, 'GET', `${BASE}/assets`)).assets).toBeUndefined();
    const after = await job('j4');
    expect(after.state).toBe('IMPORT_JOB_STATE_READY');
    expect(after.executionReport).toBeUndefined();
    // No run was started: the job's only Operations are its create and its validation.
    const ops: any[] = ok(await call(app, 'GET', `${BASE}/operations`)).operations;
    expect(ops.filter((o) => o.metadata.target === jobName('j4')).map((o) => o.metadata.verb)).toEqual(['create', 'validate']);
  });

  test(':validate is refused the same way; the job stays PENDING', async () => {
    await deleteSource(S3);
    const err = googleError(await call(app, 'POST', `/v1alpha1/${jobName('j4')}:validate`, {}), 400, 'FAILED_PRECONDITION');
    expect(err.message).toMatch(new RegExp(`^Import job ${jobName('j4')} cannot be validated: its assetSource ${S3} was deleted\\.`));
    const after = await job('j4');
    expect(after.state).toBe('IMPORT_JOB_STATE_PENDING');
    expect(after.validationReport).toBeUndefined();
  });

  test('the source created again under the same name: the job validates and runs, its assets name it', async () => {
    expect((await act(app, 'j4', 'validate'))[1].state).toBe('IMPORT_JOB_STATE_READY');
    await deleteSource(S3);
    googleError(await call(app, 'POST', `/v1alpha1/${jobName('j4')}:run`, {}), 400, 'FAILED_PRECONDITION');
    await ensureSource(app, S3);
    expect((await act(app, 'j4', 'run'))[1].state).toBe('IMPORT_JOB_STATE_COMPLETED');
    expect(await assetsNaming(S3)).toHaveLength(2);
  });
});

describe('a source deleted while a run is in progress', () => {
  test('the run ends FAILED at its next batch, with a job error saying so; no asset names the deleted source', async () => {
    const machines = RUN_BATCH_SIZE + 10; // two batches
    const rows = Array.from({ length: machines }, (_, i) => vmRow(`m-${i}`, `vm-${i}`));
    await ensureSource(app, S3);
    ok(await createJob(app, 'j4', { assetSource: S3, inlinePayload: inlinePayload({ 'vmInfo.csv': csv(VM_HEADER, ...rows) }) }));
    expect((await act(app, 'j4', 'validate'))[1].state).toBe('IMPORT_JOB_STATE_READY');

    // No request deletes the source of a running job (DELETE refuses it): the test deletes it as
    // DELETE would, straight in the store, right after the first batch is written (in its
    // transaction, before the second batch).
    const mc = migrationCenterOf(app.emulator)!;
    const upsertRows = mc.assets.upsertRows.bind(mc.assets);
    const spy = jest.spyOn(mc.assets, 'upsertRows').mockImplementationOnce((parent, reporter, batch) => {
      const written = upsertRows(parent, reporter, batch);
      app.emulator.store.delete(COLLECTIONS.sources, S3);
      mc.assets.forgetReporter(S3);
      return written;
    });
    const [op, after] = await act(app, 'j4', 'run');
    expect(spy).toHaveBeenCalledTimes(1); // the second batch was never written

    const message =
      `The assetSource of import job ${jobName('j4')}, ${S3}, was deleted while the job was running: the assets not yet written were not imported. ` +
      `To import them, create the source ${S3} again, or create a new import job whose assetSource is an existing source ` +
      '(assetSource cannot be changed after the import job is created).';
    expect(op.error).toEqual({ code: 9, message });
    expect(after.state).toBe('IMPORT_JOB_STATE_FAILED');
    expect(after.completeTime).toBeDefined();
    expect(after.executionReport).toEqual({
      framesReported: RUN_BATCH_SIZE,
      executionErrors: { jobErrors: [{ errorDetails: `execution stopped: ${message}`, severity: 'ERROR' }] },
    });
    expect(await assetsNaming(S3)).toEqual([]);
    // The first batch's assets stay (as on Google), with no sources; the second batch was not written.
    const first = ok(await call(app, 'GET', `${BASE}/assets?pageSize=1000`));
    expect(first.assets.every((a: any) => a.sources === undefined)).toBe(true);
    expect(app.emulator.store.assets.count()).toBe(RUN_BATCH_SIZE);
  });
});
