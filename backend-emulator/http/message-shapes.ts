/**
 * The names of a request message, as Google's JSON parser knows them: a tree of the message's
 * fields, each either a message of its own (whose names are checked in turn, in every item of a
 * list) or a value (a scalar, an enum, a map, a list of scalars: its inner keys are data, never
 * names). The front end refuses a body's names against it (request-bodies.ts).
 *
 * A shape is read from the request's JSON Schema (`schemaShape`: the schemas are the one source of
 * the emulator's input rules) or written where no schema covers the message (`messageShape`).
 */
import type { JsonSchema, SchemaName } from '../../schemas/registry';

export interface MessageShape {
  /** Each field's JSON name -> its message, or undefined for a value. */
  readonly fields: ReadonlyMap<string, MessageShape | undefined>;
  /** Whether a name not in `fields` is refused (a message); false for an open object. */
  readonly closed: boolean;
  /** Names refused even in an open object (an API version's message lacks them: request-bodies.ts of Migration Center). */
  readonly refused?: ReadonlySet<string>;
}

/** A field holding a value (scalar, enum, map, list of scalars), for `messageShape`. */
export const VALUE = undefined;

/** A message of the fields given (JSON names). */
export function messageShape(fields: Readonly<Record<string, MessageShape | undefined>>): MessageShape {
  return { fields: new Map(Object.entries(fields)), closed: true };
}

/** `build` made once, at its first call (a table's shapes are built when a body first needs them, then kept). */
export function lazyShape(build: () => MessageShape): () => MessageShape {
  let shape: MessageShape | undefined;
  return () => (shape ??= build());
}

/** `shape` with its field at `path` (JSON names, dotted) made `field`: a message the schema leaves open. */
export function withField(shape: MessageShape, path: string, field: MessageShape): MessageShape {
  const [head, ...rest] = path.split('.');
  const current = shape.fields.get(head);
  const next = rest.length === 0 ? field : withField(current ?? messageShape({}), rest.join('.'), field);
  return { ...shape, fields: new Map([...shape.fields, [head, next]]) };
}

type Node = Record<string, unknown>;

let schemasById: Map<string, JsonSchema> | undefined;

/** The schemas by file (`Asset.json`), read on the first shape asked for (not at start-up). */
function schemaFile(file: string): JsonSchema {
  if (!schemasById) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { ALL_SCHEMAS } = require('../../schemas/registry') as typeof import('../../schemas/registry');
    schemasById = new Map(ALL_SCHEMAS.map((s) => [s.$id.slice(s.$id.lastIndexOf('/') + 1), s]));
  }
  const schema = schemasById.get(file);
  if (!schema) throw new Error(`no schema ${file}`);
  return schema;
}

/** `Foo.json#/properties/x` (or `#/$defs/x` inside `file`) -> the node and its file. */
function resolveRef(ref: string, file: string): { node: Node; file: string } {
  const [target, pointer = ''] = ref.split('#');
  const at = target === '' ? file : target;
  let node: unknown = schemaFile(at);
  for (const part of pointer.split('/').filter((p) => p !== '')) node = (node as Node)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return { node: node as Node, file: at };
}

/**
 * The shape a schema node gives its value: a message where it lists properties or closes itself
 * (`additionalProperties: false`, as Ajv refuses other names), the items' shape for a list, a value
 * otherwise. Built once per node (shared nodes, the schemas' `$ref`s, are built once).
 */
function nodeShape(node: Node, file: string, built: Map<Node, MessageShape | undefined>): MessageShape | undefined {
  if (typeof node.$ref === 'string') {
    const target = resolveRef(node.$ref, file);
    return nodeShape(target.node, target.file, built);
  }
  if (built.has(node)) return built.get(node);
  if (node.items !== undefined && typeof node.items === 'object') return nodeShape(node.items as Node, file, built);
  const properties = node.properties as Record<string, Node> | undefined;
  const closed = node.additionalProperties === false;
  if (properties === undefined && !closed) return undefined;
  const fields = new Map<string, MessageShape | undefined>();
  const shape: MessageShape = { fields, closed };
  built.set(node, shape);
  for (const [name, child] of Object.entries(properties ?? {})) fields.set(name, nodeShape(child, file, built));
  return shape;
}

const schemaShapes = new Map<SchemaName, MessageShape>();

/** The names the schema `name` gives a message (the same names Ajv accepts in it, at every depth). */
export function schemaShape(name: SchemaName): MessageShape {
  let shape = schemaShapes.get(name);
  if (!shape) {
    const file = `${name}.json`;
    shape = nodeShape(schemaFile(file), file, new Map()) ?? messageShape({});
    schemaShapes.set(name, shape);
  }
  return shape;
}
