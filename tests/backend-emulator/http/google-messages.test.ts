/**
 * The request messages the front end checks a body's names against, held to Google's: the table
 * generated from Google's clients (scripts/google-messages.ts) is the one the script makes now, and
 * every body the emulator declares, in every API version, has at every depth the names Google's
 * message has and no more (our schemas' closed messages as they are, the open ones closed from
 * Google's table), with maps and `Struct`/`Any` fields open to any key.
 */
import { GOOGLE_MESSAGES } from '../../../backend-emulator/http/google-messages-table';
import { googleMessages, kindMessage } from '../../../backend-emulator/http/google-messages';
import type { MessageShape } from '../../../backend-emulator/http/message-shapes';
import { googleClosedBody, type RequestBodyTable } from '../../../backend-emulator/http/request-bodies';
import { requestBodyTable } from '../../../backend-emulator/migrationcenter/request-bodies';
import { V1, V1ALPHA1 } from '../../../backend-emulator/migrationcenter/wire-version';
import { NETWORK_SERVICES_BODIES } from '../../../backend-emulator/networkservices/request-bodies';
import { versionMessages } from '../../../scripts/google-messages';

const TABLES: RequestBodyTable[] = [NETWORK_SERVICES_BODIES, requestBodyTable(V1ALPHA1), requestBodyTable(V1)];

/**
 * Where our messages knowingly differ from Google's, each with its reason (docs/emulator.md's known
 * differences): `Message.field` our shape has and Google's message has not.
 */
const KNOWN_EXTRA = [
  // google.longrunning.CancelOperationRequest's `name` is bound to the path, so the discovery's
  // message lists no field; the proto's body "*" still reads a `name` sent in the body.
  'migrationcenter v1alpha1 CancelOperationRequest.name',
  'migrationcenter v1 CancelOperationRequest.name',
  'networkservices v1 CancelOperationRequest.name',
  // `isManaged` as @pulumi/google-native spells it (schemas/Source.schema.json), taken on v1alpha1.
  'migrationcenter v1alpha1 Source.managed',
];

/** Every difference between `shape` (Google's message `name`) and Google's message, at every depth (each message once). */
function differences(key: string, shape: MessageShape | undefined, name: string, seen: Set<MessageShape>, out: string[]): void {
  const google = GOOGLE_MESSAGES[key].messages[name];
  if (shape === undefined || !shape.closed) {
    out.push(`${key} ${name} is open`);
    return;
  }
  if (seen.has(shape)) return;
  seen.add(shape);
  for (const field of shape.fields.keys()) if (!Object.hasOwn(google, field)) out.push(`${key} ${name}.${field}`);
  for (const field of Object.keys(google)) if (!shape.fields.has(field)) out.push(`${key} ${name} lacks ${field}`);
  for (const [field, child] of shape.fields) {
    const kind = google[field];
    const message = kindMessage(kind);
    if (message !== undefined) differences(key, child, message, seen, out);
    else if (kind !== undefined && kind !== 'any' && child !== undefined) out.push(`${key} ${name}.${field} is a message, Google's a ${kind || 'value'}`);
  }
}

test('the committed table is what scripts/google-messages.ts makes of the two clients (regenerate it when a client changes)', () => {
  for (const key of Object.keys(GOOGLE_MESSAGES)) {
    const [api, version] = key.split(' ');
    expect(JSON.parse(JSON.stringify(GOOGLE_MESSAGES[key]))).toEqual(versionMessages(api, version));
  }
  expect(Object.keys(GOOGLE_MESSAGES)).toEqual(['networkservices v1', 'migrationcenter v1alpha1', 'migrationcenter v1']);
});

test("every body the emulator declares is Google's message at every depth: its names and no more, but for the known differences", () => {
  const found: string[] = [];
  let bodies = 0;
  for (const table of TABLES) {
    const google = googleMessages(table.api, table.version)!;
    for (const [id, body] of Object.entries(table.bodies)) {
      const message = google.bodies[id];
      // v1 has no report export jobs: the stored table's rows are declared, no route is.
      if (message === undefined) continue;
      bodies++;
      differences(`${table.api} ${table.version}`, googleClosedBody(table, id, body).message(), message, new Set(), found);
    }
  }
  // Network Services 5, Migration Center v1alpha1 29, v1 27 (the 29 but report export jobs' two).
  expect(bodies).toBe(61);
  expect([...new Set(found)].sort()).toEqual([...KNOWN_EXTRA].sort());
});

test('no message a declared body reaches holds a map of messages (google-messages.ts takes one as a value)', () => {
  const maps: string[] = [];
  for (const key of Object.keys(GOOGLE_MESSAGES)) {
    for (const [name, fields] of Object.entries(GOOGLE_MESSAGES[key].messages)) {
      for (const [field, kind] of Object.entries(fields)) if (kind.startsWith('map<')) maps.push(`${key} ${name}.${field}`);
    }
  }
  // WasmPlugin's versions (Network Services), a message no route of the emulator takes.
  expect(maps).toEqual(['networkservices v1 WasmPlugin.versions']);
});
