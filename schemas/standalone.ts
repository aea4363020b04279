/**
 * Ajv's standalone code of the schemas, generated when the package is built (`npm run build`,
 * support/compiled.ts): one CommonJS module a schema, `dist/schemas/standalone/<title>.js`,
 * exporting its validator under the schema's title, and a manifest naming the schemas' fingerprint.
 * Loading a validator is then a `require` of a few ms (schemas/validators.ts), not a compile of
 * 40 to 80 ms on the thread that answers requests. One module a schema, not one for all: a
 * process loads only the validators it uses (one module for all took 18 ms to load, the largest
 * of these 9 ms, with the shared modules they require).
 *
 * The code requires only Ajv's runtime helpers and ajv-formats' formats (`require("ajv/...")`,
 * `require("ajv-formats/...")`: dependencies of the package) and the keywords' rules
 * (`require("../keyword-rules")`, compiled beside it). Where it is absent (the sources under jest
 * or ts-node) validators compile at first use, from the same set-up (schemas/ajv.ts).
 *
 * Run as a script: `node dist/schemas/standalone.js dist/schemas` writes `dist/schemas/standalone/`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import standaloneCode from 'ajv/dist/standalone';
import { ALL_SCHEMAS } from './registry';
import { schemaAjv } from './ajv';
import { MANIFEST_FILE, STANDALONE_DIR, schemasFingerprint, type StandaloneManifest } from './standalone-layout';

const HEADER = '// Generated from schemas/*.schema.json by schemas/standalone.ts when the package is built: do not edit.\n';

/**
 * Each schema's module source, by title. `rulesModule` is how the code requires
 * schemas/keyword-rules (the default suits the module's place in dist/schemas/standalone/).
 */
export function standaloneModules(rulesModule?: string): Map<string, string> {
  const ajv = schemaAjv({ source: true, rulesModule });
  // The validators refer to each other, so each module holds its schema's and those it refers to.
  return new Map(ALL_SCHEMAS.map((schema) => [schema.title, `${HEADER}${standaloneCode(ajv, { [schema.title]: schema.$id })}\n`]));
}

/**
 * Writes `<dir>/standalone/`: every module, then the manifest, in a new folder that replaces the
 * old one whole, so that no process reads modules of two generations. `rulesModule` as for
 * standaloneModules.
 */
export function writeStandaloneValidators(dir: string, rulesModule?: string): string {
  const target = path.join(dir, STANDALONE_DIR);
  const tmp = `${target}.${process.pid}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  for (const [title, code] of standaloneModules(rulesModule)) fs.writeFileSync(path.join(tmp, `${title}.js`), code);
  const manifest: StandaloneManifest = { fingerprint: schemasFingerprint(ALL_SCHEMAS) };
  fs.writeFileSync(path.join(tmp, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.rmSync(target, { recursive: true, force: true });
  fs.renameSync(tmp, target);
  return target;
}

if (require.main === module) {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write('usage: node standalone.js SCHEMAS_OUTPUT_DIR\n');
    process.exit(2);
  }
  writeStandaloneValidators(dir);
}
