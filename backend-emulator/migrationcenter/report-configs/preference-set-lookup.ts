/**
 * The preference sets a report config names, as this folder needs them: a name to look up, and the
 * wire PreferenceSet (the preference sets family, `preference-sets/`, owns them).
 *
 * MERGE SEAM: until that family is registered beside this one, the lookup reads its store
 * documents directly (collection `migrationcenter.preferenceSets`, key = name, value = the wire
 * PreferenceSet: the family's documented storage), so this branch works and is tested on its own.
 * Once `preferenceSets` is a key of MigrationCenterDomains, `preferenceSetLookup` becomes
 * `return scope.later('preferenceSets')` and nothing else here changes.
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

/** The store collection of the preference sets family (its documents are the wire PreferenceSets). */
const PREFERENCE_SETS_COLLECTION = 'migrationcenter.preferenceSets';

export function preferenceSetLookup(scope: FamilyScope): () => PreferenceSetLookup {
  const lookup: PreferenceSetLookup = { find: (name) => scope.store.get<PreferenceSetWire>(PREFERENCE_SETS_COLLECTION, name) };
  return () => lookup;
}
