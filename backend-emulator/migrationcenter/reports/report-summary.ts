/**
 * A report's summary (Schema$ReportSummary), computed when the report is created from the assets
 * of its config's groups at that moment: the totals, histograms and charts are SQL aggregates over
 * the asset store's membership index (store/sqlite-assets.ts `groupStats`, `groupShapes`), never a
 * walk of the assets in JS; the machine findings size each distinct (cores, memory) shape once
 * (machine-sizing.ts). Cost fields stay absent: prices are not the emulator's to invent.
 *
 * ProtoJSON: int64 as decimal strings, zero values left out.
 */
import { failedPrecondition } from '../../errors';
import type { AssetStore, GroupStats } from '../../store/asset-store';
import type { GroupWire } from '../groups/groups';
import type { PreferenceSetLookup, PreferenceSetWire } from '../report-configs/preference-set-lookup';
import type { ReportConfigWire } from '../report-configs/report-configs';
import { allocate } from './machine-sizing';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/** Histogram lower bounds (the first bucket starts at 0, the last has no upper bound). */
export const CORE_BOUNDS = [2, 4, 8, 16, 32, 64, 128];
export const MEMORY_GIB_BOUNDS = [2, 4, 8, 16, 32, 64, 128, 256, 512];
export const STORAGE_GIB_BOUNDS = [50, 100, 250, 500, 1000, 2000, 5000, 10000];

/** An int64 in ProtoJSON (a decimal string), absent when 0. */
function int64(n: number): string | undefined {
  const rounded = Math.round(n);
  return rounded === 0 ? undefined : String(rounded);
}

/** `value` without its undefined fields (ProtoJSON leaves default values out). */
function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function histogram(bounds: number[], counts: number[]): Record<string, unknown> {
  return {
    buckets: counts.map((count, i) =>
      compact({ lowerBound: i === 0 ? undefined : int64(bounds[i - 1]), upperBound: i < bounds.length ? int64(bounds[i]) : undefined, count: int64(count) }),
    ),
  };
}

function chart(points: Array<[string, number]>): Record<string, unknown> {
  return { dataPoints: points.map(([label, value]) => compact({ label, value: value === 0 ? undefined : value })) };
}

function utilisation(used: number, free: number): { chart: Record<string, unknown>; points: Record<string, unknown> } {
  return {
    chart: compact({ used: int64(used), free: int64(free) }),
    points: chart([
      ['Used', Math.round(used)],
      ['Free', Math.round(free)],
    ]),
  };
}

/** Schema$ReportSummaryAssetAggregateStats of one set of assets. */
function aggregateStats(stats: GroupStats): Record<string, unknown> {
  const memoryBytes = stats.memoryMb * MIB;
  const memoryUsed = Math.min(memoryBytes, stats.memoryUsedMb * MIB);
  const memory = utilisation(memoryUsed, memoryBytes - memoryUsed);
  const storageFree = Math.min(stats.diskBytes, stats.diskFreeBytes);
  const storage = utilisation(stats.diskBytes - storageFree, storageFree);
  const os = new Map<string, number>();
  for (const [family, n] of stats.osFamilies) os.set(family ?? 'OS_FAMILY_UNKNOWN', (os.get(family ?? 'OS_FAMILY_UNKNOWN') ?? 0) + n);
  return compact({
    totalAssets: int64(stats.assets),
    totalCores: int64(stats.cores),
    totalMemoryBytes: int64(memoryBytes),
    totalStorageBytes: int64(stats.diskBytes),
    coreCountHistogram: histogram(CORE_BOUNDS, stats.coreBuckets),
    memoryBytesHistogram: histogram(
      MEMORY_GIB_BOUNDS.map((g) => g * GIB),
      stats.memoryBuckets,
    ),
    storageBytesHistogram: histogram(
      STORAGE_GIB_BOUNDS.map((g) => g * GIB),
      stats.diskBuckets,
    ),
    memoryUtilization: memory.points,
    memoryUtilizationChart: memory.chart,
    storageUtilization: storage.points,
    storageUtilizationChart: storage.chart,
    operatingSystem: chart([...os.entries()]),
  });
}

function statsOf(assets: AssetStore, groups: string[]): Record<string, unknown> {
  return aggregateStats(
    assets.groupStats({
      groups,
      coreBounds: CORE_BOUNDS,
      memoryMbBounds: MEMORY_GIB_BOUNDS.map((g) => g * 1024),
      diskBytesBounds: STORAGE_GIB_BOUNDS.map((g) => g * GIB),
    }),
  );
}

/** The region a preference set prefers first (the set's own, then its VM preferences'); the location's otherwise. */
function preferredRegion(set: PreferenceSetWire, location: string): string {
  return (
    set.regionPreferences?.preferredRegions?.[0] ??
    set.virtualMachinePreferences?.regionPreferences?.preferredRegions?.[0] ??
    location.slice(location.lastIndexOf('/') + 1)
  );
}

/** Schema$ReportSummaryGroupPreferenceSetFinding: the preference set, and where its sizing puts the group's assets. */
function preferenceSetFinding(set: PreferenceSetWire, shapes: ReturnType<AssetStore['groupShapes']>, location: string): Record<string, unknown> {
  const prefs = set.virtualMachinePreferences ?? {};
  const region = preferredRegion(set, location);
  // Sole-tenant and VMware Engine findings are not emulated: only Compute Engine targets get a machine finding.
  const product = prefs.targetProduct ?? '';
  const computeEngine = !product.endsWith('_VMWARE_ENGINE') && !product.endsWith('_SOLE_TENANCY');
  const allocation = computeEngine ? allocate(shapes, prefs) : undefined;
  return compact({
    displayName: set.displayName,
    description: set.description,
    machinePreferences: set.virtualMachinePreferences,
    preferenceSet: set,
    preferredRegion: region,
    machineFinding: allocation
      ? compact({
          allocatedAssetCount: int64(allocation.allocated),
          allocatedRegions: allocation.allocated > 0 ? [region] : undefined,
          machineSeriesAllocations:
            allocation.bySeries.length > 0
              ? allocation.bySeries.map(([code, n]) => compact({ machineSeries: { code }, allocatedAssetCount: int64(n) }))
              : undefined,
        })
      : undefined,
  });
}

export interface SummarySources {
  findGroup(name: string): GroupWire | undefined;
  preferenceSets: PreferenceSetLookup;
}

/**
 * What a report's summary is computed from besides the assets: its config, and the config's
 * groups and preference sets as they were when the report was created. Plain data, so that it can
 * go to the worker that computes the summary (report-snapshot.ts).
 */
export interface SummaryInputs {
  config: ReportConfigWire;
  groups: GroupWire[];
  /** The config's preference sets by name. */
  preferenceSets: Record<string, PreferenceSetWire>;
}

/**
 * The config's groups and preference sets. A group or preference set of the config that no longer
 * exists is FAILED_PRECONDITION naming it (the config keeps the names; the report cannot be made).
 */
export function summaryInputs(config: ReportConfigWire, sources: SummarySources): SummaryInputs {
  const groupNames = [...new Set(config.groupPreferencesetAssignments.map((a) => a.group))];
  const groups = groupNames.map((name) => {
    const group = sources.findGroup(name);
    if (!group) throw failedPrecondition(`Group ${name} of report config ${config.name} was deleted: create it again, or create a report config without it.`);
    return group;
  });
  const preferenceSets: Record<string, PreferenceSetWire> = {};
  for (const { preferenceSet } of config.groupPreferencesetAssignments) {
    const set = sources.preferenceSets.find(preferenceSet);
    if (!set) {
      throw failedPrecondition(
        `Preference set ${preferenceSet} of report config ${config.name} was deleted: create it again, or create a report config without it.`,
      );
    }
    preferenceSets[preferenceSet] = set;
  }
  return { config, groups, preferenceSets };
}

/** The summary of a report of `inputs.config`, from `assets` (the assets of its groups, read in one snapshot by the caller). */
export function reportSummary(inputs: SummaryInputs, assets: AssetStore): Record<string, unknown> {
  const { config, groups } = inputs;
  const location = config.name.slice(0, config.name.indexOf('/reportConfigs/'));
  const groupNames = groups.map((g) => g.name);
  // Each distinct set of groups is aggregated once (a config of one group: its stats are all the stats).
  const computed = new Map<string, Record<string, unknown>>();
  const stats = (names: string[]) => {
    const key = JSON.stringify([...names].sort());
    let found = computed.get(key);
    if (!found) computed.set(key, (found = statsOf(assets, names)));
    return found;
  };
  const all = stats(groupNames);
  return {
    allAssetsStats: all,
    // Every asset the emulator holds is a virtual machine (databases are not emulated).
    virtualMachineStats: all,
    groupFindings: groups.map((group) => {
      const shapes = assets.groupShapes([group.name]);
      const setNames = config.groupPreferencesetAssignments.filter((a) => a.group === group.name).map((a) => a.preferenceSet);
      return compact({
        displayName: group.displayName,
        description: group.description,
        group: group.name,
        assetAggregateStats: stats([group.name]),
        preferenceSetFindings: setNames.map((name) => preferenceSetFinding(inputs.preferenceSets[name], shapes, location)),
      });
    }),
  };
}
