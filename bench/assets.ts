/**
 * Assets at scale (issue 17), through the REST wire: a `vmInfo.csv` of ASSETS_BENCH_ROWS machines
 * (600,000 by default; 530,000 in the full shape: `rowsOf`) as a storage payload (gcsPayload in the emulator's storage dir), then
 *   - validate against the bare papaparse streaming parse (target 1.0x since issue 27, 1.5x before);
 *   - run against the bare import floor: the same parse plus one durable SQLite row per machine
 *     (name with a unique index, a few typed columns, the row as JSON, batches of 10,000), built
 *     here beside it (target 1.0x since issue 27, aim 0.8x; 1.5x before);
 *   - a filtered page, an ordered page and an exact-name lookup against the unfiltered first page
 *     (target 10x); aggregateValues against the same aggregate as a bare SQLite query on the
 *     floor's table (target 2x);
 *   - the data dir's bytes per asset (target 1 KB) and the emulator's peak RSS (target 300 MB):
 *     the emulator is the compiled CLI in a process of its own, reached over HTTP as users run
 *     it, its RSS sampled every 50 ms from /proc;
 *   - issue 27: the latency (p99) of operations.get and getIamPolicy from a concurrent client
 *     during :validate and :run (target 50 ms), the time from operations.cancel to the Operation
 *     seen done during a :run (target 1 s), and the same latency during a 100,000-row inline
 *     payload's :validate and :run.
 * Two shapes of the file (ASSETS_BENCH_SHAPES, default both): `full`, the one of the import-csv
 * bench (CRLF, every column filled, RFC 3339 dates); `lean`, as most hand-made inventories are
 * (LF, the manual template's header, a third of the cells empty, `2024-01-15 10:00:00` dates).
 * In both the machines have random VMware-like UUIDs and unordered names, as real exports have
 * (machine-ids.ts; the seed printed, ASSETS_BENCH_SEED; ASSETS_BENCH_IDS=ordered for the ordered
 * `vm-00000001` and `host-1` of the figures before 2026-11-27): every asset then lands at a
 * random place in the id, `vmUuid` and `vmName` indexes, not at their ends.
 * The bare baselines run in this process, on the same file, in the same run.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { once } from 'node:events';
import Database from 'better-sqlite3';
import Papa from 'papaparse';
import { generateVmInfo } from './import-csv';
import { DEFAULT_SEED, machineIdKind, machineIdentities, type MachineIdentity } from './machine-ids';
import { emulatorRest, httpRequest, latencyOf, probe, processCpuSeconds, RssSampler, rssPartsText, type Latency, type RssParts } from './process-probes';
import { compiledCli, spawnListening } from '../support/cli-process';

const ROWS = process.env.ASSETS_BENCH_ROWS === undefined ? undefined : Number(process.env.ASSETS_BENCH_ROWS);
/**
 * The machines of a shape's file unless ASSETS_BENCH_ROWS says: 600,000, but 530,000 in the full
 * shape with random ids, whose rows (195 bytes) would make 600,000 a 117 MB file, over the
 * emulator's one-file limit of 100 MiB (the import engine's `maxFileBytes`): the job would fail
 * its validation.
 */
function rowsOf(shape: Shape): number {
  return ROWS ?? (shape === 'full' && IDS === 'random' ? 530_000 : 600_000);
}
const SHAPES = (process.env.ASSETS_BENCH_SHAPES ?? 'lean,full').split(',') as Shape[];
/**
 * The steps after :validate and :run (ASSETS_BENCH_STEPS, default all): `pages`, `cancel`,
 * `inline`. Leaving some out shortens a comparison of :validate and :run alone.
 */
const STEPS = new Set((process.env.ASSETS_BENCH_STEPS ?? 'pages,cancel,inline').split(','));
/**
 * ASSETS_BENCH_REPEAT (default 1): how many times each shape's bare parse, bare floor, :validate
 * and :run are measured, each time afresh (a new floor database, a new emulator on an empty data
 * dir), one after the other. Single samples of these figures move by about a tenth between runs
 * on the same machine; with repeats the bench prints each ratio's median and range. The other
 * steps run in the first repeat only.
 */
const REPEAT = Math.max(1, Number(process.env.ASSETS_BENCH_REPEAT ?? 1));
/**
 * The machines' ids and names (ASSETS_BENCH_IDS, default `random`: VMware-like UUIDs and unordered
 * names from a generator seeded with ASSETS_BENCH_SEED, as real exports have them; `ordered`:
 * `vm-00000001` and `host-1`, the files measured before 2026-11-27's fourteenth session).
 */
const IDS = machineIdKind(process.env.ASSETS_BENCH_IDS);
const SEED = Number(process.env.ASSETS_BENCH_SEED ?? DEFAULT_SEED);
const INLINE_ROWS = 100_000;
const PARENT = 'projects/bench/locations/us-central1';
const POLICY = 'projects/bench/locations/global/endpointPolicies/ep-bench';

type Shape = 'lean' | 'full';

const LEAN_HEADER =
  'MachineId,MachineName,PrimaryIPAddress,PrimaryMACAddress,PublicIPAddress,IpAddressListSemiColonDelimited,TotalDiskAllocatedGiB,' +
  'TotalDiskUsedGiB,MachineTypeLabel,AllocatedProcessorCoreCount,MemoryGiB,HostingLocation,OsType,OsPublisher,OsName,OsVersion,' +
  'MachineStatus,ProvisioningState,CreateDate,IsPhysical,Source\n';
const LEAN_OSES = [
  ['Linux', 'Ubuntu', '22.04'],
  ['Windows', 'Windows Server 2019 Datacenter', '10.0.17763'],
  ['Linux', 'Red Hat Enterprise Linux', '8.6'],
];

function leanRow(i: number, machine: MachineIdentity): string {
  const a = (i >> 16) & 255;
  const b = (i >> 8) & 255;
  const c = i & 255;
  const os_ = LEAN_OSES[i % LEAN_OSES.length];
  const cores = 1 << (i % 6);
  return (
    `${machine.id},${machine.name},10.${a}.${b}.${c},,,,${50 + (i % 1000)},,,${cores},${cores * 4},,` +
    `${os_[0]},,${os_[1]},${os_[2]},${i % 7 === 0 ? 'stopped' : 'running'},,2024-01-15 10:00:00,,\n`
  );
}

/** Streams the lean shape's vmInfo.csv of `rows` machines to `file` (ids and names from `machines`, as `generateVmInfo`); returns its size. */
export async function generateLeanVmInfo(file: string, rows: number, machines = machineIdentities('random')): Promise<number> {
  const out = fs.createWriteStream(file);
  let bytes = 0;
  let chunk = LEAN_HEADER;
  for (let i = 1; i <= rows; i++) {
    chunk += leanRow(i, machines(i));
    if (chunk.length >= 1 << 20 || i === rows) {
      bytes += Buffer.byteLength(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}

/** The first `rows` machines of `file` (its header and lines), as base64 for an inline payload. */
export function firstRowsBase64(file: string, rows: number): string {
  const text = fs.readFileSync(file, 'utf8');
  let at = 0;
  for (let i = 0; i <= rows && at !== -1; i++) at = text.indexOf('\n', at + 1);
  return Buffer.from(at === -1 ? text : text.slice(0, at + 1)).toString('base64');
}

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

interface ImportFigures {
  seconds: number;
  /** The emulator process's CPU time (user + system, every thread) while it ran. */
  cpuSeconds: number;
  /** Latency of the concurrent client's operations.get and getIamPolicy while it ran. */
  operationGet: Latency;
  getIamPolicy: Latency;
}

interface EmulatorFigures {
  state: string;
  frames: number;
  validate: ImportFigures;
  run: ImportFigures;
  /** From operations.cancel sent during a :run to the Operation read done (ms); and the job's state then. */
  cancel?: { ms: number; state: string };
  inline?: { create: ImportFigures; validate: ImportFigures; run: ImportFigures; frames: number };
  pages?: { firstPage: number; filtered: number; ordered: number; lookup: number; aggregate: number };
  peakRss: RssParts;
  /** The peak RSS of each step (the step that holds the peak is where to cut). */
  stepPeaks: Record<string, number>;
  /** RSS once the compiled emulator listens, before any import. */
  startRss: RssParts;
}

/**
 * The emulator as users run it: the compiled CLI in a process of its own, with a durable data
 * dir, reached over HTTP; its RSS sampled every 50 ms from /proc.
 */
async function emulatorOverHttp(dataDir: string, storageDir: string, options: { pages: boolean; cancel: boolean; inline?: string }): Promise<EmulatorFigures> {
  const server = await spawnListening([compiledCli(), '--port', '0', '--data-dir', dataDir, '--storage-dir', storageDir, '--log-level', 'silent'], {}, 60_000);
  const pid = server.child.pid as number;
  const sampler = new RssSampler(pid, 50);
  try {
    const { req, waitOp } = emulatorRest(server.url);
    /** `verb` on a job until its Operation is done, with the concurrent client beside it. */
    const timedImport = async (job: string, verb: 'validate' | 'run'): Promise<ImportFigures & { op: any }> => {
      sampler.step = `${job} :${verb}`;
      const start = process.hrtime.bigint();
      const cpu0 = processCpuSeconds(pid);
      const op = await req('POST', `/v1alpha1/${PARENT}/importJobs/${job}:${verb}`, {});
      let done = false;
      const probes = Promise.all([probe(`${server.url}/v1alpha1/${op.name}`, () => done), probe(`${server.url}/v1/${POLICY}:getIamPolicy`, () => done)]);
      const ended = await waitOp(op.name);
      const secs = seconds(start);
      const cpuSeconds = processCpuSeconds(pid) - cpu0;
      done = true;
      const [opTimes, iamTimes] = await probes;
      if (ended.error) throw new Error(`${verb} of ${job} failed: ${JSON.stringify(ended.error)}`);
      return { seconds: secs, cpuSeconds, operationGet: latencyOf(opTimes), getIamPolicy: latencyOf(iamTimes), op: ended };
    };
    await req('POST', `/v1alpha1/${PARENT}/sources?sourceId=src`, { type: 'SOURCE_TYPE_UPLOAD' });
    await req('POST', `/v1/projects/bench/locations/global/endpointPolicies?endpointPolicyId=ep-bench`, {
      type: 'SIDECAR_PROXY',
      endpointMatcher: { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY', metadataLabels: [{ labelName: 'a', labelValue: 'b' }] } },
    });
    const gcsJob = async (id: string) =>
      req('POST', `/v1alpha1/${PARENT}/importJobs?importJobId=${id}`, {
        assetSource: `${PARENT}/sources/src`,
        gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://bench/vmInfo.csv' },
      });
    await gcsJob('big');
    const validate = await timedImport('big', 'validate');
    const run = await timedImport('big', 'run');
    const job = await req('GET', `/v1alpha1/${PARENT}/importJobs/big`);

    let pages: EmulatorFigures['pages'];
    if (options.pages) {
      sampler.step = 'pages';
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
      pages = { firstPage, filtered, ordered, lookup, aggregate };
    }

    let cancel: EmulatorFigures['cancel'];
    if (options.cancel) {
      sampler.step = 'cancel';
      // Cancel during a run: once a batch is written, operations.cancel, then reads until done.
      await gcsJob('cancelled');
      await waitOp((await req('POST', `/v1alpha1/${PARENT}/importJobs/cancelled:validate`, {})).name);
      const running = await req('POST', `/v1alpha1/${PARENT}/importJobs/cancelled:run`, {});
      for (;;) {
        const op = await req('GET', `/v1alpha1/${running.name}`);
        if (op.done) throw new Error('the run to cancel ended before a batch was written');
        if (/[1-9][\d,]* assets written$/.test(op.metadata?.statusMessage ?? '')) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const c0 = performance.now();
      await req('POST', `/v1alpha1/${running.name}:cancel`, {});
      const cancelledOp = await (async () => {
        for (;;) {
          const op = await req('GET', `/v1alpha1/${running.name}`);
          if (op.done) return op;
        }
      })();
      const ms = performance.now() - c0;
      if (cancelledOp.error?.code !== 1) throw new Error(`the cancelled run ended with ${JSON.stringify(cancelledOp.error)}`);
      cancel = { ms, state: (await req('GET', `/v1alpha1/${PARENT}/importJobs/cancelled`)).state as string };
    }

    let inline: EmulatorFigures['inline'];
    if (options.inline) {
      sampler.step = 'inline create';
      // The create's bytes are made before the concurrent client starts, and it stops when the
      // create's answer has come (a few hundred bytes): the client's own work on the 20 MB request and
      // answer would otherwise hold this process's event loop, and the probes' times with it.
      const createBody = Buffer.from(
        JSON.stringify({
          assetSource: `${PARENT}/sources/src`,
          inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: options.inline }] },
        }),
      );
      let created = false;
      const createProbes = Promise.all([
        probe(`${server.url}/v1alpha1/${run.op.name}`, () => created),
        probe(`${server.url}/v1/${POLICY}:getIamPolicy`, () => created),
      ]);
      const c0 = process.hrtime.bigint();
      const createRes = await httpRequest('POST', `${server.url}/v1alpha1/${PARENT}/importJobs?importJobId=inline`, createBody, {
        'content-type': 'application/json',
      });
      const createSeconds = seconds(c0);
      created = true;
      const [createOpTimes, createIamTimes] = await createProbes;
      if (createRes.status !== 200) throw new Error(`the inline create answered ${createRes.status}: ${createRes.body.toString('utf8', 0, 500)}`);
      const iv = await timedImport('inline', 'validate');
      const ir = await timedImport('inline', 'run');
      const ij = await req('GET', `/v1alpha1/${PARENT}/importJobs/inline`);
      inline = {
        create: { seconds: createSeconds, cpuSeconds: NaN, operationGet: latencyOf(createOpTimes), getIamPolicy: latencyOf(createIamTimes) },
        validate: iv,
        run: ir,
        frames: ij.executionReport?.framesReported ?? 0,
      };
    }
    return {
      state: job.state,
      frames: job.executionReport?.framesReported ?? 0,
      validate,
      run,
      cancel,
      inline,
      pages,
      peakRss: sampler.peak,
      stepPeaks: sampler.stepPeaks,
      startRss: sampler.start,
    };
  } finally {
    sampler.stop();
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

function latencyLine(label: string, f: ImportFigures): string {
  const l = (x: Latency) => `p50 ${x.p50.toFixed(1)} ms, p99 ${x.p99.toFixed(1)} ms, max ${x.max.toFixed(1)} ms (${x.count} requests)`;
  const ok = f.operationGet.p99 <= 50 && f.getIamPolicy.p99 <= 50;
  return [
    `  during ${label}: operations.get ${l(f.operationGet)}`,
    `  ${' '.repeat(label.length + 8)}getIamPolicy   ${l(f.getIamPolicy)}  (target p99 50 ms: ${ok ? 'met' : 'NOT met'})`,
  ].join('\n');
}

/** One repeat's ratios, for the summary of a shape measured more than once. */
interface RepeatRatios {
  validate: number;
  run: number;
  validateCpu: number;
  runCpu: number;
}

async function runShape(shape: Shape, root: string): Promise<void> {
  const dir = path.join(root, shape);
  const storageDir = path.join(dir, 'storage');
  fs.mkdirSync(path.join(storageDir, 'bench'), { recursive: true });
  const file = path.join(storageDir, 'bench', 'vmInfo.csv');
  const machines = machineIdentities(IDS, SEED);
  const rows = rowsOf(shape);
  const bytes = shape === 'lean' ? await generateLeanVmInfo(file, rows, machines) : await generateVmInfo(file, rows, machines);
  console.log(
    `assets (${shape} shape): ${rows} rows, ${(bytes / 1e6).toFixed(1)} MB vmInfo.csv, ${IDS === 'random' ? `random machine ids (seed ${SEED})` : 'ordered machine ids'}`,
  );
  const repeats: RepeatRatios[] = [];
  for (let repeat = 1; repeat <= REPEAT; repeat++) {
    const repeatDir = path.join(dir, `repeat-${repeat}`);
    fs.mkdirSync(repeatDir);
    if (REPEAT > 1) console.log(`repeat ${repeat} of ${REPEAT} (${shape})`);
    repeats.push(await measureShape(shape, file, repeatDir, storageDir, repeat === 1));
    fs.rmSync(repeatDir, { recursive: true, force: true });
  }
  if (REPEAT > 1) {
    const spread = (label: string, of: (r: RepeatRatios) => number, target?: number) => {
      const values = repeats.map(of).sort((a, b) => a - b);
      const half = values.length >> 1;
      const mid = values.length % 2 ? values[half] : (values[half - 1] + values[half]) / 2;
      const verdict =
        target === undefined
          ? ''
          : ` (target ${target}x: ${values.every((v) => v <= target) ? 'met in every repeat' : `NOT met in ${values.filter((v) => v > target).length} of ${values.length}`})`;
      return `  ${label.padEnd(34)} median ${mid.toFixed(2)}x, range ${values[0].toFixed(2)}x to ${values[values.length - 1].toFixed(2)}x${verdict}`;
    };
    console.log(`${shape} shape over ${REPEAT} repeats:`);
    console.log(spread(':validate (REST) / bare parse', (r) => r.validate, 1.0));
    console.log(spread(':run (REST) / bare floor', (r) => r.run, 1.0));
    console.log(spread(':validate CPU / bare parse time', (r) => r.validateCpu));
    console.log(spread(':run CPU / bare floor time', (r) => r.runCpu));
  }
}

/** One repeat of a shape: the bare baselines, then the emulator (every step when `allSteps`). */
async function measureShape(shape: Shape, file: string, dir: string, storageDir: string, allSteps: boolean): Promise<RepeatRatios> {
  const dataDir = path.join(dir, 'data');
  console.log(
    `  cores ${os.cpus().length}, load average before ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const [parseS] = await time(() => parse(file, () => undefined));
  const [floorS, floorDb] = await time(() => bareFloor(file, dir));
  const inline = allSteps && shape === 'lean' && STEPS.has('inline') ? firstRowsBase64(file, INLINE_ROWS) : undefined;
  const e = await emulatorOverHttp(dataDir, storageDir, {
    pages: allSteps && shape === 'full' && STEPS.has('pages'),
    cancel: allSteps && STEPS.has('cancel'),
    inline,
  });
  const bareAggregate = await median(3, async () => {
    floorDb.prepare('SELECT total(cores) FROM a').get();
    floorDb.prepare('SELECT os, count(*) FROM a GROUP BY os').all();
  });
  floorDb.close();
  console.log(
    `  load average after ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(`job ${e.state}, ${e.frames} frames`);
  console.log(`bare papaparse parse               ${parseS.toFixed(3).padStart(9)} s`);
  console.log(`bare import floor                  ${floorS.toFixed(3).padStart(9)} s`);
  console.log(line(':validate (REST) / bare parse', e.validate.seconds, parseS, 1.0));
  console.log(line(':run (REST) / bare floor', e.run.seconds, floorS, 1.0));
  console.log(`  emulator CPU: :validate ${e.validate.cpuSeconds.toFixed(2)} s, :run ${e.run.cpuSeconds.toFixed(2)} s`);
  console.log(latencyLine(':validate', e.validate));
  console.log(latencyLine(':run', e.run));
  if (e.cancel)
    console.log(
      `operations.cancel during :run to done ${e.cancel.ms.toFixed(0).padStart(6)} ms (target 1000 ms: ${e.cancel.ms <= 1000 ? 'met' : 'NOT met'}), job ${e.cancel.state}`,
    );
  if (e.inline) {
    console.log(
      `inline ${INLINE_ROWS} rows: :validate ${e.inline.validate.seconds.toFixed(2)} s, :run ${e.inline.run.seconds.toFixed(2)} s, ${e.inline.frames} frames`,
    );
    console.log(`  inline create answered in ${e.inline.create.seconds.toFixed(2)} s`);
    console.log(latencyLine('inline create', e.inline.create));
    console.log(latencyLine('inline :validate', e.inline.validate));
    console.log(latencyLine('inline :run', e.inline.run));
  }
  if (e.pages) {
    console.log(`unfiltered first page              ${e.pages.firstPage.toFixed(4).padStart(9)} s`);
    console.log(line('filtered page / first page', e.pages.filtered, e.pages.firstPage, 10));
    console.log(line('ordered page / first page', e.pages.ordered, e.pages.firstPage, 10));
    console.log(line('exact-name lookup / first page', e.pages.lookup, e.pages.firstPage, 10));
    console.log(line('aggregateValues / bare SQLite', e.pages.aggregate, bareAggregate, 2));
  }
  // Both jobs' assets are the same machines (one asset each): the bytes are per machine.
  const perAsset = dirBytes(dataDir) / rowsOf(shape);
  console.log(`data dir per asset                 ${perAsset.toFixed(0).padStart(9)} B  (target 1024 B: ${perAsset <= 1024 ? 'met' : 'NOT met'})`);
  console.log(
    `emulator peak RSS                  ${rssPartsText(e.peakRss)} (target 300 MB: ${e.peakRss.rss / 1e6 <= 300 ? 'met' : 'NOT met'}); at start ${rssPartsText(e.startRss)}`,
  );
  console.log(
    `  by step: ${Object.entries(e.stepPeaks)
      .map(([step, bytes]) => `${step} ${(bytes / 1e6).toFixed(0)}`)
      .join(', ')} MB`,
  );
  return {
    validate: e.validate.seconds / parseS,
    run: e.run.seconds / floorS,
    validateCpu: e.validate.cpuSeconds / parseS,
    runCpu: e.run.cpuSeconds / floorS,
  };
}

export async function runAssetsBench(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'assets-bench-'));
  try {
    for (const shape of SHAPES) await runShape(shape, root);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
