/**
 * Each schema's validator, made ready at its first use: required from the standalone code the
 * build generated (schemas/standalone.ts, `dist/schemas/standalone/<title>.js`: a few ms, no
 * compile), or, where there is none, compiled by Ajv in this process (the sources under ts-node:
 * 40 to 80 ms a schema, and Ajv's own load).
 *
 * The sources under jest (SOURCE_VALIDATORS_ENV, set by tests/support/global-setup.ts) use the
 * same standalone code, generated once into the checkout's cache (SOURCE_VALIDATORS_DIR) and
 * requiring the keywords' rules from the sources: every test file loads its modules afresh, and
 * compiling the schemas it uses again cost each file about 0.1 CPU-s. tests/schemas/
 * standalone.test.ts compares that code with the validators compiled in the process.
 *
 * The generated code is used only when its manifest names the fingerprint of the schemas this
 * process holds: a build whose schemas changed without regenerating it (a bare `tsc`) compiles
 * instead of answering with the old rules.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ValidateFunction } from 'ajv';
import type Ajv2020 from 'ajv/dist/2020';
import { ALL_SCHEMAS, type JsonSchema } from './registry';
import { MANIFEST_FILE, STANDALONE_DIR, schemasFingerprint, type StandaloneManifest } from './standalone-layout';

export type ValidatorSource = 'standalone' | 'compiled';

/** Set (to `1`) in a process running the sources: use the standalone code of SOURCE_VALIDATORS_DIR when it is current. */
export const SOURCE_VALIDATORS_ENV = 'GNL_SOURCE_VALIDATORS';

/** Where the sources' standalone code is generated (its `standalone/` folder): the checkout's cache. */
export const SOURCE_VALIDATORS_DIR = path.resolve(__dirname, '..', 'node_modules', '.cache', 'gnl-source-validators');

const idByTitle = new Map<string, string>(ALL_SCHEMAS.map((schema) => [schema.title, schema.$id]));
const validators = new Map<string, ValidateFunction>();
let standaloneDir: string | undefined;
let source: ValidatorSource | undefined;
let ajv: Ajv2020 | undefined;

/** Where this process's validators come from, decided once, at the first validator asked for. */
export function validatorSource(): ValidatorSource {
  if (source) return source;
  const candidates = [path.join(__dirname, STANDALONE_DIR)];
  // Only the sources (a `.ts` module) read the cache: its code requires the rules' `.ts` source,
  // and a compiled program started by a test inherits the variable.
  if (path.extname(__filename) === '.ts' && process.env[SOURCE_VALIDATORS_ENV] === '1') candidates.push(path.join(SOURCE_VALIDATORS_DIR, STANDALONE_DIR));
  standaloneDir = candidates.find((dir) => generatedFor(dir, ALL_SCHEMAS));
  source = standaloneDir ? 'standalone' : 'compiled';
  return source;
}

/** Whether `dir` holds standalone validators generated from exactly `schemas`. */
export function generatedFor(dir: string, schemas: readonly JsonSchema[]): boolean {
  let manifest: Partial<StandaloneManifest>;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST_FILE), 'utf8')) as Partial<StandaloneManifest>;
  } catch {
    return false; // not generated there (the sources), or not readable
  }
  return manifest.fingerprint === schemasFingerprint(schemas);
}

/** The validator of the schema titled `name`, or undefined for a name no schema has. */
export function validatorOf(name: string): ValidateFunction | undefined {
  const known = validators.get(name);
  if (known) return known;
  const id = idByTitle.get(name);
  if (id === undefined) return undefined;
  const fn = validatorSource() === 'standalone' ? requireGenerated(name) : compile(id);
  validators.set(name, fn);
  return fn;
}

/** Whether the named schema's validator is ready (loaded or compiled) in this process. */
export function isValidatorReady(name: string): boolean {
  return validators.has(name);
}

function requireGenerated(name: string): ValidateFunction {
  // The name is a schema's title (checked against the registry above), never a caller's path.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const exported = require(path.join(standaloneDir!, `${name}.js`)) as Record<string, ValidateFunction | undefined>;
  const fn = exported[name];
  if (typeof fn !== 'function') throw new Error(`${STANDALONE_DIR}/${name}.js exports no validator ${name}`);
  return fn;
}

/**
 * Compiles one schema (every schema is added at once: they refer to each other). Ajv is required
 * here, not at the top: a process that has the generated code never loads it.
 */
function compile(id: string): ValidateFunction {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  ajv ??= (require('./ajv') as typeof import('./ajv')).schemaAjv();
  return ajv.getSchema(id) as ValidateFunction;
}
