/**
 * Where the build puts the schemas' standalone validators, and how a process knows they were made
 * from the schemas it holds. Shared by the generator (schemas/standalone.ts, which needs Ajv) and
 * the loader (schemas/validators.ts, which must not).
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { JsonSchema } from './registry';

/** The folder beside the compiled schemas (dist/schemas/standalone/): one `<title>.js` a schema. */
export const STANDALONE_DIR = 'standalone';

/** The folder's manifest: the fingerprint of the schemas its validators were generated from. */
export const MANIFEST_FILE = 'manifest.json';

export interface StandaloneManifest {
  fingerprint: string;
}

/**
 * What shapes the generated code besides the schemas: Ajv's version, its set-up and the keywords'
 * code generation (schemas/ajv.ts, schemas/keywords.ts, read beside this module: the `.js` in a
 * build, the `.ts` in the sources). A change to any of them makes the generated code stale as a
 * change to a schema does, even after a bare `tsc`. The keywords' rules are not among them: the
 * generated code requires them (schemas/keyword-rules.ts), so it always runs the current ones.
 */
function generatorInputs(): string {
  const ext = path.extname(__filename);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ajvVersion = (require('ajv/package.json') as { version: string }).version;
  return [ajvVersion, ...['ajv', 'keywords'].map((module) => fs.readFileSync(path.join(__dirname, `${module}${ext}`), 'utf8'))].join('\0');
}

/** A hash of the schemas' text, in the registry's order, and of the generator's inputs (1 to 2 ms in all). */
export function schemasFingerprint(schemas: readonly JsonSchema[]): string {
  return createHash('sha256').update(JSON.stringify(schemas)).update('\0').update(generatorInputs()).digest('hex');
}
