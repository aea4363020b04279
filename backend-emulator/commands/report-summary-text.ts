/**
 * The readable form of a Migration Center report (Schema$Report with its ReportSummary, FULL
 * view): the totals of every asset (count, cores, memory, storage), how much memory and storage
 * is used, the OS breakdown and the histograms' non-empty buckets, then each group with its
 * totals and, per preference set, where its sizing put the group's assets. Cost fields are not
 * printed (the emulator never computes them; see docs/migration-center.md).
 */
import { groupedCount } from '../counts';

/** The wire fields this text reads (ProtoJSON: int64 as strings, zeros left out). */
export interface ReportSummaryStatsWire {
  totalAssets?: string;
  totalCores?: string;
  totalMemoryBytes?: string;
  totalStorageBytes?: string;
  coreCountHistogram?: HistogramWire;
  memoryBytesHistogram?: HistogramWire;
  storageBytesHistogram?: HistogramWire;
  memoryUtilizationChart?: { used?: string; free?: string };
  storageUtilizationChart?: { used?: string; free?: string };
  operatingSystem?: { dataPoints?: Array<{ label?: string; value?: number }> };
}

interface HistogramWire {
  buckets?: Array<{ lowerBound?: string; upperBound?: string; count?: string }>;
}

export interface PreferenceSetFindingWire {
  displayName?: string;
  preferredRegion?: string;
  preferenceSet?: { name?: string };
  machineFinding?: {
    allocatedAssetCount?: string;
    allocatedRegions?: string[];
    machineSeriesAllocations?: Array<{ machineSeries?: { code?: string }; allocatedAssetCount?: string }>;
  };
}

export interface ReportWire {
  name: string;
  state?: string;
  displayName?: string;
  summary?: {
    allAssetsStats?: ReportSummaryStatsWire;
    groupFindings?: Array<{
      group?: string;
      displayName?: string;
      assetAggregateStats?: ReportSummaryStatsWire;
      preferenceSetFindings?: PreferenceSetFindingWire[];
    }>;
  };
}

const GIB = 1024 ** 3;

function n(value: string | number | undefined): number {
  const v = Number(value ?? 0);
  return Number.isFinite(v) ? v : 0;
}

/** 1,234 */
function count(value: string | number | undefined): string {
  return groupedCount(n(value));
}

/** Bytes as GiB with at most one decimal: `52 GiB`, `1.5 GiB`, `0 GiB`. */
export function gib(bytes: string | number | undefined): string {
  return `${(n(bytes) / GIB).toLocaleString('en-US', { maximumFractionDigits: 1 })} GiB`;
}

function plural(value: string | number | undefined, noun: string): string {
  return `${count(value)} ${noun}${n(value) === 1 ? '' : 's'}`;
}

/** `assets: 3, cores: 14, memory: 52 GiB, storage: 300 GiB` as one line. */
function totals(stats: ReportSummaryStatsWire): string {
  return `${plural(stats.totalAssets, 'asset')}, ${plural(stats.totalCores, 'core')}, ${gib(stats.totalMemoryBytes)} of memory, ${gib(stats.totalStorageBytes)} of storage`;
}

function usage(what: string, chart: { used?: string; free?: string } | undefined): string | undefined {
  const used = n(chart?.used);
  const all = used + n(chart?.free);
  if (all === 0) return undefined;
  return `${what} used: ${gib(used)} of ${gib(all)} (${Math.round((used / all) * 100)}%)`;
}

/** A bucket as `lo-hi`, `< hi` or `>= lo` in `unit` (bytes shown as GiB). */
function bucket(b: { lowerBound?: string; upperBound?: string }, bytes: boolean): string {
  const show = (v: string | undefined) => (bytes ? (n(v) / GIB).toLocaleString('en-US') : count(v));
  const unit = bytes ? ' GiB' : '';
  if (b.upperBound === undefined) return `>= ${show(b.lowerBound)}${unit}`;
  return `${show(b.lowerBound)}-${show(b.upperBound)}${unit}`;
}

function histogram(what: string, h: HistogramWire | undefined, bytes: boolean): string | undefined {
  const filled = (h?.buckets ?? []).filter((b) => n(b.count) > 0);
  if (filled.length === 0) return undefined;
  return `${what}: ${filled.map((b) => `${bucket(b, bytes)}: ${count(b.count)}`).join(', ')}`;
}

function operatingSystems(stats: ReportSummaryStatsWire): string | undefined {
  const points = (stats.operatingSystem?.dataPoints ?? []).filter((p) => n(p.value) > 0);
  if (points.length === 0) return undefined;
  return `Operating systems: ${points.map((p) => `${p.label ?? 'unlabelled'} ${count(p.value)}`).join(', ')}`;
}

function statsLines(stats: ReportSummaryStatsWire, indent: string): string[] {
  return [
    usage('Memory', stats.memoryUtilizationChart),
    usage('Storage', stats.storageUtilizationChart),
    operatingSystems(stats),
    histogram('Cores per machine', stats.coreCountHistogram, false),
    histogram('Memory per machine', stats.memoryBytesHistogram, true),
    histogram('Storage per machine', stats.storageBytesHistogram, true),
  ]
    .filter((line): line is string => line !== undefined)
    .map((line) => indent + line);
}

function findingLine(f: PreferenceSetFindingWire, groupAssets: string | undefined): string {
  const who = f.preferenceSet?.name ?? f.displayName ?? '(unnamed preference set)';
  const named = f.preferenceSet?.name && f.displayName ? `${who} (${f.displayName})` : who;
  const m = f.machineFinding;
  if (!m) return `Preference set ${named}: region ${f.preferredRegion ?? '-'}, no machine finding`;
  const series = (m.machineSeriesAllocations ?? []).map((a) => `${a.machineSeries?.code ?? '?'} ${count(a.allocatedAssetCount)}`);
  return (
    `Preference set ${named}: region ${f.preferredRegion ?? '-'}, ${count(m.allocatedAssetCount)} of ${plural(groupAssets, 'asset')} allocated` +
    (series.length > 0 ? ` (${series.join(', ')})` : '')
  );
}

export function formatReportSummary(report: ReportWire): string {
  const lines = [`report ${report.name}: ${report.state ?? 'STATE_UNSPECIFIED'}`];
  const summary = report.summary;
  if (!summary) return `${lines.join('\n')}\n(no summary)\n`;
  const all = summary.allAssetsStats ?? {};
  lines.push(`All assets: ${totals(all)}`, ...statsLines(all, '  '));
  for (const group of summary.groupFindings ?? []) {
    const stats = group.assetAggregateStats ?? {};
    lines.push('', `Group ${group.group ?? '?'}${group.displayName ? ` (${group.displayName})` : ''}: ${totals(stats)}`);
    lines.push(...statsLines(stats, '  '));
    for (const finding of group.preferenceSetFindings ?? []) lines.push(`  ${findingLine(finding, stats.totalAssets)}`);
  }
  return `${lines.join('\n')}\n`;
}
