/**
 * Relations (`{location}/relations/{relation}`, v1alpha1 `relations.get`/`list`): links between two
 * assets (`srcAsset`, `dstAsset`, `type`), which Google derives from what collectors report.
 *
 * No message a client sends carries one: Google's newest client (googleapis revision 188) has no
 * relation field in AssetFrame, Asset or any import format, and no method that creates one. So
 * nothing in the emulator can make a relation: the list is always empty and a get is NOT_FOUND,
 * with Google's list rules all the same (filter and orderBy over Relation's fields, page tokens).
 * docs/migration-center.md lists this among the known differences.
 */
import { invalidArgument } from '../../errors';
import type { ServiceOperations } from '../../operations/operations';
import type { Store } from '../../store/store';
import { ResourceCollection, type CollectionSpec } from '../resource-collection';
import { COLLECTIONS, RESOURCE_TYPES, TYPES } from '../names';

export interface RelationWire {
  name: string;
  createTime?: string;
  srcAsset?: string;
  dstAsset?: string;
  type?: string;
}

const SPEC: CollectionSpec<RelationWire> = {
  segment: 'relations',
  idField: 'relationId',
  storeCollection: COLLECTIONS.relations,
  resourceType: RESOURCE_TYPES.relation,
  wireType: TYPES.relation,
  methodNames: { create: 'createRelation', update: 'updateRelation', delete: 'deleteRelation' },
  // Relations are read-only on Google (get and list only): the routes serve no write.
  check() {
    throw invalidArgument([{ field: '', description: 'relations cannot be written' }]);
  },
  updatable: [],
  listFields: {
    scalars: {
      name: (r) => r.name,
      createTime: (r) => r.createTime,
      srcAsset: (r) => r.srcAsset,
      dstAsset: (r) => r.dstAsset,
      type: (r) => r.type,
    },
    name: (r) => r.name,
  },
  create(name, _input, time) {
    return { name, createTime: time };
  },
};

export class Relations extends ResourceCollection<RelationWire> {
  constructor(store: Store, ops: ServiceOperations) {
    super(SPEC, store, ops);
  }
}
