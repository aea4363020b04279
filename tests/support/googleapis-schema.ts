/**
 * The REST shapes of Google's generated `googleapis` client, read from its type definitions
 * (`node_modules/googleapis/build/src/apis/<api>/<version>.d.ts`): every `Schema$X` interface with
 * its property names and types. Lets a test check that what the emulator writes has Google's field
 * names and shapes, without copying them by hand (a hand copy drifts with the code it checks).
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

/** Every `Schema$...` interface of one API version's client. */
export function loadSchemas(api: string, version: string): Schemas {
  const file = join(__dirname, '..', '..', 'node_modules', 'googleapis', 'build', 'src', 'apis', api, `${version}.d.ts`);
  const lines = readFileSync(file, 'utf8').split('\n');
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
}

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
