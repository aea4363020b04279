/**
 * Sources (`projects/{project}/locations/{location}/sources/{source}`): where assets come from. Import jobs refer to one
 * through `assetSource`. Create, get, list, patch (`updateMask`) and delete; create, patch and delete return Operations that are
 * done at once, as the real API's long-running methods do when the work is immediate.
 *
 * An import job's reference to a source that does not exist is NOT_FOUND, as on the real service:
 * nothing is ever created implicitly.
 */
import type { Store } from '../../store/store';
import type { Assets } from '../assets/assets';
import { EMPTY_TYPE, type Operation, type ServiceOperations } from '../../operations/operations';
import { requestHash } from '../../operations/request-ids';
import { checkRequestId } from '../request-id-rule';
import { failedPrecondition, invalidArgument, notFound, alreadyExists, type FieldViolation, type GoogleApiError } from '../../errors';
import { COLLECTIONS, RESOURCE_TYPES, TYPES, parseSourceName, parentOf } from '../names';
import { RESOURCE_ID, RESOURCE_ID_REASON } from '../../http/names';
import { STATE, type SourceType, type SourceWire, type StoredJob } from '../types';
import { schemaViolations } from '../../http/validation';
import { maskPaths } from '../masks';
import { listStorePage, type ListFields, type ListRequest } from '../../query/list-query';

/** Fields an updateMask may name (wire names; `managed` is read as `isManaged`). */
const UPDATABLE_FIELDS: ReadonlySet<string> = new Set(['displayName', 'description', 'type', 'priority', 'isManaged']);

export const SOURCE_LIST_FIELDS: ListFields<SourceWire> = {
  scalars: {
    name: (s) => s.name,
    displayName: (s) => s.displayName,
    description: (s) => s.description,
    type: (s) => s.type,
    priority: (s) => s.priority,
    isManaged: (s) => s.isManaged,
    state: (s) => s.state,
    createTime: (s) => s.createTime,
    updateTime: (s) => s.updateTime,
  },
  enumPrefixes: { type: 'SOURCE_TYPE_' },
  name: (s) => s.name,
};

export interface SourceInput {
  displayName?: string;
  description?: string;
  type?: SourceType;
  priority?: number;
  isManaged?: boolean;
}

/**
 * Checks a Source request body against the `Source` schema (the one the provider's SourceArgs
 * refers to); returns the accepted fields in wire spelling. Output-only fields are ignored.
 */
export function checkSourceBody(body: Record<string, unknown>): SourceInput {
  const violations: FieldViolation[] = schemaViolations('Source', body);
  if ('managed' in body && 'isManaged' in body) {
    violations.push({ field: 'managed', description: 'cannot be given together with isManaged: they are two names of one field' });
  }
  if (violations.length > 0) throw invalidArgument(violations);
  const input = body as SourceInput & { managed?: boolean };
  const out: SourceInput = {};
  if (input.displayName !== undefined) out.displayName = input.displayName;
  if (input.description !== undefined) out.description = input.description;
  if (input.type !== undefined) out.type = input.type;
  if (input.priority !== undefined) out.priority = input.priority;
  const managed = input.isManaged ?? input.managed;
  if (managed !== undefined) out.isManaged = managed;
  return out;
}

export function checkSourceId(id: string | undefined): string {
  if (id === undefined || id === '') throw invalidArgument([{ field: 'sourceId', description: 'is required' }]);
  if (!RESOURCE_ID.test(id)) throw invalidArgument([{ field: 'sourceId', description: RESOURCE_ID_REASON }]);
  return id;
}

export class Sources {
  /** Called inside a source's delete, after it is gone (families that keep things per source). */
  private readonly removeListeners: Array<(name: string) => void> = [];

  constructor(
    private readonly store: Store,
    private readonly ops: ServiceOperations,
    /** The assets whose `sources` a deleted source leaves. */
    private readonly assets?: Assets,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  // ------------------------------------------------------------------ API methods (Operations)

  /** CreateSource: `sourceId` and the body are checked before the write; the Operation is done at once. */
  create(parent: string, sourceId: string | undefined, requestId: string | undefined, body: Record<string, unknown>): Operation {
    const id = checkSourceId(sourceId);
    const checkedId = checkRequestId(requestId);
    const input = checkSourceBody(body);
    const name = `${parent}/sources/${id}`;
    const hash = requestHash('createSource', name, input);
    return this.ops.write({ parent, target: name, verb: 'create', responseType: TYPES.source, requestId: checkedId, requestHash: hash }, () =>
      this.insert(name, input),
    );
  }

  /** UpdateSource: the fields of `updateMask` (required). */
  patch(name: string, parent: string, updateMask: string | undefined, requestId: string | undefined, body: Record<string, unknown>): Operation {
    const checkedId = checkRequestId(requestId);
    const input = checkSourceBody(body);
    const hash = requestHash('updateSource', name, { input, mask: updateMask });
    return this.ops.write({ parent, target: name, verb: 'update', responseType: TYPES.source, requestId: checkedId, requestHash: hash }, () =>
      this.update(name, input, updateMask),
    );
  }

  /** DeleteSource (see `remove` for when it is refused). */
  delete(name: string, parent: string, requestId: string | undefined): Operation {
    const checkedId = checkRequestId(requestId);
    const hash = requestHash('deleteSource', name, {});
    return this.ops.write({ parent, target: name, verb: 'delete', responseType: EMPTY_TYPE, requestId: checkedId, requestHash: hash }, () => this.remove(name));
  }

  // ------------------------------------------------------------------ reads and store changes

  get(name: string): SourceWire {
    const source = this.store.get<SourceWire>(COLLECTIONS.sources, name);
    if (!source) throw notFound(RESOURCE_TYPES.source, name);
    return source;
  }

  find(name: string): SourceWire | undefined {
    return this.store.get<SourceWire>(COLLECTIONS.sources, name);
  }

  /** Writes a new source; call inside a transaction. */
  insert(name: string, input: SourceInput): SourceWire {
    if (this.find(name)) throw alreadyExists(RESOURCE_TYPES.source, name);
    const time = this.now();
    const source: SourceWire = {
      name,
      createTime: time,
      updateTime: time,
      ...(input.displayName !== undefined ? { displayName: input.displayName } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      type: input.type ?? 'SOURCE_TYPE_UNKNOWN',
      priority: input.priority ?? 0,
      isManaged: input.isManaged ?? false,
      pendingFrameCount: 0,
      errorFrameCount: 0,
      state: 'ACTIVE',
    };
    this.store.put(COLLECTIONS.sources, name, source);
    return source;
  }

  /** Applies the `updateMask` fields of `input` (inside a transaction); the mask is required (masks.ts). */
  update(name: string, input: SourceInput, updateMask: string | undefined): SourceWire {
    const fields = maskPaths(updateMask, [...UPDATABLE_FIELDS]);
    const source = this.get(name);
    const next: SourceWire = { ...source };
    for (const raw of fields) {
      const field = (raw === 'managed' ? 'isManaged' : raw) as keyof SourceInput;
      if (!UPDATABLE_FIELDS.has(field)) {
        throw invalidArgument([{ field: 'updateMask', description: `'${raw}' cannot be updated: updatable fields are ${[...UPDATABLE_FIELDS].join(', ')}` }]);
      }
      const value = input[field];
      if (value === undefined) delete (next as unknown as Record<string, unknown>)[field];
      else (next as unknown as Record<string, unknown>)[field] = value;
    }
    next.updateTime = this.now();
    this.store.put(COLLECTIONS.sources, name, next);
    return next;
  }

  /**
   * Resolves an import job's `assetSource` (inside the job's transaction): the source must be in
   * the job's project and location and exist (NOT_FOUND with ResourceInfo otherwise).
   */
  resolveReference(jobParent: string, assetSource: string, field = 'assetSource'): SourceWire {
    const parsed = parseSourceName(assetSource);
    if (!parsed) throw invalidArgument([{ field, description: 'must be projects/{project}/locations/{location}/sources/{sourceId}' }]);
    if (parsed.parent !== jobParent) {
      throw invalidArgument([{ field, description: `must be a source of ${jobParent}, the import job's project and location` }]);
    }
    const existing = this.find(assetSource);
    if (!existing) throw notFound(RESOURCE_TYPES.source, assetSource);
    return existing;
  }

  /**
   * The source a created import job names must still exist when the job is validated or run, and
   * while it runs (inside the transaction of each batch of assets): FAILED_PRECONDITION naming
   * `assetSource` otherwise, so that no asset is written naming a source that is gone. A job
   * without `assetSource` (one seeded or written without it) has nothing to check.
   * `running`: the deletion happened during the run (the message says what was not written).
   */
  checkJobSource(jobName: string, assetSource: string | undefined, action: 'validated' | 'run' | 'running'): void {
    if (assetSource === undefined || this.find(assetSource)) return;
    throw jobSourceDeleted(jobName, assetSource, action);
  }

  /** ListSources, in the wire shape. */
  list(parent: string, request: ListRequest): { sources: SourceWire[]; nextPageToken?: string } {
    const page = listStorePage(this.store, COLLECTIONS.sources, `${parent}/sources/`, request, SOURCE_LIST_FIELDS, `sources:${parent}`);
    return { sources: page.items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) };
  }

  /**
   * Seed section `sources`: whole Sources with their `name` (inside the seed transaction); a
   * source already stored under that name is replaced.
   */
  seed(value: unknown, field: string): number {
    if (!Array.isArray(value)) throw invalidArgument([{ field, description: 'must be a list of Source objects with a name' }]);
    value.forEach((item, i) => {
      const f = `${field}[${i}]`;
      if (typeof item !== 'object' || item === null || Array.isArray(item)) throw invalidArgument([{ field: f, description: 'must be a Source object' }]);
      const { name, ...rest } = item as Record<string, unknown>;
      const parsed = typeof name === 'string' ? /^projects\/[^/\s]+\/locations\/[^/\s]+\/sources\/([^/\s]+)$/.exec(name) : null;
      if (!parsed) throw invalidArgument([{ field: `${f}.name`, description: 'must be projects/{project}/locations/{location}/sources/{sourceId}' }]);
      checkSourceId(parsed[1]);
      const input = checkSourceBody(rest);
      if (this.find(name as string)) this.store.delete(COLLECTIONS.sources, name as string);
      this.insert(name as string, input);
    });
    return value.length;
  }

  /**
   * Deletes a source (inside a transaction). A source that a validating or running import job
   * uses is FAILED_PRECONDITION; other jobs keep their `assetSource` text (as on the real service,
   * a reference does not keep its target alive), and their `:validate` and `:run` are refused
   * while the source is gone (`checkJobSource`). Assets stay, as on Google, with the source taken
   * out of their `sources` in the same transaction, so that none names a source that is gone.
   */
  remove(name: string): void {
    if (!this.find(name)) throw notFound(RESOURCE_TYPES.source, name);
    const users = this.store
      .list<StoredJob>(COLLECTIONS.importJobs, { prefix: `${parentOf(name)}/importJobs/` })
      .filter((e) => e.value.job.assetSource === name);
    const active = users.filter((e) => e.value.job.state === STATE.RUNNING || e.value.job.state === STATE.VALIDATING);
    if (active.length > 0) {
      throw failedPrecondition(
        `Source ${name} is used by import job ${active[0].value.job.name}, which is in state ${active[0].value.job.state}; wait until it ends.`,
      );
    }
    this.store.delete(COLLECTIONS.sources, name);
    this.assets?.forgetReporter(name);
    for (const listener of this.removeListeners) listener(name);
  }

  /** `listener` runs inside each source's delete transaction, with the source's name (error frames go with it). */
  onRemove(listener: (name: string) => void): void {
    this.removeListeners.push(listener);
  }

  /**
   * Counts frames a source received that became error frames (inside the report's transaction):
   * `errorFrameCount` grows by `errors`. Frames are processed when they arrive, so
   * `pendingFrameCount` stays 0.
   */
  countErrorFrames(name: string, errors: number): SourceWire {
    const source = this.get(name);
    if (errors === 0) return source;
    const next: SourceWire = { ...source, errorFrameCount: source.errorFrameCount + errors };
    this.store.put(COLLECTIONS.sources, name, next);
    return next;
  }
}

/**
 * The refusal of an import job whose `assetSource` was deleted (`Sources.checkJobSource`; a run
 * written by the import worker finds it in a batch's transaction, run-writer.ts).
 */
export function jobSourceDeleted(jobName: string, assetSource: string, action: 'validated' | 'run' | 'running'): GoogleApiError {
  const remedy =
    `create the source ${assetSource} again, or create a new import job whose assetSource is an existing source ` +
    '(assetSource cannot be changed after the import job is created)';
  return failedPrecondition(
    action === 'running'
      ? `The assetSource of import job ${jobName}, ${assetSource}, was deleted while the job was running: ` +
          `the assets not yet written were not imported. To import them, ${remedy}.`
      : `Import job ${jobName} cannot be ${action}: its assetSource ${assetSource} was deleted. To import its data, ${remedy}.`,
  );
}
