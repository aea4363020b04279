/**
 * Assets export jobs: which assets to export (a filter), what of them (inventory, performance
 * data or network dependencies) and where (files behind signed download URLs the emulator serves).
 *
 *   create  -> the job (done Operation); its filter is checked against the assets list's rules
 *   get, list (pageSize, pageToken: Google's list has no filter or orderBy)
 *   delete  -> its run in progress stops, its files go (done Operation; Google's takes no requestId)
 *   :run    -> a background execution writing one CSV file (exports/export-runs.ts)
 * (the shared parts of export jobs: exports/export-job-collection.ts).
 *
 * The export reads the assets page by page through the assets domain (the list's SQL paging on
 * the asset table), never all at once, and writes each page as it comes.
 */
import { groupedCount } from '../../counts';
import { GoogleApiError, invalidArgument, type FieldViolation } from '../../errors';
import type { OperationControl, ServiceOperations } from '../../operations/operations';
import type { Store } from '../../store/store';
import { schemaViolations } from '../../http/validation';
import { MAX_PAGE_SIZE } from '../../query/list-query';
import { COLLECTIONS, RESOURCE_TYPES, TYPES } from '../names';
import type { CollectionSpec } from '../resource-collection';
import type { Assets } from '../assets/assets';
import type { ExportExecution, ExportOutput } from '../exports/export-runs';
import { ExportJobCollection } from '../exports/export-job-collection';
import type { WrittenTable } from '../exports/table-files';
import type { ExportFiles } from '../exports/export-files';
import type { DownloadUrls } from '../exports/download-urls';
import { ASSET_TABLES, type ExportType } from './asset-tables';
import { servedVersion } from '../version-translation';
import { V1ALPHA1, WIRE_VERSIONS, type WireVersion } from '../wire-version';

export interface AssetsExportJobWire {
  name: string;
  createTime: string;
  updateTime: string;
  labels?: Record<string, string>;
  condition?: { filter?: string };
  showHidden?: boolean;
  inventory?: Record<string, never>;
  performanceData?: { maxDays?: number };
  networkDependencies?: { maxDays?: number };
  signedUriDestination?: { fileFormat: string };
  recentExecutions?: ExportExecution[];
}

const EXPORT_TYPES: readonly ExportType[] = ['inventory', 'performanceData', 'networkDependencies'];
/** Fields of the create body that are the job's (output-only ones are dropped). */
const INPUT_FIELDS = ['condition', 'showHidden', ...EXPORT_TYPES, 'labels', 'signedUriDestination'] as const;

/** `performanceData.maxDays` as Google documents it: unset or 0 is 40, above 420 is 420. */
export const DEFAULT_MAX_DAYS = 40;
export const MAX_DAYS = 420;

export function effectiveMaxDays(maxDays: number | undefined): number {
  if (!maxDays) return DEFAULT_MAX_DAYS;
  return Math.min(maxDays, MAX_DAYS);
}

/** The job's one export type (the body check made sure there is exactly one). */
export function exportTypeOf(job: AssetsExportJobWire): ExportType {
  return EXPORT_TYPES.find((t) => job[t] !== undefined) as ExportType;
}

/**
 * Checks a create body: the schema, then the two unions of the message (export type,
 * destination) and the format the emulator writes. Returns the job's fields.
 */
export function checkAssetsExportJobBody(body: Record<string, unknown>): Record<string, unknown> {
  const violations: FieldViolation[] = schemaViolations('AssetsExportJob', body);
  const types = EXPORT_TYPES.filter((t) => body[t] !== undefined && body[t] !== null);
  if (types.length === 0)
    violations.push({ field: 'inventory', description: 'one export type is required: inventory, performanceData or networkDependencies' });
  if (types.length > 1) violations.push({ field: types[1], description: `only one export type may be set (oneof export_type): ${types.join(', ')} are set` });
  if (body.signedUriDestination === undefined || body.signedUriDestination === null) {
    violations.push({ field: 'signedUriDestination', description: 'is required (the destination of the exported files)' });
  }
  const format = (body.signedUriDestination as { fileFormat?: unknown } | undefined)?.fileFormat;
  if (format === 'XLSX') violations.push({ field: 'signedUriDestination.fileFormat', description: 'XLSX is not emulated: the emulator writes CSV' });
  if (violations.length > 0) throw invalidArgument(violations);
  const out: Record<string, unknown> = {};
  for (const field of INPUT_FIELDS) if (body[field] !== undefined && body[field] !== null) out[field] = body[field];
  return out;
}

/**
 * The version a job was created through: its filter is read, and its inventory's columns named,
 * in that version's names, whichever version runs it (a side record, never answered).
 */
function createdIn(store: Store, job: string): WireVersion {
  const version = store.get<string>(COLLECTIONS.assetsExportJobVersions, job);
  return WIRE_VERSIONS.find((v) => v.version === version) ?? V1ALPHA1;
}

function spec(assets: Assets, store: Store): CollectionSpec<AssetsExportJobWire> {
  return {
    segment: 'assetsExportJobs',
    idField: 'assetsExportJobId',
    storeCollection: COLLECTIONS.assetsExportJobs,
    resourceType: RESOURCE_TYPES.assetsExportJob,
    wireType: TYPES.assetsExportJob,
    methodNames: { create: 'createAssetsExportJob', update: 'updateAssetsExportJob', delete: 'deleteAssetsExportJob' },
    check: checkAssetsExportJobBody,
    updatable: [],
    listFields: { scalars: { name: (j) => j.name }, name: (j) => j.name },
    create: (name, input, time) => ({ name, createTime: time, updateTime: time, ...input }) as AssetsExportJobWire,
    beforeWrite: (job) => {
      checkFilter(assets, job);
      store.put(COLLECTIONS.assetsExportJobVersions, job.name, (servedVersion() ?? V1ALPHA1).version);
    },
    beforeDelete: (job) => {
      store.delete(COLLECTIONS.assetsExportJobVersions, job.name);
    },
  };
}

/** The filter must be one the assets list takes (the same syntax, in the names of the version creating the job): checked with a one-row list. */
function checkFilter(assets: Assets, job: AssetsExportJobWire): void {
  const filter = job.condition?.filter;
  if (!filter) return;
  try {
    assets.list(locationOf(job.name), { filter, pageSize: 1 });
  } catch (err) {
    if (!(err instanceof GoogleApiError) || err.status !== 'INVALID_ARGUMENT') throw err;
    throw invalidArgument([{ field: 'condition.filter', description: err.message.replace(/^Invalid filter: /, '') }]);
  }
}

/** `projects/p/locations/l/assetsExportJobs/j` -> `projects/p/locations/l`. */
function locationOf(name: string): string {
  return name.slice(0, name.indexOf('/assetsExportJobs/'));
}

/** The export itself: the matching assets, a page at a time, into one table. */
async function produce(
  assets: Assets,
  job: AssetsExportJobWire,
  version: WireVersion,
  output: ExportOutput,
  ctl: OperationControl,
): Promise<{ files: WrittenTable[]; fields: Record<string, unknown> }> {
  const table = ASSET_TABLES[exportTypeOf(job)];
  const maxDays = effectiveMaxDays(job.performanceData?.maxDays);
  const writer = output.csv(table.file, table.columns(version));
  const parent = locationOf(job.name);
  const filter = job.condition?.filter;
  let pageToken: string | undefined;
  let exported = 0;
  do {
    if (ctl.signal.aborted) throw new GoogleApiError('ABORTED', `export stopped: ${String(ctl.signal.reason)}`);
    const request = { ...(filter ? { filter } : {}), pageSize: MAX_PAGE_SIZE, ...(pageToken ? { pageToken } : {}) };
    const page = assets.list(parent, request, 'ASSET_VIEW_FULL', version);
    exported += page.assets.length;
    await writer.writeRows(page.assets.flatMap((a) => table.rows(a, maxDays, version)));
    pageToken = page.nextPageToken;
    if (pageToken) ctl.progress(`exported ${groupedCount(exported)} assets`);
    // Other requests are served between pages: an export of 600,000 assets never holds the loop.
    await new Promise<void>((resolve) => setImmediate(resolve));
  } while (pageToken);
  const written = await writer.close();
  ctl.progress(`exported ${groupedCount(exported)} assets`);
  return { files: [written], fields: { requestedAssetCount: exported } };
}

export interface AssetsExportJobsDeps {
  store: Store;
  ops: ServiceOperations;
  assets: Assets;
  files: ExportFiles;
  urls: DownloadUrls;
}

export class AssetsExportJobs extends ExportJobCollection<AssetsExportJobWire> {
  constructor(deps: AssetsExportJobsDeps) {
    super(spec(deps.assets, deps.store), deps.store, deps.ops, deps.files, deps.urls, {
      responseType: TYPES.runAssetsExportJobResponse,
      responseField: 'assetsExportJobExecution',
      produce: (job, output, ctl) => produce(deps.assets, job, createdIn(deps.store, job.name), output, ctl),
    });
  }
}
