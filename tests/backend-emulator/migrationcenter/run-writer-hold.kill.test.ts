/**
 * kill -9 while the run's writer holds its transaction open across batches (run-writer-worker.ts),
 * with pages of that transaction already spilled into the WAL: the database opened again holds
 * exactly the batches committed before, and the run's progress record counts exactly them. The
 * compiled package, in a process of its own. Kill tests: run by `npm test`, left out of `test:quick`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { compiledPackage } from '../../../support/compiled';
import { tempDir } from '../../../support/temp-dir';
import { runScript } from '../../support/script-child';
import { RUN_PROGRESS } from '../../../backend-emulator/migrationcenter/import-jobs/import-job-model';
import { SqliteStore } from '../../../backend-emulator/store/sqlite-store';

jest.setTimeout(240_000);

const PARENT = 'projects/p/locations/us-central1';
/** The batch committed before the kill: 500 assets. */
const COMMITTED = 500;

/**
 * The child: commits one batch of COMMITTED assets, then sends 60 batches of 500 assets of 2 KB
 * bodies (60 MB, far beyond the writer's 2 MB page cache: SQLite spills the open transaction's pages
 * into the WAL) into a transaction held for ten minutes and a million assets, and says so; it is
 * killed meanwhile.
 */
function childScript(pkg: string, dataDir: string): string {
  const mod = (p: string) => JSON.stringify(path.join(pkg, p));
  return `
const { SqliteStore } = require(${mod('backend-emulator/store/sqlite-store.js')});
const { RunWriterThread } = require(${mod('backend-emulator/migrationcenter/import-jobs/run-writer-thread.js')});
const { RUN_PROGRESS } = require(${mod('backend-emulator/migrationcenter/import-jobs/import-job-model.js')});
const body = JSON.stringify({ a: { pad: 'x'.repeat(2000) }, d: {} });
const batch = (k) => Array.from({ length: 500 }, (_, i) => ({ id: 'b' + k + '-' + i, labels: {}, body }));
(async () => {
  const store = new SqliteStore({ dataDir: ${JSON.stringify(dataDir)} });
  store.put(RUN_PROGRESS, 'job', { operation: 'op', framesWritten: 0 });
  const target = { database: store.lendSecondConnection().database, job: 'job', operation: 'op', parent: ${JSON.stringify(PARENT)}, reporter: 'job' };
  const writer = new RunWriterThread(target, 8, new AbortController().signal, () => undefined, undefined, { ms: 600000, rows: 1000000 });
  await writer.write(batch(0));
  await writer.drain();
  console.log('committed');
  for (let k = 1; k <= 60; k++) await writer.write(batch(k));
  console.log('sent');
})();
`;
}

test('kill -9 while the writer holds a transaction open: the batches committed before it, exactly, and the progress record counting them', async () => {
  const dataDir = tempDir();
  const child = runScript(childScript(compiledPackage(), dataDir));
  await child.until((out) => out.includes('sent'), 'send its batches');
  // Every batch sent, at least 53 of the 60 written into the open transaction (8 may wait in
  // flight): over 50 MB of rows, of which the 2 MB cache holds at most 2. The WAL, about 1 MB
  // after the first commit, grows past 16 MB only with the open transaction's spilled pages.
  const wal = path.join(dataDir, 'emulator.sqlite-wal');
  const deadline = Date.now() + 60_000;
  while (fs.statSync(wal).size < 16 * 1024 * 1024) {
    if (Date.now() > deadline) throw new Error(`the open transaction did not spill into the WAL within 60 s (${fs.statSync(wal).size} bytes)`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(await child.killHard()).toBe('SIGKILL');
  const store = new SqliteStore({ dataDir });
  try {
    expect(store.assets.count()).toBe(COMMITTED);
    expect(store.get(RUN_PROGRESS, 'job')).toEqual({ operation: 'op', framesWritten: COMMITTED });
    expect(store.assets.get(`${PARENT}/assets/b0-499`)).toBeDefined();
    expect(store.assets.get(`${PARENT}/assets/b1-0`)).toBeUndefined();
  } finally {
    store.close();
  }
});
