/**
 * One emulator process per data directory.
 *
 * Two guards work together:
 * - SQLite itself, on a guard database beside the store's (`emulator.guard`, empty but for one
 *   row): the store opens it with `locking_mode=EXCLUSIVE` and writes it at once, which takes the
 *   file's exclusive lock until the store closes, so a second process (or a second store in this
 *   process) gets SQLITE_BUSY before it opens the store's database. This is the authority: it
 *   cannot go stale, since the OS drops the lock when the holder dies, even on kill -9. The lock
 *   is on a database of its own, not the store's, so that the store's database can take a second
 *   connection of the holder's process (the import worker's writer, sqlite-store.ts).
 * - A lock file (`emulator.lock`, JSON `{pid, startedAt, host}`) that names the holder, so the
 *   refusal can say which process to stop. A lock file left by a dead process (or by an earlier
 *   process that had this pid) is simply overwritten by the next holder.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type BetterSqlite3 from 'better-sqlite3';
import { OWNER_ONLY_FILE, OWNER_ONLY_FOLDER, ownerOnlyFile, ownerOnlyIfPresent } from '../private-files';

export const LOCK_FILE_NAME = 'emulator.lock';
export const GUARD_FILE_NAME = 'emulator.guard';

/** A start-up problem with the data directory; the CLI prints the message and exits non-zero. */
export class DataDirError extends Error {
  readonly code: 'DATA_DIR_UNUSABLE' | 'DATA_DIR_LOCKED';
  constructor(code: 'DATA_DIR_UNUSABLE' | 'DATA_DIR_LOCKED', message: string) {
    super(message);
    this.name = 'DataDirError';
    this.code = code;
  }
}

export interface LockInfo {
  pid: number;
  startedAt?: string;
  host?: string;
}

/**
 * Creates the directory if needed (0700, its own folders only the owner's: private-files.ts) and
 * checks that it is a writable directory. A directory that exists keeps its mode: it may be a
 * folder of the user's (`--data-dir .`); the emulator's files in it are made private instead.
 */
export function prepareDataDir(dir: string): string {
  const abs = path.resolve(dir);
  try {
    makeDirectories(abs, OWNER_ONLY_FOLDER);
  } catch (err) {
    throw new DataDirError('DATA_DIR_UNUSABLE', `Cannot create the data directory ${abs}: ${describe(err)}`);
  }
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch (err) {
    throw new DataDirError('DATA_DIR_UNUSABLE', `Cannot read the data directory ${abs}: ${describe(err)}`);
  }
  if (!stat.isDirectory()) throw new DataDirError('DATA_DIR_UNUSABLE', `The data directory ${abs} is not a directory.`);
  try {
    fs.accessSync(abs, fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK);
  } catch (err) {
    throw new DataDirError('DATA_DIR_UNUSABLE', `The data directory ${abs} is not writable: ${describe(err)}`);
  }
  // access() says yes to root even on a read-only mount: write a probe to be sure.
  const probe = path.join(abs, `.write-probe-${process.pid}`);
  try {
    fs.writeFileSync(probe, '');
    fs.unlinkSync(probe);
  } catch (err) {
    throw new DataDirError('DATA_DIR_UNUSABLE', `The data directory ${abs} is not writable: ${describe(err)}`);
  }
  return abs;
}

/**
 * `mkdir -p` without `fs.mkdirSync(dir, { recursive: true })`, which on Linux spins forever on a
 * path under /proc (the kernel answers ENOENT for the child and EEXIST for the parent, and Node
 * retries) and reports ENOENT instead of the real cause (EROFS, ENOSPC, EACCES) of a failure.
 * Creates each missing component in turn, from the deepest existing ancestor down; the first
 * failure is thrown as it is. `leafMode`: the mode of `abs` itself if it is made (its parents
 * take the default).
 */
export function makeDirectories(abs: string, leafMode?: number): void {
  const missing: string[] = [];
  let at = abs;
  while (!fs.existsSync(at)) {
    missing.push(at);
    const parent = path.dirname(at);
    if (parent === at) break;
    at = parent;
  }
  for (const dir of missing.reverse()) {
    try {
      fs.mkdirSync(dir, dir === abs ? leafMode : undefined);
    } catch (err) {
      // Created meanwhile by someone else: fine if it is a directory (checked by the caller).
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

export function readLockFile(dir: string): LockInfo | undefined {
  try {
    const info = JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8')) as LockInfo;
    return typeof info?.pid === 'number' ? info : undefined;
  } catch {
    return undefined;
  }
}

export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The refusal when the database is held by someone else. */
export function lockedError(dir: string): DataDirError {
  const holder = readLockFile(dir);
  const who =
    holder && holder.pid !== process.pid && isProcessAlive(holder.pid)
      ? `another emulator process (pid ${holder.pid}${holder.startedAt ? `, started ${holder.startedAt}` : ''})`
      : 'another emulator (or another store in this process)';
  return new DataDirError(
    'DATA_DIR_LOCKED',
    `The data directory ${dir} is in use by ${who}. Stop it, or start this emulator with another --data-dir (or --in-memory).`,
  );
}

/** The data dir held by this process (`holdDataDir`) until `release`. */
export interface DataDirHold {
  release(): void;
}

/**
 * Takes the data dir's guard (see the module comment), or throws DATA_DIR_LOCKED when another
 * emulator, or another store of this process, holds it.
 */
export function holdDataDir(Database: typeof BetterSqlite3, dir: string): DataDirHold {
  const file = path.join(dir, GUARD_FILE_NAME);
  let db: BetterSqlite3.Database;
  try {
    ownerOnlyFile(file);
    ownerOnlyIfPresent(`${file}-journal`, OWNER_ONLY_FILE);
    db = new Database(file, { timeout: 0 });
  } catch (err) {
    throw new DataDirError('DATA_DIR_UNUSABLE', `Cannot open the guard database ${file}: ${describe(err)}`);
  }
  try {
    // EXCLUSIVE: the lock a write takes is kept until close. A rollback journal (not WAL): no
    // shared-memory index through which a second connection could read past the lock.
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = DELETE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('CREATE TABLE IF NOT EXISTS holder (id INTEGER PRIMARY KEY, pid INTEGER NOT NULL)');
    db.prepare('INSERT OR REPLACE INTO holder (id, pid) VALUES (1, ?)').run(process.pid);
    db.exec('COMMIT');
  } catch (err) {
    db.close();
    const code = (err as { code?: string }).code ?? '';
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) throw lockedError(dir);
    throw new DataDirError('DATA_DIR_UNUSABLE', `Cannot use the guard database ${file}: ${describe(err)}`);
  }
  return { release: () => db.close() };
}

/**
 * Writes the lock file once the database lock is held. Written to a temporary file and renamed,
 * so a reader never sees half a file; a stale file from a dead process is replaced.
 */
export function writeLockFile(dir: string): void {
  const info: LockInfo = { pid: process.pid, startedAt: new Date().toISOString(), host: os.hostname() };
  const tmp = path.join(dir, `${LOCK_FILE_NAME}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify(info) + '\n', { mode: OWNER_ONLY_FILE });
  fs.renameSync(tmp, path.join(dir, LOCK_FILE_NAME));
}

/** Removes the lock file if it is ours. */
export function removeLockFile(dir: string): void {
  const info = readLockFile(dir);
  if (info && info.pid === process.pid) {
    try {
      fs.unlinkSync(path.join(dir, LOCK_FILE_NAME));
    } catch {
      /* already gone */
    }
  }
}

function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code ? `${e.code} (${e.message})` : String(e?.message ?? err);
}
