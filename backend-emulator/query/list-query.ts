/**
 * `filter`, `orderBy`, `pageSize` and `pageToken` of the List methods (AIP-160, AIP-132, AIP-158).
 *
 * Filter: a subset of AIP-160 that covers what clients of these lists write:
 *   comparisons `field OP value` with OP one of `=`, `!=`, `<`, `<=`, `>`, `>=`, `:` (has);
 *   `AND`, `OR`, `NOT` / `-`, parentheses, implicit AND between terms;
 *   values as "double" or 'single' quoted strings or bare words; `*` is a wildcard in `=` and `:`
 *   on strings; `labels.KEY = v`, `labels:KEY`; `field:*` (the field is set).
 *   Enum fields accept the short value (`state = READY` means `IMPORT_JOB_STATE_READY`).
 *   Time fields (`...Time`) compare as instants.
 * OrderBy: `field [asc|desc], ...`; ties break on `name`.
 * Paging: keyset tokens (the last item's sort key), bound to the filter and orderBy they came
 * from, so an insert between two pages neither repeats nor skips an item. The one page-size rule
 * and the one token scheme of every list, the Google ones and the console's alike (which differ
 * only in their page limits and scopes).
 */
import { createHash } from 'crypto';
import { invalidArgument } from '../errors';
import { integerText } from '../integer-text';
import { wildcardMatch } from './wildcard';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

export type Scalar = string | number | boolean | undefined;

export interface ListFields<T> {
  /** Scalar fields usable in filter and orderBy. */
  scalars: Record<string, (item: T) => Scalar>;
  /** Map fields (`labels`) usable as `labels.key` and `labels:key`. */
  maps?: Record<string, (item: T) => Record<string, string> | undefined>;
  /** Enum fields: the prefix a short value gets (`state` -> `IMPORT_JOB_STATE_`). */
  enumPrefixes?: Record<string, string>;
  /** The name of each item (the tie-breaker and page key). */
  name: (item: T) => string;
}

// ---------------------------------------------------------------- filter

export type FilterNode = Node;

type Node =
  { kind: 'and' | 'or'; left: Node; right: Node } | { kind: 'not'; inner: Node } | { kind: 'cmp'; field: string; op: string; value: string; wildcard: boolean };

interface Token {
  t: 'word' | 'str' | 'op' | 'lp' | 'rp';
  v: string;
  pos: number;
}

/**
 * The most comparisons and the deepest nesting (parentheses, `NOT`, `-`) a filter may have. The
 * parser, the filter's compiled form and the assets' SQL each go one call deeper per level, and a
 * chain of comparisons is one level per comparison: a filter of 5,000 `OR`s or 5,000 parentheses
 * (a query string holds 16 KiB, an aggregateValues body 1 MiB) ran out of stack, or past SQLite's
 * expression depth, and was answered 500 INTERNAL. Past these it is 400 INVALID_ARGUMENT, as a
 * filter Google cannot take; both are far beyond what a client writes.
 */
export const MAX_FILTER_COMPARISONS = 500;
export const MAX_FILTER_NESTING = 50;

export function filterError(description: string) {
  return invalidArgument([{ field: 'filter', description }], `Invalid filter: ${description}`);
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')') {
      tokens.push({ t: c === '(' ? 'lp' : 'rp', v: c, pos: i });
      i++;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      let out = '';
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        out += text[j];
        j++;
      }
      if (j >= text.length) throw filterError(`unterminated string starting at position ${i + 1}`);
      tokens.push({ t: 'str', v: out, pos: i });
      i = j + 1;
    } else if (/[<>!=:]/.test(c)) {
      const two = text.slice(i, i + 2);
      const op = ['<=', '>=', '!='].includes(two) ? two : c;
      if (op === '!') throw filterError(`unexpected '!' at position ${i + 1} (use != or NOT)`);
      tokens.push({ t: 'op', v: op, pos: i });
      i += op.length;
    } else {
      const m = /^[^\s()<>!=:"']+/.exec(text.slice(i));
      if (!m) throw filterError(`unexpected character '${c}' at position ${i + 1}`);
      tokens.push({ t: 'word', v: m[0], pos: i });
      i += m[0].length;
    }
  }
  return tokens;
}

export function parseFilter(text: string): Node | undefined {
  const tokens = tokenize(text);
  if (tokens.length === 0) return undefined;
  let k = 0;
  let comparisons = 0;
  let nesting = 0;
  const peek = () => tokens[k];
  /** Parses what `parse` reads one level deeper (a parenthesis, a negation), refusing past the limit. */
  const nested = (at: Token, parse: () => Node): Node => {
    if (++nesting > MAX_FILTER_NESTING) {
      throw filterError(`nests more than ${MAX_FILTER_NESTING} levels of parentheses and negations (at position ${at.pos + 1})`);
    }
    const node = parse();
    nesting--;
    return node;
  };
  const isKeyword = (tok: Token | undefined, word: string) => tok?.t === 'word' && tok.v === word;

  const parseOr = (): Node => {
    let left = parseAnd();
    while (isKeyword(peek(), 'OR')) {
      k++;
      left = { kind: 'or', left, right: parseAnd() };
    }
    return left;
  };
  const parseAnd = (): Node => {
    let left = parseUnary();
    for (;;) {
      const tok = peek();
      if (isKeyword(tok, 'AND')) {
        k++;
        left = { kind: 'and', left, right: parseUnary() };
      } else if (tok && tok.t !== 'rp' && !isKeyword(tok, 'OR')) {
        left = { kind: 'and', left, right: parseUnary() }; // implicit AND
      } else {
        return left;
      }
    }
  };
  const parseUnary = (): Node => {
    const tok = peek();
    if (isKeyword(tok, 'NOT')) {
      k++;
      return { kind: 'not', inner: nested(tok as Token, parseUnary) };
    }
    if (tok?.t === 'word' && tok.v.startsWith('-')) {
      // `-field = x` (and a lone `-` before a parenthesis) negate what follows.
      if (tok.v === '-') k++;
      else tokens[k] = { ...tok, v: tok.v.slice(1), pos: tok.pos + 1 };
      return { kind: 'not', inner: nested(tok, parseUnary) };
    }
    if (tok?.t === 'lp') {
      k++;
      const inner = nested(tok, parseOr);
      if (peek()?.t !== 'rp') throw filterError(`missing ')' for the '(' at position ${tok.pos + 1}`);
      k++;
      return inner;
    }
    return parseComparison();
  };
  const parseComparison = (): Node => {
    const fieldTok = peek();
    if (!fieldTok) throw filterError('the filter ends where a comparison was expected');
    if (fieldTok.t !== 'word') throw filterError(`expected a field name at position ${fieldTok.pos + 1}`);
    if (++comparisons > MAX_FILTER_COMPARISONS) {
      throw filterError(`has more than ${MAX_FILTER_COMPARISONS} comparisons (at position ${fieldTok.pos + 1})`);
    }
    k++;
    let field = fieldTok.v;
    const opTok = peek();
    if (opTok?.t !== 'op') throw filterError(`expected an operator (=, !=, <, <=, >, >=, :) after '${field}'`);
    k++;
    const valueTok = peek();
    if (!valueTok || (valueTok.t !== 'word' && valueTok.t !== 'str')) {
      throw filterError(`expected a value after '${field} ${opTok.v}'`);
    }
    k++;
    field = field.trim();
    return { kind: 'cmp', field, op: opTok.v, value: valueTok.v, wildcard: valueTok.t === 'word' || valueTok.v.includes('*') };
  };

  const node = parseOr();
  if (k < tokens.length) throw filterError(`unexpected '${tokens[k].v}' at position ${tokens[k].pos + 1}`);
  return node;
}

function compareScalars(a: Scalar, b: Scalar, asTime: boolean): number {
  if (a === undefined && b === undefined) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  if (asTime) {
    const ta = Date.parse(String(a));
    const tb = Date.parse(String(b));
    if (!Number.isNaN(ta) && !Number.isNaN(tb)) return ta - tb;
  }
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

const isTimeField = (field: string) => /Time$/.test(field);

function compileFilter<T>(node: Node, spec: ListFields<T>): (item: T) => boolean {
  switch (node.kind) {
    case 'and': {
      const l = compileFilter(node.left, spec);
      const r = compileFilter(node.right, spec);
      return (x) => l(x) && r(x);
    }
    case 'or': {
      const l = compileFilter(node.left, spec);
      const r = compileFilter(node.right, spec);
      return (x) => l(x) || r(x);
    }
    case 'not': {
      const inner = compileFilter(node.inner, spec);
      return (x) => !inner(x);
    }
    case 'cmp':
      return compileComparison(node, spec);
  }
}

/**
 * `record[key]` only when it is the record's own entry: a field named `__proto__`, `constructor`
 * or `toString` in a filter or orderBy is an unknown field, never something inherited.
 */
export function own<V>(record: Record<string, V> | undefined, key: string): V | undefined {
  return record !== undefined && Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

function compileComparison<T>(node: Extract<Node, { kind: 'cmp' }>, spec: ListFields<T>): (item: T) => boolean {
  const { field, op } = node;
  let value = node.value;
  const dot = field.indexOf('.');
  const mapName = dot > 0 ? field.slice(0, dot) : field;
  const mapGetter = own(spec.maps, mapName);
  if (mapGetter) {
    if (dot < 0) {
      if (op !== ':') throw filterError(`'${field}' is a map: use ${field}:KEY or ${field}.KEY = VALUE`);
      return (x) => (value === '*' ? Object.keys(mapGetter(x) ?? {}).length > 0 : Object.prototype.hasOwnProperty.call(mapGetter(x) ?? {}, value));
    }
    const key = field.slice(dot + 1);
    return comparator(
      (x) => {
        const m = mapGetter(x) ?? {};
        return Object.prototype.hasOwnProperty.call(m, key) ? m[key] : undefined;
      },
      op,
      value,
      node.wildcard,
      false,
      field,
    );
  }
  const getter = own(spec.scalars, field);
  if (!getter) {
    const known = [...Object.keys(spec.scalars), ...Object.keys(spec.maps ?? {}).map((m) => `${m}.KEY`)].join(', ');
    throw filterError(`unknown field '${field}' (known: ${known})`);
  }
  const prefix = own(spec.enumPrefixes, field);
  if (prefix && value !== '*' && !value.startsWith(prefix)) value = prefix + value;
  return comparator(getter, op, value, node.wildcard, isTimeField(field), field);
}

function comparator<T>(get: (item: T) => Scalar, op: string, value: string, wildcard: boolean, asTime: boolean, field: string): (item: T) => boolean {
  if (asTime && value !== '*' && Number.isNaN(Date.parse(value))) {
    throw filterError(`'${value}' is not a timestamp for ${field} (use RFC 3339, e.g. "2024-01-31T00:00:00Z")`);
  }
  const asText = (v: Scalar) => (v === undefined ? undefined : String(v));
  switch (op) {
    case ':':
      return (x) => {
        const v = asText(get(x));
        if (value === '*') return v !== undefined && v !== '';
        return v !== undefined && wildcardMatch(value, v);
      };
    case '=':
      return (x) => {
        const v = asText(get(x));
        if (wildcard && value.includes('*') && !asTime) return v !== undefined && wildcardMatch(value, v);
        if (asTime) return v !== undefined && compareScalars(v, value, true) === 0;
        return (v ?? '') === value;
      };
    case '!=':
      return (x) => {
        const v = asText(get(x));
        if (wildcard && value.includes('*') && !asTime) return !(v !== undefined && wildcardMatch(value, v));
        if (asTime) return !(v !== undefined && compareScalars(v, value, true) === 0);
        return (v ?? '') !== value;
      };
    default: {
      const test: Record<string, (c: number) => boolean> = {
        '<': (c) => c < 0,
        '<=': (c) => c <= 0,
        '>': (c) => c > 0,
        '>=': (c) => c >= 0,
      };
      const t = test[op];
      return (x) => {
        const v = get(x);
        if (v === undefined) return false;
        return t(compareScalars(v, value, asTime));
      };
    }
  }
}

// ---------------------------------------------------------------- orderBy

export interface OrderKey {
  field: string;
  desc: boolean;
}

export function orderError(description: string) {
  return invalidArgument([{ field: 'orderBy', description }], `Invalid orderBy: ${description}`);
}

/**
 * An ordering without the fields named again: items tied on a field's first entry are tied on any
 * later one, so a later entry never changes the order. Left in, each costs every comparison of a
 * sort (and the assets' SQL a column and its page condition a term per earlier key): `orderBy` of
 * `name` 2,100 times was SQLite's "too many terms in ORDER BY", answered 500 INTERNAL.
 */
function firstOrderOfEach(keys: OrderKey[]): OrderKey[] {
  const seen = new Set<string>();
  return keys.filter((k) => !seen.has(k.field) && seen.add(k.field));
}

/**
 * An `orderBy` text (AIP-132: `FIELD`, `FIELD asc` or `FIELD desc`, comma-separated) checked
 * against the list's orderable fields (the keys of `fields`), a field named again left out. Every
 * list reads it so, the assets' SQL lists included.
 */
export function parseOrderText(text: string | undefined, fields: Readonly<Record<string, unknown>>): OrderKey[] {
  if (!text || !text.trim()) return [];
  return firstOrderOfEach(
    text.split(',').map((part) => {
      const words = part.trim().split(/\s+/);
      if (words.length === 0 || !words[0]) throw orderError('has an empty entry');
      if (words.length > 2) throw orderError(`'${part.trim()}' must be FIELD, FIELD asc or FIELD desc`);
      const [field, dir] = words;
      if (!own(fields, field)) throw orderError(`unknown field '${field}' (known: ${Object.keys(fields).join(', ')})`);
      if (dir !== undefined && !/^(asc|desc)$/i.test(dir)) throw orderError(`'${dir}' must be asc or desc`);
      return { field, desc: dir !== undefined && dir.toLowerCase() === 'desc' };
    }),
  );
}

// ---------------------------------------------------------------- paging

export interface ListRequest {
  filter?: string;
  orderBy?: string;
  pageSize?: string | number;
  pageToken?: string;
}

export interface ListPage<T> {
  items: T[];
  nextPageToken?: string;
}

function pageError(field: string, description: string) {
  return invalidArgument([{ field, description }]);
}

/** A list's page sizes: the one an absent or 0 `pageSize` gets, and the largest one served. */
export interface PageLimits {
  defaultSize: number;
  maxSize: number;
}

/** The page sizes of Google's lists (AIP-158). */
export const GOOGLE_PAGE_LIMITS: PageLimits = { defaultSize: DEFAULT_PAGE_SIZE, maxSize: MAX_PAGE_SIZE };

/** The largest int32, `pageSize`'s type in every request message. */
const INT32_MAX = 2 ** 31 - 1;

/**
 * `pageSize`: absent or 0 is the default; larger than the largest is served as the largest
 * (AIP-158: a server may cap it); negative, not an integer or past an int32 is INVALID_ARGUMENT.
 * A query parameter is read as Google's front end reads an int32, in decimal digits: `Number`
 * alone took `1e3`, `0x10` and `5.0` too.
 */
export function parsePageSize(value: string | number | undefined, limits: PageLimits = GOOGLE_PAGE_LIMITS): number {
  if (value === undefined || value === '') return limits.defaultSize;
  const n = typeof value === 'number' ? value : (integerText(value) ?? NaN);
  if (!Number.isInteger(n) || n > INT32_MAX) throw pageError('pageSize', 'must be an integer');
  if (n < 0) throw pageError('pageSize', 'must not be negative');
  if (n === 0) return limits.defaultSize;
  return Math.min(n, limits.maxSize);
}

export interface TokenBody {
  q: string;
  k: Scalar[];
}

/**
 * A page token this list issued, for this query (`hash`), with a key of the expected shape;
 * INVALID_ARGUMENT naming pageToken otherwise.
 */
export function readPageToken(token: string, hash: string, keyFits: (k: Scalar[]) => boolean): TokenBody {
  let body: TokenBody | undefined;
  try {
    body = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as TokenBody;
  } catch {
    body = undefined;
  }
  if (!body || typeof body !== 'object' || !Array.isArray(body.k) || !keyFits(body.k)) throw pageError('pageToken', 'is not a page token this list issued');
  if (body.q !== hash) throw pageError('pageToken', 'was issued for another filter, orderBy or parent: repeat the first request without it');
  return body;
}

export function queryHash(filter: string, orderBy: string, scope: string): string {
  return createHash('sha256')
    .update(JSON.stringify([filter, orderBy, scope]))
    .digest('base64url')
    .slice(0, 16);
}

/** The token of the page that follows the item whose sort key is `key`, in the query `hash`. */
export function writePageToken(hash: string, key: ReadonlyArray<Scalar | null>): string {
  // JSON writes an undefined key part (a field the item lacks) as null; readers map it back.
  return Buffer.from(JSON.stringify({ q: hash, k: key })).toString('base64url');
}

/**
 * A page of a list read in key order, with neither filter nor orderBy (the lists that read
 * straight from the store's key order): its size, the key it starts strictly after, and the query
 * hash its tokens are bound to.
 */
export interface KeysetPageRequest {
  pageSize: number;
  after?: string;
  hash: string;
}

/**
 * Reads `pageSize` and `pageToken` of a key-ordered list; `scope` names the list (its parent, or
 * the console's list), so a token of another list is refused.
 */
export function keysetPageRequest(
  request: Pick<ListRequest, 'pageSize' | 'pageToken'>,
  scope: string,
  limits: PageLimits = GOOGLE_PAGE_LIMITS,
): KeysetPageRequest {
  const pageSize = parsePageSize(request.pageSize, limits);
  const hash = queryHash('', '', scope);
  if (!request.pageToken) return { pageSize, hash };
  const after = readPageToken(request.pageToken, hash, (k) => k.length === 1 && typeof k[0] === 'string').k[0] as string;
  return { pageSize, after, hash };
}

/**
 * One page of a key-ordered list: `read(after, limit)` returns up to `limit` items in key order
 * after `after` (one more than the page is asked for, to know whether another page follows);
 * `keyOf` gives an item's key, which the next page's token holds.
 */
export function keysetPage<T>(page: KeysetPageRequest, read: (after: string | undefined, limit: number) => T[], keyOf: (item: T) => string): ListPage<T> {
  const found = read(page.after, page.pageSize + 1);
  if (found.length <= page.pageSize) return { items: found };
  const items = found.slice(0, page.pageSize);
  return { items, nextPageToken: writePageToken(page.hash, [keyOf(items[items.length - 1])]) };
}

/**
 * One page of `items` (every item of the collection under the parent) after filter and order.
 * `scope` binds the token to the parent it was issued for.
 */
export function listPage<T>(all: T[], request: ListRequest, spec: ListFields<T>, scope: string): ListPage<T> {
  const pageSize = parsePageSize(request.pageSize);
  const filterText = (request.filter ?? '').trim();
  const orderText = (request.orderBy ?? '').trim();
  const predicate = filterText ? compileFilter(parseFilter(filterText) as Node, spec) : () => true;
  const order = parseOrderText(orderText, spec.scalars);
  const hash = queryHash(filterText, orderText.replace(/\s+/g, ' '), scope);

  const sortKey = (item: T): Scalar[] => [...order.map((o) => spec.scalars[o.field](item)), spec.name(item)];
  const compareKeys = (a: Scalar[], b: Scalar[]): number => {
    for (let i = 0; i < order.length; i++) {
      const c = compareScalars(a[i], b[i], isTimeField(order[i].field));
      if (c !== 0) return order[i].desc ? -c : c;
    }
    return compareScalars(a[order.length], b[order.length], false);
  };

  let after: Scalar[] | undefined;
  if (request.pageToken) {
    const body = readPageToken(request.pageToken, hash, (k) => k.length === order.length + 1);
    after = body.k.map((v) => (v === null ? undefined : v));
  }

  const keyed = all.filter(predicate).map((item) => ({ item, key: sortKey(item) }));
  keyed.sort((a, b) => compareKeys(a.key, b.key));
  const rest = after ? keyed.filter((e) => compareKeys(e.key, after as Scalar[]) > 0) : keyed;
  const page = rest.slice(0, pageSize);
  const out: ListPage<T> = { items: page.map((e) => e.item) };
  if (rest.length > pageSize) out.nextPageToken = writePageToken(hash, page[page.length - 1].key);
  return out;
}

/**
 * The most items a filtered page without orderBy reads from the store: past them the page ends,
 * short or empty, with a nextPageToken that resumes the scan (AIP-158 lets a page hold fewer
 * items than asked, none included). About 80 ms of the request thread for operations (load 12).
 */
export const FILTER_SCAN_ITEMS = 10_000;

/** The items read from the store at a time by a filtered scan. */
const SCAN_CHUNK = 500;

/** What a list page reads of the store: a collection's entries in key order, from a prefix, after a key. */
export interface KeyOrderedCollections {
  list<V>(collection: string, options?: { prefix?: string; after?: string; limit?: number }): Array<{ key: string; value: V }>;
}

/**
 * `listPage` over a store collection whose keys are the item names. Without filter and orderBy
 * the page is read straight from the store's key order (no full scan: assets can be millions);
 * with a filter alone, it is read in key order too, filtered as it is read (filteredKeysetPage);
 * with an orderBy, every item under the prefix is read, filtered and sorted.
 */
export function listStorePage<T>(
  store: KeyOrderedCollections,
  collection: string,
  prefix: string,
  request: ListRequest,
  spec: ListFields<T>,
  scope: string,
): ListPage<T> {
  const filterText = (request.filter ?? '').trim();
  const orderText = (request.orderBy ?? '').trim();
  if (filterText && !orderText) return filteredKeysetPage(store, collection, prefix, request, spec, scope);
  if (orderText) {
    return listPage(
      store.list<T>(collection, { prefix }).map((e) => e.value),
      request,
      spec,
      scope,
    );
  }
  return keysetPage(keysetPageRequest(request, scope), (after, limit) => store.list<T>(collection, { prefix, after, limit }).map((e) => e.value), spec.name);
}

/**
 * A filtered page in the store's key order (the items' names), read a chunk at a time and kept
 * only when they match: memory for a page, not for the collection, and each page resumes where
 * the last ended. Operations are never deleted, and a filtered `operations.list` read, parsed and
 * held every operation of the parent at each page: 100,000 operations (a few minutes of writes)
 * were 0.45 CPU-s a page (eight left the process at 1 GB of RSS), and a walk through them in pages of 100 read
 * them a thousand times. A page reads at most FILTER_SCAN_ITEMS; it then ends with a token after
 * the last item read, matched or not. Its tokens are those listPage issues for a filter without
 * orderBy (the last item's name), so a page token stays valid across the two.
 */
function filteredKeysetPage<T>(
  store: KeyOrderedCollections,
  collection: string,
  prefix: string,
  request: ListRequest,
  spec: ListFields<T>,
  scope: string,
): ListPage<T> {
  const pageSize = parsePageSize(request.pageSize);
  const filterText = (request.filter ?? '').trim();
  const matches = compileFilter(parseFilter(filterText) as Node, spec);
  const hash = queryHash(filterText, '', scope);
  let after = request.pageToken ? (readPageToken(request.pageToken, hash, (k) => k.length === 1 && typeof k[0] === 'string').k[0] as string) : undefined;
  const items: T[] = [];
  let read = 0;
  for (;;) {
    const chunk = store.list<T>(collection, { prefix, after, limit: SCAN_CHUNK });
    for (const { key, value } of chunk) {
      if (matches(value)) {
        // One match past a full page: another page follows, after the page's last item.
        if (items.length === pageSize) return { items, nextPageToken: writePageToken(hash, [spec.name(items[items.length - 1])]) };
        items.push(value);
      }
      after = key;
      if (++read >= FILTER_SCAN_ITEMS) return { items, nextPageToken: writePageToken(hash, [key]) };
    }
    if (chunk.length < SCAN_CHUNK) return { items };
  }
}
