/**
 * The sizing rule of report findings (docs/migration-center.md, "Reports: the sizing rule"): each
 * asset goes to the smallest Compute Engine machine type of the preference set's machine series
 * that covers its (optionally usage-adjusted) vCPUs and memory. Deterministic, and simple on
 * purpose: Google's recommender is not public, and prices are not the emulator's to invent.
 *
 * The catalog is the emulator's: for each series, its vCPU sizes and the memory per vCPU of its
 * highcpu, standard and highmem types (Compute Engine's published shapes, every family at every
 * size).
 */
import type { AssetShape } from '../../store/asset-store';
import type { VirtualMachinePreferencesWire } from '../report-configs/preference-set-lookup';

interface SeriesShapes {
  code: string;
  vcpus: readonly number[];
  /** GiB of memory per vCPU, one machine type per entry and size. */
  gibPerVcpu: readonly number[];
}

/** In the order used when no series is preferred (and to break ties). */
export const MACHINE_SERIES: readonly SeriesShapes[] = [
  { code: 'E2', vcpus: [2, 4, 8, 16, 32], gibPerVcpu: [1, 4, 8] },
  { code: 'N2', vcpus: [2, 4, 8, 16, 32, 48, 64, 80, 96, 128], gibPerVcpu: [1, 4, 8] },
  { code: 'N2D', vcpus: [2, 4, 8, 16, 32, 48, 64, 80, 96, 128, 224], gibPerVcpu: [1, 4, 8] },
  { code: 'C3', vcpus: [4, 8, 22, 44, 88, 176], gibPerVcpu: [2, 4, 8] },
  { code: 'N1', vcpus: [1, 2, 4, 8, 16, 32, 64, 96], gibPerVcpu: [0.9, 3.75, 6.5] },
];

interface MachineType {
  series: string;
  vcpus: number;
  memoryMb: number;
}

/** Every machine type of `series` (catalog order when empty), smallest first: vCPUs, then memory, then series order. */
function machineTypes(series: readonly string[]): MachineType[] {
  const chosen = series.length === 0 ? MACHINE_SERIES : series.flatMap((code) => MACHINE_SERIES.filter((s) => s.code === code.toUpperCase()));
  const order = new Map(chosen.map((s, i) => [s.code, i]));
  return chosen
    .flatMap((s) => s.vcpus.flatMap((vcpus) => s.gibPerVcpu.map((gib) => ({ series: s.code, vcpus, memoryMb: Math.round(vcpus * gib * 1024) }))))
    .sort((a, b) => a.vcpus - b.vcpus || a.memoryMb - b.memoryMb || order.get(a.series)! - order.get(b.series)!);
}

/** The utilisation a strategy sizes for (percent): usage above it needs a larger machine. */
function targetPercent(prefs: VirtualMachinePreferencesWire, resource: 'cpu' | 'memory'): number {
  switch (prefs.sizingOptimizationStrategy) {
    case 'SIZING_OPTIMIZATION_STRATEGY_AGGRESSIVE':
      return 100;
    case 'SIZING_OPTIMIZATION_STRATEGY_CUSTOM': {
      const custom = prefs.sizingOptimizationCustomParameters ?? {};
      const given = resource === 'cpu' ? custom.cpuUsagePercentage : custom.memoryUsagePercentage;
      return given && given > 0 ? given : 80;
    }
    default:
      // MODERATE, and UNSPECIFIED, which Google documents as behaving like MODERATE.
      return 80;
  }
}

/**
 * The factor an asset's capacity is multiplied by: its estimated usage over the strategy's
 * target, when the preference set estimates a usage and the strategy is not SAME_AS_SOURCE; 1
 * otherwise (the source's own size).
 */
export function sizingFactor(prefs: VirtualMachinePreferencesWire, resource: 'cpu' | 'memory'): number {
  if (prefs.sizingOptimizationStrategy === 'SIZING_OPTIMIZATION_STRATEGY_SAME_AS_SOURCE') return 1;
  const usage = resource === 'cpu' ? prefs.estimatedUsage?.estimatedCpuPercentage : prefs.estimatedUsage?.estimatedMemoryPercentage;
  if (!usage || usage <= 0) return 1;
  return usage / targetPercent(prefs, resource);
}

export interface Allocation {
  allocated: number;
  /** Assets per series, in catalog order. */
  bySeries: Array<[string, number]>;
}

/**
 * Allocates assets (counted by shape) to machine series. An asset without a core count or memory,
 * or larger than every machine type of the series, is not allocated.
 */
export function allocate(shapes: readonly AssetShape[], prefs: VirtualMachinePreferencesWire): Allocation {
  const series = (prefs.computeEnginePreferences?.machinePreferences?.allowedMachineSeries ?? []).map((s) => s.code ?? '').filter((c) => c !== '');
  const types = machineTypes(series);
  const cpuFactor = sizingFactor(prefs, 'cpu');
  const memoryFactor = sizingFactor(prefs, 'memory');
  const counts = new Map<string, number>();
  let allocated = 0;
  for (const shape of shapes) {
    if (shape.cores === null || shape.memoryMb === null) continue;
    const needCpu = shape.cores * cpuFactor;
    const needMemory = shape.memoryMb * memoryFactor;
    const fit = types.find((t) => t.vcpus >= needCpu && t.memoryMb >= needMemory);
    if (!fit) continue;
    allocated += shape.assets;
    counts.set(fit.series, (counts.get(fit.series) ?? 0) + shape.assets);
  }
  return { allocated, bySeries: MACHINE_SERIES.filter((s) => counts.has(s.code)).map((s) => [s.code, counts.get(s.code)!]) };
}
