/**
 * What a user changes of assets (v1alpha1 `assets.patch`, `delete`, `batchUpdate`, `batchDelete`).
 * Assets are made by imports and frames; a user curates them: their `labels` and `attributes` are
 * what an `updateMask` may name (keys under them too: `labels.env`), and they can be deleted.
 *
 * Google's client answers these methods directly, not with Operations: `patch` the Asset, `delete`
 * and `batchDelete` Empty, `batchUpdate` the updated assets. A requestId (patch, delete, each
 * update of a batch) makes a write idempotent all the same (operations/writes.ts `guardedResult`).
 *
 * A batch is one transaction: every update (or deletion) happens, or none. Its rules (Google's
 * limit of 1000, every name an asset of the request's parent, each asset once) are checked
 * before anything is written. Deleting an asset takes it out of every table keyed by asset
 * (store/sqlite-assets.ts ASSET_KEYED_TABLES), group memberships included.
 */
import type { Store } from '../../store/store';
import type { StoredAsset } from '../../store/asset-store';
import type { ServiceOperations } from '../../operations/operations';
import { requestHash } from '../../operations/request-ids';
import { invalidArgument, notFound, type FieldViolation } from '../../errors';
import { schemaViolations } from '../../http/validation';
import { ProtoJsonText, protoJsonListText, toProtoJson } from '../../http/protojson';
import { RESOURCE_ID } from '../../http/names';
import { RESOURCE_TYPES } from '../names';
import { checkRequestId } from '../request-id-rule';
import { maskPaths } from '../masks';
import type { AssetWire } from '../types';
import { hasKeys, toWire, wireAttributes, type StoredBody } from './assets';
import { assetProtoJson } from './asset-text';

/** The Asset fields an updateMask may name (and keys under them: `labels.env`). */
export const UPDATABLE_ASSET_FIELDS = ['labels', 'attributes'] as const;
type Updatable = (typeof UPDATABLE_ASSET_FIELDS)[number];

/** An empty map (the labels of an asset that has none; never changed: a mask that leaves labels alone keeps it). */
const EMPTY_MAP: Readonly<Record<string, string>> = Object.freeze({});

/** Google's limit of a batchUpdate or batchDelete ("A maximum of 1000 assets"). */
export const MAX_BATCH_ASSETS = 1000;

/** One checked update: the asset, the mask's paths, the body's updatable fields. */
interface AssetUpdate {
  name: string;
  id: string;
  paths: string[];
  input: Partial<Record<Updatable, Record<string, string>>>;
  requestId?: string;
  hash: string;
}

function fail(field: string, description: string): never {
  throw invalidArgument([{ field, description }]);
}

/**
 * The name of a field of an update request in errors: `name` itself for a patch (`at` undefined),
 * under `requests[at]` in a batch. Made only for an error: a batch checks 1,000 requests.
 */
function fieldOf(at: number | undefined, name: string): string {
  return at === undefined ? name : `requests[${at}].${name}`;
}

/** The id of `name` when it is an asset of `parent`; undefined otherwise. */
function assetIdIn(parent: string, name: unknown): string | undefined {
  const prefix = `${parent}/assets/`;
  if (typeof name !== 'string' || !name.startsWith(prefix)) return undefined;
  const id = name.slice(prefix.length);
  return RESOURCE_ID.test(id) ? id : undefined;
}

/**
 * The last mask checked and its paths: the requests of a batch mostly share one mask, and
 * splitting and checking it again for each of 1,000 updates was a tenth of the route's own time.
 * Only a mask that passed is kept (an error names the field of its own request); the paths are
 * never changed by their users.
 */
let lastMask: { text: string; paths: string[] } | undefined;

/** The mask's paths, each `labels`, `attributes` or a key under one; `at` is the request's index in a batch. */
function updatePaths(updateMask: unknown, at: number | undefined): string[] {
  if (updateMask !== undefined && updateMask === lastMask?.text) return lastMask.paths;
  if (updateMask !== undefined && typeof updateMask !== 'string') fail(fieldOf(at, 'updateMask'), 'must be a string (a FieldMask: comma-separated paths)');
  let paths: string[];
  try {
    paths = maskPaths(updateMask as string | undefined, UPDATABLE_ASSET_FIELDS);
  } catch {
    fail(fieldOf(at, 'updateMask'), `is required: name the fields to update (${UPDATABLE_ASSET_FIELDS.join(', ')})`);
  }
  for (const path of paths) {
    const top = path.split('.')[0];
    const fits = (UPDATABLE_ASSET_FIELDS as readonly string[]).includes(top) && (path === top || path.split('.').length === 2);
    if (!fits)
      fail(
        fieldOf(at, 'updateMask'),
        `'${path}' cannot be updated: updatable fields are ${UPDATABLE_ASSET_FIELDS.join(', ')} (or one key under them, as labels.KEY)`,
      );
  }
  if (updateMask !== undefined) lastMask = { text: updateMask as string, paths };
  return paths;
}

/**
 * Whether the labels a mask makes must be checked against the Labels rules: the mask `labels`
 * alone puts the request's labels in place, which the request's schema checked already (Asset.json's
 * `labels` is Labels.json); a key path merges them with the stored ones (64 at most in all), and a
 * mask without labels keeps the stored ones, checked as before.
 */
function labelsNeedCheck(paths: string[]): boolean {
  let whole = false;
  for (let i = 0; i < paths.length; i++) {
    if (paths[i] === 'labels') whole = true;
    else if (paths[i].startsWith('labels.')) return true;
  }
  return !whole;
}

/** Whether the mask's first path under `field` is `field` itself: the map is then replaced, its current value unread. */
function replacedFirst(paths: string[], field: Updatable): boolean {
  for (let i = 0; i < paths.length; i++) {
    if (paths[i] === field) return true;
    if (paths[i].startsWith(`${field}.`)) return false;
  }
  return false;
}

/**
 * A map's new value after the mask's paths under `field` (AIP-134: a named key absent from the body
 * is removed). Never changes `current` or `given`: the map a whole-field path puts in place is the
 * request's own (read only from then on: the request is parsed for this call alone), and a key path
 * changes a copy. (A batch of 1,000 made two copies of each map, then a third of the attributes.)
 */
function applyPaths(current: Record<string, string>, given: Record<string, string> | undefined, field: Updatable, paths: string[]): Record<string, string> {
  let next = current;
  for (const path of paths) {
    if (path === field) next = given ?? EMPTY_MAP;
    else if (path.startsWith(`${field}.`)) {
      const key = path.slice(field.length + 1);
      next = { ...next };
      if (given !== undefined && Object.prototype.hasOwnProperty.call(given, key)) next[key] = given[key];
      else delete next[key];
    }
  }
  return next;
}

export class AssetWrites {
  constructor(
    private readonly store: Store,
    private readonly ops: ServiceOperations,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  // ------------------------------------------------------------------ API methods

  /** UpdateAsset: answers the updated Asset (FULL view). */
  patch(name: string, location: string, updateMask: string | undefined, requestId: unknown, body: Record<string, unknown>): AssetWire {
    const update = this.checkUpdate(location, name, updateMask, requestId, body, undefined);
    return this.ops.writeResult({ parent: location, target: name, requestId: update.requestId, requestHash: update.hash }, () =>
      toWire(this.apply(location, [update])[0]),
    );
  }

  /** DeleteAsset: answers Empty. */
  delete(name: string, location: string, requestId: unknown): Record<string, never> {
    const checked = checkRequestId(requestId);
    const id = assetIdIn(location, name);
    if (id === undefined) throw notFound(RESOURCE_TYPES.asset, name);
    const hash = requestHash('deleteAsset', name, {});
    return this.ops.writeResult({ parent: location, target: name, requestId: checked, requestHash: hash }, () => {
      if (this.store.assets.deleteByIds(location, [id]).length === 0) throw notFound(RESOURCE_TYPES.asset, name);
      return {};
    });
  }

  /**
   * BatchUpdateAssets: every update or none. An update whose requestId was seen with the same
   * update answers its first result and is not applied again. The answer (up to 1,000 whole
   * assets) is built in ProtoJSON from the stored assets (asset-text.ts) and written as text.
   */
  batchUpdate(parent: string, body: Record<string, unknown>): ProtoJsonText {
    const violations = schemaViolations('BatchUpdateAssetsRequest', body);
    if (violations.length > 0) throw invalidArgument(violations);
    const requests = body.requests as Array<{ asset: Record<string, unknown>; updateMask?: string; requestId?: string }>;
    const seen = new Map<string, number>();
    const updates = requests.map((r, i) => {
      const update = this.checkUpdate(parent, r.asset.name, r.updateMask, r.requestId, r.asset, i);
      const earlier = seen.get(update.name);
      if (earlier !== undefined) fail(fieldOf(i, 'asset.name'), `names the asset that requests[${earlier}] updates: each asset may be updated once in a batch`);
      seen.set(update.name, i);
      return update;
    });
    const requestIds = this.ops.requestIds;
    return this.store.transaction(() => {
      const priors = updates.map((u) => (u.requestId && requestIds ? requestIds.lookup(parent, u.requestId, u.hash) : undefined));
      const applied = this.apply(
        parent,
        updates.filter((_, i) => priors[i] === undefined),
      );
      let next = 0;
      const assets = updates.map((u, i) => {
        const prior = priors[i];
        if (prior) return toProtoJson(prior.snapshot);
        const stored = applied[next++];
        if (u.requestId && requestIds) requestIds.remember(parent, u.requestId, u.hash, { name: u.name }, toWire(stored));
        return assetProtoJson(stored);
      });
      // Already ProtoJSON (a list of 1,000 assets is not walked again for defaults): its text's bytes.
      return protoJsonListText('assets', assets);
    });
  }

  /** BatchDeleteAssets: every deletion or none; `allowMissing` skips names of assets that do not exist. */
  batchDelete(parent: string, body: Record<string, unknown>): Record<string, never> {
    const violations = schemaViolations('BatchDeleteAssetsRequest', body);
    if (violations.length > 0) throw invalidArgument(violations);
    const names = body.names as string[];
    const allowMissing = body.allowMissing === true;
    const problems: FieldViolation[] = [];
    const seen = new Map<string, number>();
    const ids = names.map((name, i) => {
      const id = assetIdIn(parent, name);
      if (id === undefined) problems.push({ field: `names[${i}]`, description: `must be an asset of ${parent}: ${parent}/assets/{asset}` });
      const earlier = seen.get(name);
      if (earlier !== undefined) problems.push({ field: `names[${i}]`, description: `repeats names[${earlier}]: each asset may be named once` });
      seen.set(name, i);
      return id as string;
    });
    if (problems.length > 0) throw invalidArgument(problems);
    return this.store.transaction(() => {
      const deleted = this.store.assets.deleteByIds(parent, ids);
      if (!allowMissing && deleted.length < ids.length) {
        const gone = new Set(deleted);
        // Thrown inside the transaction: nothing of the batch is deleted.
        throw notFound(RESOURCE_TYPES.asset, names[ids.findIndex((id) => !gone.has(id))]);
      }
      return {};
    });
  }

  // ------------------------------------------------------------------ rules and changes

  /** One update request, checked: a patch's (`at` undefined) or the batch's request `at`, whose fields errors name `requests[at]....`. */
  private checkUpdate(
    parent: string,
    name: unknown,
    updateMask: unknown,
    requestId: unknown,
    asset: Record<string, unknown>,
    at: number | undefined,
  ): AssetUpdate {
    let checkedRequestId: string | undefined;
    try {
      checkedRequestId = checkRequestId(requestId);
    } catch (error) {
      if (at === undefined) throw error;
      fail(fieldOf(at, 'requestId'), 'must be a UUID (other than the zero UUID)');
    }
    if (at === undefined) {
      const violations = schemaViolations('Asset', asset);
      if (violations.length > 0) throw invalidArgument(violations);
    } else if (name === undefined || name === '') fail(fieldOf(at, 'asset.name'), 'is required: the asset to update');
    const id = assetIdIn(parent, name);
    if (id === undefined) {
      if (at === undefined) throw notFound(RESOURCE_TYPES.asset, String(name));
      fail(fieldOf(at, 'asset.name'), `must be an asset of ${parent}: ${parent}/assets/{asset}`);
    }
    const paths = updatePaths(updateMask, at);
    // The two updatable fields read by name (this runs for each of up to 1,000 updates).
    const input: AssetUpdate['input'] = {};
    const labels = asset.labels;
    const attributes = asset.attributes;
    if (labels !== undefined && labels !== null) input.labels = labels as Record<string, string>;
    if (attributes !== undefined && attributes !== null) input.attributes = attributes as Record<string, string>;
    // The fingerprint only guards a requestId (hashing a thousand updates that have none is wasted work).
    const hash = checkedRequestId ? requestHash('updateAsset', name as string, { input, paths }) : '';
    const update: AssetUpdate = { name: name as string, id, paths, input, hash };
    if (checkedRequestId) update.requestId = checkedRequestId;
    return update;
  }

  /**
   * Applies checked updates (inside a transaction): each asset must exist (NOT_FOUND otherwise,
   * and the transaction rolls back). Returns the updated assets as stored, in `updates`' order.
   */
  private apply(parent: string, updates: AssetUpdate[]): StoredAsset[] {
    if (updates.length === 0) return [];
    const time = Date.parse(this.now());
    const updated: StoredAsset[] = [];
    this.store.assets.updateBodies(
      parent,
      updates.map((u) => u.id),
      time,
      (found) =>
        updates.map((u, i) => {
          const stored = found[i];
          if (!stored) throw notFound(RESOURCE_TYPES.asset, u.name);
          const previousLabels = (stored.body as unknown as StoredBody).l ?? EMPTY_MAP;
          const labels = applyPaths(previousLabels, u.input.labels, 'labels', u.paths);
          // (The wire attributes are made only when the mask does not replace them outright.)
          const attributes = applyPaths(replacedFirst(u.paths, 'attributes') ? EMPTY_MAP : wireAttributes(stored), u.input.attributes, 'attributes', u.paths);
          if (labelsNeedCheck(u.paths)) {
            const labelViolations = schemaViolations('Labels', labels, 'labels');
            if (labelViolations.length > 0) throw invalidArgument(labelViolations);
          }
          const body = storedBody(stored, labels, attributes);
          // The store read `stored` for this change alone: it becomes the asset as written.
          stored.updateTime = time;
          stored.body = body as unknown as Record<string, unknown>;
          updated.push(stored);
          return { labels, previousLabels, body: JSON.stringify(body) };
        }),
    );
    return updated;
  }
}

/**
 * The stored body of `stored` with new labels and attributes, by the rule the import's rows
 * follow (assets.ts `assetRow`): `MachineId` left out when it equals the VM UUID, and `n` set when
 * the user took it out (so that it is not put back from the VM UUID on read).
 */
function storedBody(stored: StoredAsset, labels: Record<string, string>, attributes: Record<string, string>): StoredBody {
  const previous = stored.body as unknown as StoredBody;
  // `attributes` is not changed (it may be the request's map): a copy only to leave MachineId out.
  let a = attributes;
  let removed = false;
  if (stored.vmUuid !== undefined) {
    if (attributes.MachineId === stored.vmUuid) {
      a = { ...attributes };
      delete a.MachineId;
    } else if (attributes.MachineId === undefined) removed = true;
  }
  const body: StoredBody = { a, d: previous.d };
  if (hasKeys(labels)) body.l = labels;
  if (previous.p) body.p = previous.p;
  if (removed) body.n = 1;
  return body;
}
