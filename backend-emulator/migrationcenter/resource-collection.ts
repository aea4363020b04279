/**
 * The standard methods (AIP-131..135) of a Migration Center collection whose writes are immediate:
 * create (`{idField}`, `requestId`), get, list (filter, orderBy, page), patch (`updateMask`,
 * `requestId`) and delete (`requestId`), each write an Operation that is done at once, as Google's
 * long-running methods are when the work is immediate. A family describes its resource once (a
 * `CollectionSpec`: its schema, its updatable fields, its list fields, how a new one looks) and
 * adds only what is its own (custom verbs, cascades); the rules every collection shares live here.
 *
 * Every write goes through the one write helper (operations/writes.ts via `ops.write`): one
 * transaction with the requestId guard, the change and the Operation record.
 */
import type { Store } from '../store/store';
import { EMPTY_TYPE, type Operation, type ServiceOperations } from '../operations/operations';
import type { WriteRequest } from '../operations/writes';
import { requestHash } from '../operations/request-ids';
import { alreadyExists, invalidArgument, notFound } from '../errors';
import { RESOURCE_ID, RESOURCE_ID_REASON } from '../http/names';
import { listStorePage, type ListFields, type ListRequest } from '../query/list-query';
import { checkRequestId } from './request-id-rule';
import { maskPaths } from './masks';

/** A resource as stored and answered: its wire shape, with `name` first. */
export interface NamedResource {
  name: string;
  createTime?: string;
  updateTime?: string;
}

export interface CollectionSpec<W extends NamedResource> {
  /** The collection's path segment and list response field: `groups`. */
  readonly segment: string;
  /** The create request's id parameter: `groupId`. */
  readonly idField: string;
  /** The store collection: `migrationcenter.groups`. */
  readonly storeCollection: string;
  /** `google.rpc.ResourceInfo.resourceType`: `migrationcenter.googleapis.com/Group`. */
  readonly resourceType: string;
  /** The Operation response's `@type`. */
  readonly wireType: string;
  /** The request message names in requestId fingerprints: `{ create: 'createGroup', ... }`. */
  readonly methodNames: { create: string; update: string; delete: string };
  /**
   * Checks a create or patch body (schema, cross-field rules); returns the accepted fields in wire
   * spelling, output-only fields dropped. Throws INVALID_ARGUMENT naming every bad field.
   */
  check(body: Record<string, unknown>): Record<string, unknown>;
  /** Wire field paths an `updateMask` may name; a path under one of them (`a.b` under `a`) is allowed too. */
  readonly updatable: readonly string[];
  /** The fields `filter` and `orderBy` may name. */
  readonly listFields: ListFields<W>;
  /** A new resource from checked input: output-only fields set, defaults filled. */
  create(name: string, input: Record<string, unknown>, time: string): W;
  /** Inside the delete's transaction, before the resource goes: refuse (throw) or cascade. */
  beforeDelete?(resource: W): void;
  /** Inside the write's transaction, after `create` or `patch` built the resource: cross-resource checks. */
  beforeWrite?(resource: W, previous: W | undefined): void;
}

/** The standard methods over one `CollectionSpec`. */
export class ResourceCollection<W extends NamedResource> {
  /** What other families do when one of these resources goes (inside the delete's transaction). */
  private readonly removeListeners: Array<(resource: W) => void> = [];

  constructor(
    readonly spec: CollectionSpec<W>,
    protected readonly store: Store,
    protected readonly ops: ServiceOperations,
    protected readonly now: () => string = () => new Date().toISOString(),
  ) {}

  // ------------------------------------------------------------------ API methods (Operations)

  /**
   * Create: the id and the body are checked before the write. `location` is where the Operation
   * lives when `parent` is a resource under it (reports under a report config).
   */
  create(parent: string, id: string | undefined, requestId: unknown, body: Record<string, unknown>, location = parent): Operation {
    const { name, input, write } = this.createRequest(parent, id, requestId, body, location);
    return this.ops.write(write, () => this.insert(name, input));
  }

  /**
   * A create's checks (id, requestId, body, before any write) and its write request: `create`, and
   * a family whose create starts long work instead (reports).
   */
  protected createRequest(
    parent: string,
    id: string | undefined,
    requestId: unknown,
    body: Record<string, unknown>,
    location: string,
  ): { name: string; input: Record<string, unknown>; write: WriteRequest } {
    const checkedId = this.checkId(id);
    const checkedRequest = checkRequestId(requestId);
    const input = this.spec.check(body);
    const name = `${parent}/${this.spec.segment}/${checkedId}`;
    const hash = requestHash(this.spec.methodNames.create, name, input);
    return {
      name,
      input,
      write: { parent: location, target: name, verb: 'create', responseType: this.spec.wireType, requestId: checkedRequest, requestHash: hash },
    };
  }

  /** Update: the fields `updateMask` names (required; `*` for every updatable field). */
  patch(name: string, parent: string, updateMask: string | undefined, requestId: unknown, body: Record<string, unknown>): Operation {
    const checkedRequest = checkRequestId(requestId);
    const input = this.spec.check(body);
    const paths = this.maskedPaths(updateMask);
    const hash = requestHash(this.spec.methodNames.update, name, { input, paths });
    return this.ops.write({ parent, target: name, verb: 'update', responseType: this.spec.wireType, requestId: checkedRequest, requestHash: hash }, () =>
      this.update(name, input, paths),
    );
  }

  /** Delete (`beforeDelete` refuses or cascades). */
  delete(name: string, parent: string, requestId: unknown): Operation {
    const checkedRequest = checkRequestId(requestId);
    const hash = requestHash(this.spec.methodNames.delete, name, {});
    return this.ops.write({ parent, target: name, verb: 'delete', responseType: EMPTY_TYPE, requestId: checkedRequest, requestHash: hash }, () => {
      this.remove(name);
    });
  }

  get(name: string): W {
    const found = this.find(name);
    if (!found) throw notFound(this.spec.resourceType, name);
    return found;
  }

  find(name: string): W | undefined {
    return this.store.get<W>(this.spec.storeCollection, name);
  }

  /** The list response: `{ [segment]: [...], nextPageToken? }`. */
  list(parent: string, request: ListRequest): Record<string, unknown> {
    const prefix = `${parent}/${this.spec.segment}/`;
    const page = listStorePage(this.store, this.spec.storeCollection, prefix, request, this.spec.listFields, `${this.spec.segment}:${parent}`);
    return { [this.spec.segment]: page.items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
  }

  /** Every resource under `parent` (for families that read another's resources, such as reports). */
  all(parent: string): W[] {
    return this.store.list<W>(this.spec.storeCollection, { prefix: `${parent}/${this.spec.segment}/` }).map((e) => e.value);
  }

  // ------------------------------------------------------------------ store changes (inside a transaction)

  insert(name: string, input: Record<string, unknown>): W {
    if (this.find(name)) throw alreadyExists(this.spec.resourceType, name);
    const resource = this.spec.create(name, input, this.now());
    this.spec.beforeWrite?.(resource, undefined);
    this.store.put(this.spec.storeCollection, name, resource);
    return resource;
  }

  update(name: string, input: Record<string, unknown>, paths: readonly string[]): W {
    const previous = this.get(name);
    const next = structuredClone(previous) as unknown as Record<string, unknown>;
    for (const path of paths) copyPath(input, next, path);
    if ('updateTime' in previous || 'createTime' in previous) next.updateTime = this.now();
    const resource = next as unknown as W;
    this.spec.beforeWrite?.(resource, previous);
    this.store.put(this.spec.storeCollection, name, resource);
    return resource;
  }

  /** Stores a changed resource as it is (for custom verbs that built it themselves). */
  replace(resource: W): W {
    const next = { ...resource, ...('updateTime' in resource ? { updateTime: this.now() } : {}) };
    this.store.put(this.spec.storeCollection, resource.name, next);
    return next;
  }

  remove(name: string): void {
    const resource = this.get(name);
    this.spec.beforeDelete?.(resource);
    for (const listener of this.removeListeners) listener(resource);
    this.store.delete(this.spec.storeCollection, name);
  }

  /**
   * Lets a family that keeps resources under these (export jobs under a report) remove them in the
   * same transaction as the delete, so that nothing is left naming a parent that is gone.
   */
  onRemove(listener: (resource: W) => void): void {
    this.removeListeners.push(listener);
  }

  // ------------------------------------------------------------------ rules

  checkId(id: string | undefined): string {
    const field = this.spec.idField;
    if (id === undefined || id === '') throw invalidArgument([{ field, description: 'is required' }]);
    if (!RESOURCE_ID.test(id)) throw invalidArgument([{ field, description: RESOURCE_ID_REASON }]);
    return id;
  }

  /** The mask's paths, each one an updatable field or a field under one. */
  maskedPaths(updateMask: string | undefined): string[] {
    const { updatable } = this.spec;
    const paths = maskPaths(updateMask, updatable);
    for (const path of paths) {
      if (!updatable.some((u) => path === u || path.startsWith(`${u}.`))) {
        throw invalidArgument([{ field: 'updateMask', description: `'${path}' cannot be updated: updatable fields are ${updatable.join(', ')}` }]);
      }
    }
    return paths;
  }
}

/**
 * Copies the field at a dotted path from `from` to `to` (AIP-134: a field the mask names and the
 * body leaves out is cleared). Map-valued fields (`labels`) are replaced whole.
 */
function copyPath(from: Record<string, unknown>, to: Record<string, unknown>, path: string): void {
  const keys = path.split('.');
  let source: unknown = from;
  let target = to;
  for (let i = 0; i < keys.length - 1; i++) {
    source = isObject(source) ? source[keys[i]] : undefined;
    if (!isObject(target[keys[i]])) target[keys[i]] = {};
    target = target[keys[i]] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1];
  const value = isObject(source) ? source[last] : undefined;
  if (value === undefined) delete target[last];
  else target[last] = structuredClone(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
