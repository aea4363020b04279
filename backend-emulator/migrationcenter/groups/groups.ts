/**
 * Groups (`projects/{project}/locations/{location}/groups/{group}`): named sets of assets that
 * report configs price. The standard methods are the shared collection's (resource-collection.ts);
 * the members are not in the group's document but in the asset store's membership table
 * (store/sqlite-assets.ts `asset_members`), so that an asset answers its `assignedGroups`, assets
 * are listed by group (`assignedGroups:GROUP`) and reports aggregate a group's assets in SQL, at
 * hundreds of thousands of assets.
 *
 *   :addAssets    {assets: {assetIds}, allowExisting, requestId}  -> Operation (done; response Group)
 *   :removeAssets {assets: {assetIds}, allowMissing, requestId}   -> Operation (done; response Group)
 *
 * Assets are named in full (`projects/p/locations/l/assets/a`), in the group's location. Every
 * asset of a request is checked before any membership changes: an unknown asset is NOT_FOUND, an
 * asset already a member (addAssets without `allowExisting`) ALREADY_EXISTS, an asset not a member
 * (removeAssets without `allowMissing`) NOT_FOUND; each names the first offending asset.
 */
import type { Store } from '../../store/store';
import type { ServiceOperations, Operation } from '../../operations/operations';
import { requestHash } from '../../operations/request-ids';
import { alreadyExists, invalidArgument, notFound, type FieldViolation } from '../../errors';
import type { ListFields } from '../../query/list-query';
import { COLLECTIONS, RESOURCE_TYPES, TYPES, parentOf } from '../names';
import { schemaFailures } from '../schemas-bridge';
import { checkRequestId } from '../request-id-rule';
import { ResourceCollection, type CollectionSpec } from '../resource-collection';

export interface GroupWire {
  name: string;
  createTime: string;
  updateTime: string;
  displayName?: string;
  description?: string;
  labels?: Record<string, string>;
}

const OUTPUT_ONLY = ['name', 'createTime', 'updateTime'] as const;

export const GROUP_LIST_FIELDS: ListFields<GroupWire> = {
  scalars: {
    name: (g) => g.name,
    displayName: (g) => g.displayName,
    description: (g) => g.description,
    createTime: (g) => g.createTime,
    updateTime: (g) => g.updateTime,
  },
  maps: { labels: (g) => g.labels },
  name: (g) => g.name,
};

/** Checks a Group body against Group.schema.json; returns its input fields (output-only ones dropped). */
export function checkGroupBody(body: Record<string, unknown>): Record<string, unknown> {
  const violations: FieldViolation[] = schemaFailures('Group', body);
  if (violations.length > 0) throw invalidArgument(violations);
  const input: Record<string, unknown> = { ...body };
  for (const field of OUTPUT_ONLY) delete input[field];
  return input;
}

export const GROUP_SPEC: CollectionSpec<GroupWire> = {
  segment: 'groups',
  idField: 'groupId',
  storeCollection: COLLECTIONS.groups,
  resourceType: RESOURCE_TYPES.group,
  wireType: TYPES.group,
  methodNames: { create: 'createGroup', update: 'updateGroup', delete: 'deleteGroup' },
  check: checkGroupBody,
  updatable: ['displayName', 'description', 'labels'],
  listFields: GROUP_LIST_FIELDS,
  create(name, input, time) {
    return {
      name,
      createTime: time,
      updateTime: time,
      ...(input.displayName !== undefined ? { displayName: input.displayName as string } : {}),
      ...(input.description !== undefined ? { description: input.description as string } : {}),
      ...(input.labels !== undefined ? { labels: input.labels as Record<string, string> } : {}),
    };
  },
};

interface MembersRequest {
  assets: { assetIds: string[] };
  allowExisting?: boolean;
  allowMissing?: boolean;
  requestId?: string;
}

export class Groups extends ResourceCollection<GroupWire> {
  constructor(store: Store, ops: ServiceOperations, now?: () => string) {
    super(
      {
        ...GROUP_SPEC,
        // A deleted group's memberships go with it, in the delete's transaction.
        beforeDelete: (group) => {
          store.assets.dropGroup(group.name);
        },
      },
      store,
      ops,
      now,
    );
  }

  /** AddAssetsToGroup: every asset must exist; a member already is ALREADY_EXISTS unless `allowExisting`. */
  addAssets(name: string, location: string, body: Record<string, unknown>): Operation {
    return this.changeMembers('addAssets', name, location, body);
  }

  /** RemoveAssetsFromGroup: every asset must exist; a non-member is NOT_FOUND unless `allowMissing`. */
  removeAssets(name: string, location: string, body: Record<string, unknown>): Operation {
    return this.changeMembers('removeAssets', name, location, body);
  }

  /** How many assets the group has (the console and the tests read it). */
  memberCount(name: string): number {
    return this.store.assets.memberCount(name);
  }

  private changeMembers(verb: 'addAssets' | 'removeAssets', name: string, location: string, body: Record<string, unknown>): Operation {
    const schema = verb === 'addAssets' ? 'AddAssetsToGroupRequest' : 'RemoveAssetsFromGroupRequest';
    const violations = schemaFailures(schema, body);
    if (violations.length > 0) throw invalidArgument(violations);
    const request = body as unknown as MembersRequest;
    const checkedRequest = checkRequestId(request.requestId);
    const aids = assetIdsOf(request.assets.assetIds, location);
    const allow = verb === 'addAssets' ? request.allowExisting === true : request.allowMissing === true;
    const hash = requestHash(verb === 'addAssets' ? 'addAssetsToGroup' : 'removeAssetsFromGroup', name, { aids, allow });
    return this.ops.write({ parent: location, target: name, verb, responseType: TYPES.group, requestId: checkedRequest, requestHash: hash }, () => {
      const group = this.get(name);
      const { unknown, members } = this.store.assets.membership(name, location, aids);
      if (unknown.length > 0) throw notFound(RESOURCE_TYPES.asset, `${location}/assets/${unknown[0]}`);
      if (verb === 'addAssets') {
        if (!allow && members.length > 0) throw alreadyExists(RESOURCE_TYPES.asset, `${location}/assets/${members[0]}`);
        this.store.assets.addMembers(name, location, aids);
      } else {
        const memberSet = new Set(members);
        const missing = aids.find((aid) => !memberSet.has(aid));
        if (!allow && missing !== undefined) throw notFound(RESOURCE_TYPES.asset, `${location}/assets/${missing}`);
        this.store.assets.removeMembers(name, location, aids);
      }
      return this.replace(group);
    });
  }
}

/**
 * The asset ids of `assetIds`, each a full asset name of the group's location, repeated names once
 * (Google does not say how it treats them: a name given twice counts as given once).
 */
function assetIdsOf(names: string[], location: string): string[] {
  const prefix = `${location}/assets/`;
  const out = new Set<string>();
  names.forEach((assetName, i) => {
    const id = assetName.startsWith(prefix) ? assetName.slice(prefix.length) : '';
    if (!id || id.includes('/') || parentOf(assetName) !== location) {
      throw invalidArgument([{ field: `assets.assetIds[${i}]`, description: `must be the name of an asset of the group's location: ${prefix}{asset}` }]);
    }
    out.add(id);
  });
  return [...out];
}
