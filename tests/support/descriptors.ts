/** The test process's open files (Linux /proc/self/fd): what a test checks is closed after an answer. */
import * as fs from 'fs';
import * as path from 'path';

/** The process's descriptors open on files under `folder` (Linux: /proc/self/fd). */
export function descriptorsUnder(folder: string): number {
  let count = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      if (fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(folder + path.sep)) count++;
    } catch {
      // Closed since the folder was listed (the listing's own descriptor, among others).
    }
  }
  return count;
}

/** Waits until no descriptor is open under `folder` (closing is asynchronous), for at most 10 s. */
export async function closedUnder(folder: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (descriptorsUnder(folder) > 0) {
    if (Date.now() > deadline) throw new Error(`${descriptorsUnder(folder)} descriptor(s) still open under ${folder}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** `test`, or a skip saying why where the process's descriptors cannot be listed. */
export const procFdTest = (name: string, fn: () => Promise<void>, timeout?: number): void =>
  fs.existsSync('/proc/self/fd') ? test(name, fn, timeout) : test.skip(`${name} [SKIPPED: no /proc/self/fd to list open files]`, fn);
