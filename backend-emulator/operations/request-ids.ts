/**
 * `requestId` idempotency (AIP-155), used by the one write helper (writes.ts) of every service
 * whose methods take a requestId.
 *
 * Each accepted request id is stored (the service's request id collection, key
 * `{parent}/{requestId}`) with the time it was first seen, a hash of the request (method, target
 * and the canonical body) and the Operation it produced. A repeat with the same hash returns that
 * Operation and changes nothing; a repeat with another hash is INVALID_ARGUMENT naming requestId.
 * Records are kept for two hours (the API promises at least 60 minutes), then ignored and swept.
 *
 * `lookup` and `remember` must run in the same store transaction as the write they guard: the
 * check-and-insert is then atomic, so concurrent requests with one id create one resource.
 */
import { createHash } from 'crypto';
import type { Store } from '../store/store';
import { invalidArgument } from '../errors';

export const REQUEST_ID_RETENTION_MS = 2 * 60 * 60 * 1000;
/** Expired records are swept at most this often. */
const SWEEP_INTERVAL_MS = 5 * 60 * 1000;

export interface RequestIdRecord {
  requestId: string;
  hash: string;
  /** Epoch milliseconds of the first request. */
  createTime: number;
  /** The Operation the first request returned. */
  operation: string;
  /** That Operation as first returned, for when the Operation itself was deleted since. */
  snapshot: unknown;
}

/** Deterministic JSON: object keys sorted at every level. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The fingerprint of a request: what it does, to what, with which arguments. */
export function requestHash(method: string, target: string, args: unknown): string {
  return createHash('sha256')
    .update(`${method}\n${target}\n${canonicalJson(args)}`)
    .digest('hex');
}

export class RequestIds {
  private lastSweep = 0;

  constructor(
    private readonly store: Store,
    /** The store collection of this service's records. */
    private readonly collection: string,
    private readonly now: () => number = Date.now,
  ) {}

  private key(parent: string, requestId: string): string {
    return `${parent}/${requestId.toLowerCase()}`;
  }

  /**
   * The record of an earlier request with this id, or undefined. Throws INVALID_ARGUMENT when
   * the id was used for a different request. Call inside the guarding transaction.
   */
  lookup(parent: string, requestId: string, hash: string): RequestIdRecord | undefined {
    const key = this.key(parent, requestId);
    const record = this.store.get<RequestIdRecord>(this.collection, key);
    if (!record) return undefined;
    if (this.now() - record.createTime >= REQUEST_ID_RETENTION_MS) {
      this.store.delete(this.collection, key);
      return undefined;
    }
    if (record.hash !== hash) {
      throw invalidArgument(
        [{ field: 'requestId', description: `was already used for a different request (operation ${record.operation}); use a new UUID for a new request` }],
        `requestId ${requestId} was already used within the last ${REQUEST_ID_RETENTION_MS / 3_600_000} hours for a different request; a retry must repeat the original request exactly, a new request needs a new requestId.`,
      );
    }
    return record;
  }

  /**
   * Stores the record of a request that just succeeded. Call inside the guarding transaction.
   * `snapshot` is what a repeat answers when `operation` is gone: the Operation itself, or, for a
   * method that answers the resource (writes.ts `guardedResult`), that answer.
   */
  remember(parent: string, requestId: string, hash: string, operation: { name: string }, snapshot: unknown = operation): void {
    this.sweep();
    const record: RequestIdRecord = { requestId, hash, createTime: this.now(), operation: operation.name, snapshot };
    this.store.put(this.collection, this.key(parent, requestId), record);
  }

  /** Drops expired records (at most every few minutes). */
  sweep(force = false): number {
    const now = this.now();
    if (!force && now - this.lastSweep < SWEEP_INTERVAL_MS) return 0;
    this.lastSweep = now;
    let removed = 0;
    for (const { key, value } of this.store.list<RequestIdRecord>(this.collection)) {
      if (now - value.createTime >= REQUEST_ID_RETENTION_MS) {
        this.store.delete(this.collection, key);
        removed++;
      }
    }
    return removed;
  }
}
