/**
 * An inline payload through the REST wire (issue 27): a 100,000-row lean `vmInfo.csv`
 * (INLINE_BENCH_ROWS) sent as `inlinePayload` base64 in the create body, then `:validate` and
 * `:run`, with a concurrent client beside each step (operations.get of the step's Operation when it
 * has one, and getIamPolicy, one after the other, 10 ms apart; target p99 50 ms). Prints, per
 * step, its time, the server's CPU time (user+system from /proc: less moved by other processes'
 * load than wall time), and the probes' p50/p99/max; then INLINE_BENCH_GETS gets of the job in
 * each view with the getIamPolicy probe beside them (the FULL view answers the payload's 15.6 MB of
 * text), and the emulator's peak RSS (target 300 MB). The emulator is the compiled CLI on a durable data dir.
 * The assets bench runs the same payload after its 600,000-row imports; this one runs it alone.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { firstRowsBase64, generateLeanVmInfo } from './assets';
import {
  emulatorRest,
  httpGetChunks,
  latencyOf,
  peakRssBytes,
  probe,
  processCpuSeconds,
  processRssBytes,
  resetPeakRss,
  RssSampler,
  rssPartsText,
  type Latency,
} from './process-probes';
import { compiledCli, spawnListening } from '../support/cli-process';

const ROWS = Number(process.env.INLINE_BENCH_ROWS ?? 100_000);
/** Gets of the job in each view, one after the other (a single FULL get gives the probe few samples). */
const GET_REPEAT = Number(process.env.INLINE_BENCH_GETS ?? 5);
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
  // The create's bytes, made before its probes start: encoding the 15.6 MB text when sending it
  // held this process's event loop 24 to 48 ms, and the first probe's time with it.
  const body = Buffer.from(
    JSON.stringify({
      assetSource: `${PARENT}/sources/src`,
      inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data }] },
    }),
  );
  console.log(`inline payload: ${ROWS} rows, ${(data.length / 1e6).toFixed(1)} MB of base64, body ${(body.length / 1e6).toFixed(1)} MB`);
  console.log(`  cores ${os.cpus().length}, load average before ${loads()}`);
  const dataDir = path.join(root, 'data');
  const server = await spawnListening([compiledCli(), '--port', '0', '--data-dir', dataDir, '--log-level', 'silent'], {}, 60_000);
  const pid = server.child.pid as number;
  const sampler = new RssSampler(pid, 50);
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
  /**
   * GET_REPEAT gets of the job in `view`, one after the other, with the getIamPolicy probe beside
   * them: the time of each, the server's CPU per get, the probe's latency (how long the request
   * thread is held), and the peak RSS over the step above the RSS before it (VmHWM reset through
   * /proc/<pid>/clear_refs where the kernel allows it, else 20 ms samples). The answer is kept in
   * the chunks received while the probe runs, and parsed after (15.6 MB parsed or copied here
   * would hold the probe's own thread). The gets go through `node:http` like the probes: with
   * `fetch`, undici's first load and its reading of the 15.6 MB held this process's event loop, and
   * the probe beside the gets measured that (p99 67.1 and 27.8 ms beside the BASIC gets, 32.7 and
   * 32.3 ms beside the FULL ones, against 0.9 and 2.1, 12.8 and 22.5 ms through `node:http`,
   * alternated, load 0.9 to 1.1).
   */
  const getStep = async (view: string) => {
    let done = false;
    const before = processRssBytes(pid);
    const exactPeak = resetPeakRss(pid);
    let stepPeak = before;
    const stepSampler = setInterval(() => (stepPeak = Math.max(stepPeak, processRssBytes(pid))), 20);
    const cpu0 = processCpuSeconds(pid);
    const probes = probe(
      () => `${server.url}/v1/${POLICY}:getIamPolicy`,
      () => done,
    );
    const times: number[] = [];
    let chunks: Uint8Array[] = [];
    for (let i = 0; i < GET_REPEAT; i++) {
      const t0 = performance.now();
      const res = await httpGetChunks(`${server.url}/v1alpha1/${PARENT}/importJobs/inline?view=${view}`);
      // Kept as received (joined once the probe has stopped: a 15.6 MB copy would hold its thread).
      chunks = res.chunks;
      times.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`get ${view}: ${res.status} ${Buffer.concat(chunks).toString('utf8', 0, 500)}`);
    }
    done = true;
    const bytes = Buffer.concat(chunks);
    const cpu = (processCpuSeconds(pid) - cpu0) / GET_REPEAT;
    const iamTimes = await probes;
    clearInterval(stepSampler);
    const peakAbove = (exactPeak ? Math.max(stepPeak, peakRssBytes(pid)) : stepPeak) - before;
    const job = JSON.parse(bytes.toString('utf8'));
    if (view === 'FULL' && job.inlinePayload?.payload?.[0]?.data !== data) throw new Error("get FULL: the payload's text is not the text sent");
    const l = (x: Latency) => `p50 ${x.p50.toFixed(1)} ms, p99 ${x.p99.toFixed(1)} ms, max ${x.max.toFixed(1)} ms (${x.count})`;
    const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
    console.log(
      `get ${view.padEnd(5)} ${median.toFixed(1).padStart(8)} ms (median of ${GET_REPEAT}), server CPU ${(cpu * 1000).toFixed(0)} ms a get, ${(bytes.length / 1e6).toFixed(2)} MB, job ${job.state}, ${job.executionReport?.framesReported ?? '-'} frames`,
    );
    console.log(`  getIamPolicy   ${l(latencyOf(iamTimes))}`);
    console.log(`  peak RSS ${(peakAbove / 1e6).toFixed(1)} MB above the ${(before / 1e6).toFixed(0)} MB before the gets (${exactPeak ? 'VmHWM' : 'sampled'})`);
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
    // The peak of the steps before the gets (what this line said when the bench made one get of each view).
    const peakToRun = sampler.peak;
    for (const view of ['BASIC', 'FULL']) await getStep(view);
    console.log(
      `emulator peak RSS to the end of :run ${rssPartsText(peakToRun)} (target 300 MB: ${peakToRun.rss / 1e6 <= 300 ? 'met' : 'NOT met'}); ${(sampler.peak.rss / 1e6).toFixed(0)} MB with the gets; at start ${rssPartsText(sampler.start)}`,
    );
    console.log(`  load average after ${loads()}`);
  } finally {
    sampler.stop();
    server.child.kill('SIGTERM');
    await server.exited;
    fs.rmSync(root, { recursive: true, force: true });
  }
}
