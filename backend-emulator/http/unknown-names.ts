/**
 * Google's parser's refusal of a body's unknown names: the body's keys walked against its
 * message's shape (message-shapes.ts), keys only. Run by the front end on the request thread
 * (request-bodies.ts) and by the body worker on the large bodies it reads (body-worker.ts), so that
 * a body of millions of unknown keys is refused where it was parsed, never copied to the request
 * thread first.
 */
import { invalidArgument } from '../errors';
import type { MessageShape } from './message-shapes';
import { protoFieldPath } from './protojson';

/** What a method reads its body into: its message's names and where the body sits in the request (RequestBody.at). */
export interface BodyNames {
  readonly shape: MessageShape;
  readonly at: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * At most this many unknown names are named in a refusal (the first of the message, in the body's
 * order), as the schemas name at most 100 failures (schemas/index.ts). Every one was named: an
 * import job's create (a 32 MiB body limit) of 2.6 million unknown keys was answered 505 MB of
 * error after 93 s, the emulator at 3.6 GB; a 1 MiB body of 70,000 keys, 12.5 MB.
 */
export const MAX_UNKNOWN_NAMES = 100;

/** The names of `value` its message has not (or refuses), the first MAX_UNKNOWN_NAMES of them. */
function unknownNames(value: Record<string, unknown>, shape: MessageShape): string[] {
  const { closed, refused } = shape;
  const names: string[] = [];
  if (!closed && refused === undefined) return names;
  for (const key in value) {
    if (closed ? shape.fields.has(key) : !refused!.has(key)) continue;
    if (names.push(key) === MAX_UNKNOWN_NAMES) break;
  }
  return names;
}

/**
 * The first object of `value` (depth first, in the body's order) holding a name its message has
 * not: its path (JSON names) and those names, up to MAX_UNKNOWN_NAMES.
 */
function firstUnknown(value: Record<string, unknown>, shape: MessageShape, path: string): { path: string; names: string[] } | undefined {
  const names = unknownNames(value, shape);
  if (names.length > 0) return { path, names };
  for (const key in value) {
    const field = shape.fields.get(key);
    if (field === undefined) continue;
    const item = value[key];
    const at = path === '' ? key : `${path}.${key}`;
    if (isObject(item)) {
      const found = firstUnknown(item, field, at);
      if (found) return found;
    } else if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        const element: unknown = item[i];
        if (!isObject(element)) continue;
        const found = firstUnknown(element, field, `${at}[${i}]`);
        if (found) return found;
      }
    }
  }
  return undefined;
}

/**
 * Throws Google's INVALID_ARGUMENT when `body` holds a name `shape` has not, at any depth (the
 * first such object's names, each a BadRequest violation on its proto path); returns otherwise,
 * and for a body that is no object (the route's to refuse). `at` is where the body sits in the
 * request message (RequestBody.at).
 */
export function refuseUnknownNames(body: unknown, shape: MessageShape, at: string): void {
  if (!isObject(body)) return;
  const found = firstUnknown(body, shape, '');
  if (!found) return;
  const where = [at, protoFieldPath(found.path)].filter((p) => p !== '').join('.');
  // Google's message gives each name a line of its own, each line the parser's whole sentence.
  const sentence = (name: string) => `Invalid JSON payload received. Unknown name ${JSON.stringify(name)}${where ? ` at '${where}'` : ''}: Cannot find field.`;
  const sentences = found.names.map(sentence);
  throw invalidArgument(
    sentences.map((description) => ({ field: where, description })),
    sentences.join('\n'),
  );
}
