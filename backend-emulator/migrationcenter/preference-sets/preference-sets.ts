/**
 * Preference sets (`projects/{project}/locations/{location}/preferenceSets/{id}`): the
 * preferences (target product, regions, commitment plan, sizing, machine series, ...) that a
 * report config pairs with a group. The standard methods of resource-collection.ts; the rules of
 * the body are schemas/PreferenceSet.schema.json, every field and enum value of Google's message.
 *
 * Other families refer to a preference set by name (report configs, the location's settings).
 * A reference does not keep its target alive by itself: each family that holds one registers a
 * delete guard (`guardDelete`) saying whether a preference set may go; see docs/migration-center.md.
 */
import type { Store } from '../../store/store';
import type { ServiceOperations } from '../../operations/operations';
import { invalidArgument } from '../../errors';
import { schemaViolations } from '../../http/validation';
import { unknownFieldPath } from '../../../schemas/field-paths';
import type { ListFields } from '../../query/list-query';
import { COLLECTIONS, RESOURCE_TYPES, TYPES } from '../names';
import { ResourceCollection, type CollectionSpec, type NamedResource } from '../resource-collection';

export interface PreferenceSetWire extends NamedResource {
  createTime: string;
  updateTime: string;
  displayName?: string;
  description?: string;
  virtualMachinePreferences?: Record<string, unknown>;
  databasePreferences?: Record<string, unknown>;
  regionPreferences?: { preferredRegions?: string[] };
}

/**
 * Says whether a preference set may be deleted: throws (FAILED_PRECONDITION, naming what uses it)
 * to refuse. Runs inside the delete's transaction.
 */
export type PreferenceSetDeleteGuard = (preferenceSet: PreferenceSetWire) => void;

/** The fields a create or patch body may set (the output-only ones are dropped). */
const INPUT_FIELDS = ['displayName', 'description', 'virtualMachinePreferences', 'databasePreferences', 'regionPreferences'] as const;

export const PREFERENCE_SET_LIST_FIELDS: ListFields<PreferenceSetWire> = {
  scalars: {
    name: (p) => p.name,
    displayName: (p) => p.displayName,
    description: (p) => p.description,
    createTime: (p) => p.createTime,
    updateTime: (p) => p.updateTime,
    'virtualMachinePreferences.targetProduct': (p) => p.virtualMachinePreferences?.targetProduct as string | undefined,
    'virtualMachinePreferences.commitmentPlan': (p) => p.virtualMachinePreferences?.commitmentPlan as string | undefined,
    'virtualMachinePreferences.sizingOptimizationStrategy': (p) => p.virtualMachinePreferences?.sizingOptimizationStrategy as string | undefined,
  },
  name: (p) => p.name,
};

/** Checks a PreferenceSet body against its schema; the accepted fields, output-only ones dropped. */
export function checkPreferenceSetBody(body: Record<string, unknown>): Record<string, unknown> {
  const violations = schemaViolations('PreferenceSet', body);
  if (violations.length > 0) throw invalidArgument(violations);
  const input: Record<string, unknown> = {};
  for (const field of INPUT_FIELDS) if (body[field] !== undefined) input[field] = body[field];
  return input;
}

function preferenceSetSpec(guards: readonly PreferenceSetDeleteGuard[]): CollectionSpec<PreferenceSetWire> {
  return {
    segment: 'preferenceSets',
    idField: 'preferenceSetId',
    storeCollection: COLLECTIONS.preferenceSets,
    resourceType: RESOURCE_TYPES.preferenceSet,
    wireType: TYPES.preferenceSet,
    methodNames: { create: 'createPreferenceSet', update: 'updatePreferenceSet', delete: 'deletePreferenceSet' },
    check: checkPreferenceSetBody,
    updatable: INPUT_FIELDS,
    listFields: PREFERENCE_SET_LIST_FIELDS,
    create: (name, input, time) => ({ name, createTime: time, updateTime: time, ...input }),
    // A patch changes some fields of the stored set: the rules that tie fields together
    // (licenseDiscountPercentage needs SERVICE_TYPE_PORTABLE_LICENSE) are checked on the result too.
    beforeWrite: (preferenceSet) => {
      const { name: _name, createTime: _created, updateTime: _updated, ...fields } = preferenceSet;
      const violations = schemaViolations('PreferenceSet', fields);
      if (violations.length > 0) throw invalidArgument(violations);
    },
    beforeDelete: (preferenceSet) => {
      for (const guard of guards) guard(preferenceSet);
    },
  };
}

export class PreferenceSets extends ResourceCollection<PreferenceSetWire> {
  private readonly guards: PreferenceSetDeleteGuard[];

  constructor(store: Store, ops: ServiceOperations, now?: () => string) {
    const guards: PreferenceSetDeleteGuard[] = [];
    super(preferenceSetSpec(guards), store, ops, now);
    this.guards = guards;
  }

  /**
   * The mask's paths (resource-collection.ts), each a field of Google's message: a dotted path
   * (`virtualMachinePreferences.commitmentPlan`) must name a field of the schema, down to its end.
   */
  override maskedPaths(updateMask: string | undefined): string[] {
    const paths = super.maskedPaths(updateMask);
    for (const path of paths) {
      const unknown = unknownFieldPath('PreferenceSet', path);
      if (unknown !== undefined) {
        throw invalidArgument([{ field: 'updateMask', description: `'${path}' does not name a field of PreferenceSet ('${unknown}' is not one)` }]);
      }
    }
    return paths;
  }

  /** Adds a rule on deleting a preference set (a family that refers to preference sets calls it when built). */
  guardDelete(guard: PreferenceSetDeleteGuard): void {
    this.guards.push(guard);
  }
}
