/**
 * Translates a parsed list filter (AIP-160 subset, list-query.ts) and an ordering over asset
 * fields into SQL over the `assets` table (sqlite-assets.ts), comparing each field as its type:
 * numbers as numbers (`coreCount > 8` is true of 16), times as instants, text as text.
 *
 * Comparisons that can use an index are written so they can (`col = ?`, `col > ?`); a missing
 * field is never equal to, greater or smaller than a value, and `NOT` treats an unknown as false,
 * as the in-memory lists do.
 */
import { filterError, own, parseOrderText, type FilterNode } from '../query/list-query';
import { ASSET_FIELDS, type AssetFieldType, type AssetKey, type AssetOrder } from './asset-store';

export type SqlValue = string | number | null;

export interface SqlPart {
  sql: string;
  params: SqlValue[];
}

/** The column of each field of ASSET_FIELDS (`title` is the VM name, as the import writes it). */
export const ASSET_COLUMNS: Readonly<Record<string, string>> = {
  name: 'a.aid',
  title: 'a.vm_name',
  createTime: 'a.create_ms',
  updateTime: 'a.update_ms',
  'virtualMachineDetails.vmName': 'a.vm_name',
  'virtualMachineDetails.vmUuid': 'a.vm_uuid',
  'virtualMachineDetails.coreCount': 'a.core_count',
  'virtualMachineDetails.memoryMb': 'a.memory_mb',
  'virtualMachineDetails.osFamily': 'a.os_family',
  'virtualMachineDetails.powerState': 'a.power_state',
  'virtualMachineDetails.vmDisks.hddTotalCapacityBytes': 'a.disk_bytes',
};

/** The resource name of the asset `aid` of `parent` (the `name` column holds the id only). */
export function assetName(parent: string, aid: string): string {
  return `${parent}/assets/${aid}`;
}

/**
 * An instant held in milliseconds, as the wire writes the asset's times (RFC 3339, UTC). The last
 * two instants' texts are kept: the assets of a page or a batch mostly share their times (one
 * import, one update), an asset's two times are formatted one after the other (one slot would be
 * replaced at every call), and formatting a date is most of the cost of an asset's times on the wire.
 */
export function wireTime(ms: number): string {
  if (ms === recentTimes[0].ms) return recentTimes[0].text;
  if (ms !== recentTimes[1].ms) recentTimes[1] = { ms, text: new Date(ms).toISOString() };
  // The slot just used goes first: the pair (createTime, updateTime) keeps both.
  const used = recentTimes[1];
  recentTimes[1] = recentTimes[0];
  recentTimes[0] = used;
  return used.text;
}
const recentTimes = [
  { ms: NaN, text: '' },
  { ms: NaN, text: '' },
];

/**
 * The wire value of `field` for a value its column holds, as text: what a client reads in the
 * asset's own field (the whole resource name for `name`, RFC 3339 for the times, the decimal
 * number for the numbers, int64 included). Frequency keys are these.
 */
export function wireValue(field: string, parent: string, value: string | number): string {
  if (field === 'name') return assetName(parent, String(value));
  if (own(ASSET_FIELDS, field) === 'time') return wireTime(Number(value));
  return String(value);
}

const RANGE_OPS = new Set(['<', '<=', '>', '>=']);

/** The fields a filter may name, for an error's text: `fields` (a version's names of ASSET_FIELDS), then those every version shares. */
export function knownFilterFields(fields: readonly string[] = Object.keys(ASSET_FIELDS)): string {
  return [...fields, 'labels.KEY', 'labels:KEY', 'sources', 'assignedGroups'].join(', ');
}

/** A `*` pattern as a GLOB pattern: every other GLOB metacharacter is taken literally. */
function globPattern(pattern: string): string {
  return pattern.replace(/[?[\]]/g, (c) => `[${c}]`);
}

function part(sql: string, ...params: SqlValue[]): SqlPart {
  return { sql, params };
}

/** The value of a comparison on `field` of type `type`, as the column holds it. */
function typedValue(field: string, type: AssetFieldType, value: string): number | string {
  if (type === 'int') {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n)) throw filterError(`${field} is a number: '${value}' is not one`);
    return n;
  }
  if (type === 'time') {
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) throw filterError(`'${value}' is not a timestamp for ${field} (use RFC 3339, e.g. "2024-01-31T00:00:00Z")`);
    return ms;
  }
  return value;
}

export class AssetSqlCompiler {
  /** `parent` is the list's parent resource name, for comparisons on `name`. */
  constructor(private readonly parent: string) {}

  filter(node: FilterNode): SqlPart {
    switch (node.kind) {
      case 'and':
      case 'or': {
        const l = this.filter(node.left);
        const r = this.filter(node.right);
        return { sql: `(${l.sql} ${node.kind === 'and' ? 'AND' : 'OR'} ${r.sql})`, params: [...l.params, ...r.params] };
      }
      case 'not': {
        const inner = this.filter(node.inner);
        return { sql: `NOT coalesce(${inner.sql}, 0)`, params: inner.params };
      }
      case 'cmp':
        return this.comparison(node);
    }
  }

  private comparison(node: Extract<FilterNode, { kind: 'cmp' }>): SqlPart {
    const { field, op, value } = node;
    if (field === 'labels' || field.startsWith('labels.')) return this.label(field, op, value);
    if (field === 'sources') return this.source(op, value);
    if (field === 'assignedGroups') return this.group(op, value);
    const type = own(ASSET_FIELDS, field);
    if (!type) throw filterError(`unknown field '${field}' (known: ${knownFilterFields()})`);
    if (field === 'name') return this.name(op, value);
    return this.scalar(field, ASSET_COLUMNS[field], type, op, value);
  }

  private scalar(field: string, col: string, type: AssetFieldType, op: string, value: string): SqlPart {
    if (op === ':' && value === '*') return part(type === 'text' ? `(${col} IS NOT NULL AND ${col} != '')` : `${col} IS NOT NULL`);
    const wildcard = value.includes('*');
    if (wildcard && (op === '=' || op === ':' || op === '!=')) {
      if (type !== 'text') throw filterError(`${field} is a ${type === 'int' ? 'number' : 'timestamp'}: '*' patterns apply to text fields only`);
      const match = part(`${col} GLOB ?`, globPattern(value));
      return op === '!=' ? part(`NOT coalesce(${match.sql}, 0)`, ...match.params) : match;
    }
    if (op === '=' || op === ':') {
      if (type === 'text' && value === '') return part(`(${col} IS NULL OR ${col} = '')`);
      return part(`${col} = ?`, typedValue(field, type, value));
    }
    if (op === '!=') {
      if (type === 'text' && value === '') return part(`(${col} IS NOT NULL AND ${col} != '')`);
      return part(`(${col} IS NULL OR ${col} != ?)`, typedValue(field, type, value));
    }
    if (RANGE_OPS.has(op)) return part(`${col} ${op} ?`, typedValue(field, type, value));
    throw filterError(`operator '${op}' is not supported on ${field}`);
  }

  /**
   * `name` compares as the whole resource name; every asset of the list has the name
   * `{parent}/assets/{id}`, so a comparison becomes one on the id (indexed) or a constant.
   */
  private name(op: string, value: string): SqlPart {
    const prefix = `${this.parent}/assets/`;
    if (value.includes('*') && (op === '=' || op === ':' || op === '!=')) {
      const match = part(`(? || a.aid) GLOB ?`, prefix, globPattern(value));
      return op === '!=' ? part(`NOT coalesce(${match.sql}, 0)`, ...match.params) : match;
    }
    if (value.startsWith(prefix)) {
      const id = value.slice(prefix.length);
      if (op === ':') return part('a.aid = ?', id);
      if (op === '!=') return part('a.aid != ?', id);
      if (op === '=' || RANGE_OPS.has(op)) return part(`a.aid ${op} ?`, id);
    }
    // Outside the parent's names: every name is greater (value sorts before the prefix) or smaller.
    const namesGreater = value < prefix;
    const truth: Record<string, boolean> = {
      '=': false,
      ':': false,
      '!=': true,
      '<': !namesGreater,
      '<=': !namesGreater,
      '>': namesGreater,
      '>=': namesGreater,
    };
    if (!(op in truth)) throw filterError(`operator '${op}' is not supported on name`);
    return part(truth[op] ? '1' : '0');
  }

  /**
   * `labels:KEY`, `labels:*`, `labels.KEY = VALUE` (and the other operators): the matching asset
   * ids come from the labels index (key, value, asset), not from a probe per asset.
   */
  private label(field: string, op: string, value: string): SqlPart {
    if (field === 'labels') {
      if (op !== ':') throw filterError(`'labels' is a map: use labels:KEY or labels.KEY = VALUE`);
      if (value === '*') return part('a.id IN (SELECT l.asset FROM asset_labels l)');
      return part('a.id IN (SELECT l.asset FROM asset_labels l WHERE l.key = ?)', value);
    }
    const key = field.slice('labels.'.length);
    const having = (cond: string, ...params: SqlValue[]) => part(`a.id IN (SELECT l.asset FROM asset_labels l WHERE l.key = ?${cond})`, key, ...params);
    const notHaving = (p: SqlPart) => part(`NOT ${p.sql}`, ...p.params);
    if (op === ':' && value === '*') return having(" AND l.value != ''");
    const wildcard = value.includes('*');
    if (op === '=' || op === ':') {
      if (wildcard) return having(' AND l.value GLOB ?', globPattern(value));
      if (value === '') return notHaving(having(" AND l.value != ''"));
      return having(' AND l.value = ?', value);
    }
    if (op === '!=') {
      if (value === '') return having(" AND l.value != ''");
      return notHaving(wildcard ? having(' AND l.value GLOB ?', globPattern(value)) : having(' AND l.value = ?', value));
    }
    if (RANGE_OPS.has(op)) return having(` AND l.value ${op} ?`, value);
    throw filterError(`operator '${op}' is not supported on ${field}`);
  }

  /** `sources:SOURCE` / `sources = SOURCE` (the asset lists it), `sources:*`, and `!=`, from the (reporter, asset) index. */
  private source(op: string, value: string): SqlPart {
    if (value === '*' && op === ':') return part('a.id IN (SELECT s.asset FROM asset_sources s)');
    if (value.includes('*')) throw filterError(`sources takes a whole source name: '*' patterns are not supported there`);
    const has = part('a.id IN (SELECT s.asset FROM asset_sources s WHERE s.reporter = (SELECT r.id FROM asset_reporters r WHERE r.name = ?))', value);
    if (op === ':' || op === '=') return has;
    if (op === '!=') return part(`NOT ${has.sql}`, ...has.params);
    throw filterError(`sources is a list of source names: use sources:NAME, sources = NAME or sources != NAME`);
  }

  /**
   * `assignedGroups:GROUP` / `assignedGroups = GROUP` (the asset is a member of the group, named in
   * full), `assignedGroups:*` (of any group), and `!=`, from the membership index (grp, asset).
   */
  private group(op: string, value: string): SqlPart {
    if (value === '*' && op === ':') return part('EXISTS (SELECT 1 FROM asset_members m WHERE m.asset = a.id)');
    if (value.includes('*')) throw filterError(`assignedGroups takes a whole group name: '*' patterns are not supported there`);
    const has = part('a.id IN (SELECT m.asset FROM asset_members m WHERE m.grp = (SELECT g.id FROM asset_groups g WHERE g.name = ?))', value);
    if (op === ':' || op === '=') return has;
    if (op === '!=') return part(`NOT ${has.sql}`, ...has.params);
    throw filterError(`assignedGroups is a list of group names: use assignedGroups:NAME, assignedGroups = NAME or assignedGroups != NAME`);
  }
}

/** Checks an orderBy text against ASSET_FIELDS (list-query.ts `parseOrderText`, as every list). */
export function parseAssetOrder(text: string | undefined): AssetOrder[] {
  return parseOrderText(text, ASSET_FIELDS);
}

/** Columns that are never NULL (every asset has a name and its times). */
const NOT_NULL_FIELDS: ReadonlySet<string> = new Set(['name', 'createTime', 'updateTime']);

/**
 * Whether `key` (decoded from a page token, so anything JSON can hold) is a page key of `order`:
 * one value per order field, of the field's column type (text a string, a number or an instant a
 * safe integer, NULL where the column can be NULL), then the tie-break (the row id with an
 * ordering, the asset id without). Anything else would reach SQLite as a parameter it cannot bind.
 */
export function isAssetKey(order: AssetOrder[], key: unknown[]): key is AssetKey {
  if (key.length !== order.length + 1) return false;
  const fits = (v: unknown, type: AssetFieldType, nullable: boolean) =>
    (v === null && nullable) || (type === 'text' ? typeof v === 'string' : Number.isSafeInteger(v));
  for (let i = 0; i < order.length; i++) {
    const type = own(ASSET_FIELDS, order[i].field);
    if (!type || !fits(key[i], type, !NOT_NULL_FIELDS.has(order[i].field))) return false;
  }
  return fits(key[order.length], order.length > 0 ? 'int' : 'text', false);
}

/**
 * The ordering's SQL and the keyset condition "after `after`". Without an ordering, assets come by
 * name (the (parent, aid) index). With one, ties break on the row id (the order assets were first
 * imported), in the direction of the last key: each field's index is (parent, field) and ends with
 * the row id, so a one-field ordering walks one index either way, and the indexes stay small.
 * SQLite sorts NULL (a missing field) before every value.
 */
export function orderSql(order: AssetOrder[], after: AssetKey | undefined): { orderBy: string; after?: SqlPart } {
  const tieDesc = order.length > 0 ? order[order.length - 1].desc : false;
  const tie = order.length > 0 ? 'a.id' : 'a.aid';
  const keys = [...order.map((o) => ({ col: ASSET_COLUMNS[o.field], desc: o.desc })), { col: tie, desc: tieDesc }];
  const orderBy = keys.map((k) => `${k.col}${k.desc ? ' DESC' : ''}`).join(', ');
  if (!after) return { orderBy };
  if (keys.length === 1) return { orderBy, after: part(`a.aid ${tieDesc ? '<' : '>'} ?`, after[0]) };
  if (keys.length === 2) return { orderBy, after: oneKeyAfter(keys[0].col, tie, tieDesc, after) };
  const ors: string[] = [];
  const params: SqlValue[] = [];
  for (let i = 0; i < keys.length; i++) {
    const ands: string[] = [];
    const p: SqlValue[] = [];
    for (let j = 0; j < i; j++) {
      ands.push(`${keys[j].col} IS ?`);
      p.push(after[j]);
    }
    const { col, desc } = keys[i];
    const v = after[i];
    if (v === null) {
      if (desc) continue; // nothing sorts after NULL going down
      ands.push(`${col} IS NOT NULL`);
    } else if (desc) {
      ands.push(`(${col} < ? OR ${col} IS NULL)`);
      p.push(v);
    } else {
      ands.push(`${col} > ?`);
      p.push(v);
    }
    ors.push(`(${ands.join(' AND ')})`);
    params.push(...p);
  }
  return { orderBy, after: { sql: ors.length > 0 ? `(${ors.join(' OR ')})` : '0', params } };
}

/**
 * "After" for one order field and the tie-break, as a row-value comparison that SQLite serves
 * from the (parent, field) index; NULLs (sorting first) are handled beside it.
 */
function oneKeyAfter(col: string, tie: string, desc: boolean, after: AssetKey): SqlPart {
  const [v, id] = after;
  if (!desc) return v === null ? part(`((${col} IS NULL AND ${tie} > ?) OR ${col} IS NOT NULL)`, id) : part(`(${col}, ${tie}) > (?, ?)`, v, id);
  return v === null ? part(`(${col} IS NULL AND ${tie} < ?)`, id) : part(`((${col}, ${tie}) < (?, ?) OR ${col} IS NULL)`, v, id);
}
