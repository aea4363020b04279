/**
 * Reliability of the emulator under faults and load (figures in docs/reliability.md):
 *
 * - runKillRounds: `kill -9` of the compiled CLI at a random moment of a mixed workload (IAM
 *   writes, import job creates and validations, a long import run), restart on the same data dir,
 *   and check that every acknowledged write is there, nothing half-written shows, and no import job
 *   hangs VALIDATING or RUNNING;
 * - runIamContention: N clients read-modify-write one IAM policy (etag) for D seconds: no update
 *   lost, every 200 in the history, conflicts are 409 ABORTED only; writes/s and conflict rate;
 * - runRequestIdRace: N concurrent creates with one requestId: exactly one job;
 * - runSoak: a mixed workload at fixed concurrency for D seconds: RSS of the emulator at start and
 *   end, p50/p99 latency, and no unexpected status.
 *
 * Each run returns its figures and `violations` (the correctness properties it saw broken: empty
 * when everything held). tests/reliability runs short versions and asserts `violations` is empty;
 * `runReliabilityBench()` runs the long ones (20 kill rounds, 50 clients x 30 s, a 60 s soak) and
 * prints the figures. Everything talks to 127.0.0.1 only, and every run ends by itself.
 */
import { randomUUID } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { IAM_HISTORY_KEPT } from '../backend-emulator/networkservices/iam-policy';
import { spawnCli, type CliProcess } from '../support/cli-process';
import { tempDir } from '../support/temp-dir';

// ---------------------------------------------------------------------------------------------
// Shared helpers

const JSON_HEADERS = { 'content-type': 'application/json' };
/** No single request of these runs may take longer (a hung request is a failure, not a wait). */
const REQUEST_TIMEOUT_MS = 30_000;

export interface HttpResult {
  status: number;
  body: any;
  ms: number;
}

/** One JSON request; network errors reject (the caller decides whether the server was meant to be dead). */
export async function request(url: string, method: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult> {
  const t0 = performance.now();
  const res = await fetch(url, {
    method,
    headers: body === undefined ? headers : { ...JSON_HEADERS, ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.status, body: parsed, ms: performance.now() - t0 };
}

/** mulberry32: a small seeded PRNG, so a failing run can be replayed with its printed seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Resident set size of a process in MB (Linux /proc), or NaN elsewhere. */
export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const round1 = (n: number) => Math.round(n * 10) / 10;

/** Starts the compiled CLI (support/cli-process builds it from the current sources). */
async function startCli(args: string[]): Promise<CliProcess> {
  return spawnCli(['--port', '0', ...args], {}, 30_000);
}

async function stopCli(p: CliProcess): Promise<void> {
  if (p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), 10_000);
  await p.exited;
  clearTimeout(timer);
}

function short(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? 'undefined' : text.length > 300 ? `${text.slice(0, 300)}...` : text;
}

const MATCHER = { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY', metadataLabels: [{ labelName: 'app', labelValue: 'web' }] } };

/** Creates the endpoint policy `name` (an IAM policy needs its resource); one that exists is fine. */
async function ensureEndpointPolicy(url: string, name: string): Promise<void> {
  const match = /^(.*)\/endpointPolicies\/([^/]+)$/.exec(name);
  if (!match) throw new Error(`not an endpoint policy name: ${name}`);
  const res = await request(`${url}/v1/${match[1]}/endpointPolicies?endpointPolicyId=${match[2]}`, 'POST', { type: 'SIDECAR_PROXY', endpointMatcher: MATCHER });
  if (res.status !== 200 && res.status !== 409) throw new Error(`creating ${name} answered ${res.status}: ${short(res.body)}`);
}
const VM_HEADER = 'MachineId,MachineName,PrimaryIPAddress,AllocatedProcessorCoreCount,MemoryGiB,OsName\n';
const b64 = (text: string) => Buffer.from(text).toString('base64');
/**
 * Creates the source `bench` of a location (an import job's assetSource must name an existing
 * source); ALREADY_EXISTS, or a server that is down, are fine: the job create then says so.
 */
async function ensureSource(url: string, parent: string): Promise<string> {
  await request(`${url}/v1alpha1/${parent}/sources?sourceId=bench`, 'POST', {}).catch(() => undefined);
  return `${parent}/sources/bench`;
}

const SMALL_PAYLOAD = {
  format: 'IMPORT_JOB_FORMAT_MANUAL_CSV',
  payload: [{ name: 'vmInfo.csv', data: b64(`${VM_HEADER}m-1,web-1,10.0.0.1,2,8,Ubuntu\nm-2,db-1,10.0.0.2,4,16,Ubuntu\n`) }],
};
const IN_PROGRESS = new Set(['IMPORT_JOB_STATE_VALIDATING', 'IMPORT_JOB_STATE_RUNNING']);

/** Every item of a paged Google list. */
async function listAll(url: string, field: string, violations: string[]): Promise<any[]> {
  const items: any[] = [];
  let token: string | undefined;
  for (let page = 0; page < 10_000; page++) {
    const sep = url.includes('?') ? '&' : '?';
    const res = await request(`${url}${sep}pageSize=1000${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`, 'GET');
    if (res.status !== 200) {
      violations.push(`GET ${url} answered ${res.status}: ${short(res.body)}`);
      return items;
    }
    items.push(...((res.body?.[field] as any[]) ?? []));
    token = res.body?.nextPageToken;
    if (!token) return items;
  }
  violations.push(`GET ${url}: more than 10,000 pages`);
  return items;
}

async function waitOperation(url: string, name: string, alive: () => boolean): Promise<any | undefined> {
  for (;;) {
    if (!alive()) return undefined;
    const res = await request(`${url}/v1alpha1/${name}`, 'GET');
    if (res.status !== 200) throw new Error(`GET ${name}: ${res.status} ${short(res.body)}`);
    if (res.body.done) return res.body;
    await sleep(15);
  }
}

// ---------------------------------------------------------------------------------------------
// kill -9 rounds

export interface KillRoundsOptions {
  /** Default 20. */
  rounds?: number;
  /** Rows of each round's long import (a storage payload; default 20,000). */
  rows?: number;
  /** The kill comes at a uniformly random moment in [min, max] ms after the workload starts (default [50, 3000]). */
  killWindowMs?: [number, number];
  /** Concurrent unconditional IAM writers (default 3) and import job creators (default 2). */
  iamWriters?: number;
  jobCreators?: number;
  /**
   * Every `aimEvery`-th round kills 20-200 ms after the long import's `:run` was acknowledged
   * instead of at a random moment, so that runs interrupted while RUNNING are always among the
   * cases (default 0: every kill at a random moment).
   */
  aimEvery?: number;
  /** PRNG seed (default: random, printed in the result). */
  seed?: number;
  log?: (line: string) => void;
}

type LongPhase = 'none' | 'created' | 'validating' | 'validated' | 'running' | 'done';

interface LongJob {
  round: number;
  parent: string;
  name: string;
  phase: LongPhase;
  validateOp?: string;
  runOp?: string;
  assetsChecked: boolean;
}

interface SmallJob {
  name: string;
  requestId: string;
  body: Record<string, unknown>;
  createOp: string;
  validateOp?: string;
}

export interface KillRoundsResult {
  seed: number;
  rounds: number;
  rows: number;
  aimEvery: number;
  /** ms after the start of the workload at which each kill came. */
  killDelaysMs: number[];
  /** ms from spawning the CLI to its `listening on` line, after each kill (start-up recovery included). */
  restartMs: number[];
  ackedIamWrites: number;
  ackedJobCreates: number;
  ackedValidations: number;
  /** Validations acknowledged but interrupted by the kill (FAILED_VALIDATION, "interrupted: ..."). */
  interruptedValidations: number;
  /** How each round's long import ended, after its kill: outcome -> rounds. */
  longJobOutcomes: Record<string, number>;
  /** Assets kept by runs interrupted while RUNNING, each equal to the run's `framesReported`. */
  interruptedRunFrames: number[];
  /** `PRAGMA integrity_check` of the database after the last kill, before the last restart. */
  integrity: string;
  violations: string[];
}

const KILL_PROJECT = 'projects/kill';
const JOBS_PARENT = `${KILL_PROJECT}/locations/jobs`;

export async function runKillRounds(options: KillRoundsOptions = {}): Promise<KillRoundsResult> {
  const rounds = options.rounds ?? 20;
  const rows = options.rows ?? 20_000;
  const [killMin, killMax] = options.killWindowMs ?? [50, 3000];
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const random = prng(seed);
  const log = options.log ?? (() => undefined);
  const dataDir = tempDir('gnl-kill-data-');
  const storageDir = tempDir('gnl-kill-storage-');
  const args = ['--data-dir', dataDir, '--storage-dir', storageDir];

  const violations: string[] = [];
  const iam = new Map<string, Array<{ etag: string; member: string }>>();
  const smallJobs: SmallJob[] = [];
  const longJobs: LongJob[] = [];
  const result: KillRoundsResult = {
    seed,
    rounds,
    rows,
    aimEvery: options.aimEvery ?? 0,
    killDelaysMs: [],
    restartMs: [],
    ackedIamWrites: 0,
    ackedJobCreates: 0,
    ackedValidations: 0,
    interruptedValidations: 0,
    longJobOutcomes: {},
    interruptedRunFrames: [],
    integrity: '',
    violations,
  };

  /** Checks everything acknowledged so far against a freshly restarted emulator. */
  const verify = async (url: string, label: string): Promise<void> => {
    const v = (text: string) => violations.push(`${label}: ${text}`);
    if ((await request(`${url}/healthz`, 'GET')).status !== 200) v('healthz is not 200');

    // IAM: the history is the last IAM_HISTORY_KEPT writes, its revisions contiguous; every
    // acknowledged write is in it, but for as many as it let go of (writers run side by side, so
    // which acknowledged writes are the oldest is not known here); the policy is the last entry.
    for (const [resource, acks] of iam) {
      const hist = await request(`${url}/emulator/v1/iamHistory?resource=${encodeURIComponent(resource)}`, 'GET');
      if (hist.status !== 200) {
        v(`iamHistory of ${resource}: ${hist.status}`);
        continue;
      }
      const entries = hist.body.entries as Array<{ revision: number; etag: string; kind: string; policy: { bindings?: Array<{ members: string[] }> } }>;
      const first = entries[0]?.revision ?? 1;
      const lastRevision = entries[entries.length - 1]?.revision ?? 0;
      if (first !== Math.max(1, lastRevision - IAM_HISTORY_KEPT + 1)) v(`history of ${resource}: starts at revision ${first}, ends at ${lastRevision}`);
      entries.forEach((e, i) => {
        if (e.revision !== first + i) v(`history of ${resource}: entry ${i} has revision ${e.revision} (not contiguous)`);
      });
      const byEtag = new Map(entries.map((e) => [e.etag, e]));
      const missing = acks.filter((ack) => !byEtag.has(ack.etag));
      if (missing.length > first - 1) {
        for (const ack of missing) v(`acknowledged IAM write lost: ${resource} etag ${ack.etag} (${ack.member}); the history let go of ${first - 1}`);
      }
      for (const ack of acks) {
        const e = byEtag.get(ack.etag);
        if (!e) continue;
        else if (JSON.stringify(e.policy.bindings?.[0]?.members) !== JSON.stringify([ack.member]))
          v(`history entry ${ack.etag} of ${resource} holds ${short(e.policy)}, not ${ack.member}`);
      }
      const current = await request(`${url}/v1/${resource}:getIamPolicy?options.requestedPolicyVersion=3`, 'GET');
      const last = entries[entries.length - 1];
      if (current.status !== 200) v(`getIamPolicy ${resource}: ${current.status}`);
      else if (last && (current.body.etag !== last.etag || JSON.stringify(current.body.bindings ?? []) !== JSON.stringify(last.policy.bindings ?? []))) {
        v(`the policy of ${resource} (${short(current.body)}) is not its last history entry (${short(last)})`);
      }
    }

    // Small jobs: every acknowledged create is there; nothing is left in progress; acknowledged
    // validations ended READY or FAILED_VALIDATION ("interrupted: ..."), their Operations done.
    const listed = await listAll(`${url}/v1alpha1/${JOBS_PARENT}/importJobs`, 'importJobs', violations);
    const names = new Set(listed.map((j) => j.name as string));
    for (const j of listed) if (IN_PROGRESS.has(j.state)) v(`job ${j.name} is still ${j.state} after the restart`);
    for (const job of smallJobs) {
      if (!names.has(job.name)) {
        v(`acknowledged job create lost: ${job.name}`);
        continue;
      }
      const create = await request(`${url}/v1alpha1/${job.createOp}`, 'GET');
      if (create.status !== 200 || create.body.done !== true) v(`create Operation of ${job.name}: ${create.status} ${short(create.body)}`);
      if (!job.validateOp) continue;
      const got = await request(`${url}/v1alpha1/${job.name}`, 'GET');
      const op = await request(`${url}/v1alpha1/${job.validateOp}`, 'GET');
      if (op.status !== 200 || op.body.done !== true) v(`validate Operation of ${job.name} is not done: ${short(op.body)}`);
      if (got.body.state === 'IMPORT_JOB_STATE_READY') {
        if (op.body.error) v(`${job.name} is READY but its validation Operation failed: ${short(op.body.error)}`);
      } else if (got.body.state === 'IMPORT_JOB_STATE_FAILED_VALIDATION') {
        const errors = (got.body.validationReport?.jobErrors ?? []) as Array<{ errorDetails: string }>;
        if (!errors.some((e) => e.errorDetails.startsWith('interrupted:')))
          v(`${job.name} FAILED_VALIDATION without an "interrupted:" job error: ${short(got.body.validationReport)}`);
        if (op.body.error?.code !== 10) v(`the interrupted validation Operation of ${job.name} has error ${short(op.body.error)}, not ABORTED (10)`);
      } else v(`${job.name}: its validation was acknowledged, yet it is ${got.body.state}`);
    }
    // A requestId survives the kill: a repeat returns the original Operation and creates nothing.
    const replay = smallJobs[smallJobs.length - 1];
    if (replay) {
      const again = await request(
        `${url}/v1alpha1/${JOBS_PARENT}/importJobs?importJobId=${replay.name.split('/').pop()}&requestId=${replay.requestId}`,
        'POST',
        replay.body,
      );
      if (again.status !== 200 || again.body.name !== replay.createOp)
        v(`the repeat of ${replay.name}'s create with its requestId answered ${again.status} ${short(again.body?.name ?? again.body)}`);
    }

    // Long jobs: never in progress after a restart; the state matches what was acknowledged; an
    // interrupted run kept exactly the assets of the batches it committed.
    for (const job of longJobs) {
      const got = await request(`${url}/v1alpha1/${job.name}`, 'GET');
      if (got.status === 404) {
        if (job.phase !== 'none') v(`acknowledged long job lost: ${job.name}`);
        else if (!job.assetsChecked) {
          job.assetsChecked = true;
          result.longJobOutcomes['killed before the create was acknowledged'] = (result.longJobOutcomes['killed before the create was acknowledged'] ?? 0) + 1;
        }
        continue;
      }
      if (got.status !== 200) {
        v(`GET ${job.name}: ${got.status}`);
        continue;
      }
      const state = got.body.state as string;
      if (IN_PROGRESS.has(state)) v(`${job.name} is still ${state}`);
      const order: LongPhase[] = ['none', 'created', 'validating', 'validated', 'running', 'done'];
      const reached = order.indexOf(job.phase);
      if (reached >= order.indexOf('validating') && state === 'IMPORT_JOB_STATE_PENDING') v(`${job.name}: validation acknowledged, yet PENDING`);
      if (reached >= order.indexOf('running') && state !== 'IMPORT_JOB_STATE_COMPLETED' && state !== 'IMPORT_JOB_STATE_FAILED')
        v(`${job.name}: run acknowledged, yet ${state}`);
      let outcome = state.replace('IMPORT_JOB_STATE_', '');
      if (state === 'IMPORT_JOB_STATE_FAILED') {
        const errors = (got.body.executionReport?.executionErrors?.jobErrors ?? []) as Array<{ errorDetails: string }>;
        if (!errors.some((e) => e.errorDetails.startsWith('interrupted: the emulator stopped while this job was IMPORT_JOB_STATE_RUNNING'))) {
          v(`${job.name} FAILED without the "interrupted:" job error: ${short(got.body.executionReport)}`);
        }
        outcome = 'interrupted while RUNNING -> FAILED ("interrupted: ...")';
        if (job.runOp) {
          const op = await request(`${url}/v1alpha1/${job.runOp}`, 'GET');
          if (op.body?.done !== true || op.body?.error?.code !== 10) v(`the interrupted run Operation of ${job.name}: ${short(op.body)}`);
        }
      } else if (state === 'IMPORT_JOB_STATE_FAILED_VALIDATION') {
        const errors = (got.body.validationReport?.jobErrors ?? []) as Array<{ errorDetails: string }>;
        if (!errors.some((e) => e.errorDetails.startsWith('interrupted:')))
          v(`${job.name} FAILED_VALIDATION without the "interrupted:" job error: ${short(got.body.validationReport)}`);
        outcome = 'interrupted while VALIDATING -> FAILED_VALIDATION ("interrupted: ...")';
      } else if (state === 'IMPORT_JOB_STATE_COMPLETED') {
        if (got.body.executionReport?.framesReported !== rows) v(`${job.name} COMPLETED with ${got.body.executionReport?.framesReported} frames, not ${rows}`);
        outcome = 'COMPLETED before the kill';
      } else outcome = `${outcome} (killed before the next step)`;
      if (!job.assetsChecked) {
        job.assetsChecked = true;
        result.longJobOutcomes[outcome] = (result.longJobOutcomes[outcome] ?? 0) + 1;
        const assets = await listAll(`${url}/v1alpha1/${job.parent}/assets`, 'assets', violations);
        const frames =
          state === 'IMPORT_JOB_STATE_FAILED' || state === 'IMPORT_JOB_STATE_COMPLETED'
            ? ((got.body.executionReport?.framesReported as number | undefined) ?? 0)
            : 0;
        if (assets.length !== frames) v(`${job.name} (${state}) reports ${frames} frames but ${assets.length} assets are stored (a half-written batch?)`);
        if (state === 'IMPORT_JOB_STATE_FAILED') result.interruptedRunFrames.push(frames);
      }
    }
  };

  const writeRoundPayload = (r: number) => {
    const dir = path.join(storageDir, 'kill', `round-${r}`);
    fs.mkdirSync(dir, { recursive: true });
    const lines = [VM_HEADER];
    for (let i = 0; i < rows; i++) lines.push(`r${r}-m${i},r${r}-vm${i},10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255},4,16,Ubuntu\n`);
    fs.writeFileSync(path.join(dir, 'vmInfo.csv'), lines.join(''));
  };

  try {
    for (let r = 1; r <= rounds; r++) {
      writeRoundPayload(r);
      const t0 = performance.now();
      const p = await startCli(args);
      if (r > 1) result.restartMs.push(Math.round(performance.now() - t0));
      const url = p.url;
      await verify(url, `after kill ${r - 1}`);

      let dead = false;
      const alive = () => !dead;
      const unexpected = (what: string, err: unknown) => {
        if (!dead) violations.push(`round ${r}: ${what}: ${(err as Error)?.message ?? short(err)}`);
      };
      const aimed = (options.aimEvery ?? 0) > 0 && r % options.aimEvery! === 0;
      const killDelay = Math.round(aimed ? 20 + random() * 180 : killMin + random() * (killMax - killMin));

      const iamWriter = async (w: number) => {
        const resource = `${KILL_PROJECT}/locations/global/endpointPolicies/r${r}-ep${w % 3}`;
        try {
          await ensureEndpointPolicy(url, resource);
        } catch (err) {
          return unexpected('creating the endpoint policy failed', err);
        }
        // Checked after each restart only once it exists (a kill may come before).
        const acks = iam.get(resource) ?? [];
        iam.set(resource, acks);
        for (let n = 0; !dead; n++) {
          const member = `user:r${r}-w${w}-n${n}@example.com`;
          try {
            const res = await request(`${url}/v1/${resource}:setIamPolicy`, 'POST', { policy: { bindings: [{ role: 'roles/viewer', members: [member] }] } });
            if (res.status === 200) {
              acks.push({ etag: res.body.etag, member });
              result.ackedIamWrites++;
            } else unexpected(`setIamPolicy answered ${res.status}`, res.body);
          } catch (err) {
            unexpected('setIamPolicy failed', err);
          }
        }
      };
      const jobCreator = async (c: number) => {
        const assetSource = await ensureSource(url, JOBS_PARENT);
        for (let k = 0; !dead; k++) {
          const id = `r${r}-c${c}-j${k}`;
          const requestId = randomUUID();
          const body = { displayName: `round ${r} job ${k}`, assetSource, inlinePayload: SMALL_PAYLOAD };
          try {
            const res = await request(`${url}/v1alpha1/${JOBS_PARENT}/importJobs?importJobId=${id}&requestId=${requestId}`, 'POST', body);
            if (res.status !== 200) {
              unexpected(`create answered ${res.status}`, res.body);
              continue;
            }
            const job: SmallJob = { name: `${JOBS_PARENT}/importJobs/${id}`, requestId, body, createOp: res.body.name };
            smallJobs.push(job);
            result.ackedJobCreates++;
            if (random() < 0.5) {
              const val = await request(`${url}/v1alpha1/${job.name}:validate`, 'POST', {});
              if (val.status === 200) {
                job.validateOp = val.body.name;
                result.ackedValidations++;
              } else unexpected(`validate answered ${val.status}`, val.body);
            }
          } catch (err) {
            unexpected('create or validate failed', err);
          }
        }
      };
      const longImport = async () => {
        const parent = `${KILL_PROJECT}/locations/r${r}`;
        const job: LongJob = { round: r, parent, name: `${parent}/importJobs/long`, phase: 'none', assetsChecked: false };
        longJobs.push(job);
        try {
          const assetSource = await ensureSource(url, parent);
          const created = await request(`${url}/v1alpha1/${parent}/importJobs?importJobId=long`, 'POST', {
            assetSource,
            gcsPayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: `gs://kill/round-${r}/vmInfo.csv` },
          });
          if (created.status !== 200) return unexpected(`long create answered ${created.status}`, created.body);
          job.phase = 'created';
          const val = await request(`${url}/v1alpha1/${job.name}:validate`, 'POST', {});
          if (val.status !== 200) return unexpected(`long validate answered ${val.status}`, val.body);
          job.phase = 'validating';
          job.validateOp = val.body.name;
          const validated = await waitOperation(url, val.body.name, alive);
          if (!validated) return;
          if (validated.error) return unexpected('long validation failed', validated.error);
          job.phase = 'validated';
          const run = await request(`${url}/v1alpha1/${job.name}:run`, 'POST', {});
          if (run.status !== 200) return unexpected(`long run answered ${run.status}`, run.body);
          job.phase = 'running';
          job.runOp = run.body.name;
          const ran = await waitOperation(url, run.body.name, alive);
          if (!ran) return;
          if (ran.error) return unexpected('long run failed', ran.error);
          job.phase = 'done';
        } catch (err) {
          unexpected('long import failed', err);
        }
      };

      const workers = [
        ...Array.from({ length: options.iamWriters ?? 3 }, (_, w) => iamWriter(w)),
        ...Array.from({ length: options.jobCreators ?? 2 }, (_, c) => jobCreator(c)),
        longImport(),
      ];
      const started = performance.now();
      if (aimed) {
        // Wait for the long import to be RUNNING (acknowledged), then kill shortly after.
        const job = () => longJobs[longJobs.length - 1];
        while (job().phase !== 'running' && job().phase !== 'done' && performance.now() - started < 60_000 && p.child.exitCode === null) await sleep(2);
      }
      await sleep(killDelay);
      result.killDelaysMs.push(Math.round(performance.now() - started));
      dead = true;
      p.child.kill('SIGKILL');
      const exit = await p.exited;
      if (exit.signal !== 'SIGKILL')
        violations.push(`round ${r}: the emulator exited with ${exit.code ?? exit.signal} before the kill: ${p.stderr().slice(-500)}`);
      await Promise.all(workers);
      const last = longJobs[longJobs.length - 1];
      log(
        `round ${r}/${rounds}: killed after ${result.killDelaysMs[r - 1]} ms${aimed ? ' (aimed at the run)' : ''} (long job: ${last.phase}), ` +
          `${result.ackedIamWrites} IAM writes and ${result.ackedJobCreates} jobs acknowledged so far`,
      );
    }

    // The database as the last kill left it, checked by SQLite itself (this replays the WAL).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Database = require('better-sqlite3') as typeof import('better-sqlite3');
    const db = new Database(path.join(dataDir, 'emulator.sqlite'));
    try {
      result.integrity = String(db.pragma('integrity_check', { simple: true }));
    } finally {
      db.close();
    }
    if (result.integrity !== 'ok') violations.push(`integrity_check after the last kill: ${result.integrity}`);

    const t0 = performance.now();
    const final = await startCli(args);
    result.restartMs.push(Math.round(performance.now() - t0));
    await verify(final.url, `after kill ${rounds}`);
    for (const job of smallJobs) {
      if (!job.validateOp) continue;
      const got = await request(`${final.url}/v1alpha1/${job.name}`, 'GET');
      if (got.body.state === 'IMPORT_JOB_STATE_FAILED_VALIDATION') result.interruptedValidations++;
    }
    await stopCli(final);
    const exit = await final.exited;
    if (exit.code !== 0) violations.push(`the last emulator exited with ${exit.code ?? exit.signal} after SIGTERM`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(storageDir, { recursive: true, force: true });
  }
  return result;
}

export function printKillRounds(r: KillRoundsResult): void {
  const sorted = [...r.restartMs].sort((a, b) => a - b);
  console.log(
    `kill -9 rounds: ${r.rounds} (seed ${r.seed}${r.aimEvery ? `; every ${r.aimEvery}th round aimed at the run` : ''}), long import of ${r.rows} rows per round`,
  );
  console.log(`  kill moments (ms after the workload started): ${r.killDelaysMs.join(', ')}`);
  console.log(
    `  acknowledged: ${r.ackedIamWrites} IAM writes, ${r.ackedJobCreates} job creates, ${r.ackedValidations} validations (${r.interruptedValidations} of them interrupted -> FAILED_VALIDATION)`,
  );
  console.log('  long import, as found after each kill:');
  for (const [outcome, n] of Object.entries(r.longJobOutcomes)) console.log(`    ${n} x ${outcome}`);
  if (r.interruptedRunFrames.length > 0) console.log(`  frames kept by interrupted runs (= assets stored): ${r.interruptedRunFrames.join(', ')}`);
  console.log(`  restart to 'listening on' (recovery included): median ${percentile(sorted, 50)} ms, max ${sorted[sorted.length - 1] ?? 0} ms`);
  console.log(`  integrity_check after the last kill: ${r.integrity}`);
  console.log(`  violations: ${r.violations.length === 0 ? 'none' : `\n    ${r.violations.slice(0, 50).join('\n    ')}`}`);
}

// ---------------------------------------------------------------------------------------------
// IAM read-modify-write contention

export interface IamContentionOptions {
  /** Default 50. */
  clients?: number;
  /** Default 30,000. */
  durationMs?: number;
  /** Default true: a data dir (WAL, synchronous=FULL); false: --in-memory. */
  durable?: boolean;
  /**
   * Default true: after a 409 a client waits a random 0..min(200, 5 x 2^n) ms before it reads again
   * (exponential backoff with full jitter, as the error message asks and the provider does);
   * false: it retries at once.
   */
  backoff?: boolean;
}

export interface IamContentionResult {
  clients: number;
  backoff: boolean;
  seconds: number;
  /** Writes answered 200. */
  writes: number;
  /** Writes answered 409 ABORTED (stale etag). */
  conflicts: number;
  writesPerSecond: number;
  /** conflicts / (writes + conflicts). */
  conflictRate: number;
  /** Latency of the setIamPolicy calls, ms. */
  setP50Ms: number;
  setP99Ms: number;
  /** The counter in the policy at the end: must equal `writes`. */
  finalCounter: number;
  historyEntries: number;
  violations: string[];
}

const CONTENTION_RESOURCE = 'projects/contention/locations/global/endpointPolicies/hot';
const COUNTER = /^user:count-(\d+)@example\.com$/;

/**
 * Each client loops: read the policy (version 3), add one to the counter kept in it (the member
 * `user:count-N@example.com` of roles/viewer), name itself as the writer (roles/editor), write it
 * back with the etag it read. A lost update would show as a counter below the number of 200s, or
 * a history entry that does not add exactly one to the one before.
 */
export async function runIamContention(options: IamContentionOptions = {}): Promise<IamContentionResult> {
  const clients = options.clients ?? 50;
  const durationMs = options.durationMs ?? 30_000;
  const backoff = options.backoff ?? true;
  const random = prng(4242);
  const dataDir = options.durable === false ? undefined : tempDir('gnl-contention-');
  const p = await startCli(dataDir ? ['--data-dir', dataDir] : ['--in-memory']);
  const url = p.url;
  const violations: string[] = [];
  const acks: Array<{ etag: string; counter: number; writer: string }> = [];
  const setLatencies: number[] = [];
  let conflicts = 0;
  try {
    await ensureEndpointPolicy(url, CONTENTION_RESOURCE);
    const t0 = performance.now();
    const deadline = t0 + durationMs;
    const client = async (c: number) => {
      let streak = 0;
      for (let k = 0; performance.now() < deadline; k++) {
        try {
          const read = await request(`${url}/v1/${CONTENTION_RESOURCE}:getIamPolicy?options.requestedPolicyVersion=3`, 'GET');
          if (read.status !== 200) {
            violations.push(`getIamPolicy answered ${read.status}: ${short(read.body)}`);
            continue;
          }
          const counterMember = (read.body.bindings ?? []).find((b: { role: string }) => b.role === 'roles/viewer')?.members?.[0] ?? '';
          const counter = Number(COUNTER.exec(counterMember)?.[1] ?? 0) + 1;
          const writer = `user:writer-c${c}-k${k}@example.com`;
          const policy = {
            bindings: [
              { role: 'roles/viewer', members: [`user:count-${counter}@example.com`] },
              { role: 'roles/editor', members: [writer] },
            ],
            etag: read.body.etag,
          };
          const res = await request(`${url}/v1/${CONTENTION_RESOURCE}:setIamPolicy`, 'POST', { policy });
          setLatencies.push(res.ms);
          if (res.status === 200) {
            acks.push({ etag: res.body.etag, counter, writer });
            streak = 0;
          } else if (res.status === 409 && res.body?.error?.status === 'ABORTED') {
            conflicts++;
            if (backoff) await sleep(random() * Math.min(200, 5 * 2 ** streak++));
          } else violations.push(`setIamPolicy answered ${res.status} ${res.body?.error?.status ?? ''}: ${short(res.body)}`);
        } catch (err) {
          violations.push(`client ${c}: ${(err as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: clients }, (_, c) => client(c)));
    const seconds = (performance.now() - t0) / 1000;

    const hist = await request(`${url}/emulator/v1/iamHistory?resource=${encodeURIComponent(CONTENTION_RESOURCE)}`, 'GET');
    const entries = (hist.body?.entries ?? []) as Array<{ revision: number; etag: string; policy: { bindings?: Array<{ role: string; members: string[] }> } }>;
    const counterOf = (e: (typeof entries)[number]) =>
      Number(COUNTER.exec(e.policy.bindings?.find((b) => b.role === 'roles/viewer')?.members[0] ?? '')?.[1] ?? NaN);
    // The history keeps the last IAM_HISTORY_KEPT writes: each write's counter is its place (the
    // writes are conditional on the etag, so one at a time), and the kept ones are the last.
    const kept = Math.min(acks.length, IAM_HISTORY_KEPT);
    const firstKept = acks.length - kept + 1;
    if (entries.length !== kept) violations.push(`the history holds ${entries.length} writes, ${acks.length} were answered 200 (it keeps ${IAM_HISTORY_KEPT})`);
    entries.forEach((e, i) => {
      if (counterOf(e) !== firstKept + i) violations.push(`history entry ${i + 1} holds counter ${counterOf(e)}: an update was lost or duplicated`);
    });
    const byEtag = new Map(entries.map((e) => [e.etag, e]));
    for (const a of acks) {
      const e = byEtag.get(a.etag);
      if (!e && a.counter < firstKept) continue;
      if (!e) violations.push(`write ${a.writer} answered 200 (etag ${a.etag}) is not in the history`);
      else if (counterOf(e) !== a.counter || e.policy.bindings?.find((b) => b.role === 'roles/editor')?.members[0] !== a.writer) {
        violations.push(`history entry ${a.etag} is not the write ${a.writer} (counter ${a.counter}) answered with it`);
      }
    }
    const final = await request(`${url}/v1/${CONTENTION_RESOURCE}:getIamPolicy?options.requestedPolicyVersion=3`, 'GET');
    const finalCounter = Number(COUNTER.exec(final.body?.bindings?.find((b: { role: string }) => b.role === 'roles/viewer')?.members?.[0] ?? '')?.[1] ?? 0);
    if (finalCounter !== acks.length) violations.push(`the final counter is ${finalCounter}, ${acks.length} writes were answered 200`);
    const sorted = [...setLatencies].sort((a, b) => a - b);
    return {
      clients,
      backoff,
      seconds: round1(seconds),
      writes: acks.length,
      conflicts,
      writesPerSecond: round1(acks.length / seconds),
      conflictRate: Math.round((conflicts / Math.max(1, acks.length + conflicts)) * 1000) / 1000,
      setP50Ms: round1(percentile(sorted, 50)),
      setP99Ms: round1(percentile(sorted, 99)),
      finalCounter,
      historyEntries: entries.length,
      violations,
    };
  } finally {
    await stopCli(p);
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printIamContention(r: IamContentionResult): void {
  console.log(
    `IAM read-modify-write, ${r.clients} clients on one policy for ${r.seconds} s (durable store), ${r.backoff ? 'jittered exponential backoff after a 409' : 'retrying at once after a 409'}:`,
  );
  console.log(
    `  ${r.writes} writes answered 200 = ${r.writesPerSecond} writes/s; ${r.conflicts} answered 409 ABORTED; conflict rate ${(r.conflictRate * 100).toFixed(1)}%`,
  );
  console.log(`  setIamPolicy latency p50 ${r.setP50Ms} ms, p99 ${r.setP99Ms} ms`);
  console.log(`  final counter ${r.finalCounter}, history entries ${r.historyEntries}`);
  console.log(`  violations: ${r.violations.length === 0 ? 'none' : `\n    ${r.violations.slice(0, 50).join('\n    ')}`}`);
}

// ---------------------------------------------------------------------------------------------
// requestId race

export interface RequestIdRaceOptions {
  /** Concurrent creates per round (default 20). */
  concurrency?: number;
  /** Rounds of each kind (default 10). */
  rounds?: number;
}

export interface RequestIdRaceResult {
  concurrency: number;
  rounds: number;
  /** Jobs found at the end: must be 2 x rounds (one per round of each kind). */
  jobs: number;
  violations: string[];
}

/**
 * Per round, `concurrency` simultaneous creates with one requestId:
 * - the same request each time: every answer is 200 with the same Operation, one job;
 * - a different importJobId each time: one 200, the others INVALID_ARGUMENT naming requestId, one job.
 */
export async function runRequestIdRace(options: RequestIdRaceOptions = {}): Promise<RequestIdRaceResult> {
  const concurrency = options.concurrency ?? 20;
  const rounds = options.rounds ?? 10;
  const dataDir = tempDir('gnl-race-');
  const p = await startCli(['--data-dir', dataDir]);
  const url = p.url;
  const parent = 'projects/race/locations/global';
  const violations: string[] = [];
  try {
    const assetSource = await ensureSource(url, parent);
    for (let r = 0; r < rounds; r++) {
      const rid = randomUUID();
      const body = { displayName: `race ${r}`, assetSource, inlinePayload: SMALL_PAYLOAD };
      const same = await Promise.all(
        Array.from({ length: concurrency }, () => request(`${url}/v1alpha1/${parent}/importJobs?importJobId=same-${r}&requestId=${rid}`, 'POST', body)),
      );
      const ops = new Set(same.map((res) => res.body?.name));
      if (same.some((res) => res.status !== 200)) violations.push(`round ${r} (same request): statuses ${same.map((res) => res.status).join(',')}`);
      if (ops.size !== 1) violations.push(`round ${r} (same request): ${ops.size} different Operations`);

      const rid2 = randomUUID();
      const different = await Promise.all(
        Array.from({ length: concurrency }, (_, i) =>
          request(`${url}/v1alpha1/${parent}/importJobs?importJobId=diff-${r}-${i}&requestId=${rid2}`, 'POST', body),
        ),
      );
      const won = different.filter((res) => res.status === 200);
      if (won.length !== 1) violations.push(`round ${r} (different ids): ${won.length} creates answered 200`);
      for (const res of different) {
        if (res.status === 200) continue;
        const field = res.body?.error?.details?.[0]?.fieldViolations?.[0]?.field;
        if (res.status !== 400 || res.body?.error?.status !== 'INVALID_ARGUMENT' || field !== 'requestId')
          violations.push(`round ${r} (different ids): ${res.status} ${short(res.body)}`);
      }
    }
    const jobs = await listAll(`${url}/v1alpha1/${parent}/importJobs`, 'importJobs', violations);
    if (jobs.length !== 2 * rounds) violations.push(`${jobs.length} jobs exist after ${rounds} rounds of each kind (expected ${2 * rounds})`);
    return { concurrency, rounds, jobs: jobs.length, violations };
  } finally {
    await stopCli(p);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Mixed soak

export interface SoakOptions {
  /** Default 60,000. */
  durationMs?: number;
  /** Concurrent clients (default 16). */
  concurrency?: number;
  /** RSS sample interval (default 1,000 ms). */
  sampleMs?: number;
}

export interface SoakResult {
  seconds: number;
  concurrency: number;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Per operation: count, p50, p99 (ms). */
  perOperation: Record<string, { count: number; p50Ms: number; p99Ms: number }>;
  /** Emulator RSS (MB): after the first sample (warm), at the end, highest seen. */
  rssStartMb: number;
  rssEndMb: number;
  rssMaxMb: number;
  /** Least-squares slope of RSS over the second half of the run, MB per minute. */
  rssSlopeMbPerMin: number;
  violations: string[];
}

const SOAK_PARENT = 'projects/soak/locations/global';
const SOAK_MC = 'projects/soak/locations/us-central1';

/**
 * A mixed workload at fixed concurrency against a durable emulator: IAM reads and read-modify-writes
 * over a pool of policies, endpoint policy create / get / list / delete, import job create / validate
 * / get / list / delete over a pool of ids. Each answer must be one the operation can legitimately
 * give (200, 404 for a deleted one, 409 for a create that lost a race, ...); anything else (a 5xx) is
 * a violation. The pools are bounded, so state stays bounded and memory must stay flat.
 */
export async function runSoak(options: SoakOptions = {}): Promise<SoakResult> {
  const durationMs = options.durationMs ?? 60_000;
  const concurrency = options.concurrency ?? 16;
  const sampleMs = options.sampleMs ?? 1_000;
  const dataDir = tempDir('gnl-soak-');
  const p = await startCli(['--data-dir', dataDir]);
  const url = p.url;
  const pid = p.child.pid!;
  await ensureSource(url, SOAK_MC);
  const violations: string[] = [];
  const latencies = new Map<string, number[]>();
  const random = prng(12345);
  const pick = (n: number) => Math.floor(random() * n);
  const samples: Array<{ t: number; rss: number }> = [];
  // The IAM operations work on a fixed pool of endpoint policies that are never deleted.
  for (let i = 0; i < 20; i++) await ensureEndpointPolicy(url, `${SOAK_PARENT}/endpointPolicies/iam-${i}`);

  type Op = { name: string; weight: number; run: () => Promise<HttpResult>; ok: number[] };
  const ops: Op[] = [
    {
      name: 'getIamPolicy',
      weight: 25,
      ok: [200],
      run: () => request(`${url}/v1/${SOAK_PARENT}/endpointPolicies/iam-${pick(20)}:getIamPolicy?options.requestedPolicyVersion=3`, 'GET'),
    },
    {
      name: 'setIamPolicy (read-modify-write)',
      weight: 15,
      ok: [200, 409],
      run: async () => {
        const resource = `${SOAK_PARENT}/endpointPolicies/iam-${pick(20)}`;
        const read = await request(`${url}/v1/${resource}:getIamPolicy?options.requestedPolicyVersion=3`, 'GET');
        const members = new Set<string>(((read.body?.bindings ?? [])[0]?.members as string[]) ?? []);
        members.add(`user:u${pick(200)}@example.com`);
        if (members.size > 50) members.delete([...members][0]);
        return request(`${url}/v1/${resource}:setIamPolicy`, 'POST', {
          policy: { bindings: [{ role: 'roles/viewer', members: [...members] }], etag: read.body?.etag },
        });
      },
    },
    {
      name: 'create endpointPolicy',
      weight: 8,
      ok: [200, 409],
      run: () =>
        request(`${url}/v1/${SOAK_PARENT}/endpointPolicies?endpointPolicyId=ep-${pick(100)}`, 'POST', {
          type: 'SIDECAR_PROXY',
          endpointMatcher: MATCHER,
          labels: { soak: 'yes' },
        }),
    },
    { name: 'get endpointPolicy', weight: 10, ok: [200, 404], run: () => request(`${url}/v1/${SOAK_PARENT}/endpointPolicies/ep-${pick(100)}`, 'GET') },
    { name: 'list endpointPolicies', weight: 5, ok: [200], run: () => request(`${url}/v1/${SOAK_PARENT}/endpointPolicies?pageSize=50`, 'GET') },
    { name: 'delete endpointPolicy', weight: 6, ok: [200, 404], run: () => request(`${url}/v1/${SOAK_PARENT}/endpointPolicies/ep-${pick(100)}`, 'DELETE') },
    {
      name: 'create importJob',
      weight: 8,
      ok: [200, 409],
      run: () =>
        request(`${url}/v1alpha1/${SOAK_MC}/importJobs?importJobId=job-${pick(60)}`, 'POST', {
          displayName: 'soak',
          assetSource: `${SOAK_MC}/sources/bench`,
          inlinePayload: SMALL_PAYLOAD,
        }),
    },
    // 400 FAILED_PRECONDITION: validating a job that is already validating or ready to run is refused by state.
    {
      name: 'validate importJob',
      weight: 5,
      ok: [200, 400, 404],
      run: () => request(`${url}/v1alpha1/${SOAK_MC}/importJobs/job-${pick(60)}:validate`, 'POST', {}),
    },
    { name: 'get importJob', weight: 8, ok: [200, 404], run: () => request(`${url}/v1alpha1/${SOAK_MC}/importJobs/job-${pick(60)}`, 'GET') },
    {
      name: 'list importJobs',
      weight: 4,
      ok: [200],
      run: () => request(`${url}/v1alpha1/${SOAK_MC}/importJobs?pageSize=20&filter=${encodeURIComponent('state = READY')}`, 'GET'),
    },
    { name: 'delete importJob', weight: 6, ok: [200, 404], run: () => request(`${url}/v1alpha1/${SOAK_MC}/importJobs/job-${pick(60)}?force=true`, 'DELETE') },
  ];
  const totalWeight = ops.reduce((s, o) => s + o.weight, 0);
  const choose = (): Op => {
    let x = random() * totalWeight;
    for (const op of ops) if ((x -= op.weight) < 0) return op;
    return ops[0];
  };

  try {
    const t0 = performance.now();
    const deadline = t0 + durationMs;
    samples.push({ t: 0, rss: rssMb(pid) });
    const sampler = setInterval(() => samples.push({ t: (performance.now() - t0) / 1000, rss: rssMb(pid) }), sampleMs);
    const client = async () => {
      while (performance.now() < deadline) {
        const op = choose();
        try {
          const res = await op.run();
          const list = latencies.get(op.name) ?? [];
          list.push(res.ms);
          latencies.set(op.name, list);
          if (!op.ok.includes(res.status)) violations.push(`${op.name} answered ${res.status}: ${short(res.body)}`);
          else if (res.status === 400 && res.body?.error?.status !== 'FAILED_PRECONDITION') violations.push(`${op.name} answered 400 ${short(res.body)}`);
          else if (res.status === 409 && !['ABORTED', 'ALREADY_EXISTS'].includes(res.body?.error?.status))
            violations.push(`${op.name} answered 409 ${short(res.body)}`);
        } catch (err) {
          violations.push(`${op.name} failed: ${(err as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, () => client()));
    clearInterval(sampler);
    const seconds = (performance.now() - t0) / 1000;
    samples.push({ t: seconds, rss: rssMb(pid) });
    if ((await request(`${url}/healthz`, 'GET')).status !== 200) violations.push('healthz is not 200 after the soak');

    const all = [...latencies.values()].flat().sort((a, b) => a - b);
    const perOperation: SoakResult['perOperation'] = {};
    for (const [name, list] of latencies) {
      const s = [...list].sort((a, b) => a - b);
      perOperation[name] = { count: s.length, p50Ms: round1(percentile(s, 50)), p99Ms: round1(percentile(s, 99)) };
    }
    const warm = samples.length > 1 ? samples[1] : samples[0];
    const half = samples.filter((s) => s.t >= seconds / 2);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const mt = mean(half.map((s) => s.t));
    const mr = mean(half.map((s) => s.rss));
    const cov = half.reduce((a, s) => a + (s.t - mt) * (s.rss - mr), 0);
    const vt = half.reduce((a, s) => a + (s.t - mt) ** 2, 0);
    return {
      seconds: round1(seconds),
      concurrency,
      requests: all.length,
      requestsPerSecond: round1(all.length / seconds),
      p50Ms: round1(percentile(all, 50)),
      p99Ms: round1(percentile(all, 99)),
      perOperation,
      rssStartMb: round1(warm.rss),
      rssEndMb: round1(samples[samples.length - 1].rss),
      rssMaxMb: round1(Math.max(...samples.map((s) => s.rss))),
      rssSlopeMbPerMin: vt > 0 ? round1((cov / vt) * 60) : 0,
      violations,
    };
  } finally {
    await stopCli(p);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printSoak(r: SoakResult): void {
  console.log(`mixed soak, ${r.concurrency} clients for ${r.seconds} s (durable store): ${r.requests} requests = ${r.requestsPerSecond} req/s`);
  console.log(`  latency p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms`);
  for (const [name, s] of Object.entries(r.perOperation))
    console.log(`    ${name.padEnd(34)} ${String(s.count).padStart(7)}  p50 ${s.p50Ms} ms  p99 ${s.p99Ms} ms`);
  console.log(
    `  emulator RSS: ${r.rssStartMb} MB after 1 s, ${r.rssEndMb} MB at the end, max ${r.rssMaxMb} MB; slope over the second half ${r.rssSlopeMbPerMin} MB/min`,
  );
  console.log(`  violations: ${r.violations.length === 0 ? 'none' : `\n    ${r.violations.slice(0, 50).join('\n    ')}`}`);
}

// ---------------------------------------------------------------------------------------------
// The long versions, as `npm run bench` runs them

export async function runReliabilityBench(): Promise<void> {
  console.log(
    `machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString()}`,
  );
  printKillRounds(await runKillRounds({ rounds: 20, log: (line) => console.log(`  ${line}`) }));
  printIamContention(await runIamContention({ clients: 50, durationMs: 30_000, backoff: true }));
  printIamContention(await runIamContention({ clients: 50, durationMs: 30_000, backoff: false }));
  const race = await runRequestIdRace({ concurrency: 20, rounds: 50 });
  console.log(
    `requestId race: ${race.rounds} rounds x 2 kinds of ${race.concurrency} concurrent creates -> ${race.jobs} jobs; violations: ${race.violations.length === 0 ? 'none' : race.violations.join('; ')}`,
  );
  printSoak(await runSoak({ durationMs: 60_000, concurrency: 16 }));
}

if (require.main === module) {
  runReliabilityBench().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
