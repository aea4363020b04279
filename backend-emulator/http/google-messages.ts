/**
 * Google's own request messages, as shapes (message-shapes.ts), read from the table generated
 * from Google's clients (google-messages-table.ts, scripts/google-messages.ts). Our shapes come
 * from our JSON Schemas, which leave some messages open (an output-only report, a summary, an
 * object taken as any): Google's parser still refuses an unknown name in them, so every message a
 * schema leaves open is closed here to the names Google's message has, at every depth
 * (`closedByGoogle`, applied by request-bodies.ts to every declared body). Maps keep their keys
 * open (they are data) and `Struct`, `Value` and `Any` stay open, as on Google.
 */
import type { MessageShape } from './message-shapes';
import { GOOGLE_MESSAGES, type GoogleVersionMessages } from './google-messages-table';

/** The messages of an API version (`migrationcenter`, `v1alpha1`), or undefined when the table has none. */
export function googleMessages(api: string, version: string): GoogleVersionMessages | undefined {
  return GOOGLE_MESSAGES[`${api} ${version}`];
}

/** The message a field's kind names ('Asset'; a list of them alike), or undefined for a value, a map or an open message. */
export function kindMessage(kind: string | undefined): string | undefined {
  return kind === undefined || kind === '' || kind === 'map' || kind === 'any' || kind.startsWith('map<') ? undefined : kind;
}

const shapesByTable = new WeakMap<GoogleVersionMessages, Map<string, MessageShape>>();

/**
 * Google's message `name` as a shape: closed to its fields, each a message of its own or a value.
 * A map of messages (`map<Name>`) is taken as a value: no request body the emulator reads holds
 * one (tests/backend-emulator/http/google-messages.test.ts checks it).
 */
export function googleShape(table: GoogleVersionMessages, name: string): MessageShape {
  let built = shapesByTable.get(table);
  if (!built) shapesByTable.set(table, (built = new Map()));
  const known = built.get(name);
  if (known) return known;
  const message = table.messages[name];
  if (!message) throw new Error(`Google has no message ${name}`);
  const fields = new Map<string, MessageShape | undefined>();
  const shape: MessageShape = { fields, closed: true };
  built.set(name, shape);
  for (const [field, kind] of Object.entries(message)) {
    const child = kindMessage(kind);
    fields.set(field, child === undefined ? undefined : googleShape(table, child));
  }
  return shape;
}

/**
 * `shape` (a body's message, Google's `name`) with every message it leaves open, or takes as a
 * value where Google has a message, made Google's: closed to Google's names at every depth. What
 * the shape closes itself stays as it is (our schemas' names; the test holds them to Google's).
 */
export function closedByGoogle(shape: MessageShape, table: GoogleVersionMessages, name: string): MessageShape {
  return close(shape, table, name, new Map());
}

function close(shape: MessageShape | undefined, table: GoogleVersionMessages, name: string, done: Map<MessageShape, Map<string, MessageShape>>): MessageShape {
  if (shape === undefined || !shape.closed) return googleShape(table, name);
  let byName = done.get(shape);
  const known = byName?.get(name);
  if (known) return known;
  if (!byName) done.set(shape, (byName = new Map()));
  const fields = new Map<string, MessageShape | undefined>();
  const closed: MessageShape = { fields, closed: true };
  byName.set(name, closed);
  const google = table.messages[name] ?? {};
  for (const [field, child] of shape.fields) {
    const message = kindMessage(google[field]);
    fields.set(field, message === undefined ? child : close(child, table, message, done));
  }
  return closed;
}
