/**
 * kill -9 while two runs' writer threads write at once, taking turns (writer-turn.ts), each with a
 * transaction open or waiting for its turn: the database opened again holds, for each run, exactly
 * the batches it committed, and its progress record counts exactly them. The compiled package, in
 * a process of its own. Kill tests: run by `npm test`, left out of `test:quick`.
 */
import Database from 'better-sqlite3';
import * as path from 'path';
import { compiledPackage } from '../../../support/compiled';
import { tempDir } from '../../../support/temp-dir';
import { runScript } from '../../support/script-child';
import { RUN_PROGRESS } from '../../../backend-emulator/migrationcenter/import-jobs/import-job-model';
import { DATABASE_FILE_NAME, SqliteStore } from '../../../backend-emulator/store/sqlite-store';

jest.setTimeout(240_000);

const PARENT = 'projects/p/locations/us-central1';
const BATCH = 500;

/**
 * The child: two runs (`a`, `b`), each sending 200 batches of 500 assets into a writer thread with
 * the default holds (a second, 20,000 assets), reporting each batch stored on stdout (`a 1500`); it
 * is killed meanwhile.
 */
function childScript(pkg: string, dataDir: string): string {
  const mod = (p: string) => JSON.stringify(path.join(pkg, p));
  return `
const { SqliteStore } = require(${mod('backend-emulator/store/sqlite-store.js')});
const { RunWriterThread } = require(${mod('backend-emulator/migrationcenter/import-jobs/run-writer-thread.js')});
const { RUN_PROGRESS } = require(${mod('backend-emulator/migrationcenter/import-jobs/import-job-model.js')});
const body = JSON.stringify({ a: { pad: 'x'.repeat(300) }, d: {} });
const batch = (run, k) => Array.from({ length: ${BATCH} }, (_, i) => ({ id: run + k + '-' + i, labels: {}, body }));
const store = new SqliteStore({ dataDir: ${JSON.stringify(dataDir)} });
for (const run of ['a', 'b']) {
  store.put(RUN_PROGRESS, run, { operation: 'op-' + run, framesWritten: 0 });
  const target = { database: store.lendSecondConnection().database, job: run, operation: 'op-' + run, parent: ${JSON.stringify(PARENT)}, reporter: run };
  const writer = new RunWriterThread(target, 8, new AbortController().signal, (n) => console.log(run + ' ' + n));
  (async () => {
    for (let k = 0; k < 200; k++) await writer.write(batch(run, k));
  })();
}
`;
}

/** Each run's assets in the database file (their ids start with the run's name), read on a connection of its own. */
function assetsByRun(dataDir: string): Record<string, number> {
  const db = new Database(path.join(dataDir, DATABASE_FILE_NAME), { readonly: true });
  try {
    const rows = db.prepare('SELECT substr(aid, 1, 1) AS run, count(*) AS n FROM assets GROUP BY run ORDER BY run').all() as Array<{ run: string; n: number }>;
    return Object.fromEntries(rows.map((r) => [r.run, r.n]));
  } finally {
    db.close();
  }
}

test('kill -9 while two runs write in turns: each run keeps exactly the batches it committed, and its progress record counts them', async () => {
  const dataDir = tempDir();
  const child = runScript(childScript(compiledPackage(), dataDir));
  const stored = (run: string) => Math.max(0, ...[...child.out().matchAll(new RegExp(`^${run} (\\d+)$`, 'gm'))].map((m) => Number(m[1])));
  // Killed once both runs have committed batches, and one of them has committed 20 more batches
  // since the other's first: by then each has had a turn, and one is writing or waiting.
  await child.until(() => stored('a') > 0 && stored('b') > 0 && stored('a') + stored('b') >= 20 * BATCH, 'have both runs write');
  expect(await child.killHard()).toBe('SIGKILL');
  const assets = assetsByRun(dataDir);
  const store = new SqliteStore({ dataDir });
  try {
    for (const run of ['a', 'b']) {
      const progress = store.get<{ operation: string; framesWritten: number }>(RUN_PROGRESS, run);
      expect(progress?.operation).toBe(`op-${run}`);
      // What the run committed: at least what it reported before the kill, in whole batches, and exactly its assets.
      expect(progress!.framesWritten).toBeGreaterThanOrEqual(stored(run));
      expect(progress!.framesWritten % BATCH).toBe(0);
      expect(assets[run] ?? 0).toBe(progress!.framesWritten);
    }
  } finally {
    store.close();
  }
});
