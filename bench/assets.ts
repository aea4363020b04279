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
 *   - the data dir's bytes per asset (target 1 KB) and the emulator's peak RSS (target 300 MB):
 *     the emulator is the compiled CLI in a process of its own, reached over HTTP as users run
 *     it, its RSS sampled every 50 ms from /proc.
 * The bare baselines run in this process, on the same file, in the same run.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import Papa from 'papaparse';
import { generateVmInfo } from './import-csv';
import { compiledCli, spawnListening } from '../support/cli-process';

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

interface EmulatorFigures {
  state: string;
  frames: number;
  validate: number;
  run: number;
  firstPage: number;
  filtered: number;
  ordered: number;
  lookup: number;
  aggregate: number;
  peakRss: number;
  /** RSS once the compiled emulator listens, before any import. */
  startRss: number;
}

/** VmRSS of a process, from /proc (Linux): the emulator is measured from outside, as it runs. */
function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * The emulator as users run it: the compiled CLI in a process of its own, with a durable data
 * dir, reached over HTTP; its RSS sampled every 50 ms from /proc.
 */
async function emulatorOverHttp(dataDir: string, storageDir: string): Promise<EmulatorFigures> {
  const server = await spawnListening([compiledCli(), '--port', '0', '--data-dir', dataDir, '--storage-dir', storageDir, '--log-level', 'silent'], {}, 60_000);
  const pid = server.child.pid as number;
  let peak = rssOf(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 50);
  try {
    const startRss = rssOf(pid);
    const req = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
      const res = await fetch(`${server.url}${url}`, {
        method,
        headers: body !== undefined ? { 'content-type': 'application/json' } : {},
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 500)}`);
      return JSON.parse(text);
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
    const [validate] = await time(async () => waitOp((await req('POST', `/v1alpha1/${PARENT}/importJobs/big:validate`, {})).name));
    const [run, runOp] = await time(async () => waitOp((await req('POST', `/v1alpha1/${PARENT}/importJobs/big:run`, {})).name));
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
    return {
      state: job.state,
      frames: job.executionReport?.framesReported ?? 0,
      validate,
      run,
      firstPage,
      filtered,
      ordered,
      lookup,
      aggregate,
      peakRss: peak,
      startRss,
    };
  } finally {
    clearInterval(sampler);
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

export async function runAssetsBench(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'assets-bench-'));
  const dataDir = path.join(root, 'data');
  const storageDir = path.join(root, 'storage');
  fs.mkdirSync(path.join(storageDir, 'bench'), { recursive: true });
  const file = path.join(storageDir, 'bench', 'vmInfo.csv');
  try {
    const bytes = await generateVmInfo(file, ROWS);
    console.log(`assets: ${ROWS} rows, ${(bytes / 1e6).toFixed(1)} MB vmInfo.csv`);
    const [parseS] = await time(() => parse(file, () => undefined));
    const [floorS, floorDb] = await time(() => bareFloor(file, root));
    const e = await emulatorOverHttp(dataDir, storageDir);
    const bareAggregate = await median(3, async () => {
      floorDb.prepare('SELECT total(cores) FROM a').get();
      floorDb.prepare('SELECT os, count(*) FROM a GROUP BY os').all();
    });
    floorDb.close();
    const perAsset = dirBytes(dataDir) / ROWS;
    console.log(`job ${e.state}, ${e.frames} frames`);
    console.log(`bare papaparse parse               ${parseS.toFixed(3).padStart(9)} s`);
    console.log(`bare import floor                  ${floorS.toFixed(3).padStart(9)} s`);
    console.log(line(':validate (REST) / bare parse', e.validate, parseS, 1.5));
    console.log(line(':run (REST) / bare floor', e.run, floorS, 1.5));
    console.log(`unfiltered first page              ${e.firstPage.toFixed(4).padStart(9)} s`);
    console.log(line('filtered page / first page', e.filtered, e.firstPage, 10));
    console.log(line('ordered page / first page', e.ordered, e.firstPage, 10));
    console.log(line('exact-name lookup / first page', e.lookup, e.firstPage, 10));
    console.log(line('aggregateValues / bare SQLite', e.aggregate, bareAggregate, 2));
    console.log(`data dir per asset                 ${perAsset.toFixed(0).padStart(9)} B  (target 1024 B: ${perAsset <= 1024 ? 'met' : 'NOT met'})`);
    console.log(
      `emulator peak RSS                  ${(e.peakRss / 1e6).toFixed(0).padStart(9)} MB (target 300 MB: ${e.peakRss / 1e6 <= 300 ? 'met' : 'NOT met'})`,
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
