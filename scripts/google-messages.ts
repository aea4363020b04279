/**
 * Regenerates backend-emulator/http/google-messages-table.ts: for each API version the emulator
 * serves, the message each method reads its body into and every message below it, field by field,
 * read from Google's generated Node clients (the `Schema$...` interfaces and the methods'
 * `requestBody?: Schema$...` of `Params$...`, `.d.ts`): the revision the project pins
 * (`googleapis`) and the newest (`googleapis-latest`), merged, so that a field either revision has
 * is known. The front end closes the request messages our schemas leave open with it, and a test
 * checks our schemas' messages against it (tests/backend-emulator/http/google-messages.test.ts).
 *
 *   npx ts-node --transpile-only scripts/google-messages.ts
 *
 * A field is written as what Google's JSON parser makes of its names: '' a value (scalar, enum,
 * list of scalars), 'map' a map of values (its keys are data), 'any' a `google.protobuf.Struct`,
 * `Value` or `Any` (any names), a message's name (a message, or a list of them) or `map<Name>` (a
 * map whose values are that message).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { APIS as CLIENT_APIS, CLIENT_PACKAGES, clientMethods } from './google-methods';

const ROOT = path.join(__dirname, '..');
const TARGET = path.join(ROOT, 'backend-emulator', 'http', 'google-messages-table.ts');

type Fields = Record<string, string>;

/** One field's type text (`Schema$Asset[]`, `{ [key: string]: string; } | null`) -> its kind. */
function fieldKind(type: string): string {
  const text = type.replace(/\s+/g, ' ').trim();
  const map = /^\{ \[key: string\]: (.+); \}( \| null)?$/.exec(text);
  if (map) {
    const value = map[1];
    if (value === 'any') return 'any';
    const message = /^Schema\$(\w+)$/.exec(value);
    return message ? `map<${message[1]}>` : 'map';
  }
  if (/^Array<\{ \[key: string\]: any; \}>( \| null)?$/.test(text)) return 'any';
  const message = /^Schema\$(\w+)(\[\])?$/.exec(text);
  if (message) return message[1];
  if (/^(string|number|boolean)(\[\])?( \| null)?$/.test(text)) return '';
  throw new Error(`unexpected field type ${text}`);
}

/** Every `Schema$X` interface of a client's `.d.ts`: X -> its fields' kinds. */
function parseMessages(declarations: string): Map<string, Fields> {
  const out = new Map<string, Fields>();
  for (const m of declarations.matchAll(/^ {4}export interface Schema\$(\w+) \{\n([\s\S]*?)^ {4}\}/gm)) {
    const fields: Fields = {};
    // A field: its name at 8 spaces, then its type up to the `;` that ends it at the same depth.
    for (const f of m[2].matchAll(/^ {8}'?([\w@.]+)'?\??: ([\s\S]*?);\n(?= {8}(?:\/\*\*|[\w'])|$)/gm)) fields[f[1]] = fieldKind(f[2]);
    out.set(m[1], fields);
  }
  return out;
}

/** `migrationcenter.projects.locations.assets.reportAssetFrames` -> `Params$Resource$Projects$Locations$Assets$Reportassetframes`. */
function paramsInterface(id: string): string {
  const parts = id.split('.').slice(1);
  return `Params$Resource$${parts.map((p) => p[0].toUpperCase() + p.slice(1).toLowerCase()).join('$')}`;
}

/** Every `Params$...` interface's request body message, if it has one. */
function parseBodies(declarations: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of declarations.matchAll(/^ {4}export interface (Params\$[\w$]+) extends StandardParameters \{([\s\S]*?)^ {4}\}/gm)) {
    const body = /^ {8}requestBody\?: Schema\$(\w+);/m.exec(m[2]);
    if (body) out.set(m[1], body[1]);
  }
  return out;
}

export interface VersionMessages {
  /** Method id -> the message its body is read into. */
  bodies: Record<string, string>;
  /** Message name -> field -> kind (only the messages reachable from a body). */
  messages: Record<string, Fields>;
}

/** One API version's bodies and messages, merged over the client packages (a field either has is known). */
export function versionMessages(api: string, version: string, packages = CLIENT_PACKAGES): VersionMessages {
  const messages = new Map<string, Fields>();
  const bodies: Record<string, string> = {};
  const root = CLIENT_APIS.find(([a, v]) => a === api && v === version)?.[2];
  if (root === undefined) throw new Error(`no client of ${api} ${version}`);
  for (const pkg of packages) {
    const ids = clientMethods(pkg, api, version, root).map(([, , id]) => id);
    const file = path.join(ROOT, 'node_modules', pkg, 'build', 'src', 'apis', api, `${version}.d.ts`);
    if (!fs.existsSync(file)) continue;
    const declarations = fs.readFileSync(file, 'utf8');
    for (const [name, fields] of parseMessages(declarations)) messages.set(name, { ...messages.get(name), ...fields });
    const byInterface = parseBodies(declarations);
    for (const id of ids) {
      const body = byInterface.get(paramsInterface(id));
      if (body) bodies[id] = body;
    }
  }
  const reachable: Record<string, Fields> = {};
  const visit = (name: string): void => {
    if (Object.hasOwn(reachable, name)) return;
    const fields = messages.get(name);
    if (!fields) throw new Error(`${api} ${version}: no message ${name}`);
    reachable[name] = Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1)));
    for (const kind of Object.values(fields)) {
      const message = /^(?:map<)?(\w+)>?$/.exec(kind)?.[1];
      if (message && message !== 'map' && message !== 'any') visit(message);
    }
  };
  for (const body of Object.values(bodies).sort()) visit(body);
  const sorted = Object.fromEntries(Object.entries(reachable).sort(([a], [b]) => (a < b ? -1 : 1)));
  return { bodies: Object.fromEntries(Object.entries(bodies).sort(([a], [b]) => (a < b ? -1 : 1))), messages: sorted };
}

function render(tables: Record<string, VersionMessages>, packages: string[]): string {
  return [
    '/**',
    ' * Generated by `npx ts-node --transpile-only scripts/google-messages.ts` from the googleapis',
    ` * clients (${packages.join(', ')}): per API version, the message each method reads its body into`,
    " * and every message below them, each field as Google's parser reads its names: '' a value, 'map' a",
    " * map of values, 'any' a Struct, Value or Any, a message's name, `map<Name>` a map of messages.",
    ' * Do not edit by hand.',
    ' */',
    'export interface GoogleVersionMessages {',
    '  readonly bodies: Readonly<Record<string, string>>;',
    '  readonly messages: Readonly<Record<string, Readonly<Record<string, string>>>>;',
    '}',
    '',
    '/** By `api version` (`migrationcenter v1alpha1`). */',
    `export const GOOGLE_MESSAGES: Readonly<Record<string, GoogleVersionMessages>> = ${JSON.stringify(tables, null, 2)};`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const packages = CLIENT_PACKAGES.filter((pkg) => fs.existsSync(path.join(ROOT, 'node_modules', pkg, 'package.json')));
  const versions = packages.map(
    (pkg) => `${pkg}@${(JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version}`,
  );
  const tables: Record<string, VersionMessages> = {};
  for (const [api, version] of CLIENT_APIS) tables[`${api} ${version}`] = versionMessages(api, version, packages);
  // Written as Prettier would write it, so that `npm run format -- --check` passes as generated.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const prettier = require('prettier') as typeof import('prettier');
  const text = await prettier.format(render(tables, versions), { ...(await prettier.resolveConfig(TARGET)), filepath: TARGET });
  fs.writeFileSync(TARGET, text);
  const count = Object.values(tables).reduce((n, t) => n + Object.keys(t.messages).length, 0);
  console.log(`wrote ${count} messages from ${versions.join(', ')} to ${path.relative(ROOT, TARGET)}`);
}

if (require.main === module) void main();
