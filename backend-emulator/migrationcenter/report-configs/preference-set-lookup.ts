/**
 * The preference sets a report config names, as this folder needs them: a name to look up, and the
 * wire PreferenceSet (the preference sets family, `preference-sets/`, owns them).
 * Read through the preference sets family's domain, when a report config or a report is written.
 */
import type { FamilyScope } from '../family';

export interface MachineSeriesWire {
  code?: string;
}

/** The parts of Schema$VirtualMachinePreferences a report reads (the rest is copied as it is). */
export interface VirtualMachinePreferencesWire {
  targetProduct?: string;
  sizingOptimizationStrategy?: string;
  sizingOptimizationCustomParameters?: { cpuUsagePercentage?: number; memoryUsagePercentage?: number };
  estimatedUsage?: { estimatedCpuPercentage?: number; estimatedMemoryPercentage?: number };
  regionPreferences?: { preferredRegions?: string[] };
  computeEnginePreferences?: { machinePreferences?: { allowedMachineSeries?: MachineSeriesWire[] } };
  [field: string]: unknown;
}

export interface PreferenceSetWire {
  name: string;
  displayName?: string;
  description?: string;
  regionPreferences?: { preferredRegions?: string[] };
  virtualMachinePreferences?: VirtualMachinePreferencesWire;
  [field: string]: unknown;
}

export interface PreferenceSetLookup {
  find(name: string): PreferenceSetWire | undefined;
}

export function preferenceSetLookup(scope: FamilyScope): () => PreferenceSetLookup {
  const preferenceSets = scope.later('preferenceSets');
  // The family's wire PreferenceSet, read as the parts a report uses (the rest is copied as it is).
  const lookup: PreferenceSetLookup = { find: (name) => preferenceSets().find(name) as PreferenceSetWire | undefined };
  return () => lookup;
}
