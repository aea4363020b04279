/**
 * The console's rowCells read is bounded (issue 22, "a console read can pin a core"):
 * - a row that no report names is answered `{}` without reading any file (the old route scanned a
 *   file to row 99,999,999 for 20 s of CPU per request): proved by a file whose bytes changed after
 *   validation, whose row 3 now holds cells, which the route must not show;
 * - a read whose client hangs up stops: the storage download it waits on is closed.
 * Over a real socket (a hang-up needs one), with a GCS-compatible server standing for storage.
 */
import * as http from 'http';
import { startEmulator, type RunningEmulator } from '../../../backend-emulator/index';
import { resetStorageClients } from '../../../backend-emulator/payloads/remote-storage';
import { startFakeGcs, type FakeGcs } from '../../support/fake-gcs';
import { MIXED_CSV } from '../../support/console';
import { csv, vmRow, VM_HEADER } from '../../support/manual-csv';

jest.setTimeout(60_000);

const PARENT = 'projects/cells/locations/us-central1';
const JOB = `${PARENT}/importJobs/job-1`;
const OBJECT = 'cells-bucket/vm/vmInfo.csv';

let gcs: FakeGcs;
let emulator: RunningEmulator;

async function send(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${emulator.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function waitDone(operation: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if ((await send('GET', `/v1alpha1/${operation}`)).body.done) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${operation} did not finish`);
}

/**
 * A validated job over the storage object, on an emulator whose rowCells reads stop after
 * `rowCellsTimeLimitMs`: the 504 test waits out 1 s on a download that never ends; the others give
 * a read more time than the test has (a 1 s limit made a normal read 504 under load, and would
 * close a hung download whether or not the hang-up did).
 */
async function start(rowCellsTimeLimitMs: number): Promise<void> {
  gcs = await startFakeGcs();
  resetStorageClients();
  emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent', storageEndpoint: gcs.origin, rowCellsTimeLimitMs });
  gcs.objects.set(OBJECT, Buffer.from(MIXED_CSV));
  expect((await send('POST', `/v1alpha1/${PARENT}/sources?sourceId=src`, {})).status).toBe(200);
  const created = await send('POST', `/v1alpha1/${PARENT}/importJobs?importJobId=job-1`, {
    assetSource: `${PARENT}/sources/src`,
    gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: `gs://${OBJECT}` },
  });
  expect(created.status).toBe(200);
  await waitDone((await send('POST', `/v1alpha1/${JOB}:validate`, {})).body.name);
}

/** Longer than the test's own timeout: in the hang-up test, only the hang-up may close the download. */
const BEYOND_TEST_TIMEOUT_MS = 600_000;

afterEach(async () => {
  await emulator?.close();
  await gcs?.close();
  resetStorageClients();
});

const cellsUrl = (row: number) => `/emulator/v1/console/${JOB}/rowCells?file=vmInfo.csv&row=${row}`;

test('a row no report names is {} at once, without reading the file; a named row is read', async () => {
  await start(BEYOND_TEST_TIMEOUT_MS);
  // The report names row 4 (bad-1: cores "many") and row 5 (a warning); rows 2 and 3 are clean.
  const named = await send('GET', cellsUrl(4));
  expect(named.body.cells[named.body.header.indexOf('MachineName')]).toBe('bad-1');
  const downloads = gcs.requests.filter((r) => r.includes('alt=media')).length;

  // The object now has many more rows; none of them is named by the report.
  const rows = Array.from({ length: 50 }, (_, i) => vmRow(`n-${i}`, `new-${i}`));
  gcs.objects.set(OBJECT, Buffer.from(csv(VM_HEADER, ...rows)));
  for (const row of [3, 40, 99_999_999]) expect([row, (await send('GET', cellsUrl(row))).body]).toEqual([row, {}]);
  expect(gcs.requests.filter((r) => r.includes('alt=media')).length).toBe(downloads);
});

test('a read whose client hangs up stops: the download it waits on is closed', async () => {
  await start(BEYOND_TEST_TIMEOUT_MS);
  gcs.hang.add(OBJECT);
  const request = http.get(`${emulator.url}${cellsUrl(4)}`);
  request.on('error', () => undefined); // the hang-up below
  for (let i = 0; i < 400 && gcs.hangingDownloads.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
  expect(gcs.hangingDownloads.map((d) => d.key)).toEqual([OBJECT]);
  request.destroy();
  // Settles only if the emulator gives up the download; else the test's own timeout fails it.
  await gcs.hangingDownloads[0].closed;
  // The emulator still answers.
  expect((await send('GET', '/healthz')).body).toEqual({ status: 'ok' });
});

test('a read that outlasts the time limit ends 504 DEADLINE_EXCEEDED, and its download is closed', async () => {
  await start(1_000);
  gcs.hang.add(OBJECT);
  const res = await send('GET', cellsUrl(4));
  expect(res.status).toBe(504);
  expect(res.body.error).toMatchObject({ code: 504, status: 'DEADLINE_EXCEEDED' });
  expect(res.body.error.message).toBe('Reading the row took longer than 1 s; it was stopped.');
  await gcs.hangingDownloads[0].closed;
});
