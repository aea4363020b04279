/**
 * An AssetFrame (a frame that passed its rules) as the import engine's Asset, so that frames and
 * imports write assets by one path and one identity rule (assets.ts `upsert`, `assetId`): the
 * machine id is the frame's `attributes.MachineId`, else its `virtualMachineDetails.vmUuid` (what
 * an import's MachineId usually is), so a machine imported and then reported is one asset.
 *
 * Performance samples become daily aggregations, as the import makes them (average, median, 95th
 * percentile and peak per UTC day, import-engine/performance.ts `stats`). Google ignores samples
 * "from more than 40 days ago or after tomorrow"; the days a frame reports replace those days of
 * the asset's earlier data, the other days stay.
 */
import type { Asset, AssetPerformanceData, DailyResourceUsageAggregation, VirtualMachineDetails } from '../../import-engine/asset';
import { stats } from '../../import-engine/performance';

const DAY_MS = 86_400_000;
/** Google: "Samples that are from more than 40 days ago or after tomorrow are ignored." */
const SAMPLE_WINDOW_DAYS = 40;

/** A frame's fields the emulator keeps (the AssetFrame schema checked their names and types). */
export interface MachineFrame {
  attributes?: Record<string, string>;
  labels?: Record<string, string>;
  virtualMachineDetails?: Record<string, unknown>;
  performanceSamples?: PerformanceSample[];
  reportTime?: string;
  [other: string]: unknown;
}

interface PerformanceSample {
  sampleTime?: string;
  cpu?: { utilizedPercentage?: number };
  memory?: { utilizedPercentage?: number };
  disk?: { averageIops?: number; averageReadIops?: number; averageWriteIops?: number };
  network?: { averageEgressBps?: number; averageIngressBps?: number };
}

/** The machine id of a frame (undefined when it names none: the frame is then an error frame). */
export function frameMachineId(frame: MachineFrame): string | undefined {
  const fromAttributes = frame.attributes?.MachineId;
  if (fromAttributes) return fromAttributes;
  const uuid = frame.virtualMachineDetails?.vmUuid;
  return typeof uuid === 'string' && uuid !== '' ? uuid : undefined;
}

/** The frame as an engine Asset; `previous` is the asset's stored performance data, merged by day. */
export function frameAsset(frame: MachineFrame, machineId: string, now: number, previous?: AssetPerformanceData): Asset {
  const days = dailyAggregations(frame, now);
  const performanceData = mergeDays(previous?.dailyResourceUsageAggregations ?? [], days);
  return {
    machineId,
    attributes: { ...(frame.attributes ?? {}) },
    labels: { ...(frame.labels ?? {}) },
    virtualMachineDetails: structuredClone(frame.virtualMachineDetails ?? {}) as VirtualMachineDetails,
    ...(performanceData.length > 0 ? { performanceData: { dailyResourceUsageAggregations: performanceData } } : {}),
  };
}

function dayKey(d: DailyResourceUsageAggregation): number {
  return Date.UTC(d.date.year, d.date.month - 1, d.date.day);
}

function mergeDays(previous: DailyResourceUsageAggregation[], reported: DailyResourceUsageAggregation[]): DailyResourceUsageAggregation[] {
  const byDay = new Map<number, DailyResourceUsageAggregation>();
  for (const d of previous) byDay.set(dayKey(d), d);
  for (const d of reported) byDay.set(dayKey(d), d);
  return [...byDay.entries()].sort(([a], [b]) => a - b).map(([, d]) => d);
}

/** The frame's samples within Google's window, aggregated per UTC day (oldest first). */
function dailyAggregations(frame: MachineFrame, now: number): DailyResourceUsageAggregation[] {
  const reportTime = frame.reportTime !== undefined ? Date.parse(frame.reportTime) : now;
  const earliest = now - SAMPLE_WINDOW_DAYS * DAY_MS;
  const latest = (Math.floor(now / DAY_MS) + 2) * DAY_MS; // the end of tomorrow (UTC)
  const days = new Map<number, PerformanceSample[]>();
  for (const sample of frame.performanceSamples ?? []) {
    const time = sample.sampleTime !== undefined ? Date.parse(sample.sampleTime) : reportTime;
    if (time < earliest || time >= latest) continue;
    const day = Math.floor(time / DAY_MS);
    const list = days.get(day);
    if (list) list.push(sample);
    else days.set(day, [sample]);
  }
  return [...days.keys()].sort((a, b) => a - b).map((day) => dayAggregation(day, days.get(day) as PerformanceSample[]));
}

function dayAggregation(day: number, samples: PerformanceSample[]): DailyResourceUsageAggregation {
  const values = (pick: (s: PerformanceSample) => number | undefined): number[] =>
    samples.map(pick).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const date = new Date(day * DAY_MS);
  const agg: DailyResourceUsageAggregation = { date: { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() } };
  const cpu = stats(values((s) => s.cpu?.utilizedPercentage));
  if (cpu) agg.cpu = { utilizationPercentage: cpu };
  const memory = stats(values((s) => s.memory?.utilizedPercentage));
  if (memory) agg.memory = { utilizationPercentage: memory };
  // Google: read and write, when set (and not both zero), override averageIops with their sum.
  const iops = stats(
    values((s) => {
      const read = s.disk?.averageReadIops ?? 0;
      const write = s.disk?.averageWriteIops ?? 0;
      return read !== 0 || write !== 0 ? read + write : s.disk?.averageIops;
    }),
  );
  if (iops) {
    agg.disk = { iops };
    const read = stats(values((s) => s.disk?.averageReadIops));
    const write = stats(values((s) => s.disk?.averageWriteIops));
    if (read) agg.disk.readIops = read;
    if (write) agg.disk.writeIops = write;
  }
  const ingress = stats(values((s) => s.network?.averageIngressBps));
  const egress = stats(values((s) => s.network?.averageEgressBps));
  if (ingress || egress) agg.network = { ...(ingress ? { ingressBps: ingress } : {}), ...(egress ? { egressBps: egress } : {}) };
  return agg;
}
