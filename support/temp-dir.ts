/** Fresh temporary folders, for tests and benches alike. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** A new empty folder under the OS temp dir; the prefix says who made it when one is left behind. */
export function tempDir(prefix = 'gnl-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
