/**
 * What each Migration Center method reads its body into, by Google method id (the same ids in
 * v1alpha1 and v1): the message, in the stored (v1alpha1) shape, and where it sits in the request.
 * The front end refuses a body's unknown names against it for every method before the method runs
 * (http/request-bodies.ts); each version's table is the stored one with the version's differences
 * applied (wire-version.ts: a name v1 lacks is unknown on v1, a renamed one known by its v1 name).
 *
 * An import job's body (inline payloads up to the body limit) is a message like any other: its
 * names are walked, its payload texts never read.
 */
import type { SchemaName } from '../../schemas/registry';
import type { MessageShape } from '../http/message-shapes';
import { lazyShape, messageShape, schemaShape, VALUE, withField } from '../http/message-shapes';
import { CANCEL_OPERATION_BODY, REQUEST_ID_BODY, type RequestBody, type RequestBodyTable } from '../http/request-bodies';
import { IMPORT_JOB_FIELDS } from './import-jobs/import-job-model';
import type { WireVersion } from './wire-version';

const M = 'migrationcenter.projects.locations';

/** One method's body in the stored shape: its message's name (a row of wire-version.ts, if it differs) and its names. */
interface StoredBody {
  /** The message's name (`Asset`, `BatchUpdateAssetsRequest`), as wire-version.ts's rows name it. */
  readonly message: string;
  /** The body field's proto name, or '' for the request itself. */
  readonly at: string;
  readonly shape: () => MessageShape;
}

const schemaBody = (schema: SchemaName, at: string): StoredBody => ({ message: schema, at, shape: () => schemaShape(schema) });

/**
 * Messages a schema takes as any object (they are output only, or not read), given their own names
 * here, the first level of each: Google's parser refuses a name unknown in them as in any message.
 */
const assetShape = (): MessageShape => withField(schemaShape('Asset'), 'performanceData', messageShape({ dailyResourceUsageAggregations: VALUE }));
const importDataFileShape = (): MessageShape =>
  withField(schemaShape('ImportDataFile'), 'uploadFileInfo', messageShape({ headers: VALUE, signedUri: VALUE, uriExpirationTime: VALUE }));

/** ImportJob (no wire schema: its body's rules are the import job domain's), payloads included (a seeded job's names too). */
export function importJobShape(): MessageShape {
  const fields: Record<string, MessageShape | undefined> = Object.fromEntries(IMPORT_JOB_FIELDS.map((f) => [f, VALUE]));
  fields.gcsPayload = messageShape({ format: VALUE, path: VALUE });
  fields.inlinePayload = messageShape({ format: VALUE, payload: messageShape({ name: VALUE, data: VALUE }) });
  return messageShape(fields);
}

/** AggregateAssetsValuesRequest and its Aggregation (whose count, sum and frequency have no fields). */
function aggregateValuesShape(): MessageShape {
  const aggregation = messageShape({
    field: VALUE,
    count: messageShape({}),
    sum: messageShape({}),
    frequency: messageShape({}),
    histogram: messageShape({ lowerBounds: VALUE }),
  });
  return messageShape({ aggregations: aggregation, filter: VALUE, showHidden: VALUE });
}

const requestIdBody = (message: string): StoredBody => ({ message, at: '', shape: REQUEST_ID_BODY.message });

/** Every Migration Center method that takes a body (tests/backend-emulator/http/request-bodies.test.ts checks the list). */
const STORED_BODIES: Readonly<Record<string, StoredBody>> = {
  [`${M}.updateSettings`]: schemaBody('Settings', 'settings'),
  [`${M}.sources.create`]: schemaBody('Source', 'source'),
  [`${M}.sources.patch`]: schemaBody('Source', 'source'),
  [`${M}.importJobs.create`]: { message: 'ImportJob', at: 'import_job', shape: importJobShape },
  [`${M}.importJobs.patch`]: { message: 'ImportJob', at: 'import_job', shape: importJobShape },
  [`${M}.importJobs.run`]: requestIdBody('RunImportJobRequest'),
  [`${M}.importJobs.validate`]: requestIdBody('ValidateImportJobRequest'),
  [`${M}.importJobs.importDataFiles.create`]: { message: 'ImportDataFile', at: 'import_data_file', shape: importDataFileShape },
  [`${M}.assets.patch`]: { message: 'Asset', at: 'asset', shape: assetShape },
  [`${M}.assets.batchUpdate`]: schemaBody('BatchUpdateAssetsRequest', ''),
  [`${M}.assets.batchDelete`]: schemaBody('BatchDeleteAssetsRequest', ''),
  [`${M}.assets.reportAssetFrames`]: schemaBody('Frames', 'frames'),
  [`${M}.assets.aggregateValues`]: { message: 'AggregateAssetsValuesRequest', at: '', shape: aggregateValuesShape },
  [`${M}.groups.create`]: schemaBody('Group', 'group'),
  [`${M}.groups.patch`]: schemaBody('Group', 'group'),
  [`${M}.groups.addAssets`]: schemaBody('AddAssetsToGroupRequest', ''),
  [`${M}.groups.removeAssets`]: schemaBody('RemoveAssetsFromGroupRequest', ''),
  [`${M}.preferenceSets.create`]: schemaBody('PreferenceSet', 'preference_set'),
  [`${M}.preferenceSets.patch`]: schemaBody('PreferenceSet', 'preference_set'),
  [`${M}.discoveryClients.create`]: schemaBody('DiscoveryClient', 'discovery_client'),
  [`${M}.discoveryClients.patch`]: schemaBody('DiscoveryClient', 'discovery_client'),
  [`${M}.discoveryClients.sendHeartbeat`]: { message: 'SendDiscoveryClientHeartbeatRequest', at: '', shape: () => schemaShape('DiscoveryClientHeartbeat') },
  [`${M}.assetsExportJobs.create`]: schemaBody('AssetsExportJob', 'assets_export_job'),
  [`${M}.assetsExportJobs.run`]: requestIdBody('RunAssetsExportJobRequest'),
  [`${M}.reportConfigs.create`]: schemaBody('ReportConfig', 'report_config'),
  [`${M}.reportConfigs.reports.create`]: schemaBody('Report', 'report'),
  [`${M}.reportConfigs.reports.reportExportJobs.create`]: schemaBody('ReportExportJob', 'report_export_job'),
  [`${M}.reportConfigs.reports.reportExportJobs.run`]: requestIdBody('RunReportExportJobRequest'),
  [`${M}.operations.cancel`]: { message: 'CancelOperationRequest', at: '', shape: CANCEL_OPERATION_BODY.message },
};

/**
 * `shape` (of the stored message `message`) as the version spells it: the fields its row says the
 * version lacks are gone, renamed ones go by the version's name, moved ones by the first name of
 * their place in the version (v1's `guestOs` for the stored `osFamily`), and the messages below
 * follow their own rows (`children`); a message without a row is the stored one. A row listing the
 * version's `fields` (a message of its own in the version: v1's MachineDetails) is closed to them.
 * In a message the schemas leave open (an output-only report, a summary), what the version lacks,
 * renames or moves is still refused.
 */
export function versionShape(version: WireVersion, message: string, shape: MessageShape): MessageShape {
  const diff = version.messages[message];
  if (!diff) return shape;
  const lacks = new Set(diff.lacks ?? []);
  const movedAway = new Set(Object.keys(diff.moves ?? {}));
  const fields = new Map<string, MessageShape | undefined>();
  const names = new Set([...shape.fields.keys(), ...(shape.closed ? [] : Object.keys(diff.children ?? {}))]);
  for (const name of names) {
    if (lacks.has(name) || movedAway.has(name)) continue;
    const field = shape.fields.get(name);
    const child = diff.children?.[name];
    const below = child === undefined ? field : versionShape(version, child, field ?? OPEN);
    fields.set(diff.renames?.[name] ?? name, below);
  }
  // A child message on a field only the version has (v1's bios): checked by its row.
  for (const [name, child] of Object.entries(diff.children ?? {})) {
    if (!names.has(name) && diff.fields?.includes(name)) fields.set(name, versionShape(version, child, OPEN));
  }
  // A moved field's place: a value where the stored message has no field of that name (its
  // messages, v1's guestOs or platform, are the version's own and not checked below).
  for (const place of Object.values(diff.moves ?? {})) {
    const top = place.split('.')[0];
    if (!fields.has(top)) fields.set(top, shape.fields.get(top));
  }
  if (diff.fields !== undefined) {
    const own = new Map<string, MessageShape | undefined>();
    for (const name of diff.fields) own.set(name, fields.get(name));
    return { fields: own, closed: true };
  }
  if (shape.closed) return { fields, closed: true };
  return { fields, closed: false, refused: new Set([...lacks, ...movedAway, ...Object.keys(diff.renames ?? {})].filter((name) => !fields.has(name))) };
}

/** An object the schemas leave open: every name taken. */
const OPEN: MessageShape = { fields: new Map(), closed: false };

const tables = new WeakMap<WireVersion, RequestBodyTable>();

/** The version's table: each method's message in the version's shape, built at its first body (one table per version, whichever app asks). */
export function requestBodyTable(version: WireVersion): RequestBodyTable {
  const known = tables.get(version);
  if (known) return known;
  const bodies: Record<string, RequestBody> = {};
  for (const [id, stored] of Object.entries(STORED_BODIES)) {
    bodies[id] = { at: stored.at, message: lazyShape(() => versionShape(version, stored.message, stored.shape())) };
  }
  const table = { api: 'migrationcenter', version: version.version, bodies };
  tables.set(version, table);
  return table;
}
