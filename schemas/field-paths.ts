/**
 * Field paths (`virtualMachinePreferences.computeEnginePreferences.licenseType`) read against a
 * schema: what an `updateMask` may name. A path goes through message fields (objects with
 * `properties`, following `$ref`s to `$defs` and to other schemas of the registry); it may end on
 * any field, but cannot go into a list, a map or a scalar.
 */
import { ALL_SCHEMAS, type JsonSchema, type SchemaName } from './registry';

type Node = Record<string, unknown>;

const SCHEMA_BASE = 'https://google-native-local.dev/schemas/';

function resolve(node: Node, root: JsonSchema): { node: Node; root: JsonSchema } {
  let current = node;
  let currentRoot = root;
  while (typeof current.$ref === 'string') {
    const [file, pointer] = current.$ref.split('#');
    if (file) {
      const target = ALL_SCHEMAS.find((s) => s.$id === `${SCHEMA_BASE}${file}`);
      if (!target) throw new Error(`unknown schema reference ${current.$ref}`);
      currentRoot = target;
    }
    let next: unknown = currentRoot;
    for (const part of (pointer ?? '').split('/').filter(Boolean)) next = (next as Node | undefined)?.[part];
    if (!next || typeof next !== 'object') throw new Error(`unresolved schema reference ${current.$ref}`);
    current = next as Node;
  }
  return { node: current, root: currentRoot };
}

/**
 * The first segment of `path` that is not a field of the named schema (with the part of the path
 * before it), or undefined when the whole path names a field.
 */
export function unknownFieldPath(name: SchemaName, path: string): string | undefined {
  const root = ALL_SCHEMAS.find((s) => s.title === name);
  if (!root) throw new Error(`unknown schema ${name}`);
  let at: { node: Node; root: JsonSchema } = { node: root, root };
  const segments = path.split('.');
  for (let i = 0; i < segments.length; i++) {
    const properties = at.node.properties as Record<string, Node> | undefined;
    const field = properties && Object.prototype.hasOwnProperty.call(properties, segments[i]) ? properties[segments[i]] : undefined;
    if (!field) return segments.slice(0, i + 1).join('.');
    at = resolve(field, at.root);
  }
  return undefined;
}
