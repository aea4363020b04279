/**
 * `assets:batchUpdate` and `assets:batchDelete` of 1,000 assets (Google's limit per call) against
 * a bare SQLite transaction of the same rows (issue 28: target 2x).
 *
 * The emulator: its app on a durable data dir (WAL, synchronous FULL, as users run it), with
 * ASSET_BATCH_BENCH_ASSETS assets (10,000 by default) written first; each call goes through the
 * app's whole request path (fastify `inject`: routing, the front end's checks, JSON parse, the
 * schemas, the change, JSON answer) but the socket. The bare floor: one better-sqlite3 database
 * with the same pragmas and the emulator's own asset tables and indexes (ASSET_TABLES_SQL), one
 * transaction of bare statements updating (body, update time, labels) or deleting the same 1,000
 * rows; printed beside it, the same on tables with the unique (parent, aid) index only.
 *
 * Each figure is the median of RUNS calls, each on 1,000 assets not touched before (the
 * deletions) or the same 1,000 (the updates, new labels each time).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { buildEmulatorApp } from '../backend-emulator/app';
import { migrationCenterOf } from '../backend-emulator/migrationcenter/routes';
import { ASSET_TABLES_SQL } from '../backend-emulator/store/sqlite-assets';

const ASSETS = Number(process.env.ASSET_BATCH_BENCH_ASSETS ?? 10_000);
const BATCH = 1000;
const RUNS = 5;
const PARENT = 'projects/bench/locations/us-central1';

function seconds(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const machineId = (i: number) => `m-${String(i).padStart(6, '0')}`;

/** The emulator's medians (seconds) of RUNS batchUpdate and batchDelete calls of BATCH assets. */
async function emulatorRuns(dir: string): Promise<{ update: number; remove: number }> {
  const app = buildEmulatorApp({ dataDir: dir, logLevel: 'silent' });
  await app.ready();
  try {
    const assets = migrationCenterOf(app.emulator)!.assets;
    const all = Array.from({ length: ASSETS }, (_, i) => ({
      machineId: machineId(i),
      attributes: { HostingLocation: 'us-east-1' },
      labels: { env: 'prod' },
      virtualMachineDetails: { vmUuid: machineId(i), vmName: `vm-${i}`, coreCount: 2 + (i % 8), memoryMb: 4096 },
    }));
    for (let i = 0; i < all.length; i += 10_000) app.emulator.store.transaction(() => assets.upsert(PARENT, `${PARENT}/sources/s`, all.slice(i, i + 10_000)));
    const post = async (verb: string, body: unknown) => {
      const res = await app.inject({ method: 'POST', url: `/v1alpha1/${PARENT}/assets:${verb}`, payload: body as object });
      if (res.statusCode !== 200) throw new Error(`${verb}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    };
    const updates: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const requests = Array.from({ length: BATCH }, (_, i) => ({
        asset: { name: `${PARENT}/assets/vm-${machineId(i)}`, labels: { env: 'dev', run: `r${run}` }, attributes: { owner: `team-${run}` } },
        updateMask: 'labels,attributes',
      }));
      const start = process.hrtime.bigint();
      await post('batchUpdate', { requests });
      updates.push(seconds(start));
    }
    const removals: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const names = Array.from({ length: BATCH }, (_, i) => `${PARENT}/assets/vm-${machineId(ASSETS - (run + 1) * BATCH + i)}`);
      const start = process.hrtime.bigint();
      await post('batchDelete', { names });
      removals.push(seconds(start));
    }
    return { update: median(updates), remove: median(removals) };
  } finally {
    await app.close();
  }
}

/**
 * The bare floor's medians (seconds): one transaction of the same row changes, on tables of the
 * emulator's shape: `indexes` 'emulator' makes them with the emulator's own DDL (its ten indexes
 * that lists and filters need), 'one' with the unique (parent, aid) index only.
 */
function bareRuns(dir: string, indexes: 'emulator' | 'one'): { update: number; remove: number } {
  const db = new Database(path.join(dir, `floor-${indexes}.sqlite`));
  try {
    db.pragma('page_size = 8192');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    if (indexes === 'emulator') db.exec(ASSET_TABLES_SQL);
    else
      db.exec(`
        CREATE TABLE assets (id INTEGER PRIMARY KEY, parent INTEGER NOT NULL, aid TEXT NOT NULL, create_ms INTEGER NOT NULL, update_ms INTEGER NOT NULL,
          vm_name TEXT, vm_uuid TEXT, core_count INTEGER, memory_mb INTEGER, os_family TEXT, power_state TEXT, body TEXT NOT NULL, disk_bytes INTEGER);
        CREATE UNIQUE INDEX assets_by_id ON assets (parent, aid);
        CREATE TABLE asset_labels (asset INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (asset, key)) WITHOUT ROWID;
        CREATE TABLE asset_sources (asset INTEGER NOT NULL, reporter INTEGER NOT NULL, PRIMARY KEY (asset, reporter)) WITHOUT ROWID;`);
    const insert = db.prepare(
      'INSERT INTO assets (parent, aid, create_ms, update_ms, vm_name, vm_uuid, core_count, memory_mb, body) VALUES (1, ?, 0, 0, ?, ?, ?, 4096, ?)',
    );
    const label = db.prepare('INSERT INTO asset_labels (asset, key, value) VALUES (?, ?, ?)');
    const source = db.prepare('INSERT INTO asset_sources (asset, reporter) VALUES (?, 1)');
    db.transaction(() => {
      for (let i = 0; i < ASSETS; i++) {
        const body = JSON.stringify({ a: { HostingLocation: 'us-east-1' }, d: {}, l: { env: 'prod' } });
        const id = Number(insert.run(`vm-${machineId(i)}`, `vm-${i}`, machineId(i), 2 + (i % 8), body).lastInsertRowid);
        label.run(id, 'env', 'prod');
        source.run(id);
      }
    })();
    const update = db.prepare('UPDATE assets SET update_ms = ?, body = ? WHERE parent = 1 AND aid = ? RETURNING id');
    const dropLabels = db.prepare('DELETE FROM asset_labels WHERE asset = ?');
    const updates: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const start = process.hrtime.bigint();
      db.transaction(() => {
        for (let i = 0; i < BATCH; i++) {
          const labels = { env: 'dev', run: `r${run}` };
          const { id } = update.get(Date.now(), JSON.stringify({ a: { owner: `team-${run}` }, d: {}, l: labels }), `vm-${machineId(i)}`) as { id: number };
          dropLabels.run(id);
          for (const [k, v] of Object.entries(labels)) label.run(id, k, v);
        }
      })();
      updates.push(seconds(start));
    }
    const find = db.prepare('SELECT id FROM assets WHERE parent = 1 AND aid IN (SELECT value FROM json_each(?))');
    const removals: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const ids = Array.from({ length: BATCH }, (_, i) => `vm-${machineId(ASSETS - (run + 1) * BATCH + i)}`);
      const start = process.hrtime.bigint();
      db.transaction(() => {
        const rows = JSON.stringify((find.all(JSON.stringify(ids)) as Array<{ id: number }>).map((r) => r.id));
        for (const table of ['asset_labels', 'asset_sources']) db.prepare(`DELETE FROM ${table} WHERE asset IN (SELECT value FROM json_each(?))`).run(rows);
        db.prepare('DELETE FROM assets WHERE id IN (SELECT value FROM json_each(?))').run(rows);
      })();
      removals.push(seconds(start));
    }
    return { update: median(updates), remove: median(removals) };
  } finally {
    db.close();
  }
}

export async function runAssetBatchesBench(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'asset-batches-'));
  try {
    fs.mkdirSync(path.join(root, 'emulator'));
    const emulator = await emulatorRuns(path.join(root, 'emulator'));
    const bare = bareRuns(root, 'emulator');
    const oneIndex = bareRuns(root, 'one');
    const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;
    const line = (method: string, e: number, b: number, o: number) =>
      `  ${method}  emulator ${ms(e)}  bare transaction ${ms(b)}  ratio ${(e / b).toFixed(2)}x (target 2x)  [bare on one index: ${ms(o)}, ${(e / o).toFixed(2)}x]`;
    console.log(`asset batches: ${BATCH} of ${ASSETS} assets, median of ${RUNS} calls (load average ${os.loadavg()[0].toFixed(1)})`);
    console.log(line('batchUpdate', emulator.update, bare.update, oneIndex.update));
    console.log(line('batchDelete', emulator.remove, bare.remove, oneIndex.remove));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
