/**
 * One temporary folder per test run: every temp dir a test, an emulator it starts (in-memory data
 * files, storage), a spawned CLI or Chromium makes lands under it, through TMPDIR, which the
 * workers inherit. global-teardown.ts removes it, so a run (even one whose emulators were killed
 * with -9 on purpose) leaves nothing behind in the machine's temp dir.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ALL_SCHEMAS } from '../../schemas/registry';
import { STANDALONE_DIR } from '../../schemas/standalone-layout';
import { SOURCE_VALIDATORS_DIR, SOURCE_VALIDATORS_ENV, generatedFor } from '../../schemas/validators';

export const RUN_TMP_ENV = 'GNL_TEST_RUN_TMP';

/**
 * The schemas' standalone validators for the sources (schemas/validators.ts says why), generated
 * when the schemas or their generator changed since the last run (a few CPU-s, once); the workers
 * inherit the variable that has them used.
 */
function sourceValidators(): void {
  if (!generatedFor(path.join(SOURCE_VALIDATORS_DIR, STANDALONE_DIR), ALL_SCHEMAS)) {
    // Required here: Ajv and the generator load only when there is something to generate.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { writeStandaloneValidators } = require('../../schemas/standalone') as typeof import('../../schemas/standalone');
    writeStandaloneValidators(SOURCE_VALIDATORS_DIR, path.resolve(__dirname, '..', '..', 'schemas', 'keyword-rules'));
  }
  process.env[SOURCE_VALIDATORS_ENV] = '1';
}

export default function globalSetup(): void {
  // Which Node this run is (npm scripts use the project's own, node_modules/.bin/node; .ci/run also
  // runs the suite under the other supported LTS lines): tests/package/node-version.test.ts checks it.
  process.stderr.write(`jest under Node ${process.version} (${process.execPath})\n`);
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-run-'));
  process.env[RUN_TMP_ENV] = runDir;
  process.env.TMPDIR = runDir;
  sourceValidators();
}
