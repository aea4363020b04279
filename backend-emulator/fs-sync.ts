/**
 * fsync of a path by its name: a file's bytes, or a folder's entries (so that the names made in
 * it survive a power cut). The path is opened read-only: on Linux an fsync flushes the file's
 * pages through any descriptor of it.
 */
import * as fs from 'fs';

/** fsyncs `target` (a file or a folder), off the thread (libuv's pool). */
export async function syncPath(target: string): Promise<void> {
  const handle = await fs.promises.open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** fsyncs `target` (a file or a folder) on the calling thread. */
export function syncPathSync(target: string): void {
  const fd = fs.openSync(target, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
