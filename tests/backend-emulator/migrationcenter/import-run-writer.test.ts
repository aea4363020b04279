/**
 * A `:run` on a file-backed store is written by the import worker on its own connection
 * (run-writer.ts, issue 27): the request thread writes none of its assets, and the guarantees of a
 * run written on the request thread hold: each batch is whole and counted by the job's report, a
 * source deleted before a batch stops the run FAILED before that batch, a cancel ends the
 * Operation CANCELLED with the job FAILED counting exactly the assets stored.
 */
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import * as fs from 'fs';
import * as path from 'path';
import { COLLECTIONS } from '../../../backend-emulator/migrationcenter/names';
import { RUN_BATCH_SIZE } from '../../../backend-emulator/migrationcenter/import-jobs/import-job-work';
import { importWorkerUse } from '../../../backend-emulator/migrationcenter/import-jobs/import-thread';
import { DATABASE_FILE_NAME } from '../../../backend-emulator/store/sqlite-store';
import { migrationCenterOf } from '../../../backend-emulator/migrationcenter/routes';
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
import { ASSET_TABLE_INDEXES, LOW_CARDINALITY_INDEXES } from '../../support/asset-indexes';

jest.setTimeout(180_000);

const S3 = `${PARENT}/sources/s3`;

let app: FastifyInstance;
let dataDir: string;
beforeEach(() => {
  dataDir = tempDir('mc-run-writer-');
  app = newApp({ dataDir, inMemory: false });
});
afterEach(async () => {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function machines(n: number): string {
  return csv(VM_HEADER, ...Array.from({ length: n }, (_, i) => vmRow(`m-${i}`, `vm-${i}`)));
}

async function job(id: string): Promise<any> {
  return ok(await call(app, 'GET', `/v1alpha1/${jobName(id)}?view=IMPORT_JOB_VIEW_FULL`));
}

async function readyJob(id: string, rows: number): Promise<void> {
  await ensureSource(app, S3);
  ok(await createJob(app, id, { assetSource: S3, inlinePayload: inlinePayload({ 'vmInfo.csv': machines(rows) }) }));
  // Long timeouts: a loaded 2-core machine validates a large payload slowly.
  await waitOperation(app, ok(await call(app, 'POST', `/v1alpha1/${jobName(id)}:validate`, {})).name, 120_000);
  expect((await job(id)).state).toBe('IMPORT_JOB_STATE_READY');
}

test('the worker writes every batch: the request thread writes no asset, and each asset names the source', async () => {
  const rows = 2 * RUN_BATCH_SIZE + 7;
  await readyJob('j1', rows);
  const upsertRows = jest.spyOn(migrationCenterOf(app.emulator)!.assets, 'upsertRows');
  const op = await waitOperation(app, ok(await call(app, 'POST', `/v1alpha1/${jobName('j1')}:run`, {})).name, 120_000);
  const after = await job('j1');
  expect(op.error).toBeUndefined();
  expect(after.state).toBe('IMPORT_JOB_STATE_COMPLETED');
  expect(upsertRows).not.toHaveBeenCalled();
  expect(app.emulator.store.assets.count()).toBe(rows);
  const page = ok(await call(app, 'GET', `${BASE}/assets?pageSize=5`));
  expect(page.assets.map((a: any) => a.sources)).toEqual(Array(5).fill([S3]));
});

test('a source deleted before the first batch stops the run FAILED with nothing written', async () => {
  await readyJob('j2', 3 * RUN_BATCH_SIZE);
  const running = ok(await call(app, 'POST', `/v1alpha1/${jobName('j2')}:run`, {}));
  // As DELETE would (it refuses the source of a running job), straight in the store, before the
  // worker has read its first batch.
  app.emulator.store.delete(COLLECTIONS.sources, S3);
  const op = await waitOperation(app, running.name, 60_000);
  const message =
    `The assetSource of import job ${jobName('j2')}, ${S3}, was deleted while the job was running: the assets not yet written were not imported. ` +
    `To import them, create the source ${S3} again, or create a new import job whose assetSource is an existing source ` +
    '(assetSource cannot be changed after the import job is created).';
  expect(op.error).toEqual({ code: 9, message });
  const after = await job('j2');
  expect(after.state).toBe('IMPORT_JOB_STATE_FAILED');
  // framesReported 0: absent (ProtoJSON).
  expect(after.executionReport).toEqual({
    executionErrors: { jobErrors: [{ errorDetails: `execution stopped: ${message}`, severity: 'ERROR' }] },
  });
  expect(app.emulator.store.assets.count()).toBe(0);
});

test('a cancel during the run: the Operation CANCELLED, the job FAILED counting exactly the whole batches stored', async () => {
  await readyJob('j3', 40 * RUN_BATCH_SIZE);
  const running = ok(await call(app, 'POST', `/v1alpha1/${jobName('j3')}:run`, {}));
  for (;;) {
    const op = ok(await call(app, 'GET', `/v1alpha1/${running.name}`));
    if (op.done) throw new Error(`the run ended before a batch was seen written: ${JSON.stringify(op)}`);
    if (/[1-9][\d,]* assets written$/.test(op.metadata?.statusMessage ?? '')) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  ok(await call(app, 'POST', `/v1alpha1/${running.name}:cancel`, {}));
  const op = await waitOperation(app, running.name, 10_000);
  expect(op.error?.code).toBe(1);
  const after = await job('j3');
  expect(after.state).toBe('IMPORT_JOB_STATE_FAILED');
  const frames = Number(after.executionReport.framesReported);
  expect(frames).toBeGreaterThan(0);
  expect(frames % RUN_BATCH_SIZE).toBe(0);
  // The worker may still be ending its job: whatever it does, no batch lands after the end.
  await new Promise((r) => setTimeout(r, 500));
  expect(app.emulator.store.assets.count()).toBe(frames);
});

/** The asset table's indexes as the database file holds them, read on a connection of its own. */
function assetIndexes(): string[] {
  const db = new Database(path.join(dataDir, DATABASE_FILE_NAME), { readonly: true });
  try {
    return db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'assets' ORDER BY name").pluck().all() as string[];
  } finally {
    db.close();
  }
}

const ALL_INDEXES = ASSET_TABLE_INDEXES;
const WITHOUT_FOUR = ALL_INDEXES.filter((n) => !LOW_CARDINALITY_INDEXES.includes(n));

test('a run of 25,000 assets into an empty table ends COMPLETED with every index of the assets in place', async () => {
  await readyJob('j4', 50 * RUN_BATCH_SIZE);
  const op = await waitOperation(app, ok(await call(app, 'POST', `/v1alpha1/${jobName('j4')}:run`, {})).name, 120_000);
  expect(op.error).toBeUndefined();
  expect((await job('j4')).state).toBe('IMPORT_JOB_STATE_COMPLETED');
  expect(assetIndexes()).toEqual(ALL_INDEXES);
  expect(app.emulator.store.assets.count()).toBe(25_000);
});

test('a cancel after the run dropped the four indexes: the Operation CANCELLED, the indexes built again before its worker is done', async () => {
  await readyJob('j5', 120 * RUN_BATCH_SIZE);
  const running = ok(await call(app, 'POST', `/v1alpha1/${jobName('j5')}:run`, {}));
  // The writer drops them in the group that reaches 20,000 assets (run-writer.ts).
  for (;;) {
    if (assetIndexes().length === WITHOUT_FOUR.length) break;
    const op = ok(await call(app, 'GET', `/v1alpha1/${running.name}`));
    if (op.done) throw new Error(`the run ended before its writer dropped the indexes: ${JSON.stringify(op)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  expect(assetIndexes()).toEqual(WITHOUT_FOUR);
  ok(await call(app, 'POST', `/v1alpha1/${running.name}:cancel`, {}));
  const op = await waitOperation(app, running.name, 10_000);
  expect(op.error?.code).toBe(1);
  expect((await job('j5')).state).toBe('IMPORT_JOB_STATE_FAILED');
  const deadline = Date.now() + 60_000;
  while (importWorkerUse().atWork > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(importWorkerUse().atWork).toBe(0);
  expect(assetIndexes()).toEqual(ALL_INDEXES);
});
