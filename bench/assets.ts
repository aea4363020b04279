/**
 * Assets at scale (issue 17), through the REST wire: a `vmInfo.csv` of ASSETS_BENCH_ROWS machines
 * (600,000 by default) as a storage payload (gcsPayload in the emulator's storage dir), then
 *   - validate against the bare papaparse streaming parse (target 1.5x);
 *   - run against the bare import floor: the same parse plus one durable SQLite row per machine
 *     (name with a unique index, a few typed columns, the row as JSON, batches of 10,000), built
 *     here beside it (target 1.5x);
 *   - a filtered page, an ordered page and an exact-name lookup against the unfiltered first page
 *     (target 10x); aggregateValues against the same aggregate as a bare SQLite query on the
 *     floor's table (target 2x);
 *   - the data dir's bytes per asset (target 1 KB) and the process's peak RSS (target 300 MB;
 *     the emulator runs in this process, so the figure includes the bench's own few MB).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import Papa from 'papaparse';
import { generateVmInfo } from './import-csv';
import { buildEmulatorApp } from '../backend-emulator/app';

const ROWS = Number(process.env.ASSETS_BENCH_ROWS ?? 600_000);
const PARENT = 'projects/bench/locations/us-central1';

function seconds(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return [seconds(start), value];
}

/** The median of `n` runs of `fn`, in seconds. */
async function median(n: number, fn: () => Promise<unknown>): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < n; i++) runs.push((await time(fn))[0]);
  runs.sort((a, b) => a - b);
  return runs[Math.floor(n / 2)];
}

function parse(file: string, onRow: (row: Record<string, string>) => void): Promise<number> {
  return new Promise((resolve, reject) => {
    let rows = 0;
    Papa.parse(fs.createReadStream(file), {
      header: true,
      skipEmptyLines: true,
      step: (r: { data: Record<string, string> }) => {
        rows++;
        onRow(r.data);
      },
      complete: () => resolve(rows),
      error: reject,
    });
  });
}

/** The floor: parse plus one durable row per machine in batches of 10,000. */
async function bareFloor(file: string, dir: string): Promise<Database.Database> {
  const db = new Database(path.join(dir, 'floor.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec('CREATE TABLE a (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, cores INTEGER, memory INTEGER, os TEXT, body TEXT)');
  const insert = db.prepare('INSERT INTO a (name, cores, memory, os, body) VALUES (?, ?, ?, ?, ?)');
  let batch: Array<Record<string, string>> = [];
  const flush = db.transaction((rows: Array<Record<string, string>>) => {
    for (const r of rows)
      insert.run(`${PARENT}/assets/${r.MachineId}`, Number(r.AllocatedProcessorCoreCount), Number(r.MemoryGiB) * 1024, r.OsType, JSON.stringify(r));
  });
  await parse(file, (r) => {
    batch.push(r);
    if (batch.length >= 10_000) {
      flush(batch);
      batch = [];
    }
  });
  flush(batch);
  return db;
}

function dirBytes(dir: string): number {
  let n = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    n += entry.isDirectory() ? dirBytes(p) : fs.statSync(p).size;
  }
  return n;
}

function line(label: string, value: number, base: number, target: number): string {
  const ratio = value / base;
  return `${label.padEnd(34)} ${value.toFixed(3).padStart(9)} s  ${ratio.toFixed(2).padStart(6)}x (target ${target}x: ${ratio <= target ? 'met' : 'NOT met'})`;
}

export async function runAssetsBench(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'assets-bench-'));
  const dataDir = path.join(root, 'data');
  const storageDir = path.join(root, 'storage');
  fs.mkdirSync(path.join(storageDir, 'bench'), { recursive: true });
  const file = path.join(storageDir, 'bench', 'vmInfo.csv');
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  try {
    const bytes = await generateVmInfo(file, ROWS);
    console.log(`assets: ${ROWS} rows, ${(bytes / 1e6).toFixed(1)} MB vmInfo.csv`);
    const [parseS] = await time(() => parse(file, () => undefined));
    const [floorS, floorDb] = await time(() => bareFloor(file, root));

    const app = buildEmulatorApp({ dataDir, storageDir, logLevel: 'silent' });
    await app.ready();
    const req = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
      const res = await app.inject({ method, url, ...(body !== undefined ? { payload: body as object } : {}) });
      if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 500)}`);
      return res.json();
    };
    const waitOp = async (name: string) => {
      for (;;) {
        const op = await req('GET', `/v1alpha1/${name}`);
        if (op.done) return op;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await req('POST', `/v1alpha1/${PARENT}/sources?sourceId=src`, { type: 'SOURCE_TYPE_UPLOAD' });
    await req('POST', `/v1alpha1/${PARENT}/importJobs?importJobId=big`, {
      assetSource: `${PARENT}/sources/src`,
      gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://bench/vmInfo.csv' },
    });
    const [validateS] = await time(async () => waitOp((await req('POST', `/v1alpha1/${PARENT}/importJobs/big:validate`, {})).name));
    const [runS, runOp] = await time(async () => waitOp((await req('POST', `/v1alpha1/${PARENT}/importJobs/big:run`, {})).name));
    if (runOp.error) throw new Error(`run failed: ${JSON.stringify(runOp.error)}`);
    const job = await req('GET', `/v1alpha1/${PARENT}/importJobs/big`);

    const list = (q: string) => () => req('GET', `/v1alpha1/${PARENT}/assets?pageSize=50${q}`);
    const firstPage = await median(5, list(''));
    const some = (await list('')()).assets[7].name as string;
    const filtered = await median(
      5,
      list(`&filter=${encodeURIComponent('virtualMachineDetails.coreCount > 8 AND virtualMachineDetails.osFamily = OS_FAMILY_WINDOWS')}`),
    );
    const ordered = await median(5, list(`&orderBy=${encodeURIComponent('virtualMachineDetails.memoryMb desc')}`));
    const lookup = await median(5, list(`&filter=${encodeURIComponent(`name = "${some}"`)}`));
    const aggregate = await median(3, () =>
      req('POST', `/v1alpha1/${PARENT}/assets:aggregateValues`, {
        aggregations: [
          { field: 'virtualMachineDetails.coreCount', sum: {} },
          { field: 'virtualMachineDetails.osFamily', frequency: {} },
        ],
      }),
    );
    const bareAggregate = await median(3, async () => {
      floorDb.prepare('SELECT total(cores) FROM a').get();
      floorDb.prepare('SELECT os, count(*) FROM a GROUP BY os').all();
    });
    const assets = (await req('GET', `/emulator/v1/console/summary`).catch(() => ({ assets: ROWS }))).assets ?? ROWS;
    await app.close();
    floorDb.close();
    const perAsset = dirBytes(dataDir) / ROWS;

    console.log(`job ${job.state}, ${job.executionReport?.framesReported ?? '?'} frames; ${assets} assets`);
    console.log(`bare papaparse parse                ${parseS.toFixed(3).padStart(9)} s`);
    console.log(`bare import floor                   ${floorS.toFixed(3).padStart(9)} s`);
    console.log(line(':validate (REST) / bare parse', validateS, parseS, 1.5));
    console.log(line(':run (REST) / bare floor', runS, floorS, 1.5));
    console.log(`unfiltered first page               ${firstPage.toFixed(4).padStart(9)} s`);
    console.log(line('filtered page / first page', filtered, firstPage, 10));
    console.log(line('ordered page / first page', ordered, firstPage, 10));
    console.log(line('exact-name lookup / first page', lookup, firstPage, 10));
    console.log(line('aggregateValues / bare SQLite', aggregate, bareAggregate, 2));
    console.log(`data dir per asset                  ${perAsset.toFixed(0).padStart(9)} B  (target 1024 B: ${perAsset <= 1024 ? 'met' : 'NOT met'})`);
    console.log(`peak RSS (emulator + bench)         ${(peak / 1e6).toFixed(0).padStart(9)} MB (target 300 MB: ${peak / 1e6 <= 300 ? 'met' : 'NOT met'})`);
  } finally {
    clearInterval(sampler);
    fs.rmSync(root, { recursive: true, force: true });
  }
}
