/**
 * The layers of docs/architecture.md, held by a test. This reads every import (static, dynamic,
 * require, `import type`) of backend-emulator/, provider/ and schemas/ and fails on:
 *
 * - an import that goes up: a unit imports only units of a LOWER layer, or units of its own layer
 *   when that layer says its units may use each other (`peers: true`); a service never imports
 *   another service except through an edge of SEAMS;
 * - an import a rule of FORBIDDEN names (the console never reads the store; commands/ talks to an
 *   emulator through the provider's REST client, never through a domain);
 * - a cycle between units (folders), whatever the layers say;
 * - a unit the table does not place (a new folder is drawn here, and in docs/architecture.md,
 *   before it is used).
 *
 * A unit is a folder of backend-emulator/ (`store`, `http`, ...), a file at the top of
 * backend-emulator/ (`errors`, `app`, ...), `provider`, `schemas` or the package root `index`.
 * One unit is a pair of files rather than a folder: `http/google-methods` (the table of Google's
 * methods, data that errors.ts reads to answer 501 for a method not emulated) sits below
 * errors.ts, while the rest of http/ sits above it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findCycle, relativeImports } from '../support/imports';

const ROOT = path.resolve(__dirname, '..', '..');

/** Lowest first. A unit may import the units of every layer below its own. */
const LAYERS: { name: string; units: string[]; peers: boolean }[] = [
  {
    name: 'leaves',
    units: [
      'schemas',
      'config',
      'logging',
      'unicode',
      'random',
      'temp-folders',
      'private-files',
      'node-version',
      'malloc-arenas',
      'worker-threads',
      'garbage-collection',
      'fs-sync',
      'counts',
      'integer-text',
      'http/google-methods',
    ],
    peers: true,
  },
  { name: 'errors', units: ['errors'], peers: false },
  { name: 'query (AIP-160 filter, order, page)', units: ['query'], peers: false },
  { name: 'store', units: ['store'], peers: false },
  { name: 'wire helpers', units: ['http'], peers: false },
  { name: 'engine', units: ['import-engine', 'payloads'], peers: true },
  { name: 'platform', units: ['auth', 'operations', 'mixins', 'context'], peers: true },
  { name: 'services', units: ['networkservices', 'migrationcenter'], peers: false },
  { name: 'front-ends', units: ['console', 'admin'], peers: false },
  { name: 'app', units: ['app'], peers: false },
  { name: 'entry points', units: ['index', 'cli', 'commands', 'provider', 'package-root'], peers: true },
];

/** Edges between two services (or front-ends) that are a declared seam: none yet. */
const SEAMS: ReadonlySet<string> = new Set<string>([]);

/** Imports no layer order forbids but a rule of docs/architecture.md does, `from -> to`. */
const FORBIDDEN: { from: string; to: string[]; why: string }[] = [
  { from: 'console', to: ['store'], why: 'the console reads through the domains, never the store' },
  {
    from: 'commands',
    to: ['networkservices', 'migrationcenter', 'store', 'operations', 'context', 'app', 'console', 'admin', 'auth'],
    why: 'commands/ talks to an emulator (or Google) through the provider REST client, not the domain',
  },
];

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name.startsWith('.') ? [] : sourceFiles(p);
    return /\.ts$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The unit of a source file or an import target (path without extension is fine). */
export function unitOf(file: string): string | undefined {
  const parts = path.relative(ROOT, file).split(path.sep);
  if (parts.length === 1 && parts[0].replace(/\.ts$/, '') === 'index') return 'package-root';
  if (parts[0] === 'provider' || parts[0] === 'schemas') return parts[0];
  if (parts[0] !== 'backend-emulator') return undefined;
  if (parts.length === 2) return parts[1].replace(/\.(ts|js|json)$/, '');
  if (parts[1] === 'http' && /^google-methods(-table)?(\.ts)?$/.test(parts[2])) return 'http/google-methods';
  return parts[1];
}

/** `store/asset-sql.ts` -> `store/asset-sql`: the module an import names. */
function moduleOf(file: string): string {
  return path.relative(path.join(ROOT, 'backend-emulator'), file).split(path.sep).join('/').replace(/\.ts$/, '');
}

interface Edge {
  from: string;
  to: string;
  file: string;
  spec: string;
  target: string;
}

function edges(): Edge[] {
  const out: Edge[] = [];
  const files = ['backend-emulator', 'provider', 'schemas'].flatMap((d) => sourceFiles(path.join(ROOT, d))).concat(path.join(ROOT, 'index.ts'));
  for (const file of files) {
    const from = unitOf(file);
    if (!from) continue;
    for (const spec of relativeImports(fs.readFileSync(file, 'utf8'))) {
      const resolved = path.resolve(path.dirname(file), spec);
      const to = unitOf(resolved);
      if (!to || to === from) continue;
      out.push({ from, to, file: path.relative(ROOT, file), spec, target: moduleOf(resolved) });
    }
  }
  return out;
}

const layerOf = new Map(LAYERS.flatMap((l, i) => l.units.map((u) => [u, i] as const)));

/** Why an edge breaks the drawing, or undefined when it is allowed. */
export function breach(e: Pick<Edge, 'from' | 'to' | 'target'>): string | undefined {
  const from = layerOf.get(e.from);
  const to = layerOf.get(e.to);
  if (from === undefined || to === undefined) return `'${from === undefined ? e.from : e.to}' is in no layer of LAYERS`;
  for (const rule of FORBIDDEN) if (rule.from === e.from && rule.to.includes(e.to)) return rule.why;
  if (to > from) return `${LAYERS[from].name} imports ${LAYERS[to].name}, a higher layer`;
  if (to === from && !LAYERS[from].peers && !SEAMS.has(`${e.from} -> ${e.to}`))
    return `${e.from} and ${e.to} are both ${LAYERS[from].name}: no import between them but through SEAMS`;
  return undefined;
}

test('the layer rule refuses an import upward, between services, or forbidden, and allows one downward', () => {
  expect(breach({ from: 'store', to: 'migrationcenter', target: 'migrationcenter/assets' })).toBe('store imports services, a higher layer');
  expect(breach({ from: 'store', to: 'query', target: 'query/filter' })).toBeUndefined();
  expect(breach({ from: 'store', to: 'migrationcenter', target: 'migrationcenter/list-query' })).toBe('store imports services, a higher layer');
  expect(breach({ from: 'http', to: 'networkservices', target: 'networkservices/routes' })).toBe('wire helpers imports services, a higher layer');
  expect(breach({ from: 'networkservices', to: 'migrationcenter', target: 'migrationcenter/names' })).toBe(
    'networkservices and migrationcenter are both services: no import between them but through SEAMS',
  );
  expect(breach({ from: 'auth', to: 'networkservices', target: 'networkservices/iam-policy' })).toBe('platform imports services, a higher layer');
  expect(breach({ from: 'commands', to: 'migrationcenter', target: 'migrationcenter/names' })).toMatch(/provider REST client/);
  expect(breach({ from: 'console', to: 'store', target: 'store/store' })).toMatch(/never the store/);
  expect(breach({ from: 'networkservices', to: 'auth', target: 'auth/auth' })).toBeUndefined();
  expect(breach({ from: 'newthing', to: 'store', target: 'store/store' })).toBe("'newthing' is in no layer of LAYERS");
  expect(unitOf(path.join(ROOT, 'backend-emulator/http/google-methods-table.ts'))).toBe('http/google-methods');
  expect(unitOf(path.join(ROOT, 'backend-emulator/http/names'))).toBe('http');
  expect(unitOf(path.join(ROOT, 'backend-emulator/errors.ts'))).toBe('errors');
});

test('every import of backend-emulator/, provider/ and schemas/ goes down the layers of docs/architecture.md', () => {
  const all = edges();
  expect(all.length).toBeGreaterThan(100); // the reader found the imports
  const bad = all.flatMap((e) => {
    const why = breach(e);
    return why ? [`${e.file} imports '${e.spec}': ${why}`] : [];
  });
  expect(bad).toEqual([]);
});

test('no cycle between the units (folders) of backend-emulator/, provider/ and schemas/', () => {
  const graph = new Set(edges().map((e) => `${e.from}->${e.to}`));
  expect(findCycle(graph)).toBeUndefined();
});
