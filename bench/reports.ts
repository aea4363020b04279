/**
 * Report generation at scale (issue 28): a report config over one group holding every asset of a
 * 600,000-asset inventory (REPORTS_BENCH_ROWS changes the count), two preference sets, and the
 * report created over the REST wire (fastify inject, the app in this process, a file-backed data
 * dir), until its Operation is done (polled with operations.get every POLL_MS, as a client does;
 * the summary is computed off the request thread, in the import worker on a second connection).
 * Beside it, the request thread's longest event-loop gap during each create (the longest time
 * between two turns of a GAP_TIMER_MS timer: how long a request arriving then could have waited)
 * and the process's CPU time (every thread). Baseline: the same aggregates as bare SQL queries on the same database
 * (totals and histograms in one pass, the OS families, the (cores, memory) shapes), over the
 * location's assets directly, without the membership index. Target: within 2x.
 *
 * The inventory is written straight into the asset store (synthetic rows, a fixed seed): the
 * import is measured by the `assets` bench, not here.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildEmulatorApp } from '../backend-emulator/app';
import type { AssetRow } from '../backend-emulator/store/asset-store';
import { median } from './stats';

const ROWS = Number(process.env.REPORTS_BENCH_ROWS ?? 600_000);
const PARENT = 'projects/bench/locations/us-central1';
const GROUP = `${PARENT}/groups/all`;
const GIB = 1024 ** 3;
const RUNS = 3;
/** How often the bench polls a report's Operation (REPORTS_BENCH_POLL_MS; each poll costs the process CPU too). */
const POLL_MS = Number(process.env.REPORTS_BENCH_POLL_MS ?? 20);
/** How long the idle floor of the gap figure is watched. */
const IDLE_SECONDS = 3;
/** The period of the timer whose late turns measure the event loop's gaps. */
const GAP_TIMER_MS = 5;

/** Watches the event loop's gaps from now until `stop`, which resolves with the longest (ms). */
function watchGaps(): { stop(): Promise<number> } {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, GAP_TIMER_MS);
  return {
    // One more turn of the timer first: a gap that ended just now is counted.
    stop: () =>
      new Promise((resolve) =>
        setTimeout(() => {
          clearInterval(timer);
          resolve(longest);
        }, GAP_TIMER_MS),
      ),
  };
}

/** A small deterministic generator (mulberry32), so every run builds the same inventory. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function rows(count: number, next: () => number, from: number): AssetRow[] {
  const cores = [1, 2, 4, 8, 16, 32];
  const gibPerCore = [1, 2, 4, 8];
  const families = ['OS_FAMILY_LINUX', 'OS_FAMILY_WINDOWS', 'OS_FAMILY_UNIX'];
  return Array.from({ length: count }, (_, i) => {
    const c = cores[Math.floor(next() * cores.length)];
    const disk = Math.ceil(next() * 2000) * GIB;
    return {
      id: `vm-m-${from + i}`,
      vmName: `vm-${from + i}`,
      coreCount: c,
      memoryMb: c * gibPerCore[Math.floor(next() * gibPerCore.length)] * 1024,
      osFamily: families[Math.floor(next() * families.length)],
      diskBytes: disk,
      labels: {},
      body: JSON.stringify({ a: {}, d: { vmDisks: { hddTotalFreeBytes: String(Math.floor(disk * next())) } } }),
    };
  });
}

function seconds(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

export async function runReportsBench(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-reports-bench-'));
  const app = buildEmulatorApp({ dataDir: path.join(dir, 'data'), logLevel: 'silent' });
  try {
    await app.ready();
    const store = app.emulator.store;
    const next = random(28);
    let start = process.hrtime.bigint();
    for (let from = 0; from < ROWS; from += 10_000) {
      const batch = rows(Math.min(10_000, ROWS - from), next, from);
      store.transaction(() => store.assets.upsert(PARENT, `${PARENT}/sources/bench`, Date.now(), batch));
    }
    const inject = async (method: 'POST' | 'GET', url: string, payload?: unknown) => {
      const res = await app.inject({ method, url, ...(payload ? { payload: payload as Record<string, unknown> } : {}) });
      if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 500)}`);
      return JSON.parse(res.body) as Record<string, any>;
    };
    await inject('POST', `/v1alpha1/${PARENT}/groups?groupId=all`, {});
    store.transaction(() =>
      store.assets.addMembers(
        GROUP,
        PARENT,
        Array.from({ length: ROWS }, (_, i) => `vm-m-${i}`),
      ),
    );
    for (const [id, prefs] of [
      ['moderate', { sizingOptimizationStrategy: 'SIZING_OPTIMIZATION_STRATEGY_MODERATE' }],
      [
        'rightsized',
        {
          sizingOptimizationStrategy: 'SIZING_OPTIMIZATION_STRATEGY_AGGRESSIVE',
          estimatedUsage: { estimatedCpuPercentage: 50, estimatedMemoryPercentage: 50 },
        },
      ],
    ] as const) {
      const name = `${PARENT}/preferenceSets/${id}`;
      store.put('migrationcenter.preferenceSets', name, { name, virtualMachinePreferences: prefs });
    }
    await inject('POST', `/v1alpha1/${PARENT}/reportConfigs?reportConfigId=all`, {
      groupPreferencesetAssignments: ['moderate', 'rightsized'].map((id) => ({ group: GROUP, preferenceSet: `${PARENT}/preferenceSets/${id}` })),
    });
    console.log(`inventory: ${ROWS} assets in one group, written in ${seconds(start).toFixed(1)} s`);

    // The floor of the gap figure: the same polling for IDLE_SECONDS while no report is made (on a
    // loaded machine, the OS alone leaves the thread waiting for a core now and then).
    const idleWatch = watchGaps();
    const idleUntil = performance.now() + IDLE_SECONDS * 1000;
    while (performance.now() < idleUntil) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      await inject('GET', `/v1alpha1/${PARENT}/reportConfigs/all`);
    }
    const idleGap = await idleWatch.stop();

    const emulator: number[] = [];
    const gaps: number[] = [];
    const cpu: number[] = [];
    const polls: number[] = [];
    let summary: Record<string, any> = {};
    for (let run = 0; run < RUNS; run++) {
      const gapWatch = watchGaps();
      const cpuStart = process.cpuUsage();
      start = process.hrtime.bigint();
      let op = await inject('POST', `/v1alpha1/${PARENT}/reportConfigs/all/reports?reportId=r${run}`, {});
      let answered = 0;
      while (!op.done) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        op = await inject('GET', `/v1alpha1/${op.name}`);
        answered++;
      }
      emulator.push(seconds(start));
      const used = process.cpuUsage(cpuStart);
      cpu.push((used.user + used.system) / 1e6);
      gaps.push(await gapWatch.stop());
      polls.push(answered);
      if (op.error) throw new Error(`report r${run}: ${JSON.stringify(op.error)}`);
      summary = op.response.summary;
    }

    // The same aggregates as bare SQL on the same database, over the location's assets: through the
    // store's own connection (reached past its type), so that both read the same pages in the same cache.
    const db = (store as unknown as { db: import('better-sqlite3').Database }).db;
    const parentId = (db.prepare('SELECT id FROM asset_parents WHERE name = ?').get(PARENT) as { id: number }).id;
    const bounds = (col: string, list: number[]) => list.map((b) => `sum(${col} >= ${b})`);
    const statsSql = `SELECT count(*), total(core_count), total(memory_mb), total(disk_bytes),
        total(CAST(json_extract(body, '$.d.vmDisks.hddTotalFreeBytes') AS INTEGER)),
        total(memory_mb * coalesce((SELECT avg(json_extract(d.value, '$.memory.utilizationPercentage.average')) FROM json_each(body, '$.p.dailyResourceUsageAggregations') d), 100) / 100.0),
        count(core_count), count(memory_mb), count(disk_bytes),
        ${[
          ...bounds('core_count', [2, 4, 8, 16, 32, 64, 128]),
          ...bounds(
            'memory_mb',
            [2, 4, 8, 16, 32, 64, 128, 256, 512].map((g) => g * 1024),
          ),
          ...bounds(
            'disk_bytes',
            [50, 100, 250, 500, 1000, 2000, 5000, 10000].map((g) => g * GIB),
          ),
        ].join(', ')}
      FROM assets WHERE parent = ?`;
    const bare: number[] = [];
    const bareCpu: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const cpuStart = process.cpuUsage();
      start = process.hrtime.bigint();
      db.prepare(statsSql).raw().get(parentId);
      db.prepare('SELECT os_family, count(*) AS n FROM assets WHERE parent = ? GROUP BY os_family ORDER BY n DESC').all(parentId);
      db.prepare('SELECT core_count, memory_mb, count(*) FROM assets WHERE parent = ? GROUP BY core_count, memory_mb').all(parentId);
      bare.push(seconds(start));
      const used = process.cpuUsage(cpuStart);
      bareCpu.push((used.user + used.system) / 1e6);
    }
    const e = median(emulator);
    const b = median(bare);
    console.log(`report create (until its Operation is done): ${e.toFixed(2)} s, median of ${RUNS} (${emulator.map((v) => v.toFixed(2)).join(', ')})`);
    console.log(`  process CPU during each create (every thread): ${cpu.map((v) => v.toFixed(2)).join(', ')} s`);
    console.log(
      `  request thread's longest event-loop gap during each create: ${gaps.map((v) => v.toFixed(0)).join(', ')} ms (operations.get answered meanwhile: ${polls.join(', ')}; ${idleGap.toFixed(0)} ms polling for ${IDLE_SECONDS} s with no report made)`,
    );
    console.log(`bare SQL, same aggregates: ${b.toFixed(2)} s, median of ${RUNS} (${bare.map((v) => v.toFixed(2)).join(', ')})`);
    console.log(`  process CPU during each: ${bareCpu.map((v) => v.toFixed(2)).join(', ')} s`);
    console.log(`ratio: ${(e / b).toFixed(2)}x (target 2x: ${e / b <= 2 ? 'met' : 'NOT met'})`);
    console.log(`summary: ${summary.allAssetsStats.totalAssets} assets, ${summary.allAssetsStats.totalCores} cores`);
  } finally {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
