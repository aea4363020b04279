/**
 * The REST shapes of Google's generated `googleapis` client, read from its type definitions
 * (`node_modules/googleapis/build/src/apis/<api>/<version>.d.ts`, or `googleapis-latest`'s): every
 * `Schema$X` interface with its property names and types, and the schema each method answers. Lets
 * a test check that what the emulator writes has Google's field names and shapes, without copying
 * them by hand (a hand copy drifts with the code it checks).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type FieldType =
  { kind: 'string' | 'number' | 'boolean' | 'any' } | { kind: 'schema'; name: string } | { kind: 'array'; of: FieldType } | { kind: 'map'; of: FieldType };

export type Schemas = Map<string, Map<string, FieldType>>;

function parseType(text: string): FieldType {
  const t = text.replace(/\s*\|\s*null$/, '').trim();
  if (t.endsWith('[]')) return { kind: 'array', of: parseType(t.slice(0, -2)) };
  if (t.startsWith('Schema$')) return { kind: 'schema', name: t.slice('Schema$'.length) };
  if (t === 'string' || t === 'number' || t === 'boolean') return { kind: t };
  return { kind: 'any' };
}

/** The installed client packages: the pinned revision and the newest. */
export type ClientPackage = 'googleapis' | 'googleapis-latest';

function typingsOf(api: string, version: string, client: ClientPackage): string[] {
  return readFileSync(join(__dirname, '..', '..', 'node_modules', client, 'build', 'src', 'apis', api, `${version}.d.ts`), 'utf8').split('\n');
}

/**
 * What each reader found in one client's typings, kept for the test file: the typings never change
 * while it runs, and wire-sweep asked for the same ones once per method it checks (several hundred
 * reads and scans of half-megabyte files, about 2 CPU-s). Callers only read what they are given.
 */
const read = new Map<string, unknown>();
function memo<T>(reader: string, api: string, version: string, client: ClientPackage, load: () => T): T {
  const key = `${reader} ${client} ${api} ${version}`;
  if (!read.has(key)) read.set(key, load());
  return read.get(key) as T;
}

/** Every `Schema$...` interface of one API version's client. */
export function loadSchemas(api: string, version: string, client: ClientPackage = 'googleapis'): Schemas {
  return memo('loadSchemas', api, version, client, () => {
    const lines = typingsOf(api, version, client);
    const schemas: Schemas = new Map();
    let current: Map<string, FieldType> | undefined;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      const open = /^ {4}export interface Schema\$(\w+) \{$/.exec(line);
      if (open) {
        current = new Map();
        schemas.set(open[1], current);
        continue;
      }
      if (!current) continue;
      if (/^ {4}\}$/.test(line)) {
        current = undefined;
        continue;
      }
      const prop = /^ {8}'?([\w@.]+)'?\?: (.*?);?$/.exec(line);
      if (!prop) continue;
      if (prop[2] === '{') {
        // A map: `{ [key: string]: T; } | null` over three lines.
        const value = /^\s*\[key: string\]: (.*);$/.exec(lines[i + 1] ?? '');
        current.set(prop[1], { kind: 'map', of: parseType(value ? value[1] : 'any') });
        i += 2;
        continue;
      }
      current.set(prop[1], parseType(prop[2]));
    }
    return schemas;
  });
}

/**
 * The schema each method of one API version's client answers, by method id as the client object
 * spells its path (`projects.locations.reportConfigs.reports.get` -> `Report`), read from the
 * promise-returning signature of each method (`get(params?: Params$Resource$Projects$Locations$
 * Reportconfigs$Reports$Get, options?: MethodOptions): GaxiosPromise<Schema$Report>`, or
 * `Promise<GaxiosResponseWithHTTP2<Schema$Report>>` in newer revisions). The typings spell each
 * path segment capitalised and lower-cased (`Reportconfigs`): keys here are those spellings, and
 * `responseSchemaOf` finds a method id's.
 */
export function loadResponseSchemas(api: string, version: string, client: ClientPackage = 'googleapis'): Map<string, string> {
  return memo('loadResponseSchemas', api, version, client, () => {
    const signature =
      /^\s+\w+\(params\?: Params\$Resource\$([\w$]+), options\?: MethodOptions\): (?:GaxiosPromise<|Promise<GaxiosResponseWithHTTP2<)Schema\$(\w+)>/;
    const found = new Map<string, string>();
    for (const line of typingsOf(api, version, client)) {
      const m = signature.exec(line);
      if (m) found.set(m[1], m[2]);
    }
    return found;
  });
}

/**
 * The parameters each method's client marks "Required." (`importJobId`, `updateMask`, `parent`),
 * by the same keys as `loadResponseSchemas` (`Projects$Locations$Importjobs$Create`), read from
 * the doc comment above each field of its `Params$Resource$...` interface.
 */
export function loadRequiredParameters(api: string, version: string, client: ClientPackage = 'googleapis'): Map<string, string[]> {
  return memo('loadRequiredParameters', api, version, client, () => {
    const source = typingsOf(api, version, client).join('\n');
    const found = new Map<string, string[]>();
    for (const m of source.matchAll(/^ {4}export interface Params\$Resource\$([\w$]+) extends StandardParameters \{([\s\S]*?)^ {4}\}/gm)) {
      const fields = [...m[2].matchAll(/\/\*\*\n\s+\* (Required\.)?[^\n]*\n\s+\*\/\n\s+'?([\w.]+)'?\?:/g)];
      found.set(
        m[1],
        fields.filter((f) => f[1] !== undefined).map((f) => f[2]),
      );
    }
    return found;
  });
}

/**
 * The schema each method's request body is (`requestBody?: Schema$Settings` in its `Params$Resource$...`
 * interface), by the same keys as `loadResponseSchemas`; a method without a body has none.
 */
export function loadRequestBodies(api: string, version: string, client: ClientPackage = 'googleapis'): Map<string, string> {
  return memo('loadRequestBodies', api, version, client, () => {
    const source = typingsOf(api, version, client).join('\n');
    const found = new Map<string, string>();
    for (const m of source.matchAll(/^ {4}export interface Params\$Resource\$([\w$]+) extends StandardParameters \{([\s\S]*?)^ {4}\}/gm)) {
      const body = /^ {8}requestBody\?: Schema\$(\w+);$/m.exec(m[2]);
      if (body) found.set(m[1], body[1]);
    }
    return found;
  });
}

/**
 * The fields each schema's doc comment marks "Output only." (`ImportJob.executionReport`), as
 * `Schema.field`: what a client never sets (Google's parser still reads their names).
 */
export function loadOutputOnlyFields(api: string, version: string, client: ClientPackage = 'googleapis'): Set<string> {
  return memo('loadOutputOnlyFields', api, version, client, () => {
    const source = typingsOf(api, version, client).join('\n');
    const found = new Set<string>();
    for (const m of source.matchAll(/^ {4}export interface Schema\$(\w+) \{([\s\S]*?)^ {4}\}/gm)) {
      for (const f of m[2].matchAll(/\/\*\*\n((?:\s+\*[^\n]*\n)*?)\s+\*\/\n\s+'?([\w@.]+)'?\?:/g)) {
        if (/Output only/i.test(f[1])) found.add(`${m[1]}.${f[2]}`);
      }
    }
    return found;
  });
}

/** The schema a method answers (`projects.locations.assets.patch` -> `Asset`), or undefined. */
export function responseSchemaOf(responses: Map<string, string>, method: string): string | undefined {
  return responses.get(typingsKey(method));
}

/** `projects.locations.reportConfigs.reports.get` -> `Projects$Locations$Reportconfigs$Reports$Get`, as the typings spell it. */
export function typingsKey(method: string): string {
  return method
    .split('.')
    .map((segment) => segment.charAt(0).toUpperCase() + segment.slice(1).toLowerCase())
    .join('$');
}

const NON_FINITE = new Set(['Infinity', '-Infinity', 'NaN']);

/**
 * Every place where `value` differs from the schema `root`: a key the schema does not have, a
 * value of another JSON type, an int64 field (`...Bytes`, a string in the client) that is not a
 * decimal string. Paths are written `a.b[].c`. `seen` collects every path that was checked.
 */
export function shapeViolations(schemas: Schemas, root: string, value: unknown, seen?: Set<string>): string[] {
  const out: string[] = [];
  const walk = (v: unknown, type: FieldType, path: string): void => {
    seen?.add(path);
    switch (type.kind) {
      case 'any':
        return;
      case 'string':
        if (typeof v !== 'string') out.push(`${path}: expected a string, got ${JSON.stringify(v)}`);
        else if (/Bytes$/.test(path) && !/^-?\d+$/.test(v)) out.push(`${path}: int64 must be a decimal string, got ${JSON.stringify(v)}`);
        return;
      case 'number':
        // ProtoJSON spells a double's infinities and NaN as strings.
        if (typeof v !== 'number' && !(typeof v === 'string' && NON_FINITE.has(v))) out.push(`${path}: expected a number, got ${JSON.stringify(v)}`);
        return;
      case 'boolean':
        if (typeof v !== type.kind) out.push(`${path}: expected a ${type.kind}, got ${JSON.stringify(v)}`);
        return;
      case 'array':
        if (!Array.isArray(v)) out.push(`${path}: expected a list, got ${JSON.stringify(v)}`);
        else for (const item of v) walk(item, type.of, `${path}[]`);
        return;
      case 'map':
        if (typeof v !== 'object' || v === null || Array.isArray(v)) out.push(`${path}: expected a map, got ${JSON.stringify(v)}`);
        else for (const item of Object.values(v)) walk(item, type.of, `${path}{}`);
        return;
      case 'schema': {
        const fields = schemas.get(type.name);
        if (!fields) {
          out.push(`${path}: the client has no Schema$${type.name}`);
          return;
        }
        if (typeof v !== 'object' || v === null || Array.isArray(v)) {
          out.push(`${path}: expected a ${type.name} object, got ${JSON.stringify(v)}`);
          return;
        }
        for (const [key, item] of Object.entries(v)) {
          const field = fields.get(key);
          const at = path ? `${path}.${key}` : key;
          if (!field) out.push(`${at}: Schema$${type.name} has no field "${key}"`);
          else walk(item, field, at);
        }
      }
    }
  };
  walk(value, { kind: 'schema', name: root }, '');
  return out;
}
