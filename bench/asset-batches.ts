/**
 * `assets:batchUpdate` and `assets:batchDelete` of 1,000 assets (Google's limit per call) against
 * a bare SQLite transaction of the same rows (issue 28: target 2x).
 *
 * The emulator: its app on a durable data dir (WAL, synchronous FULL, as users run it), with
 * ASSET_BATCH_BENCH_ASSETS assets (10,000 by default) written first; each call goes through the
 * app's whole request path (fastify `inject`: routing, the front end's checks, JSON parse, the
 * schemas, the change, JSON answer) but the socket. The request's JSON bytes are made before the
 * clock starts (a client's work). The answer's bytes are taken as a socket takes them: `inject`
 * copies each chunk the app writes (as the kernel copies it into a socket's buffer) and the bench
 * reads them as a stream, to the last byte, inside the clock. Joining them into one buffer and
 * decoding that as a string (`inject`'s default: two more copies of a 385 KB answer, each into
 * fresh pages, some 190 page faults per call) is the client's work, as making the request's bytes
 * is: it was inside the clock until the eighth session, and was most of what the emulator's
 * calls spent outside the route (about 6 ms of CPU per call at load 5 to 8).
 *
 * The bare floor does the durable work a user's request needs, no more and no less: one
 * better-sqlite3 database with the store's settings (page size, WAL, synchronous FULL, exclusive
 * locking, its page cache) and the emulator's own asset tables and indexes (ASSET_TABLES_SQL),
 * planner statistics gathered after the rows are written (as the store does), and one transaction
 * of prepared statements. An update reads each asset's row (its body: the fields a mask leaves
 * alone are kept; and the answer is the updated asset), its sources and groups (the answer lists
 * them), then writes the body and update time and replaces the labels; a deletion finds the rows
 * and deletes them from every table keyed by asset (ASSET_KEYED_TABLES). Printed beside it, the
 * same on tables with the unique (parent, aid) index only.
 *
 * Each figure is the median of RUNS calls, each on 1,000 assets not touched before (the
 * deletions) or the same 1,000 (the updates, new labels each time): the wall time, and the CPU
 * time of the process (user + system; the emulator's includes `inject`'s side), which load moves
 * less than the wall time. Before the timed calls, each side makes WARM_UP untimed calls of each
 * method, the same as the timed ones: the figures are of a process that has served the method
 * before, on both sides. (A fresh emulator's batchUpdate took some 200 ms of CPU in its first call,
 * 35 to 46 ms in its second and third, while V8 compiled its code on its helper threads, and 15 to
 * 30 ms from then on; the bare side's first transaction compiles its loop.)
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { buildEmulatorApp } from '../backend-emulator/app';
import { migrationCenterOf } from '../backend-emulator/migrationcenter/routes';
import { ASSET_KEYED_TABLES, ASSET_TABLES_SQL } from '../backend-emulator/store/sqlite-assets';
import { DATABASE_PRAGMAS } from '../backend-emulator/store/sqlite-store';
import { median } from './stats';

const ASSETS = Number(process.env.ASSET_BATCH_BENCH_ASSETS ?? 10_000);
const BATCH = 1000;
const RUNS = 5;
const WARM_UP = 3;
const PARENT = 'projects/bench/locations/us-central1';

function seconds(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/** Wall and CPU seconds of a call. */
interface Timing {
  wall: number;
  cpu: number;
}

/** The wall and CPU (user + system) seconds of `call`. */
async function timed(call: () => unknown): Promise<Timing> {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await call();
  const used = process.cpuUsage(cpu);
  return { wall: seconds(start), cpu: (used.user + used.system) / 1e6 };
}

/** The medians of a method's calls. */
interface Medians {
  wall: number;
  cpu: number;
}

function medians(timings: Timing[]): Medians {
  return { wall: median(timings.map((t) => t.wall)), cpu: median(timings.map((t) => t.cpu)) };
}

const machineId = (i: number) => `m-${String(i).padStart(6, '0')}`;

/** The emulator's medians (seconds) of RUNS batchUpdate and batchDelete calls of BATCH assets. */
async function emulatorRuns(dir: string): Promise<{ update: Medians; remove: Medians }> {
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
    // The request's bytes are made before the clock starts, as a client has them ready to send:
    // serialising them is the client's work, not the emulator's.
    const request = (body: unknown) => Buffer.from(JSON.stringify(body));
    // The answer read as a stream to its last byte, as a socket's reader would take it (see above).
    const post = async (verb: string, bytes: Buffer) => {
      const res = await app.inject({
        method: 'POST',
        url: `/v1alpha1/${PARENT}/assets:${verb}`,
        headers: { 'content-type': 'application/json' },
        payload: bytes,
        payloadAsStream: true,
      });
      const chunks: Buffer[] = [];
      for await (const chunk of res.stream()) chunks.push(chunk as Buffer);
      if (res.statusCode !== 200) throw new Error(`${verb}: ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 300)}`);
    };
    const update = (run: number | string) =>
      request({
        requests: Array.from({ length: BATCH }, (_, i) => ({
          asset: { name: `${PARENT}/assets/vm-${machineId(i)}`, labels: { env: 'dev', run: `r${run}` }, attributes: { owner: `team-${run}` } },
          updateMask: 'labels,attributes',
        })),
      });
    // The deletion of call `run`: 1,000 assets counted from the end, none deleted before (the warm-ups' are `run` RUNS and on).
    const deletion = (run: number) =>
      request({ names: Array.from({ length: BATCH }, (_, i) => `${PARENT}/assets/vm-${machineId(ASSETS - (run + 1) * BATCH + i)}`) });
    for (let call = 0; call < WARM_UP; call++) {
      await post('batchUpdate', update(`warm-up-${call}`));
      await post('batchDelete', deletion(RUNS + call));
    }
    const updates: Timing[] = [];
    for (let run = 0; run < RUNS; run++) {
      const bytes = update(run);
      updates.push(await timed(() => post('batchUpdate', bytes)));
    }
    const removals: Timing[] = [];
    for (let run = 0; run < RUNS; run++) {
      const bytes = deletion(run);
      removals.push(await timed(() => post('batchDelete', bytes)));
    }
    return { update: medians(updates), remove: medians(removals) };
  } finally {
    await app.close();
  }
}

/**
 * The bare floor's medians (seconds): one transaction of the same row changes, on tables of the
 * emulator's shape: `indexes` 'emulator' makes them with the emulator's own DDL (its ten indexes
 * that lists and filters need), 'one' with the unique (parent, aid) index only.
 */
async function bareRuns(dir: string, indexes: 'emulator' | 'one'): Promise<{ update: Medians; remove: Medians }> {
  const db = new Database(path.join(dir, `floor-${indexes}.sqlite`));
  try {
    // The store's settings (sqlite-store.ts DATABASE_PRAGMAS, sqlite-assets.ts): the same page
    // size, journal, fsyncs and page cache.
    for (const pragma of DATABASE_PRAGMAS) db.pragma(pragma);
    db.pragma('cache_size = -32768');
    if (indexes === 'emulator') db.exec(ASSET_TABLES_SQL);
    else
      db.exec(`
        CREATE TABLE assets (id INTEGER PRIMARY KEY, parent INTEGER NOT NULL, aid TEXT NOT NULL, create_ms INTEGER NOT NULL, update_ms INTEGER NOT NULL,
          vm_name TEXT, vm_uuid TEXT, core_count INTEGER, memory_mb INTEGER, os_family TEXT, power_state TEXT, body TEXT NOT NULL, disk_bytes INTEGER);
        CREATE UNIQUE INDEX assets_by_id ON assets (parent, aid);
        CREATE TABLE asset_labels (asset INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (asset, key)) WITHOUT ROWID;
        CREATE TABLE asset_sources (asset INTEGER NOT NULL, reporter INTEGER NOT NULL, PRIMARY KEY (asset, reporter)) WITHOUT ROWID;
        CREATE TABLE asset_members (grp INTEGER NOT NULL, asset INTEGER NOT NULL, PRIMARY KEY (grp, asset)) WITHOUT ROWID;`);
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
    // The planner's statistics, as the store gathers them once the table has grown (sqlite-assets.ts `analyze`).
    db.pragma('analysis_limit = 1000');
    db.exec('ANALYZE assets; ANALYZE asset_labels; ANALYZE asset_sources');
    const read = db.prepare(
      'SELECT id, aid, create_ms, vm_name, vm_uuid, core_count, memory_mb, os_family, power_state, disk_bytes, body FROM assets WHERE parent = 1 AND aid = ?',
    );
    const sourcesOf = db.prepare('SELECT asset, reporter FROM asset_sources WHERE asset IN (SELECT value FROM json_each(?))');
    const groupsOf = db.prepare('SELECT asset, grp FROM asset_members WHERE asset IN (SELECT value FROM json_each(?))');
    const update = db.prepare('UPDATE assets SET update_ms = ?, body = ? WHERE id = ?');
    const dropLabels = db.prepare('DELETE FROM asset_labels WHERE asset = ?');
    const updateCall = (run: number | string) => {
      const time = Date.now();
      db.transaction(() => {
        const ids: number[] = [];
        for (let i = 0; i < BATCH; i++) {
          const row = read.get(`vm-${machineId(i)}`) as { id: number; body: string };
          const labels = { env: 'dev', run: `r${run}` };
          const body = { ...(JSON.parse(row.body) as Record<string, unknown>), a: { owner: `team-${run}` }, l: labels };
          update.run(time, JSON.stringify(body), row.id);
          dropLabels.run(row.id);
          for (const [k, v] of Object.entries(labels)) label.run(row.id, k, v);
          ids.push(row.id);
        }
        sourcesOf.all(JSON.stringify(ids));
        groupsOf.all(JSON.stringify(ids));
      })();
    };
    const find = db.prepare('SELECT id FROM assets WHERE parent = 1 AND aid IN (SELECT value FROM json_each(?))');
    const deletes = [...ASSET_KEYED_TABLES, 'assets'].map((table) =>
      db.prepare(`DELETE FROM ${table} WHERE ${table === 'assets' ? 'id' : 'asset'} IN (SELECT value FROM json_each(?))`),
    );
    // The ids of call `run`'s deletions (made before the clock, as the emulator's request bytes are).
    const deletionIds = (run: number) => Array.from({ length: BATCH }, (_, i) => `vm-${machineId(ASSETS - (run + 1) * BATCH + i)}`);
    const deleteCall = (ids: string[]) => {
      db.transaction(() => {
        const rows = JSON.stringify((find.all(JSON.stringify(ids)) as Array<{ id: number }>).map((r) => r.id));
        for (const statement of deletes) statement.run(rows);
      })();
    };
    // Untimed calls of each, as on the emulator's side.
    for (let call = 0; call < WARM_UP; call++) {
      updateCall(`warm-up-${call}`);
      deleteCall(deletionIds(RUNS + call));
    }
    const updates: Timing[] = [];
    for (let run = 0; run < RUNS; run++) updates.push(await timed(() => updateCall(run)));
    const removals: Timing[] = [];
    for (let run = 0; run < RUNS; run++) {
      const ids = deletionIds(run);
      removals.push(await timed(() => deleteCall(ids)));
    }
    return { update: medians(updates), remove: medians(removals) };
  } finally {
    db.close();
  }
}

export async function runAssetBatchesBench(): Promise<void> {
  if (ASSETS < (RUNS + WARM_UP) * BATCH)
    throw new Error(`ASSET_BATCH_BENCH_ASSETS must be at least ${(RUNS + WARM_UP) * BATCH}: each deletion takes assets not deleted before`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'asset-batches-'));
  try {
    fs.mkdirSync(path.join(root, 'emulator'));
    const emulator = await emulatorRuns(path.join(root, 'emulator'));
    const bare = await bareRuns(root, 'emulator');
    const oneIndex = await bareRuns(root, 'one');
    const ms = (s: number) => `${(s * 1000).toFixed(1)} ms`;
    const line = (method: string, e: Medians, b: Medians, o: Medians) =>
      `  ${method}  emulator ${ms(e.wall)}  bare transaction ${ms(b.wall)}  ratio ${(e.wall / b.wall).toFixed(2)}x (target 2x)` +
      `  [CPU ${ms(e.cpu)} / ${ms(b.cpu)}: ${(e.cpu / b.cpu).toFixed(2)}x]  [bare on one index: ${ms(o.wall)}, ${(e.wall / o.wall).toFixed(2)}x]`;
    console.log(`asset batches: ${BATCH} of ${ASSETS} assets, median of ${RUNS} calls after ${WARM_UP} untimed (load average ${os.loadavg()[0].toFixed(1)})`);
    console.log(line('batchUpdate', emulator.update, bare.update, oneIndex.update));
    console.log(line('batchDelete', emulator.remove, bare.remove, oneIndex.remove));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
