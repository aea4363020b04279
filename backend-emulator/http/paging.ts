/**
 * List paging: `pageSize` / `pageToken` in, `nextPageToken` out.
 *
 * A page token is opaque base64url of `{k: last key returned, s: scope}`; the scope is the list's
 * parent (and filter), so a token cannot be replayed against another list. The next page starts
 * strictly after the last key, so entries created or deleted between pages never shift a page.
 */
import type { FastifyRequest } from 'fastify';
import { invalidArgument } from '../errors';
import type { Store, StoredEntry } from '../store/store';
import { intQueryParam, queryParam } from './body';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 1000;

export interface PageRequest {
  pageSize: number;
  /** Start strictly after this key. */
  after?: string;
  scope: string;
}

export interface Page<T> {
  items: T[];
  nextPageToken?: string;
}

export function encodePageToken(lastKey: string, scope: string): string {
  return Buffer.from(JSON.stringify({ k: lastKey, s: scope }), 'utf8').toString('base64url');
}

export function decodePageToken(token: string, scope: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const p = parsed as { k?: unknown; s?: unknown } | undefined;
  if (!p || typeof p.k !== 'string' || typeof p.s !== 'string') {
    throw invalidArgument([{ field: 'pageToken', description: 'is not a page token this list returned' }]);
  }
  if (p.s !== scope) {
    throw invalidArgument([{ field: 'pageToken', description: 'belongs to another list (different parent or filter)' }]);
  }
  return p.k;
}

/**
 * Reads `pageSize` (default 50; 0 means the default; larger than 1000 is served as 1000;
 * negative is INVALID_ARGUMENT) and `pageToken` from the query.
 */
export function pageRequest(request: FastifyRequest, scope: string, defaultSize = DEFAULT_PAGE_SIZE, maxSize = MAX_PAGE_SIZE): PageRequest {
  const size = intQueryParam(request, 'pageSize', 0, Number.MAX_SAFE_INTEGER);
  const token = queryParam(request, 'pageToken');
  return {
    pageSize: !size ? defaultSize : Math.min(size, maxSize),
    after: token ? decodePageToken(token, scope) : undefined,
    scope,
  };
}

/** Lists one page of a collection under `prefix`. */
export function listPage<T>(store: Store, collection: string, prefix: string, page: PageRequest): Page<StoredEntry<T>> {
  const entries = store.list<T>(collection, { prefix, after: page.after, limit: page.pageSize + 1 });
  if (entries.length <= page.pageSize) return { items: entries };
  const items = entries.slice(0, page.pageSize);
  return { items, nextPageToken: encodePageToken(items[items.length - 1].key, page.scope) };
}
