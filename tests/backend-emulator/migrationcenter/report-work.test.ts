/**
 * A report's summary computed after its create has answered, off the request thread (issue 28):
 * on a file-backed store the import worker computes it on a second connection, in one read
 * snapshot (reports/report-snapshot.ts). The worker is held at a known point through the test
 * hook `holdReportSummaries` (its snapshot open, before it reads the assets), so that every
 * assertion is about state, never about timing: while it is held, the report reads PENDING, its
 * Operation and other requests are answered, and writes commit; once released, the summary is
 * that of the snapshot. Deletion, `:cancel` and a crash's restart end a PENDING report as
 * docs/migration-center.md says.
 */
import * as fs from 'fs';
import type { FastifyInstance } from 'fastify';
import { SqliteStore } from '../../../backend-emulator/store/sqlite-store';
import { COLLECTIONS } from '../../../backend-emulator/migrationcenter/names';
import { holdReportSummaries } from '../../../backend-emulator/migrationcenter/reports/report-work';
import { HOLD_RELEASED, HOLD_SNAPSHOT_OPEN } from '../../../backend-emulator/migrationcenter/reports/report-snapshot';
import { BASE, METADATA_TYPE, PARENT, call, googleError, newApp, ok, tempDir, waitOperation } from '../../support/migrationcenter';
import { assetOf, importMachines } from '../../support/mc-inventory';

const MODERATE = `${PARENT}/preferenceSets/moderate`;
const GROUP = `${PARENT}/groups/web`;
const CONFIG = `${PARENT}/reportConfigs/tco`;
const REPORT_TYPE = 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.Report';

let dataDir: string;
let app: FastifyInstance;
let cell: Int32Array | undefined;

/** Holds the next summaries at their open snapshot. */
function hold(): Int32Array {
  const buffer = new SharedArrayBuffer(4);
  holdReportSummaries(buffer);
  cell = new Int32Array(buffer);
  return cell;
}

/** Lets a held summary go on (and the ones after it run unheld). */
function release(): void {
  holdReportSummaries(undefined);
  if (!cell) return;
  Atomics.store(cell, 0, HOLD_RELEASED);
  Atomics.notify(cell, 0);
  cell = undefined;
}

/** Resolves once the held worker has opened its snapshot. */
async function snapshotOpen(held: Int32Array): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Atomics.load(held, 0) !== HOLD_SNAPSHOT_OPEN) {
    if (Date.now() > deadline) throw new Error('the report worker did not open its snapshot within 30 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** After a restart: the report a stopped emulator left PENDING is FAILED, without a summary, and its Operation ended ABORTED. */
async function expectInterrupted(restarted: FastifyInstance, name: string, opName: string): Promise<any> {
  const report = ok(await call(restarted, 'GET', `/v1alpha1/${name}?view=REPORT_VIEW_FULL`));
  expect(report.state).toBe('FAILED');
  expect(report.summary).toBeUndefined();
  expect(ok(await call(restarted, 'GET', `/v1alpha1/${opName}`))).toMatchObject({
    done: true,
    error: { code: 10, message: 'interrupted: the emulator stopped while this report was PENDING' },
  });
  return report;
}

async function createReport(id: string, config = CONFIG): Promise<any> {
  const op = ok(await call(app, 'POST', `/v1alpha1/${config}/reports?reportId=${id}`, { displayName: id }));
  expect(op.done).toBeUndefined();
  return op;
}

async function newConfig(id: string): Promise<string> {
  ok(
    await call(app, 'POST', `${BASE}/reportConfigs?reportConfigId=${id}`, {
      groupPreferencesetAssignments: [{ group: GROUP, preferenceSet: MODERATE }],
    }),
  );
  return `${PARENT}/reportConfigs/${id}`;
}

beforeAll(async () => {
  dataDir = tempDir('mc-report-work-');
  app = newApp({ dataDir, inMemory: false });
  await importMachines(app);
  app.emulator.store.put('migrationcenter.preferenceSets', MODERATE, { name: MODERATE, displayName: 'Moderate', createTime: '2026-01-01T00:00:00Z' });
  ok(await call(app, 'POST', `${BASE}/groups?groupId=web`, {}));
  ok(await call(app, 'POST', `/v1alpha1/${GROUP}:addAssets`, { assets: { assetIds: ['m-1', 'm-2'].map(assetOf) } }));
  await newConfig('tco');
}, 60_000);
afterEach(release);
afterAll(async () => {
  release();
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('while its summary is computed the report is PENDING, other requests are answered and writes commit; the summary is the snapshot’s', async () => {
  const held = hold();
  const op = await createReport('held');
  await snapshotOpen(held);

  // The worker holds its snapshot open: the request thread answers, reads and writes meanwhile.
  expect(ok(await call(app, 'GET', `/v1alpha1/${op.name}`))).toMatchObject({ name: op.name, metadata: { '@type': METADATA_TYPE, verb: 'create' } });
  expect(ok(await call(app, 'GET', `/v1alpha1/${op.name}`)).done).toBeUndefined();
  const pending = ok(await call(app, 'GET', `/v1alpha1/${CONFIG}/reports/held?view=REPORT_VIEW_FULL`));
  expect(pending).toMatchObject({ name: `${CONFIG}/reports/held`, displayName: 'held', state: 'PENDING' });
  expect(pending.summary).toBeUndefined();
  expect(ok(await call(app, 'GET', `/v1alpha1/${CONFIG}/reports?filter=${encodeURIComponent('state = PENDING')}`)).reports).toHaveLength(1);
  ok(await call(app, 'POST', `/v1alpha1/${GROUP}:addAssets`, { assets: { assetIds: [assetOf('m-3')] } }));

  release();
  const done = await waitOperation(app, op.name, 30_000);
  const report = ok(await call(app, 'GET', `/v1alpha1/${CONFIG}/reports/held?view=REPORT_VIEW_FULL`));
  expect(report.state).toBe('SUCCEEDED');
  // m-1 and m-2 (2 + 4 cores): m-3 joined the group after the snapshot was taken.
  expect(report.summary.allAssetsStats).toMatchObject({ totalAssets: '2', totalCores: '6' });
  expect(done).toMatchObject({ done: true, response: { '@type': REPORT_TYPE, ...report } });
  expect(done.error).toBeUndefined();

  // The next report sees the three.
  const after = await waitOperation(app, (await createReport('after')).name, 30_000);
  expect(after.response.summary.allAssetsStats).toMatchObject({ totalAssets: '3', totalCores: '14' });
  ok(await call(app, 'POST', `/v1alpha1/${GROUP}:removeAssets`, { assets: { assetIds: [assetOf('m-3')] } }));
}, 60_000);

test('a PENDING report deleted: the delete is answered, its Operation ends ABORTED', async () => {
  const held = hold();
  const op = await createReport('deleted');
  await snapshotOpen(held);
  expect(ok(await call(app, 'DELETE', `/v1alpha1/${CONFIG}/reports/deleted`))).toMatchObject({ done: true });
  googleError(await call(app, 'GET', `/v1alpha1/${CONFIG}/reports/deleted`), 404, 'NOT_FOUND');
  release();
  const done = await waitOperation(app, op.name, 30_000);
  expect(done).toMatchObject({
    done: true,
    error: { code: 10, message: `Report ${CONFIG}/reports/deleted was deleted while its summary was being computed.` },
  });
  expect(done.response).toBeUndefined();
  googleError(await call(app, 'GET', `/v1alpha1/${CONFIG}/reports/deleted`), 404, 'NOT_FOUND');
}, 60_000);

test('a report config deleted with force while a report of it is PENDING: that report’s Operation ends ABORTED; without force the delete is refused', async () => {
  const config = await newConfig('doomed');
  const held = hold();
  const op = await createReport('pending', config);
  await snapshotOpen(held);
  googleError(await call(app, 'DELETE', `/v1alpha1/${config}`), 400, 'FAILED_PRECONDITION');
  ok(await call(app, 'DELETE', `/v1alpha1/${config}?force=true`));
  release();
  const done = await waitOperation(app, op.name, 30_000);
  expect(done).toMatchObject({
    done: true,
    error: { code: 10, message: `Report ${config}/reports/pending was deleted while its summary was being computed.` },
  });
  googleError(await call(app, 'GET', `/v1alpha1/${config}/reports/pending`), 404, 'NOT_FOUND');
}, 60_000);

test(':cancel of a report’s Operation: the Operation ends CANCELLED and the report FAILED', async () => {
  const held = hold();
  const op = await createReport('cancelled');
  await snapshotOpen(held);
  const cancelled = ok(await call(app, 'POST', `/v1alpha1/${op.name}:cancel`, {}));
  expect(cancelled).toEqual({});
  const done = ok(await call(app, 'GET', `/v1alpha1/${op.name}`));
  expect(done).toMatchObject({ done: true, error: { code: 1, message: 'cancelled: the operation was cancelled while this report was PENDING' } });
  const report = ok(await call(app, 'GET', `/v1alpha1/${CONFIG}/reports/cancelled?view=REPORT_VIEW_FULL`));
  expect(report.state).toBe('FAILED');
  expect(report.summary).toBeUndefined();
  release();
  // The worker's late summary is dropped.
  await app.emulator.operations.idle(30_000);
  expect(ok(await call(app, 'GET', `/v1alpha1/${CONFIG}/reports/cancelled?view=REPORT_VIEW_FULL`))).toEqual(report);
}, 60_000);

test('a report a crash left PENDING is FAILED at the next start, its Operation ABORTED', async () => {
  const dir = tempDir('mc-report-crash-');
  const name = `${CONFIG}/reports/crashed`;
  const opName = `${PARENT}/operations/op-report`;
  const time = '2026-05-01T10:00:00.000Z';
  const store = new SqliteStore({ dataDir: dir });
  store.put(COLLECTIONS.reports, name, { name, createTime: time, updateTime: time, state: 'PENDING' });
  store.put(COLLECTIONS.reportRuns, name, { operation: opName });
  store.put('operations/migrationcenter', opName, {
    name: opName,
    metadata: { '@type': METADATA_TYPE, createTime: time, target: name, verb: 'create', requestedCancellation: false, apiVersion: 'v1alpha1' },
    done: false,
  });
  store.close();
  const restarted = newApp({ dataDir: dir, inMemory: false });
  try {
    const report = await expectInterrupted(restarted, name, opName);
    expect(report).toMatchObject({ name, createTime: time, state: 'FAILED' });
    expect(report.updateTime > time).toBe(true);
  } finally {
    await restarted.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

test('an emulator shut down while a report is PENDING ends it FAILED and its Operation ABORTED, as the next start reads them', async () => {
  const dir = tempDir('mc-report-shutdown-');
  const first = newApp({ dataDir: dir, inMemory: false });
  let opName: string;
  try {
    await importMachines(first);
    first.emulator.store.put('migrationcenter.preferenceSets', MODERATE, { name: MODERATE, createTime: '2026-01-01T00:00:00Z' });
    ok(await call(first, 'POST', `${BASE}/groups?groupId=web`, {}));
    ok(await call(first, 'POST', `${BASE}/reportConfigs?reportConfigId=tco`, { groupPreferencesetAssignments: [{ group: GROUP, preferenceSet: MODERATE }] }));
    const held = hold();
    opName = ok(await call(first, 'POST', `/v1alpha1/${CONFIG}/reports?reportId=stopped`, {})).name;
    await snapshotOpen(held);
  } finally {
    await first.close();
    release();
  }
  const second = newApp({ dataDir: dir, inMemory: false });
  try {
    await expectInterrupted(second, `${CONFIG}/reports/stopped`, opName);
  } finally {
    await second.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
