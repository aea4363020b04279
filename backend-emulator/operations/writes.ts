/**
 * The one write helper: every create, patch, delete and verb of every domain goes through it, so
 * that each write is one store transaction that
 *   1. replays the Operation of an earlier request with the same requestId (and refuses, with
 *      INVALID_ARGUMENT naming requestId, another request that reuses the id),
 *   2. runs the domain's change,
 *   3. records the Operation (done, with the change's result as response; or the one the change
 *      started for background work),
 *   4. remembers the requestId with that Operation.
 * Services without requestIds (networkservices) simply pass none.
 */
import type { Store } from '../store/store';
import type { RequestIds } from './request-ids';
import type { Operation, OperationStart } from './operations';

export interface WriteRequest extends OperationStart {
  /** The caller's requestId, already checked against the service's rule; none for no idempotency. */
  requestId?: string;
  /** The request's fingerprint (request-ids.ts `requestHash`); required with a requestId. */
  requestHash?: string;
}

/** What the write helper needs from its service's operations. */
export interface WriteTarget {
  readonly store: Store;
  readonly collection: string;
  readonly requestIds: RequestIds | undefined;
  completed(start: OperationStart & { response?: Record<string, unknown> }): Operation;
}

/**
 * Runs `record` (which writes the resource and returns its Operation) guarded by the request's
 * requestId, all in one transaction.
 */
export function guardedWrite(ops: WriteTarget, request: WriteRequest, record: () => Operation): Operation {
  const { store, requestIds } = ops;
  const { parent, requestId, requestHash } = request;
  return store.transaction(() => {
    if (requestId && requestIds) {
      if (requestHash === undefined) throw new Error(`write ${request.verb} ${request.target}: a requestId needs a requestHash`);
      const prior = requestIds.lookup(parent, requestId, requestHash);
      // The same Operation as first returned; its snapshot when the Operation was deleted since.
      if (prior) return store.get<Operation>(ops.collection, prior.operation) ?? (prior.snapshot as Operation);
    }
    const op = record();
    if (requestId && requestIds && requestHash !== undefined) requestIds.remember(parent, requestId, requestHash, op);
    return op;
  });
}

/** A write whose change is immediate: the Operation is done, with the change's result as response. */
export function write(ops: WriteTarget, request: WriteRequest, change: () => object | void): Operation {
  return guardedWrite(ops, request, () => {
    const result = change();
    const { requestId: _id, requestHash: _hash, ...start } = request;
    return ops.completed({ ...start, ...(result ? { response: { ...result } } : {}) });
  });
}

/** A guarded write of a method that answers its result directly (not an Operation). */
export interface ResultWriteRequest {
  /** Where the requestId is remembered (the location). */
  parent: string;
  /** The resource the write acts on (named in the error of a reused requestId). */
  target: string;
  requestId?: string;
  requestHash?: string;
}

/**
 * A write whose method answers the resource (or Empty) rather than an Operation (Migration
 * Center's `assets.patch`, `assets.delete`): the same requestId guard in one transaction, a
 * repeat answering the first result and changing nothing.
 */
export function guardedResult<R>(ops: WriteTarget, request: ResultWriteRequest, change: () => R): R {
  const { store, requestIds } = ops;
  const { parent, target, requestId, requestHash } = request;
  return store.transaction(() => {
    if (requestId && requestIds) {
      if (requestHash === undefined) throw new Error(`write ${target}: a requestId needs a requestHash`);
      const prior = requestIds.lookup(parent, requestId, requestHash);
      if (prior) return structuredClone(prior.snapshot) as R;
    }
    const result = change();
    if (requestId && requestIds && requestHash !== undefined) requestIds.remember(parent, requestId, requestHash, { name: target }, result);
    return result;
  });
}
