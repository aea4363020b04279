/**
 * One temporary folder per test run: every temp dir a test, an emulator it starts (in-memory data
 * files, storage), a spawned CLI or Chromium makes lands under it, through TMPDIR, which the
 * workers inherit. global-teardown.ts removes it, so a run (even one whose emulators were killed
 * with -9 on purpose) leaves nothing behind in the machine's temp dir.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export const RUN_TMP_ENV = 'GNL_TEST_RUN_TMP';

export default function globalSetup(): void {
  // Which Node this run is (npm scripts use the project's own, node_modules/.bin/node; .ci/run also
  // runs the suite under the other supported LTS lines): tests/package/node-version.test.ts checks it.
  process.stderr.write(`jest under Node ${process.version} (${process.execPath})\n`);
  const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-run-'));
  process.env[RUN_TMP_ENV] = runDir;
  process.env.TMPDIR = runDir;
}
