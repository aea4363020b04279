/**
 * Regenerates backend-emulator/http/google-methods-table.ts: every REST method of the Google APIs
 * the emulator stands in for (HTTP method, path pattern, discovery id, the query parameters the
 * method's request message takes), read from Google's generated Node clients: the revision the
 * project pins (`googleapis`) and the newest one (`googleapis-latest`, an npm alias), merged, so
 * that a method either revision has is known (the emulator never loads either client).
 *
 *   npx ts-node --transpile-only scripts/google-methods.ts
 *
 * The client's sources hold, per resource class, the child resources (`this.meshes = new
 * Resource$...`) and per method its URL template, HTTP method and path parameters. A template's
 * `{+var}` stands for a resource name: the class's own (`projects/{p}/locations/{l}/meshes/{m}`),
 * or its parent's when the template goes on with the collection (`{+parent}/meshes`). The query
 * parameters are the fields of the method's `Params$...` interface (`.d.ts`) that are neither path
 * parameters nor the request body.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..');
const TARGET = path.join(ROOT, 'backend-emulator', 'http', 'google-methods-table.ts');

/** The client packages read, pinned revision first (a method both have keeps the pinned path). */
export const CLIENT_PACKAGES = ['googleapis', 'googleapis-latest'];

/** [api, version, client class]. Where two APIs share a path (`/v1/.../operations`), the first wins. */
export const APIS: Array<[string, string, string]> = [
  ['networkservices', 'v1', 'Networkservices'],
  ['migrationcenter', 'v1alpha1', 'Migrationcenter'],
  ['migrationcenter', 'v1', 'Migrationcenter'],
];

/**
 * The methods whose `{+name}` is not a resource of their class: the settings singleton of a
 * location (discovery: `^projects/[^/]+/locations/[^/]+/settings$`).
 */
const OVERRIDES: Record<string, string> = {
  'migrationcenter.projects.locations.getSettings': '/VERSION/projects/*/locations/*/settings',
  'migrationcenter.projects.locations.updateSettings': '/VERSION/projects/*/locations/*/settings',
};

/** One row of the table: [HTTP method, path pattern, discovery id, query parameters]. */
export type MethodRow = [string, string, string, string[]];

interface ClassInfo {
  children: Array<{ property: string; className: string }>;
  methods: Array<{ name: string; url: string; httpMethod: string; pathParams: string[] }>;
}

function parseClasses(source: string): Map<string, ClassInfo> {
  const classes = new Map<string, ClassInfo>();
  const starts = [...source.matchAll(/^ {4}class (\w[\w$]*) \{/gm)];
  starts.forEach((start, i) => {
    const body = source.slice(start.index, starts[i + 1]?.index ?? source.length);
    const children = [...body.matchAll(/this\.(\w+) =\s*new (Resource\$[\w$]+)\(/g)].map((m) => ({ property: m[1], className: m[2] }));
    const methods = [
      ...body.matchAll(/^ {8}(\w+)\(paramsOrCallback[\s\S]*?url: \(rootUrl \+ '([^']+)'\)[\s\S]*?method: '([A-Z]+)'[\s\S]*?pathParams: \[([^\]]*)\]/gm),
    ].map((m) => ({
      name: m[1],
      url: m[2],
      httpMethod: m[3],
      pathParams: [...m[4].matchAll(/'([^']+)'/g)].map((p) => p[1]),
    }));
    classes.set(start[1], { children, methods });
  });
  return classes;
}

/** `/v1/{+parent}/meshes` under [projects, locations, meshes] -> `/v1/projects/*\/locations/*\/meshes`. */
function pattern(url: string, chain: string[]): string {
  const match = /^(\/[^/]+\/)\{\+?\w+\}(.*)$/.exec(url);
  if (!match) throw new Error(`unexpected URL template ${url}`);
  const [, version, rest] = match;
  const own = chain.map((c) => `${c}/*`).join('/');
  const parent = chain
    .slice(0, -1)
    .map((c) => `${c}/*`)
    .join('/');
  const last = chain[chain.length - 1];
  const onCollection = rest === `/${last}` || rest.startsWith(`/${last}:`) || rest.startsWith(`/${last}/`);
  return `${version}${onCollection ? parent : own}${rest}`;
}

/** `Params$Resource$Projects$Locations$Sources$List` -> its field names, from the client's `.d.ts`. */
function parseParams(declarations: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const m of declarations.matchAll(/^ {4}export interface (Params\$[\w$]+) extends StandardParameters \{([\s\S]*?)^ {4}\}/gm)) {
    out.set(
      m[1],
      [...m[2].matchAll(/^ {8}'?([\w.$]+)'?\??: /gm)].map((f) => f[1]),
    );
  }
  return out;
}

/** The methods of one API version in one client package (none when the package lacks it). */
export function clientMethods(pkg: string, api: string, version: string, root: string): MethodRow[] {
  const base = path.join(ROOT, 'node_modules', pkg, 'build', 'src', 'apis', api, version);
  if (!fs.existsSync(`${base}.js`)) return [];
  const classes = parseClasses(fs.readFileSync(`${base}.js`, 'utf8'));
  const params = parseParams(fs.readFileSync(`${base}.d.ts`, 'utf8'));
  const rows: MethodRow[] = [];
  const walk = (className: string, chain: string[]): void => {
    const info = classes.get(className);
    if (!info) throw new Error(`${pkg} ${api}: no class ${className}`);
    for (const m of info.methods) {
      const id = [api, ...chain, m.name].join('.');
      const interfaceName = `Params$${className === root ? 'Resource' : className}$${m.name[0].toUpperCase()}${m.name.slice(1).toLowerCase()}`;
      const fields = params.get(interfaceName);
      if (!fields) throw new Error(`${pkg} ${api}: no ${interfaceName}`);
      const query = fields.filter((f) => f !== 'requestBody' && !m.pathParams.includes(f)).sort();
      const override = OVERRIDES[id]?.replace('VERSION', version);
      rows.push([m.httpMethod, override ?? pattern(m.url, chain), id, query]);
    }
    for (const child of info.children) walk(child.className, [...chain, child.property]);
  };
  walk(root, []);
  return rows;
}

/**
 * Every method of every API version in every client package, merged: one row per HTTP method
 * and path; a method known to both revisions takes the query parameters of both.
 */
export function collectMethods(packages = CLIENT_PACKAGES): MethodRow[] {
  const byKey = new Map<string, MethodRow>();
  for (const [api, version, root] of APIS) {
    for (const pkg of packages) {
      for (const row of clientMethods(pkg, api, version, root)) {
        const key = `${row[0]} ${row[1]}`;
        const known = byKey.get(key);
        if (!known) byKey.set(key, row);
        else if (known[2] === row[2]) known[3] = [...new Set([...known[3], ...row[3]])].sort();
        // else: another API's method at the same path (operations under /v1/): the first API's stays.
      }
    }
  }
  return [...byKey.values()];
}

function render(rows: MethodRow[], packages: string[]): string {
  const lines = rows.map(([m, p, id, query]) => `  ['${m}', '${p}', '${id}', [${query.map((q) => `'${q}'`).join(', ')}]],`);
  return [
    '/**',
    ' * Generated by `npx ts-node --transpile-only scripts/google-methods.ts` from the googleapis',
    ` * clients (${packages.join(', ')}): networkservices v1, migrationcenter v1alpha1 and v1, every`,
    ' * method either revision has. Do not edit by hand.',
    ' * [HTTP method, path pattern (`*` is one path segment), discovery method id, query parameters]',
    ' */',
    'export const GOOGLE_METHODS: ReadonlyArray<readonly [string, string, string, readonly string[]]> = [',
    ...lines,
    '];',
    '',
  ].join('\n');
}

if (require.main === module) {
  const packages = CLIENT_PACKAGES.filter((pkg) => fs.existsSync(path.join(ROOT, 'node_modules', pkg, 'package.json')));
  const versions = packages.map(
    (pkg) => `${pkg}@${(JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version}`,
  );
  const rows = collectMethods(packages);
  fs.writeFileSync(TARGET, render(rows, versions));
  console.log(`wrote ${rows.length} methods from ${versions.join(', ')} to ${path.relative(ROOT, TARGET)}`);
}
