/**
 * ProtoJSON at the wire: what Google's REST front end does to every message, done here once for
 * every route instead of by each domain.
 *
 * Out (`toProtoJson`): fields that hold their default are left out — empty lists and maps,
 * `false`, `0` (and an int64's `"0"`), `""`, `null` and enum zero values — so an empty list response is `{}` and a clean
 * report has no `rowErrors` key. Clients written against Google (`resp.data.importJobs ?? []`)
 * depend on it, and a client that depended on the emulator's empty lists would break on Google.
 *
 * In (`fromProtoJsonBody`, `fromProtoJsonQuery`): Google's JSON parser accepts a field's original
 * proto name (`display_name`) beside its JSON name (`displayName`), and an enum as its name or its
 * number; both are normalised here to the JSON name and the enum name before a route reads them.
 *
 * The rules are type-free where proto allows it (a list is a list); where they need the message's
 * types (which objects are maps, which strings are enums) they read the small tables below, which
 * list the maps and enums of the two emulated APIs.
 */
import { invalidArgument } from '../errors';
import { answerBytes } from './answer-bytes';
import { FileString } from './file-string';

/** The URL prefixes of the emulated Google APIs (the console and admin routes are not Google's). */
const GOOGLE_API_PATH = /^\/v1(?:alpha1)?\//;

export function isGoogleApiPath(url: string): boolean {
  return GOOGLE_API_PATH.test(url);
}

/**
 * Fields whose value is a proto map (`map<string, string>`): an empty one is left out, but its
 * entries are user data, kept as they are (a label may have the value `""`) and never renamed.
 */
const MAP_FIELDS: ReadonlySet<string> = new Set([
  'labels',
  'attributes',
  'headers',
  'metadata',
  // AggregationResult.Frequency.values (map<string, int64>): an asset field's values, counted.
  'values',
]);

/**
 * Messages whose entries are also user data: `google.rpc.ErrorInfo.metadata` is a map, but an
 * Operation's `metadata` is a message (`google.protobuf.Any`): told apart by its `@type`.
 */
function isMapValue(key: string, value: Record<string, unknown>): boolean {
  return MAP_FIELDS.has(key) && !('@type' in value);
}

/** Enum zero values of the two APIs, by the field that holds them (left out on output). */
const ENUM_ZEROS: Readonly<Record<string, ReadonlySet<string>>> = {
  format: new Set(['IMPORT_JOB_FORMAT_UNSPECIFIED']),
  type: new Set(['SOURCE_TYPE_UNKNOWN', 'ENDPOINT_POLICY_TYPE_UNSPECIFIED']),
  state: new Set(['IMPORT_JOB_STATE_UNSPECIFIED', 'STATE_UNSPECIFIED']),
  severity: new Set(['SEVERITY_UNSPECIFIED']),
  family: new Set(['OS_FAMILY_UNKNOWN']),
  // VirtualMachineDetails.osFamily: an asset whose OS is not known (an RVTools VM without an OS column).
  osFamily: new Set(['OS_FAMILY_UNKNOWN']),
  powerState: new Set(['POWER_STATE_UNSPECIFIED']),
  assignment: new Set(['ADDRESS_ASSIGNMENT_UNSPECIFIED']),
  // Preference sets (VirtualMachinePreferences, DatabasePreferences and the messages under them).
  commitmentPlan: new Set(['COMMITMENT_PLAN_UNSPECIFIED']),
  sizingOptimizationStrategy: new Set(['SIZING_OPTIMIZATION_STRATEGY_UNSPECIFIED']),
  targetProduct: new Set(['COMPUTE_MIGRATION_TARGET_PRODUCT_UNSPECIFIED']),
  licenseType: new Set(['LICENSE_TYPE_UNSPECIFIED']),
  multithreading: new Set(['MULTITHREADING_UNSPECIFIED']),
  persistentDiskType: new Set(['PERSISTENT_DISK_TYPE_UNSPECIFIED']),
  protectedNodes: new Set(['PROTECTED_NODES_UNSPECIFIED']),
  storageOnlyNodes: new Set(['STORAGE_ONLY_NODES_UNSPECIFIED']),
  serviceType: new Set(['SERVICE_TYPE_UNSPECIFIED']),
  hostMaintenancePolicy: new Set(['HOST_MAINTENANCE_POLICY_UNSPECIFIED']),
  aggregationMethod: new Set(['AGGREGATION_METHOD_UNSPECIFIED']),
  backupMode: new Set(['BACKUP_MODE_UNSPECIFIED']),
  edition: new Set(['CLOUD_SQL_EDITION_UNSPECIFIED']),
  zoneAvailability: new Set(['CLOUD_SQL_ZONE_AVAILABILITY_UNSPECIFIED']),
  versionType: new Set(['VERSION_TYPE_UNSPECIFIED']),
  logType: new Set(['LOG_TYPE_UNSPECIFIED']),
  metadataLabelMatchCriteria: new Set(['METADATA_LABEL_MATCH_CRITERIA_UNSPECIFIED']),
};

/**
 * int64 fields of the two APIs' output messages, by name: ProtoJSON writes an int64 as a decimal
 * string, so its zero is `"0"`, a default like the number 0 (DiskEntry and VirtualMachineDiskDetails
 * byte counts; AggregationResult.Count.value and Histogram.Bucket.count).
 */
const INT64_FIELDS: ReadonlySet<string> = new Set(['totalCapacityBytes', 'totalFreeBytes', 'hddTotalCapacityBytes', 'hddTotalFreeBytes', 'count', 'value']);

function isDefault(key: string, value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'string') return ENUM_ZEROS[key]?.has(value) === true || (value === '0' && INT64_FIELDS.has(key));
  if (typeof value === 'object') {
    // A string kept in a file (streamed-json.ts): empty is the default, as for any string.
    if (value instanceof FileString) return value.size === 0;
    if (isMapValue(key, value as Record<string, unknown>)) return !hasOwnKey(value);
  }
  return false;
}

/** Whether `o` has an own enumerable key, as `Object.keys(o).length > 0` says, without making the list. */
function hasOwnKey(o: object): boolean {
  for (const key in o) if (Object.prototype.hasOwnProperty.call(o, key)) return true;
  return false;
}

/**
 * An answer a route wrote as ProtoJSON text itself (defaults already left out at every depth, as
 * `toProtoJson` leaves them out): the front end sends the text as it is (front-end.ts). A route
 * whose answer is large and made of stored JSON (batchUpdate's up to 1,000 whole assets, 385 KB)
 * writes it as text: building it as objects, walking them and stringifying them cost more than
 * the writes the route exists for.
 */
export class ProtoJsonText {
  /**
   * The text, or its UTF-8 bytes (sent as they are: see `protoJsonListText`); `release`, when
   * given, is called once the answer is sent (its bytes are then the kept buffer's, answer-bytes.ts).
   */
  constructor(
    readonly text: string | Buffer,
    readonly release?: () => void,
  ) {}

  /** The answer as a value, for what must rewrite it (another API version's edge). */
  value(): unknown {
    return JSON.parse(typeof this.text === 'string' ? this.text : this.text.toString('utf8')) as unknown;
  }
}

/** How many list items `protoJsonListText` stringifies at a time: texts of some 40 KB. */
const LIST_SLICE = 100;

/**
 * `{"<field>":[...items]}` (or `{}` for no items) as UTF-8 bytes: the same bytes as
 * `JSON.stringify({ [field]: items })`, for items already in ProtoJSON. Made a slice of items at a
 * time, each slice's text written into one buffer: a 1,000-asset answer as one string was 385 KB
 * that V8 keeps in pages of their own (large objects), fresh from the system for each answer and
 * made twice (the text, then its flat copy as it is sent), where the buffer's memory is reused
 * (answer-bytes.ts: the front end gives it back once the answer is sent).
 */
export function protoJsonListText(field: string, items: readonly unknown[]): ProtoJsonText {
  if (items.length === 0) return new ProtoJsonText(Buffer.from('{}'));
  const head = `{${JSON.stringify(field)}:`;
  const texts: string[] = [];
  // Each slice's text is `[...]`; written one after the other, each from the previous one's `]`,
  // whose place takes its `[` turned into a `,`: one list, and a `}` after the last `]`.
  let length = Buffer.byteLength(head) + 1;
  for (let i = 0; i < items.length; i += LIST_SLICE) {
    const text = JSON.stringify(items.slice(i, i + LIST_SLICE));
    texts.push(text);
    length += Buffer.byteLength(text) - (i > 0 ? 1 : 0);
  }
  const { bytes, release } = answerBytes(length);
  let at = bytes.write(head, 0);
  for (let k = 0; k < texts.length; k++) {
    if (k > 0) at--;
    const start = at;
    at += bytes.write(texts[k], at);
    if (k > 0) bytes[start] = 0x2c; // ','
  }
  bytes[at++] = 0x7d; // '}'
  if (at !== length) throw new Error(`protoJsonListText: wrote ${at} bytes of ${length}`);
  return new ProtoJsonText(bytes, release);
}

/**
 * Sets `message[key]` to `value` as ProtoJSON writes the field (the rules of `toProtoJson`: a map's
 * entries kept, a message's defaults left out at every depth), or leaves it unset when the field
 * holds its default. For a message built field by field, already in ProtoJSON.
 */
export function setProtoJsonField(message: Record<string, unknown>, key: string, value: unknown): void {
  if (isDefault(key, value)) return;
  message[key] = typeof value === 'object' && value !== null && !isMapValue(key, value as Record<string, unknown>) ? toProtoJson(value) : value;
}

/**
 * `value` without default-valued fields, at every depth. List elements are all kept (a repeated
 * field outputs every element); a message set to all defaults stays as `{}` (proto3 message
 * fields have presence); map entries are kept as they are.
 *
 * Copy on write: an object or list none of whose fields (at any depth) is dropped is returned as
 * it is, not copied, and a copy is made only from the first field that differs. Most answers
 * hold few defaults, and copying a 1,000-asset answer only to serialise it cost as much as the
 * serialisation. The input is never changed.
 */
export function toProtoJson(value: unknown): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = toProtoJson(value[i]);
      if (item !== value[i]) {
        out ??= value.slice();
        out[i] = item;
      }
    }
    return out ?? value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date || Buffer.isBuffer(value) || value instanceof ProtoJsonText || value instanceof FileString) return value;
  const source = value as Record<string, unknown>;
  const keys = Object.keys(source);
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const field = source[key];
    if (isDefault(key, field)) {
      out ??= prefixCopy(source, keys, i);
      continue;
    }
    const next = typeof field === 'object' && field !== null && !isMapValue(key, field as Record<string, unknown>) ? toProtoJson(field) : field;
    if (out) out[key] = next;
    else if (next !== field) {
      out = prefixCopy(source, keys, i);
      out[key] = next;
    }
  }
  return out ?? value;
}

/** A new object holding the first `count` fields (`keys`, in order) of `source`. */
function prefixCopy(source: Record<string, unknown>, keys: string[], count: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) out[keys[i]] = source[keys[i]];
  return out;
}

// ---------------------------------------------------------------------------------------- input

/** `display_name` -> `displayName`, as protoc derives JSON names; names without `_` are kept. */
export function jsonName(protoName: string): string {
  if (!protoName.includes('_') || !/^[a-z][a-z0-9_]*$/.test(protoName)) return protoName;
  return protoName.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** `framesData[0].virtualMachineDetails` -> `frames_data[0].virtual_machine_details`: the proto spelling Google's errors give a path in (jsonName's inverse). */
export function protoFieldPath(jsonPath: string): string {
  return jsonPath.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * A FieldMask path in JSON spelling (`import_job.display_name` -> `importJob.displayName`): Google
 * accepts a mask's paths in either spelling, as it accepts both names of a field.
 */
export function jsonFieldPath(path: string): string {
  // Most paths are JSON names already (the front end asks for every query parameter of every request).
  if (!path.includes('_')) return path;
  return path.split('.').map(jsonName).join('.');
}

/** An enum: its value names by number (proto numbering; gaps are numbers no value has). */
type EnumTable = Readonly<Record<number, string>>;

const IMPORT_JOB_FORMAT: EnumTable = {
  0: 'IMPORT_JOB_FORMAT_UNSPECIFIED',
  1: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
  2: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV',
  // 3 is CMDB: v1 dropped CMDB and reserves 3 (see docs/emulator.md, known differences).
  3: 'IMPORT_JOB_FORMAT_CMDB',
  4: 'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV',
  5: 'IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV',
  // v1's STRATOZONE_CSV, renamed.
  6: 'IMPORT_JOB_FORMAT_MANUAL_CSV',
  7: 'IMPORT_JOB_FORMAT_DATABASE_ZIP',
};
const SOURCE_TYPE: EnumTable = {
  0: 'SOURCE_TYPE_UNKNOWN',
  1: 'SOURCE_TYPE_UPLOAD',
  2: 'SOURCE_TYPE_GUEST_OS_SCAN',
  3: 'SOURCE_TYPE_INVENTORY_SCAN',
  4: 'SOURCE_TYPE_CUSTOM',
};
const ENDPOINT_POLICY_TYPE: EnumTable = { 0: 'ENDPOINT_POLICY_TYPE_UNSPECIFIED', 1: 'SIDECAR_PROXY', 2: 'GRPC_SERVER' };
const METADATA_LABEL_MATCH_CRITERIA: EnumTable = { 0: 'METADATA_LABEL_MATCH_CRITERIA_UNSPECIFIED', 1: 'MATCH_ANY', 2: 'MATCH_ALL' };
const LOG_TYPE: EnumTable = { 0: 'LOG_TYPE_UNSPECIFIED', 1: 'ADMIN_READ', 2: 'DATA_WRITE', 3: 'DATA_READ' };
const IMPORT_JOB_VIEW: EnumTable = { 0: 'IMPORT_JOB_VIEW_UNSPECIFIED', 1: 'IMPORT_JOB_VIEW_BASIC', 2: 'IMPORT_JOB_VIEW_FULL' };
const ASSET_VIEW: EnumTable = { 0: 'ASSET_VIEW_UNSPECIFIED', 1: 'ASSET_VIEW_BASIC', 2: 'ASSET_VIEW_FULL' };

/**
 * The enum fields of each request message, by field path (JSON names, `[]` for list elements),
 * and the message's name in Google's error texts. A request is matched to its message by its
 * URL: the collection the path names and the custom verb, if any.
 */
interface RequestMessage {
  /** The proto name of the message, as Google's parser names it in errors (`import_job`). */
  protoName: string;
  enums: Readonly<Record<string, EnumTable>>;
}

const REQUEST_MESSAGES: ReadonlyArray<{ path: RegExp; message: RequestMessage }> = [
  {
    path: /\/endpointPolicies\/[^/:]+:setIamPolicy$/,
    message: { protoName: 'set_iam_policy_request', enums: { 'policy.auditConfigs[].auditLogConfigs[].logType': LOG_TYPE } },
  },
  { path: /\/endpointPolicies\/[^/:]+:[A-Za-z]+$/, message: { protoName: 'request', enums: {} } },
  {
    path: /\/endpointPolicies(?:\/[^/:]+)?$/,
    message: {
      protoName: 'endpoint_policy',
      enums: { type: ENDPOINT_POLICY_TYPE, 'endpointMatcher.metadataLabelMatcher.metadataLabelMatchCriteria': METADATA_LABEL_MATCH_CRITERIA },
    },
  },
  { path: /\/importJobs\/[^/:]+:[A-Za-z]+$/, message: { protoName: 'request', enums: {} } },
  {
    path: /\/importJobs(?:\/[^/:]+)?$/,
    message: { protoName: 'import_job', enums: { 'inlinePayload.format': IMPORT_JOB_FORMAT, 'gcsPayload.format': IMPORT_JOB_FORMAT } },
  },
  { path: /\/importDataFiles(?:\/[^/:]+)?$/, message: { protoName: 'import_data_file', enums: { format: IMPORT_JOB_FORMAT } } },
  { path: /\/sources(?:\/[^/:]+)?$/, message: { protoName: 'source', enums: { type: SOURCE_TYPE } } },
];

/** Enum query parameters, by the collection the path ends with. */
const QUERY_ENUMS: ReadonlyArray<{ path: RegExp; enums: Readonly<Record<string, EnumTable>> }> = [
  { path: /\/importJobs(?:\/[^/:]+)?$/, enums: { view: IMPORT_JOB_VIEW } },
  { path: /\/assets(?:\/[^/:]+)?$/, enums: { view: ASSET_VIEW } },
];

function requestMessage(urlPath: string): RequestMessage | undefined {
  return REQUEST_MESSAGES.find((m) => m.path.test(urlPath))?.message;
}

function enumName(table: EnumTable, value: unknown, field: string, message: string): unknown {
  if (typeof value !== 'number') return value;
  const name = Number.isInteger(value) ? table[value] : undefined;
  if (name === undefined) {
    // Google keeps unknown numbers of an open proto3 enum; the emulator cannot act on them.
    throw invalidArgument(
      [{ field, description: `${value} is not a known value of this enum` }],
      `Invalid value at '${message}.${field}', ${value}: not a known enum number.`,
    );
  }
  return name;
}

/** Deeper than any request message of the two APIs (an IAM condition sits at depth 5). */
const MAX_MESSAGE_DEPTH = 16;

/**
 * The body with every field in its JSON name and every enum as its name. A field given in both
 * spellings is refused, as Google's parser refuses a field given twice. `text` is the JSON the
 * body was parsed from, when there is one.
 */
export function fromProtoJsonBody(body: unknown, urlPath: string, text?: string): unknown {
  const message = requestMessage(urlPath);
  // Nothing to rename and no enum to read (a batch of 1,000 assets, a policy): the body as parsed,
  // without a copy of every object in it. Its text, when given, may tell so without a walk.
  if (!hasEnums(message) && ((text !== undefined && !mayHoldProtoName(text)) || !holdsProtoName(body, 0))) return body;
  // A message with enums (setIamPolicy's logType) whose text names none of them and holds no
  // proto name: the walk would only copy the body. Every setIamPolicy without audit configs.
  if (message !== undefined && text !== undefined && !mayHoldProtoName(text) && !mayHoldEnumField(text, message)) return body;
  const walk = (value: unknown, path: string, fieldPath: string, depth: number): unknown => {
    // No request message of these APIs nests this deep: what lies below is left as sent, for the
    // route's validation to refuse by name (and a hostile 1,000,000-deep body costs no recursion).
    if (depth > MAX_MESSAGE_DEPTH) return value;
    if (Array.isArray(value)) return value.map((item, i) => walk(item, `${path}[]`, `${fieldPath}[${i}]`, depth + 1));
    if (value === null || typeof value !== 'object') {
      const table = message?.enums[path];
      return table ? enumName(table, value, fieldPath, message?.protoName ?? 'request') : value;
    }
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
      const name = jsonName(key);
      const childPath = path ? `${path}.${name}` : name;
      const childField = fieldPath ? `${fieldPath}.${name}` : name;
      if (Object.prototype.hasOwnProperty.call(out, name)) {
        throw invalidArgument(
          [{ field: childField, description: 'is given twice (as its proto name and its JSON name)' }],
          `Invalid JSON payload received. Duplicate field "${name}" (also given as "${key}").`,
        );
      }
      // Map entries are user data: their keys are kept as written.
      out[name] = MAP_FIELDS.has(name) && isPlainObject(field) ? field : walk(field, childPath, childField, depth + 1);
    }
    return out;
  };
  return isPlainObject(body) ? walk(body, '', '', 0) : body;
}

/**
 * Whether JSON text may hold a key in proto spelling: `jsonName` renames only a key holding `_`,
 * written as itself or escaped (`\u005f`). Text with neither (a batch of 1,000 asset names, masks
 * and labels, often) needs no walk of its values to know that nothing is renamed.
 */
function mayHoldProtoName(text: string): boolean {
  return text.includes('_') || text.includes('\\u005');
}

/**
 * Whether JSON text may hold one of the message's enum fields: its last name (`logType`) written
 * as itself, or any escape (`\u006cogType` spells it too). Its proto spelling holds `_`, which
 * `mayHoldProtoName` looks for.
 */
function mayHoldEnumField(text: string, message: RequestMessage): boolean {
  if (text.includes('\\u')) return true;
  for (const path of Object.keys(message.enums)) if (text.includes(`"${enumFieldName(path)}"`)) return true;
  return false;
}

/** The last field name of an enum's path: `policy.auditConfigs[].auditLogConfigs[].logType` -> `logType`. */
function enumFieldName(path: string): string {
  return path.slice(path.lastIndexOf('.') + 1);
}

function hasEnums(message: RequestMessage | undefined): boolean {
  return message !== undefined && Object.keys(message.enums).length > 0;
}

/**
 * Whether a key of `value` (outside map entries, down to the walk's depth) is a proto name that
 * `jsonName` would rename: the walk then has work to do.
 */
function holdsProtoName(value: unknown, depth: number): boolean {
  if (depth > MAX_MESSAGE_DEPTH || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsProtoName(item, depth + 1)) return true;
    return false;
  }
  for (const key in value) {
    if (jsonName(key) !== key) return true;
    const field = (value as Record<string, unknown>)[key];
    if (!(MAP_FIELDS.has(key) && isPlainObject(field)) && holdsProtoName(field, depth + 1)) return true;
  }
  return false;
}

/**
 * Query parameters in their JSON names (`options.requested_policy_version` ->
 * `options.requestedPolicyVersion`, each dotted segment) and enum parameters as names.
 */
export function fromProtoJsonQuery(query: Record<string, unknown>, urlPath: string): Record<string, unknown> {
  // A query with only JSON names and no enum parameter (most of them) is already as a route reads it.
  if (!needsQueryRewrite(query)) return query;
  const enums = QUERY_ENUMS.find((q) => q.path.test(urlPath))?.enums ?? {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    const name = jsonFieldPath(key);
    if (Object.prototype.hasOwnProperty.call(out, name)) {
      // Two spellings of one parameter: the same as a parameter given twice.
      out[name] = ([] as unknown[]).concat(out[name], value);
      continue;
    }
    const table = enums[name];
    out[name] = table && typeof value === 'string' && /^\d+$/.test(value) ? (table[Number(value)] ?? value) : value;
  }
  return out;
}

/** The names of every enum query parameter (`view`): only a query holding one needs its table. */
const QUERY_ENUM_NAMES: ReadonlySet<string> = new Set(QUERY_ENUMS.flatMap((q) => Object.keys(q.enums)));

/** Whether a query holds a proto name (`page_size`, which also makes two spellings possible) or an enum parameter. */
function needsQueryRewrite(query: Record<string, unknown>): boolean {
  for (const key in query) if (key.includes('_') || QUERY_ENUM_NAMES.has(key)) return true;
  return false;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
