/**
 * Where the build puts the schemas' standalone validators, and how a process knows they were made
 * from the schemas it holds. Shared by the generator (schemas/standalone.ts, which needs Ajv) and
 * the loader (schemas/validators.ts, which must not).
 */
import { createHash } from 'node:crypto';
import type { JsonSchema } from './registry';

/** The folder beside the compiled schemas (dist/schemas/standalone/): one `<title>.js` a schema. */
export const STANDALONE_DIR = 'standalone';

/** The folder's manifest: the fingerprint of the schemas its validators were generated from. */
export const MANIFEST_FILE = 'manifest.json';

export interface StandaloneManifest {
  fingerprint: string;
}

/** A hash of the schemas' text, in the registry's order (1 to 2 ms for all of them). */
export function schemasFingerprint(schemas: readonly JsonSchema[]): string {
  return createHash('sha256').update(JSON.stringify(schemas)).digest('hex');
}
