/**
 * The asset fields that a list's filter and orderBy and `aggregateValues` name, in the names of the
 * version a request came through: the store's fields (store/asset-store.ts ASSET_FIELDS, v1alpha1
 * paths) written through the version's table (field-paths.ts over wire-version.ts and
 * machine-details.ts), so that no second list of paths exists. In v1, `machineDetails.coreCount`
 * is the stored `virtualMachineDetails.coreCount` and `machineDetails.guestOs.family` its
 * `osFamily`; a v1alpha1 path is an unknown field there, as any name v1's Asset has not.
 *
 * An enum whose values v1 spells otherwise (`machineDetails.powerState`: `ACTIVE` is the stored
 * `poweredOn`) is compared, and counted by `frequency`, in the version's values.
 */
import { ASSET_FIELDS, type AssetFieldType } from '../../store/asset-store';
import { knownFilterFields } from '../../store/asset-sql';
import { filterError, own, parseOrderText, type FilterNode } from '../../query/list-query';
import { versionField } from '../field-paths';
import { servedVersion } from '../version-translation';
import { storedEnumValues, V1ALPHA1, type EnumDifference, type WireVersion } from '../wire-version';

export interface AssetFieldPaths {
  /** Every field in the version's names, with its type. */
  readonly types: Readonly<Record<string, AssetFieldType>>;
  /** The version's name of a stored field (ASSET_FIELDS' key). */
  readonly wire: ReadonlyMap<string, string>;
  /** The stored field of a version's name. */
  readonly stored: ReadonlyMap<string, string>;
  /** How a stored field's enum values differ in the version. */
  readonly enums: ReadonlyMap<string, EnumDifference>;
}

const byVersion = new WeakMap<WireVersion, AssetFieldPaths>();

/** The asset fields in `version`'s names (the served request's version by default; v1alpha1 outside a request). */
export function assetFieldPaths(version: WireVersion = servedVersion() ?? V1ALPHA1): AssetFieldPaths {
  const known = byVersion.get(version);
  if (known) return known;
  const types: Record<string, AssetFieldType> = {};
  const wire = new Map<string, string>();
  const stored = new Map<string, string>();
  const enums = new Map<string, EnumDifference>();
  for (const [field, type] of Object.entries(ASSET_FIELDS)) {
    const found = versionField(version, 'Asset', field);
    if (found === undefined) continue;
    types[found.path] = type;
    wire.set(field, found.path);
    stored.set(found.path, field);
    if (found.enumDiff) enums.set(field, found.enumDiff);
  }
  const paths = { types, wire, stored, enums };
  byVersion.set(version, paths);
  return paths;
}

/** Fields every version spells alike, which the store reads itself (maps and lists of names). */
function passesAsItIs(field: string): boolean {
  return field === 'labels' || field.startsWith('labels.') || field === 'sources' || field === 'assignedGroups';
}

/** A filter in the version's names -> the same filter on the stored fields (INVALID_ARGUMENT for a field the version has not). */
export function storedFilter(paths: AssetFieldPaths, node: FilterNode): FilterNode {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { kind: node.kind, left: storedFilter(paths, node.left), right: storedFilter(paths, node.right) };
    case 'not':
      return { kind: 'not', inner: storedFilter(paths, node.inner) };
    case 'cmp': {
      if (passesAsItIs(node.field)) return node;
      const field = paths.stored.get(node.field);
      if (field === undefined) throw filterError(`unknown field '${node.field}' (known: ${knownFilterFields(Object.keys(paths.types))})`);
      const enumDiff = paths.enums.get(field);
      return enumDiff ? enumComparison(node, field, enumDiff) : { ...node, field };
    }
  }
}

/**
 * A comparison of an enum the version spells otherwise: its value becomes the stored values it
 * stands for (`SUSPENDED`: `poweredOff` or `suspended`); the enum's zero value, an unset field.
 */
function enumComparison(node: Extract<FilterNode, { kind: 'cmp' }>, field: string, enumDiff: EnumDifference): FilterNode {
  const { op, value } = node;
  if (op === ':' && value === '*') return { ...node, field };
  if ((op !== '=' && op !== ':' && op !== '!=') || value.includes('*')) {
    throw filterError(`${node.field} is an enum: compare it with =, : or != and one of its values`);
  }
  const stored = storedEnumValues(enumDiff, value);
  if (stored === undefined) throw filterError(`'${value}' is not a value of ${node.field}`);
  const storedValues = stored.length > 0 ? stored : [''];
  const cmp = (v: string): FilterNode => ({ kind: 'cmp', field, op: op === '!=' ? '!=' : '=', value: v, wildcard: false });
  return storedValues.map(cmp).reduce((left, right) => ({ kind: op === '!=' ? 'and' : 'or', left, right }));
}

/** An orderBy in the version's names -> the ordering on the stored fields (list-query.ts' rules and errors). */
export function storedOrder(paths: AssetFieldPaths, text: string | undefined): Array<{ field: string; desc: boolean }> {
  return parseOrderText(text, paths.types).map((o) => ({ field: paths.stored.get(o.field) as string, desc: o.desc }));
}

/** A stored field's type under its name in the version, or undefined when the version has no such field. */
export function storedFieldOf(paths: AssetFieldPaths, field: string): { field: string; type: AssetFieldType } | undefined {
  const storedField = paths.stored.get(field);
  const type = storedField === undefined ? undefined : own(ASSET_FIELDS, storedField);
  return storedField === undefined || type === undefined ? undefined : { field: storedField, type };
}
