/**
 * The CSV tables an assets export writes, one per export type. Google's column layout is not
 * published, so the emulator's is its own, documented in docs/migration-center.md: each column is
 * named by the wire path of the Asset field it holds, in the names of the API version the job was
 * created through (`virtualMachineDetails.coreCount` in v1alpha1, `machineDetails.coreCount` in
 * v1, with v1's values: `ACTIVE`), one row per asset (inventory), per asset and day (performance
 * data), or per asset and network connection (network dependencies). Repeated values join with
 * `;` (`sources`); maps are JSON objects (`labels`, `attributes`).
 */
import type { AssetWire } from '../types';
import type { Cell } from '../exports/table-files';
import { versionField } from '../field-paths';
import { writeAnswer } from '../version-translation';
import type { WireVersion } from '../wire-version';

export type ExportType = 'inventory' | 'performanceData' | 'networkDependencies';

export interface AssetTable {
  file: string;
  /** The header, in `version`'s names. */
  columns(version: WireVersion): readonly string[];
  /** The rows of one asset (stored shape), in `version`'s values (`maxDays`: performance data's most recent days). */
  rows(asset: AssetWire, maxDays: number, version: WireVersion): Cell[][];
}

/** The value at a dotted path of an object; undefined where the path stops. */
function at(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** A scalar as a cell; anything else (an object, a list) as JSON. */
function cell(value: unknown): Cell {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

const INVENTORY_DETAILS = [
  'vmUuid',
  'vmName',
  'coreCount',
  'memoryMb',
  'powerState',
  'osFamily',
  'osName',
  'osVersion',
  'vmDisks.hddTotalCapacityBytes',
  'vmDisks.hddTotalFreeBytes',
  'vmNetwork.primaryIpAddress',
  'vmNetwork.primaryMacAddress',
].map((p) => `virtualMachineDetails.${p}`);

/** The machine columns in a version's names (each stored path has one in both versions: machine-details.ts). */
const inventoryDetails = (version: WireVersion): string[] => INVENTORY_DETAILS.map((p) => versionField(version, 'Asset', p)?.path ?? p);

const INVENTORY: AssetTable = {
  file: 'inventory.csv',
  columns: (version) => ['name', 'title', 'createTime', 'updateTime', ...inventoryDetails(version), 'sources', 'labels', 'attributes'],
  rows: (asset, _maxDays, version) => {
    // The asset as the version answers it (v1's machineDetails, its power state ACTIVE), read at the version's paths.
    const answered = writeAnswer(version, asset);
    return [
      [
        asset.name,
        asset.title,
        asset.createTime,
        asset.updateTime,
        ...inventoryDetails(version).map((p) => cell(at(answered, p))),
        asset.sources.join(';'),
        JSON.stringify(asset.labels ?? {}),
        JSON.stringify(asset.attributes ?? {}),
      ],
    ];
  },
};

const USAGE_METRICS = [
  'cpu.utilizationPercentage',
  'memory.utilizationPercentage',
  'disk.iops',
  'disk.readIops',
  'disk.writeIops',
  'network.ingressBps',
  'network.egressBps',
];
const USAGE_STATS = ['average', 'median', 'ninteyFifthPercentile', 'peak']; // sic: the API's spelling
const USAGE_COLUMNS = USAGE_METRICS.flatMap((m) => USAGE_STATS.map((s) => `${m}.${s}`));

const pad = (n: unknown, width: number): string => String(n ?? 0).padStart(width, '0');

const PERFORMANCE: AssetTable = {
  file: 'performance-data.csv',
  columns: () => ['name', 'date', ...USAGE_COLUMNS],
  rows: (asset, maxDays) => {
    const days = at(asset, 'performanceData.dailyResourceUsageAggregations');
    if (!Array.isArray(days)) return [];
    // Oldest first (the API's order): the most recent `maxDays` are the last ones.
    return days.slice(-maxDays).map((day: Record<string, unknown>) => {
      const date = day.date as { year?: number; month?: number; day?: number } | undefined;
      return [asset.name, date ? `${pad(date.year, 4)}-${pad(date.month, 2)}-${pad(date.day, 2)}` : undefined, ...USAGE_COLUMNS.map((c) => cell(at(day, c)))];
    });
  },
};

const CONNECTION_FIELDS = ['localIpAddress', 'localPort', 'remoteIpAddress', 'remotePort', 'protocol', 'state', 'pid', 'processName'];

const NETWORK: AssetTable = {
  file: 'network-dependencies.csv',
  columns: () => ['name', ...CONNECTION_FIELDS],
  rows: (asset) => {
    const entries = at(asset, 'virtualMachineDetails.guestOs.runtime.networkInfo.connections.entries');
    if (!Array.isArray(entries)) return [];
    return entries.map((entry: Record<string, unknown>) => [asset.name, ...CONNECTION_FIELDS.map((f) => cell(entry[f]))]);
  },
};

export const ASSET_TABLES: Readonly<Record<ExportType, AssetTable>> = {
  inventory: INVENTORY,
  performanceData: PERFORMANCE,
  networkDependencies: NETWORK,
};
