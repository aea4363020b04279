/**
 * IAM throughput and start-up of the emulator:
 * - getIamPolicy and setIamPolicy (no etag: unconditional replace) req/s through autocannon,
 *   against an in-memory emulator listening on a local port;
 * - a bare fastify `hello` route in the same run, as the ceiling of this machine and HTTP stack
 *   (the figure of record), and a bare route answering the same body as getIamPolicy (the same
 *   object, serialised by fastify per request, as a bare app would);
 * - the server's CPU time (user + system, from `/proc/<pid>/stat`) per request over each run, and
 *   its ratio to the bare route's: the figure of record, since a shared machine moves req/s far
 *   more than it moves the CPU a request costs the server;
 * - setIamPolicy against a durable store (`--data-dir`), beside a bare fastify route that parses
 *   the same body and writes it as one row with the store's pragmas (WAL, `synchronous=FULL`, one
 *   commit per request) and a plain better-sqlite3 loop of such writes (the disk's own floor): the
 *   "bare durable write" issue 27 compares a write with;
 * - start-up time of the CLI (compiled from the current sources) to its `listening on` line.
 * Every server is up for the whole measurement; each route and its bare twin are measured one
 * right after the other, in rounds, and the ratio of record is the median of the rounds' ratios.
 * `runIamBench()` prints a table (each route's median round) and returns the figures.
 */
import fs from 'fs';
import os from 'os';
import path from 'path';
import { compiledCli, spawnListening, type CliProcess } from '../support/cli-process';
import { DATABASE_PRAGMAS } from '../backend-emulator/store/sqlite-store';
import { median, medianBy } from './stats';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;

export interface Throughput {
  name: string;
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Server CPU (user + system) per request in microseconds; undefined where /proc is not available. */
  cpuUsPerRequest?: number;
}

export interface IamBenchResult {
  getIamPolicy: Throughput;
  setIamPolicy: Throughput;
  hello: Throughput;
  /** A bare fastify GET route answering getIamPolicy's body (its bytes, as an object fastify serialises). */
  sameAnswer: Throughput;
  /** A bare fastify POST route echoing the same JSON body: the framework's own cost of a POST. */
  echo: Throughput;
  /** setIamPolicy with the store on disk (`--data-dir`): each answer after its commit is on disk. */
  setIamPolicyDurable: Throughput;
  /** A bare fastify POST route writing the same body as one durable row, with the store's pragmas. */
  durableWrite: Throughput;
  /** Milliseconds a write of a plain better-sqlite3 loop with the same pragmas takes (the disk's floor). */
  plainWriteMs: number;
  startupMs: { median: number; min: number; max: number; runs: number };
  /** `os.loadavg()` (1, 5, 15 min) at the start and the end of the throughput runs. */
  loadAverage: { start: number[]; end: number[] };
  /** Each round's req/s ratio of a route to its bare twin, measured seconds apart (the figures of record). */
  rounds: {
    getIamPolicyOfHello: number[];
    getIamPolicyOfSameAnswer: number[];
    setIamPolicyOfEcho: number[];
    setIamPolicyDurableOfBareWrite: number[];
  };
}

export interface IamBenchOptions {
  /** Seconds per autocannon run (default 3, or IAM_BENCH_SECONDS). */
  duration?: number;
  /** Rounds of every pair of runs (default 3, or IAM_BENCH_ROUNDS). */
  rounds?: number;
  connections?: number;
  startupRuns?: number;
  print?: boolean;
}

const RESOURCE = 'projects/bench/locations/global/endpointPolicies/ep-bench';

/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on Linux). */
const USER_HZ = 100;

/** The CPU time (user + system) a process has used, in microseconds; undefined without /proc. */
function processCpuUs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / USER_HZ;
  } catch {
    return undefined;
  }
}

async function measure(
  autocannon: Autocannon,
  server: CliProcess,
  name: string,
  url: string,
  duration: number,
  connections: number,
  extra: Record<string, unknown> = {},
  warmUp = true,
): Promise<Throughput> {
  // A second of warm-up first: the CPU of compiling the route's code at its first requests is
  // start-up, not the cost of a request (it is most of a short run's CPU for a bare server).
  if (warmUp) await autocannon({ url, duration: 1, connections, ...extra });
  const cpuBefore = processCpuUs(server.child.pid);
  const r = await autocannon({ url, duration, connections, ...extra });
  const cpuAfter = processCpuUs(server.child.pid);
  return {
    cpuUsPerRequest:
      cpuBefore === undefined || cpuAfter === undefined || r.requests.total === 0 ? undefined : Math.round((cpuAfter - cpuBefore) / r.requests.total),
    name,
    reqPerSec: Math.round(r.requests.average),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

/**
 * The bare fastify server measured beside the emulator: a hello route, a route answering the
 * emulator's getIamPolicy body (given as the first argument), and a POST echo.
 */
const BARE_SERVER = `
const app = require('fastify')({ logger: false });
const policy = JSON.parse(process.argv[1]);
app.get('/hello', async () => ({ hello: 'world' }));
app.get('/policy', async () => policy);
app.post('/echo', async (request) => request.body);
app.listen({ host: '127.0.0.1', port: 0 }).then((url) => console.log('listening on ' + url));
`;

/**
 * The pragmas and table of the store (backend-emulator/store/sqlite-store.ts), for the bare
 * durable write: WAL with `synchronous=FULL` is an fsync of the WAL at every commit.
 */
const DURABLE_TABLE = `
function openDurable(file) {
  const db = new (require('better-sqlite3'))(file, { timeout: 0 });
  for (const pragma of ${JSON.stringify(DATABASE_PRAGMAS)}) db.pragma(pragma);
  db.exec('CREATE TABLE IF NOT EXISTS documents (collection TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (collection, key)) WITHOUT ROWID');
  const put = db.prepare('INSERT INTO documents (collection, key, value) VALUES (?, ?, ?) ON CONFLICT (collection, key) DO UPDATE SET value = excluded.value');
  return { db, put };
}
`;

/** A bare fastify POST route that writes the parsed body as one durable row (one commit) and answers it. */
const BARE_DURABLE_SERVER = `${DURABLE_TABLE}
const { put } = openDurable(process.argv[1]);
const app = require('fastify')({ logger: false });
let writes = 0;
app.post('/write', async (request) => {
  // A new version each time, as each setIamPolicy has a new etag: SQLite writes nothing (and
  // syncs nothing) for a row updated to the bytes it already holds.
  const stored = { version: ++writes, ...request.body };
  put.run('iamPolicies', 'projects/bench/locations/global/endpointPolicies/ep-bench', JSON.stringify(stored));
  return stored;
});
app.listen({ host: '127.0.0.1', port: 0 }).then((url) => console.log('listening on ' + url));
`;

/** Milliseconds a write of a plain loop of durable one-row commits takes, in its own process. */
const PLAIN_WRITE_LOOP = `${DURABLE_TABLE}
const { db, put } = openDurable(process.argv[1]);
const runs = 200;
const t0 = process.hrtime.bigint();
// A different value each time: a row updated to the bytes it holds is no write (and no sync).
for (let i = 0; i < runs; i++) put.run('iamPolicies', 'k', JSON.stringify({ version: i, policy: { version: 3 } }));
console.log(Number(process.hrtime.bigint() - t0) / 1e6 / runs);
db.close();
`;

async function plainWriteMs(dir: string): Promise<number> {
  const { execFileSync } = await import('child_process');
  const out = execFileSync(process.execPath, ['-e', PLAIN_WRITE_LOOP, path.join(dir, 'loop.sqlite')], { cwd: path.join(__dirname, '..'), encoding: 'utf8' });
  return Math.round(Number(out.trim()) * 100) / 100;
}

async function stop(server: CliProcess): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

/** Milliseconds from spawning `node cli.js --port 0 --in-memory` to its `listening on` line. */
async function startupOnce(cli: string): Promise<number> {
  const t0 = process.hrtime.bigint();
  const server = await spawnListening([cli, '--port', '0', '--in-memory']);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  await stop(server);
  return ms;
}

/** Creates the bench's endpoint policy and sets its policy; returns the setIamPolicy body. */
async function seedPolicy(url: string): Promise<string> {
  const json = { 'content-type': 'application/json' };
  const created = await fetch(`${url}/v1/projects/bench/locations/global/endpointPolicies?endpointPolicyId=ep-bench`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({
      type: 'SIDECAR_PROXY',
      endpointMatcher: { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY', metadataLabels: [{ labelName: 'a', labelValue: 'b' }] } },
    }),
  });
  if (!created.ok) throw new Error(`setup failed: ${created.status} ${await created.text()}`);
  const policy = {
    policy: {
      version: 3,
      bindings: [
        {
          role: 'roles/networkservices.viewer',
          members: ['user:alice@example.com', 'group:ops@example.com', 'serviceAccount:ci@bench.iam.gserviceaccount.com'],
        },
        {
          role: 'roles/networkservices.admin',
          members: ['user:bob@example.com'],
          condition: { title: 'until 2100', expression: 'request.time < timestamp("2100-01-01T00:00:00Z")' },
        },
      ],
    },
  };
  const body = JSON.stringify(policy);
  const first = await fetch(`${url}/v1/${RESOURCE}:setIamPolicy`, { method: 'POST', headers: json, body });
  if (!first.ok) throw new Error(`setup failed: ${first.status} ${await first.text()}`);
  return body;
}

/** A measured route: its server, its URL and autocannon's extra options. */
interface Target {
  name: string;
  server: CliProcess;
  url: string;
  extra?: Record<string, unknown>;
}

/** The run of a target whose req/s is the median of its rounds: a whole run, not a mix of runs. */
function medianRun(runs: Throughput[]): Throughput {
  return medianBy(runs, (run) => run.reqPerSec);
}

/**
 * Measures each pair (route, its bare twin) one after the other, round after round, reversing the
 * pair's order every other round: this shared machine's speed drifts by a third within a minute
 * (the bare hello went from 67,315 to 47,798 req/s between two runs minutes apart), so a ratio is
 * only fair between runs seconds apart, and a drift within a round favours neither side.
 */
async function measurePairs(
  autocannon: Autocannon,
  pairs: ReadonlyArray<readonly [Target, Target]>,
  rounds: number,
  duration: number,
  connections: number,
): Promise<Map<string, Throughput[]>> {
  const runs = new Map<string, Throughput[]>();
  for (let round = 0; round < rounds; round++) {
    for (const pair of pairs) {
      const ordered = round % 2 === 0 ? pair : ([pair[1], pair[0]] as const);
      for (const t of ordered) {
        const result = await measure(autocannon, t.server, t.name, t.url, duration, connections, t.extra ?? {}, round === 0);
        runs.set(t.name, [...(runs.get(t.name) ?? []), result]);
      }
    }
  }
  return runs;
}

export async function runIamBench(options: IamBenchOptions = {}): Promise<IamBenchResult> {
  const duration = options.duration ?? Number(process.env.IAM_BENCH_SECONDS ?? 3);
  const rounds = options.rounds ?? Number(process.env.IAM_BENCH_ROUNDS ?? 3);
  const connections = options.connections ?? 10;
  const startupRuns = options.startupRuns ?? 5;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const autocannon = require('autocannon') as Autocannon;

  // Every server runs in its own process for the whole measurement (the load generator, this
  // process, shares no event loop with any), so that each route is measured seconds from its twin.
  const cli = compiledCli();
  const loadAtStart = os.loadavg();
  const json = { 'content-type': 'application/json' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-bench-iam-'));
  const servers: CliProcess[] = [];
  const start = async (args: string[]): Promise<CliProcess> => {
    const server = await spawnListening(args);
    servers.push(server);
    return server;
  };
  let runs: Map<string, Throughput[]>;
  let plainMs: number;
  try {
    // The emulator in memory, and on a data dir, each with one endpoint policy and a small policy on it.
    const emulator = await start([cli, '--port', '0', '--in-memory']);
    const body = await seedPolicy(emulator.url);
    const getUrl = `${emulator.url}/v1/${RESOURCE}:getIamPolicy?options.requestedPolicyVersion=3`;
    const answer = await (await fetch(getUrl)).text();
    const durable = await start([cli, '--port', '0', '--data-dir', path.join(dir, 'emulator')]);
    await seedPolicy(durable.url);
    // The bare fastify servers on the same machine, measured the same way.
    const bare = await start(['-e', BARE_SERVER, answer]);
    const bareAnswer = await (await fetch(`${bare.url}/policy`)).text();
    if (bareAnswer !== answer) throw new Error(`the bare route's answer differs from getIamPolicy's: ${bareAnswer} / ${answer}`);
    const bareDurable = await start(['-e', BARE_DURABLE_SERVER, path.join(dir, 'bare.sqlite')]);

    const post = { method: 'POST', headers: json, body };
    const target = (name: string, server: CliProcess, route: string, extra?: Record<string, unknown>): Target => ({
      name,
      server,
      url: `${server.url}${route}`,
      extra,
    });
    const setRoute = `/v1/${RESOURCE}:setIamPolicy`;
    const getRoute = getUrl.slice(emulator.url.length);
    runs = await measurePairs(
      autocannon,
      [
        [target('getIamPolicy (v3)', emulator, getRoute), target('bare fastify hello', bare, '/hello')],
        [target('getIamPolicy (v3), again', emulator, getRoute), target('bare fastify, same answer', bare, '/policy')],
        [target('setIamPolicy (no etag)', emulator, setRoute, post), target('bare fastify POST echo', bare, '/echo', post)],
        [target('setIamPolicy, data dir', durable, setRoute, post), target('bare durable write', bareDurable, '/write', post)],
      ],
      rounds,
      duration,
      connections,
    );
  } finally {
    await Promise.all(servers.map(stop));
  }
  try {
    plainMs = await plainWriteMs(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const loadAverage = { start: loadAtStart, end: os.loadavg() };

  await startupOnce(cli); // warm the file cache
  const times: number[] = [];
  for (let i = 0; i < startupRuns; i++) times.push(await startupOnce(cli));
  times.sort((a, b) => a - b);
  const startupMs = {
    median: Math.round(times[Math.floor(times.length / 2)]),
    min: Math.round(times[0]),
    max: Math.round(times[times.length - 1]),
    runs: times.length,
  };

  const of = (name: string): Throughput[] => runs.get(name) ?? [];
  const roundRatios = (route: string, bareRoute: string): number[] =>
    of(route).map((r, i) => Math.round((r.reqPerSec / of(bareRoute)[i].reqPerSec) * 100) / 100);
  const result: IamBenchResult = {
    getIamPolicy: medianRun(of('getIamPolicy (v3)')),
    setIamPolicy: medianRun(of('setIamPolicy (no etag)')),
    hello: medianRun(of('bare fastify hello')),
    sameAnswer: medianRun(of('bare fastify, same answer')),
    echo: medianRun(of('bare fastify POST echo')),
    setIamPolicyDurable: medianRun(of('setIamPolicy, data dir')),
    durableWrite: medianRun(of('bare durable write')),
    plainWriteMs: plainMs,
    startupMs,
    loadAverage,
    rounds: {
      getIamPolicyOfHello: roundRatios('getIamPolicy (v3)', 'bare fastify hello'),
      getIamPolicyOfSameAnswer: roundRatios('getIamPolicy (v3), again', 'bare fastify, same answer'),
      setIamPolicyOfEcho: roundRatios('setIamPolicy (no etag)', 'bare fastify POST echo'),
      setIamPolicyDurableOfBareWrite: roundRatios('setIamPolicy, data dir', 'bare durable write'),
    },
  };
  if (options.print !== false) printTable(result, duration, connections);
  return result;
}

export function printTable(r: IamBenchResult, duration: number, connections: number): void {
  const rows = [r.getIamPolicy, r.setIamPolicy, r.hello, r.sameAnswer, r.echo, r.setIamPolicyDurable, r.durableWrite];
  const line = (cells: string[]) =>
    `${cells[0].padEnd(26)}${cells
      .slice(1)
      .map((c) => c.padStart(11))
      .join('')}`;
  console.log(
    `IAM emulator benchmark (${duration} s per run, ${connections} connections; servers in their own processes; in-memory store but the last two rows; each row its median round)`,
  );
  const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(' / ');
  console.log(`load average (1 / 5 / 15 min): ${load(r.loadAverage.start)} at the start, ${load(r.loadAverage.end)} at the end`);
  console.log(line(['route', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'non-2xx', 'errors', 'CPU us/req']));
  for (const t of rows)
    console.log(
      line([
        t.name,
        String(t.reqPerSec),
        String(t.p50Ms),
        String(t.p99Ms),
        String(t.requests),
        String(t.non2xx),
        String(t.errors),
        t.cpuUsPerRequest === undefined ? 'n/a' : String(t.cpuUsPerRequest),
      ]),
    );
  const percents = (ratios: number[]) => ratios.map((x) => `${Math.round(x * 100)}%`).join(', ');
  const ofRecord = (ratios: number[]) => `${Math.round(median(ratios) * 100)}% (rounds: ${percents(ratios)})`;
  console.log(
    `req/s, median of ${r.rounds.getIamPolicyOfHello.length} rounds of adjacent runs: getIamPolicy ${ofRecord(r.rounds.getIamPolicyOfHello)} of bare hello, ${ofRecord(r.rounds.getIamPolicyOfSameAnswer)} of a bare route answering the same body; setIamPolicy ${ofRecord(r.rounds.setIamPolicyOfEcho)} of a bare POST echo of the same body`,
  );
  // The bare route's CPU per request over the route's: the share of the bare rate the route
  // would reach with the server as the bottleneck. The figure of record (aim: at least 0.5x).
  const cpuRatio = (a: Throughput, b: Throughput) =>
    a.cpuUsPerRequest && b.cpuUsPerRequest ? `${(b.cpuUsPerRequest / a.cpuUsPerRequest).toFixed(2)}x` : 'n/a';
  console.log(
    `server CPU per request: getIamPolicy at ${cpuRatio(r.getIamPolicy, r.hello)} of bare hello's rate (${cpuRatio(r.getIamPolicy, r.sameAnswer)} of the same-body route's); setIamPolicy at ${cpuRatio(r.setIamPolicy, r.echo)} of a bare POST echo's`,
  );
  console.log(
    `durable (WAL, synchronous=FULL): setIamPolicy at ${ofRecord(r.rounds.setIamPolicyDurableOfBareWrite)} of a bare durable write's req/s, CPU at ${cpuRatio(r.setIamPolicyDurable, r.durableWrite)}; a plain better-sqlite3 loop takes ${r.plainWriteMs} ms a write (${Math.round(1000 / r.plainWriteMs)} writes/s, the disk's floor)`,
  );
  console.log(`CLI start-up to 'listening on': median ${r.startupMs.median} ms (min ${r.startupMs.min}, max ${r.startupMs.max}, ${r.startupMs.runs} runs)`);
}

if (require.main === module) {
  runIamBench().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
