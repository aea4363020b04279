/**
 * An inline payload through the REST wire (issue 27): a 100,000-row lean `vmInfo.csv`
 * (INLINE_BENCH_ROWS) sent as `inlinePayload` base64 in the create body, then `:validate` and
 * `:run`, with a concurrent client beside each step (operations.get of the step's Operation when it
 * has one, and getIamPolicy, one after the other, 10 ms apart; target p99 50 ms). Prints, per
 * step, its time, the server's CPU time (user+system from /proc: less moved by other processes'
 * load than wall time), and the probes' p50/p99/max; then a `get` of the job in each view and the
 * emulator's peak RSS (target 300 MB). The emulator is the compiled CLI on a durable data dir.
 * The assets bench runs the same payload after its 600,000-row imports; this one runs it alone.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { firstRowsBase64, generateLeanVmInfo } from './assets';
import { emulatorRest, latencyOf, probe, processCpuSeconds, processRssBytes, type Latency } from './process-probes';
import { compiledCli, spawnListening } from '../support/cli-process';

const ROWS = Number(process.env.INLINE_BENCH_ROWS ?? 100_000);
const PARENT = 'projects/bench/locations/us-central1';
const POLICY = 'projects/bench/locations/global/endpointPolicies/ep-bench';

const loads = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

export async function runInlinePayloadBench(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'inline-bench-'));
  const csv = path.join(root, 'vmInfo.csv');
  await generateLeanVmInfo(csv, ROWS);
  const data = firstRowsBase64(csv, ROWS);
  const body = JSON.stringify({
    assetSource: `${PARENT}/sources/src`,
    inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data }] },
  });
  console.log(`inline payload: ${ROWS} rows, ${(data.length / 1e6).toFixed(1)} MB of base64, body ${(body.length / 1e6).toFixed(1)} MB`);
  console.log(`  cores ${os.cpus().length}, load average before ${loads()}`);
  const dataDir = path.join(root, 'data');
  const server = await spawnListening([compiledCli(), '--port', '0', '--data-dir', dataDir, '--log-level', 'silent'], {}, 60_000);
  const pid = server.child.pid as number;
  let peak = processRssBytes(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, processRssBytes(pid))), 50);
  const startRss = processRssBytes(pid);
  const { req, waitOp } = emulatorRest(server.url);
  /** `send` with the probes beside it until it resolves (and its Operation, if any, is done). */
  const step = async (label: string, send: () => Promise<{ name: string; done?: boolean }>) => {
    const current: { op?: string } = {};
    let done = false;
    const cpu0 = processCpuSeconds(pid);
    const t0 = performance.now();
    const probes = Promise.all([
      probe(
        () => (current.op ? `${server.url}/v1alpha1/${current.op}` : undefined),
        () => done,
      ),
      probe(
        () => `${server.url}/v1/${POLICY}:getIamPolicy`,
        () => done,
      ),
    ]);
    const started = await send();
    current.op = started.name;
    const ended = started.done ? started : await waitOp(started.name);
    const wall = (performance.now() - t0) / 1000;
    const cpu = processCpuSeconds(pid) - cpu0;
    done = true;
    const [opTimes, iamTimes] = await probes;
    if (ended.error) throw new Error(`${label} failed: ${JSON.stringify(ended.error)}`);
    const l = (x: Latency) => `p50 ${x.p50.toFixed(1)} ms, p99 ${x.p99.toFixed(1)} ms, max ${x.max.toFixed(1)} ms (${x.count})`;
    console.log(`${label.padEnd(10)} ${wall.toFixed(2).padStart(7)} s, server CPU ${cpu.toFixed(2).padStart(6)} s`);
    if (opTimes.length) console.log(`  operations.get ${l(latencyOf(opTimes))}`);
    console.log(`  getIamPolicy   ${l(latencyOf(iamTimes))}`);
  };
  try {
    await req('POST', `/v1alpha1/${PARENT}/sources?sourceId=src`, JSON.stringify({ type: 'SOURCE_TYPE_UPLOAD' }));
    await req(
      'POST',
      `/v1/projects/bench/locations/global/endpointPolicies?endpointPolicyId=ep-bench`,
      JSON.stringify({
        type: 'SIDECAR_PROXY',
        endpointMatcher: { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY', metadataLabels: [{ labelName: 'a', labelValue: 'b' }] } },
      }),
    );
    await step('create', () => req('POST', `/v1alpha1/${PARENT}/importJobs?importJobId=inline`, body));
    await step(':validate', () => req('POST', `/v1alpha1/${PARENT}/importJobs/inline:validate`, '{}'));
    await step(':run', () => req('POST', `/v1alpha1/${PARENT}/importJobs/inline:run`, '{}'));
    for (const view of ['BASIC', 'FULL']) {
      const t0 = performance.now();
      const job = await req('GET', `/v1alpha1/${PARENT}/importJobs/inline?view=${view}`);
      const ms = performance.now() - t0;
      const size = JSON.stringify(job).length;
      console.log(
        `get ${view.padEnd(5)} ${ms.toFixed(1).padStart(8)} ms, ${(size / 1e6).toFixed(2)} MB, job ${job.state}, ${job.executionReport?.framesReported ?? '-'} frames`,
      );
    }
    console.log(
      `emulator peak RSS ${(peak / 1e6).toFixed(0)} MB (target 300 MB: ${peak / 1e6 <= 300 ? 'met' : 'NOT met'}; ${(startRss / 1e6).toFixed(0)} MB at start)`,
    );
    console.log(`  load average after ${loads()}`);
  } finally {
    clearInterval(sampler);
    server.child.kill('SIGTERM');
    await server.exited;
    fs.rmSync(root, { recursive: true, force: true });
  }
}
