/**
 * Unlinked temp files for readers that must keep more of a payload than memory should hold: the
 * file is removed from its folder as soon as it is opened, so it vanishes with its descriptor and
 * nothing is left behind, even by a crash.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** An unlinked temp file's descriptor (mode 0600), or undefined when `dir` does not allow one. */
export function openUnlinkedTempFile(dir: string, label: string): number | undefined {
  const file = path.join(dir, `gnl-${label}-${process.pid}-${randomBytes(6).toString('hex')}`);
  let fd: number;
  try {
    fd = fs.openSync(file, 'wx+', 0o600);
  } catch {
    return undefined;
  }
  try {
    fs.unlinkSync(file);
    return fd;
  } catch {
    closeQuietly(fd);
    fs.rmSync(file, { force: true });
    return undefined;
  }
}

/** Writes all of `buffer` at `position`; returns its length. Throws what the write throws (ENOSPC, ...). */
export function writeAll(fd: number, buffer: Buffer, position: number, length = buffer.length): number {
  let done = 0;
  while (done < length) done += fs.writeSync(fd, buffer, done, length - done, position + done);
  return done;
}

/** Reads exactly `length` bytes at `position` into `into` (from its start); throws on a short file. */
export function readAll(fd: number, into: Buffer, position: number, length: number): void {
  let done = 0;
  while (done < length) {
    const n = fs.readSync(fd, into, done, length - done, position + done);
    if (n === 0) throw new Error('a temp file is shorter than what was written to it');
    done += n;
  }
}

export function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // already closed
  }
}
