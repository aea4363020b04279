/**
 * Long-running operations (`google.longrunning.Operation`), shared by every service.
 *
 *   const ops = ctx.operations.forService({
 *     service: 'networkservices', apiVersion: 'v1',
 *     metadataType: 'type.googleapis.com/google.cloud.networkservices.v1.OperationMetadata',
 *   });
 *   ops.write({ parent, target, verb: 'create', responseType, requestId, requestHash }, () => change()); // done at once
 *   ops.writeStarting({ ... }, () => ops.start({ ..., work: async (ctl) => new WorkEnd(writeState), state })); // later
 *
 * Every create, patch, delete and verb goes through `write` / `writeStarting` (writes.ts): one
 * transaction with the requestId guard, the change and the Operation record. Background work
 * ends through this module too (work.ts): the resource's final state and the Operation's end
 * commit together, waiters are woken after the commit, and one registry of running work answers
 * `abortTarget`, `:cancel`, reset and shutdown.
 *
 * Operations are documents of the store (collection `operations/<service>`, key = operation
 * name), so they survive restarts. Background work runs in this process; `work` receives an
 * AbortSignal that fires on `:cancel`, on reset, on shutdown and when its target is deleted. An
 * operation still not done when the process died is marked failed (ABORTED) the next time its
 * service starts, after the domains' recovery hooks marked their resources failed.
 */
import { randomBytesPooled } from '../random';
import type { FastifyBaseLogger } from 'fastify';
import { GoogleApiError, RPC_CODES, internal, notFound, type ErrorDetail } from '../errors';
import type { Store } from '../store/store';
import { listStorePage, type ListFields, type ListPage, type ListRequest } from '../query/list-query';
import { RequestIds } from './request-ids';
import { guardedResult, guardedWrite, write, type ResultWriteRequest, type WriteRequest } from './writes';
import { WorkEnd, stopOutcome, type AbortReason, type RecoveryHook, type WorkState } from './work';
import { ProgressWrites } from './progress-writes';

export { WorkEnd, interruptedMessage, stopOutcome, type AbortReason, type RecoveryHook, type StopOutcome, type WorkState } from './work';

export const EMPTY_TYPE = 'type.googleapis.com/google.protobuf.Empty';

export interface OperationMetadata {
  '@type': string;
  createTime: string;
  endTime?: string;
  target: string;
  verb: string;
  statusMessage?: string;
  requestedCancellation: boolean;
  apiVersion: string;
  [extra: string]: unknown;
}

export interface RpcStatus {
  code: number;
  message: string;
  details: ErrorDetail[];
}

export interface Operation {
  name: string;
  metadata: OperationMetadata;
  done: boolean;
  response?: { '@type': string } & Record<string, unknown>;
  error?: RpcStatus;
}

/**
 * What `operations.list` filters on (its request has no orderBy): the operation's name and state, and its
 * metadata's verb, target and times (`done = false`, `metadata.verb = "run"`,
 * `metadata.createTime > "2026-01-01T00:00:00Z"`). Any other field is INVALID_ARGUMENT naming it.
 */
export const OPERATION_LIST_FIELDS: ListFields<Operation> = {
  scalars: {
    name: (op) => op.name,
    done: (op) => op.done === true,
    'metadata.verb': (op) => op.metadata?.verb,
    'metadata.target': (op) => op.metadata?.target,
    'metadata.createTime': (op) => op.metadata?.createTime,
    'metadata.endTime': (op) => op.metadata?.endTime,
    'metadata.requestedCancellation': (op) => op.metadata?.requestedCancellation === true,
    'error.code': (op) => op.error?.code,
  },
  name: (op) => op.name,
};

export interface OperationServiceOptions {
  /** Folder-level service name; the store collection is `operations/<service>`. */
  service: string;
  /** Recorded in each new operation's metadata: a version, or the version of the request being served. */
  apiVersion: string | (() => string);
  /** `@type` of the metadata, e.g. `type.googleapis.com/google.cloud.migrationcenter.v1alpha1.OperationMetadata`. */
  metadataType: string;
  /** Mark operations left unfinished by a previous process as failed (default true). */
  failInterrupted?: boolean;
  /** The store collection of the service's requestId records; none when its methods take no requestId. */
  requestIdCollection?: string;
}

export interface OperationStart {
  /** `projects/{p}/locations/{l}`: the operation is named `{parent}/operations/operation-...`. */
  parent: string;
  /** The resource the operation acts on. */
  target: string;
  verb: string;
  /** `@type` of the response (use EMPTY_TYPE for google.protobuf.Empty). */
  responseType: string;
  /** Extra metadata fields. */
  metadata?: Record<string, unknown>;
}

export interface OperationControl {
  readonly name: string;
  /** Fires on `:cancel`, on reset and on shutdown. */
  readonly signal: AbortSignal;
  /** Sets `metadata.statusMessage` (and any extra metadata fields). */
  progress(statusMessage: string, metadata?: Record<string, unknown>): void;
}

interface Running {
  controller: AbortController;
  done: Promise<void>;
  generation: number;
  /** The resource the work acts on. */
  target: string;
  /** How the work's resource records a stop (`start`'s `state`); none for work that changes no resource. */
  state?: WorkState;
  /**
   * Set when `:cancel` recorded the stop itself: the work's own end, when it notices the abort
   * later (or finishes anyway), is dropped.
   */
  stopRecorded: boolean;
}

function now(): string {
  return new Date().toISOString();
}

function newOperationId(): string {
  return `operation-${Date.now()}-${randomBytesPooled(8).toString('hex')}`;
}

type Outcome = { response: { '@type': string } & Record<string, unknown> } | { error: unknown };

/** Marks `op` done with the outcome; false (and no change) when it already was done. */
function end(op: Operation, outcome: Outcome): boolean {
  if (op.done) return false;
  op.done = true;
  op.metadata.endTime = now();
  if ('error' in outcome) {
    op.error = toRpcStatus(outcome.error);
    delete op.response;
  } else {
    op.response = outcome.response;
    delete op.error;
  }
  return true;
}

function toRpcStatus(err: unknown): RpcStatus {
  if (err instanceof GoogleApiError) return err.toRpcStatus();
  return internal(`Operation failed: ${(err as Error)?.message ?? String(err)}`).toRpcStatus();
}

/** Every service's operations plus the background work running in this process. */
export class Operations {
  private readonly services = new Map<string, ServiceOperations>();
  /** Bumped by reset: work started before it must not write into the cleared store. */
  generation = 0;
  readonly running = new Map<string, Running>();

  constructor(
    readonly store: Store,
    readonly log: FastifyBaseLogger,
  ) {}

  forService(options: OperationServiceOptions): ServiceOperations {
    let ops = this.services.get(options.service);
    if (!ops) {
      ops = new ServiceOperations(this, options);
      this.services.set(options.service, ops);
      if (options.failInterrupted !== false) ops.failInterrupted();
    }
    return ops;
  }

  /** Aborts the background work acting on `target` (e.g. 'deleted': the resource is gone). */
  abortTarget(target: string, reason: AbortReason): void {
    for (const run of this.running.values()) if (run.target === target) run.controller.abort(reason);
  }

  /** Whether background work of this process acts on `target`. */
  isRunning(target: string): boolean {
    for (const run of this.running.values()) if (run.target === target) return true;
    return false;
  }

  /** The targets of the background work running in this process. */
  runningTargets(): string[] {
    return [...this.running.values()].map((r) => r.target);
  }

  /** Aborts all background work (reset: results are dropped; shutdown: recorded as failures). */
  abortAll(reason: AbortReason): void {
    if (reason === 'reset') this.generation++;
    for (const run of this.running.values()) run.controller.abort(reason);
  }

  /** Resolves when no background work is running (or after `timeoutMs`). */
  async idle(timeoutMs = 10_000): Promise<void> {
    const all = Promise.allSettled([...this.running.values()].map((r) => r.done));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    });
    await Promise.race([all, timeout]);
    if (timer) clearTimeout(timer);
  }
}

export class ServiceOperations {
  readonly collection: string;
  readonly requestIds: RequestIds | undefined;
  private readonly recoveryHooks: RecoveryHook[] = [];
  private readonly waiters = new Map<string, Array<(op: Operation) => void>>();

  constructor(
    private readonly registry: Operations,
    readonly options: OperationServiceOptions,
  ) {
    this.collection = `operations/${options.service}`;
    this.requestIds = options.requestIdCollection ? new RequestIds(registry.store, options.requestIdCollection) : undefined;
  }

  get store(): Store {
    return this.registry.store;
  }

  /** Every service's operations of this app (one per app, unlike a store, which apps may share). */
  get all(): Operations {
    return this.registry;
  }

  /**
   * A write whose change is immediate (create, patch, delete): one transaction with the requestId
   * guard, `change`, and a done Operation whose response is `change`'s result (writes.ts).
   */
  write(request: WriteRequest, change: () => object | void): Operation {
    return write(this, request, change);
  }

  /** A requestId-guarded write of a method that answers its result, not an Operation (writes.ts `guardedResult`). */
  writeResult<R>(request: ResultWriteRequest, change: () => R): R {
    return guardedResult(this, request, change);
  }

  /** A write that starts background work: `change` returns the Operation it started with `start`. */
  writeStarting(request: WriteRequest, change: () => Operation): Operation {
    return guardedWrite(this, request, change);
  }

  private newOperation(start: OperationStart): Operation {
    return {
      name: `${start.parent}/operations/${newOperationId()}`,
      metadata: {
        '@type': this.options.metadataType,
        createTime: now(),
        target: start.target,
        verb: start.verb,
        requestedCancellation: false,
        apiVersion: typeof this.options.apiVersion === 'function' ? this.options.apiVersion() : this.options.apiVersion,
        ...(start.metadata ?? {}),
      },
      done: false,
    };
  }

  /** Records an operation that is already finished with `response` (call inside the domain's transaction). */
  completed(start: OperationStart & { response?: Record<string, unknown> }): Operation {
    const op = this.newOperation(start);
    op.metadata.endTime = op.metadata.createTime;
    op.done = true;
    op.response = { '@type': start.responseType, ...(start.response ?? {}) };
    this.store.put(this.collection, op.name, op);
    return op;
  }

  /** Records an operation that is already finished with an error. */
  failed(start: OperationStart & { error: GoogleApiError }): Operation {
    const op = this.newOperation(start);
    op.metadata.endTime = op.metadata.createTime;
    op.done = true;
    op.error = start.error.toRpcStatus();
    this.store.put(this.collection, op.name, op);
    return op;
  }

  /**
   * Records a not-done operation and runs `work` in the background; its result becomes the
   * response (with `responseType`), its throw the error (a GoogleApiError keeps its status).
   * `:cancel` ends it CANCELLED at once (see `cancel`): whatever the work does afterwards is
   * dropped, so work given no `state` must change nothing outside its result. Returns the
   * operation as first recorded.
   */
  start(
    start: OperationStart & {
      work: (ctl: OperationControl) => Promise<Record<string, unknown> | WorkEnd | void>;
      /** Given for work that changes a resource: the Operation then ends with the resource's final state. */
      state?: WorkState;
    },
  ): Operation {
    const op = this.newOperation(start);
    this.store.put(this.collection, op.name, op);
    const controller = new AbortController();
    const generation = this.registry.generation;
    const run: Running = { controller, done: Promise.resolve(), generation, target: start.target, state: start.state, stopRecorded: false };
    /** Whether this work's end is no longer to be written: reset cleared the store, or `:cancel` recorded the stop. */
    const dropped = () => this.registry.generation !== generation || run.stopRecorded;
    const progress = new ProgressWrites(this.store, (change) => {
      if (this.registry.generation !== generation) return;
      this.patch(op.name, (cur) => {
        if (cur.done) return false;
        cur.metadata = { ...cur.metadata, ...change };
        return true;
      });
    });
    const ctl: OperationControl = {
      name: op.name,
      signal: controller.signal,
      progress: (statusMessage, metadata) => {
        if (this.registry.generation !== generation) return;
        progress.write({ ...(metadata ?? {}), statusMessage });
      },
    };
    const done = (async () => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      try {
        const response = controller.signal.aborted ? Promise.reject(abortError(controller.signal)) : start.work(ctl);
        const result = await response;
        if (dropped()) return;
        // The progress still waiting is written before the end: the Operation ends saying how far it got.
        progress.settle();
        if (result instanceof WorkEnd) {
          const outcome: Outcome = result.error === undefined ? { response: { '@type': start.responseType, ...result.response } } : { error: result.error };
          this.endWithState(op.name, outcome, result.writeState);
        } else this.finish(op.name, { '@type': start.responseType, ...(result ?? {}) });
      } catch (err) {
        if (dropped()) return;
        progress.settle();
        const reason = controller.signal.aborted ? (controller.signal.reason as AbortReason) : undefined;
        // (A cancel is never seen here: `cancel` recorded it, and `dropped` is true.)
        if (start.state) this.stopped(op.name, err, reason, start.state);
        else if (reason === 'shutdown') this.fail(op.name, new GoogleApiError('ABORTED', 'The emulator shut down before the operation finished.'));
        else {
          if (!(err instanceof GoogleApiError)) this.registry.log.error({ err, operation: op.name }, 'background operation failed');
          this.fail(op.name, err);
        }
      } finally {
        this.registry.running.delete(op.name);
      }
    })();
    run.done = done;
    this.registry.running.set(op.name, run);
    return op;
  }

  /** Ends work that stopped (threw or was aborted) with its resource's failed state. */
  private stopped(name: string, err: unknown, reason: AbortReason | undefined, state: WorkState): void {
    const outcome = stopOutcome(err, reason, state);
    if (outcome.kind === 'dropped') return;
    if (outcome.kind === 'gone') {
      this.fail(name, outcome.error);
      return;
    }
    if (outcome.internal) this.registry.log.error({ err, operation: name, target: state.resource }, 'background operation failed');
    this.endWithState(name, { error: outcome.error }, () => state.failed(outcome.message));
  }

  /**
   * Writes the resource's final state and ends the Operation in one transaction, then wakes its
   * waiters. A GoogleApiError from `writeState` (the resource is gone) ends the Operation with it
   * instead; any other failure (the store closed at shutdown) is logged: the next start recovers.
   */
  private endWithState(name: string, outcome: Outcome, writeState: () => void): void {
    let ended: Operation | undefined;
    try {
      ended = this.store.transaction(() => {
        writeState();
        return this.endInTransaction(name, outcome);
      });
    } catch (err) {
      if (err instanceof GoogleApiError) this.fail(name, err);
      else this.registry.log.warn({ err, operation: name }, 'could not record the end of background work');
      return;
    }
    if (ended) this.notify(ended);
  }

  /**
   * Applies `change` to the stored operation and writes it back, unless `change` returns false
   * (nothing to change: no write, and undefined is returned).
   */
  private patch(name: string, change: (op: Operation) => boolean): Operation | undefined {
    try {
      return this.store.transaction(() => {
        const cur = this.store.get<Operation>(this.collection, name);
        if (!cur) return undefined; // deleted meanwhile: the client is no longer interested
        if (!change(cur)) return undefined;
        this.store.put(this.collection, name, cur);
        return cur;
      });
    } catch (err) {
      // The store may be closed during shutdown: nothing left to record.
      this.registry.log.warn({ err, operation: name }, 'could not update operation');
      return undefined;
    }
  }

  /** Marks an operation done with `response` (already carrying its `@type`); undefined if it already was. */
  finish(name: string, response: { '@type': string } & Record<string, unknown>): Operation | undefined {
    const op = this.patch(name, (cur) => end(cur, { response }));
    if (op) this.notify(op);
    return op;
  }

  /** Marks an operation done with an error; undefined if it already was. */
  fail(name: string, err: unknown): Operation | undefined {
    const op = this.patch(name, (cur) => end(cur, { error: err }));
    if (op) this.notify(op);
    return op;
  }

  /**
   * Ends an operation inside the current transaction (beside the resource's own end state): a
   * store error is thrown, not logged. Returns the ended operation, for `notify` after the
   * commit; undefined when it is gone or was already done.
   */
  private endInTransaction(name: string, outcome: Outcome): Operation | undefined {
    const cur = this.store.get<Operation>(this.collection, name);
    if (!cur || !end(cur, outcome)) return undefined;
    this.store.put(this.collection, name, cur);
    return cur;
  }

  /** Aborts the work of this process acting on `target` (e.g. 'deleted' when the resource is deleted). */
  abortTarget(target: string, reason: AbortReason): void {
    this.registry.abortTarget(target, reason);
  }

  /** Whether work of this process acts on `target`. */
  isRunning(target: string): boolean {
    return this.registry.isRunning(target);
  }

  /** The targets of this process's running work (for tests). */
  runningTargets(): string[] {
    return this.registry.runningTargets();
  }

  /** Whether this service holds the operation `name`. */
  has(name: string): boolean {
    return this.store.has(this.collection, name);
  }

  get(name: string): Operation {
    const op = this.store.get<Operation>(this.collection, name);
    if (!op) throw notFound('google.longrunning.Operation', name);
    return op;
  }

  /** `operations.list`: filter, orderBy and paging over the fields OPERATION_LIST_FIELDS names. */
  list(parent: string, request: ListRequest): ListPage<Operation> {
    return listStorePage<Operation>(this.store, this.collection, `${parent}/operations/`, request, OPERATION_LIST_FIELDS, `${this.collection}:${parent}`);
  }

  /**
   * `:cancel`: sets `requestedCancellation`, stops the work if it runs here and records the stop
   * before returning, in this same synchronous turn: the Operation ends CANCELLED together with
   * the resource's failed state (its WorkState, as when the work stops by itself), so an answered
   * cancel is committed (a kill -9 right after the answer finds CANCELLED, not the restart's
   * ABORTED). That state matches what the work committed: work writes in synchronous
   * transactions on this thread (an import run's batches), so none is half done while this runs,
   * and the abort, fired first, settles the work's listeners so that no later write happens (an
   * import run's queued batches are dropped). The work's own end, when it notices the abort, is
   * dropped. A done operation is left as it is; one with no work here is failed CANCELLED.
   */
  cancel(name: string): Operation {
    const op = this.get(name);
    if (op.done) return op;
    const updated = this.patch(name, (cur) => {
      cur.metadata.requestedCancellation = true;
      return true;
    });
    const run = this.registry.running.get(name);
    if (run && run.generation === this.registry.generation && !run.controller.signal.aborted) {
      run.stopRecorded = true;
      run.controller.abort('cancelled' satisfies AbortReason);
      if (run.state) this.stopped(name, undefined, 'cancelled', run.state);
      else this.fail(name, new GoogleApiError('CANCELLED', 'Operation was cancelled.'));
      return this.store.get<Operation>(this.collection, name) ?? updated ?? op;
    }
    if (run) return updated ?? op; // already stopping (shutdown, deletion): its own end is recorded
    return this.fail(name, new GoogleApiError('CANCELLED', 'Operation was cancelled.')) ?? op;
  }

  /** Deletes the record (does not stop the work: its result is then dropped). */
  delete(name: string): void {
    if (!this.store.delete(this.collection, name)) throw notFound('google.longrunning.Operation', name);
  }

  /** Resolves when the operation is done (in-process work only; for tests and awaiting callers). */
  settled(name: string): Promise<Operation> {
    const op = this.store.get<Operation>(this.collection, name);
    if (op?.done || !this.registry.running.has(name)) return Promise.resolve(op ?? this.get(name));
    return new Promise((resolve) => {
      const list = this.waiters.get(name) ?? [];
      list.push(resolve);
      this.waiters.set(name, list);
    });
  }

  private notify(op: Operation): void {
    if (!op.done) return;
    const list = this.waiters.get(op.name);
    if (!list) return;
    this.waiters.delete(op.name);
    for (const resolve of list) resolve(op);
  }

  /** Registers a domain's part in restart recovery (see `recoverInterrupted`). */
  onRestart(hook: RecoveryHook): void {
    this.recoveryHooks.push(hook);
  }

  /**
   * Start-up recovery, in one transaction: every resource a registered domain reports in progress
   * (with no work of this process on it) is marked failed by that domain and its Operation ends
   * ABORTED with the domain's message; then every other unfinished Operation ends ABORTED.
   * Returns how many resources were recovered.
   */
  recoverInterrupted(): number {
    let count = 0;
    this.store.transaction(() => {
      for (const hook of this.recoveryHooks) {
        for (const { target, operation } of hook.inProgress()) {
          if (this.isRunning(target)) continue;
          const message = hook.markInterrupted(target);
          if (operation) this.endInTransaction(operation, { error: new GoogleApiError('ABORTED', message) });
          count++;
        }
      }
      this.failInterrupted();
    });
    return count;
  }

  /** Fails the operations a previous process left unfinished. */
  failInterrupted(): number {
    let count = 0;
    this.store.transaction(() => {
      for (const { key, value } of this.store.list<Operation>(this.collection)) {
        if (value.done || this.registry.running.has(key)) continue;
        value.done = true;
        value.metadata.endTime = now();
        value.error = new GoogleApiError('ABORTED', 'The emulator restarted before the operation finished.').toRpcStatus();
        this.store.put(this.collection, key, value);
        count++;
      }
    });
    return count;
  }
}

function abortError(signal: AbortSignal): Error {
  const err = new Error(`aborted: ${String(signal.reason)}`);
  err.name = 'AbortError';
  return err;
}

export { RPC_CODES };
