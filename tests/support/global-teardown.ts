/** Removes the run's temporary folder (global-setup.ts); KEEP_TEST_TMP=1 keeps it for a look. */
import * as fs from 'fs';
import { RUN_TMP_ENV } from './global-setup';

export default function globalTeardown(): void {
  const runDir = process.env[RUN_TMP_ENV];
  if (!runDir) return;
  if (process.env.KEEP_TEST_TMP === '1') {
    process.stdout.write(`\ntest run's temporary files kept in ${runDir}\n`);
    return;
  }
  fs.rmSync(runDir, { recursive: true, force: true });
}
