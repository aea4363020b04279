/**
 * Performance samples -> `AssetPerformanceData.dailyResourceUsageAggregations` (average, median,
 * 95th percentile and peak per UTC day, oldest day first), the shape the real Asset carries.
 *
 * Samples are held compactly (one flat number array per machine, NaN for a missing metric) until
 * their machine is built.
 */
import type { DailyResourceUsageAggregation, UsageStats } from './asset';

/** Layout of one sample in the flat array. */
export const SAMPLE = {
  time: 0,
  cpuPct: 1,
  memPct: 2,
  memUsedBytes: 3,
  memAvailableBytes: 4,
  diskReadOps: 5,
  diskWriteOps: 6,
  netSentBps: 7,
  netReceivedBps: 8,
  stride: 9,
} as const;

const DAY_MS = 86_400_000;

function round(n: number): number {
  return Math.round(n * 10_000) / 10_000;
}

export function stats(values: number[]): UsageStats | undefined {
  if (values.length === 0) return undefined;
  const v = values.slice().sort((a, b) => a - b);
  const n = v.length;
  let sum = 0;
  for (const x of v) sum += x;
  const median = n % 2 === 1 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  const p95 = v[Math.max(0, Math.ceil(0.95 * n) - 1)];
  return { average: round(sum / n), median: round(median), ninteyFifthPercentile: round(p95), peak: round(v[n - 1]) };
}

/** Memory utilisation of one sample: the given percentage, else derived from bytes and the machine's memory. */
function memoryPercent(s: number[], at: number, memoryMb: number | undefined): number {
  const pct = s[at + SAMPLE.memPct];
  if (Number.isFinite(pct)) return pct;
  if (!memoryMb || memoryMb <= 0) return NaN;
  const total = memoryMb * 1024 * 1024;
  const used = s[at + SAMPLE.memUsedBytes];
  if (Number.isFinite(used)) return Math.min(100, Math.max(0, (used / total) * 100));
  const available = s[at + SAMPLE.memAvailableBytes];
  if (Number.isFinite(available)) return Math.min(100, Math.max(0, (1 - available / total) * 100));
  return NaN;
}

export function aggregateDaily(samples: number[], memoryMb: number | undefined): DailyResourceUsageAggregation[] {
  const count = samples.length / SAMPLE.stride;
  const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => samples[a * SAMPLE.stride] - samples[b * SAMPLE.stride]);
  const out: DailyResourceUsageAggregation[] = [];
  let i = 0;
  while (i < order.length) {
    const day = Math.floor(samples[order[i] * SAMPLE.stride] / DAY_MS);
    const cpu: number[] = [];
    const mem: number[] = [];
    const read: number[] = [];
    const write: number[] = [];
    const iops: number[] = [];
    const sent: number[] = [];
    const recv: number[] = [];
    for (; i < order.length && Math.floor(samples[order[i] * SAMPLE.stride] / DAY_MS) === day; i++) {
      const at = order[i] * SAMPLE.stride;
      const push = (arr: number[], v: number) => {
        if (Number.isFinite(v)) arr.push(v);
      };
      push(cpu, samples[at + SAMPLE.cpuPct]);
      push(mem, memoryPercent(samples, at, memoryMb));
      const r = samples[at + SAMPLE.diskReadOps];
      const w = samples[at + SAMPLE.diskWriteOps];
      push(read, r);
      push(write, w);
      if (Number.isFinite(r) || Number.isFinite(w)) iops.push((Number.isFinite(r) ? r : 0) + (Number.isFinite(w) ? w : 0));
      push(sent, samples[at + SAMPLE.netSentBps]);
      push(recv, samples[at + SAMPLE.netReceivedBps]);
    }
    const date = new Date(day * DAY_MS);
    const agg: DailyResourceUsageAggregation = {
      date: { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() },
    };
    const cpuStats = stats(cpu);
    if (cpuStats) agg.cpu = { utilizationPercentage: cpuStats };
    const memStats = stats(mem);
    if (memStats) agg.memory = { utilizationPercentage: memStats };
    if (iops.length) {
      agg.disk = { iops: stats(iops)! };
      if (read.length) agg.disk.readIops = stats(read)!;
      if (write.length) agg.disk.writeIops = stats(write)!;
    }
    if (sent.length || recv.length) {
      agg.network = {};
      if (recv.length) agg.network.ingressBps = stats(recv)!;
      if (sent.length) agg.network.egressBps = stats(sent)!;
    }
    out.push(agg);
  }
  return out;
}
