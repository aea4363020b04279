/**
 * The temporary folders of an emulator without a data dir (`--in-memory`, tests): the data files'
 * bytes and the storage folder. A `kill -9` runs no `close()`, so each folder's name carries the
 * process id that made it, and the next emulator to make one removes those whose process is gone:
 * nothing is left in the machine's temp dir for an emulator that no longer runs.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { OWNER_ONLY_FOLDER, ownerOnlyFolderIfPresent } from './private-files';

const PREFIX = 'google-native-local-';

/** Whether a process runs (EPERM: it does, as another user's). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether `full` is a folder this user made: a real directory (not a symbolic link, whose
 * removal would only drop the link but is not ours to drop) owned by this process's user. The
 * temp dir is shared by every user of the machine, and anyone can make a folder of our names there:
 * another user's folder named after a dead pid, left for our sweep, made every in-memory emulator
 * of this user fail to start (EACCES from the removal), and under root the sweep removed it.
 */
function isOwnFolder(full: string): boolean {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(full);
  } catch {
    return false;
  }
  return stat.isDirectory() && (process.getuid === undefined || stat.uid === process.getuid());
}

/**
 * Removes the `kind` folders of processes that are gone, made by this user; folders of other
 * names or owners are left alone. Best effort: a folder that cannot be removed stays, and never
 * stops an emulator from starting.
 */
export function sweepOrphanedTempFolders(kind: string, dir: string = os.tmpdir()): string[] {
  const prefix = `${PREFIX}${kind}-`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || isRunning(pid)) continue;
    const full = path.join(dir, name);
    if (!isOwnFolder(full)) continue;
    try {
      fs.rmSync(full, { recursive: true, force: true });
      removed.push(name);
    } catch {
      // Left for a later sweep (or the user): a folder it cannot empty is no reason to refuse to start.
    }
  }
  return removed;
}

/** A new temporary folder for `kind`, named after this process, after sweeping the orphans. */
export function makeTempFolder(kind: string): string {
  sweepOrphanedTempFolders(kind);
  return fs.mkdtempSync(path.join(os.tmpdir(), `${PREFIX}${kind}-${process.pid}-`));
}

/**
 * Makes the folders between a data dir and one of its folders (`exports` of `exports/assets`) the
 * owner's only, as `withSubfolders` makes the folder itself: a data dir of an earlier version kept
 * them as the umask made them (0755). A folder that is a symbolic link keeps its mode (private-files.ts).
 */
function restrictFoldersBetween(dataDir: string, folder: string): void {
  for (let between = path.dirname(folder); between.startsWith(dataDir + path.sep); between = path.dirname(between)) ownerOnlyFolderIfPresent(between);
}

/**
 * The folder of one kind of files: `<dataDir>/<inDataDir>` with a data dir (made at once, kept), or
 * without one a temporary folder of `kind`, made at its first use and removed by `close()`. Most
 * in-memory emulators (a test's app) never write a file of most kinds; making and removing four
 * folders on every build and close was a large part of both. Orphans of dead processes are still
 * swept when the emulator starts. `subfolders` are made inside whenever the folder is.
 */
export class FilesFolder {
  private folder: string | undefined;
  private readonly temporary: boolean;
  private closed = false;

  constructor(
    dataDir: string | undefined,
    inDataDir: string,
    private readonly kind: string,
    private readonly subfolders: readonly string[] = [],
  ) {
    this.temporary = !dataDir;
    if (dataDir) {
      this.folder = this.withSubfolders(path.join(dataDir, inDataDir));
      restrictFoldersBetween(dataDir, this.folder);
    } else sweepOrphanedTempFolders(kind);
  }

  /**
   * The folder's path; a temporary folder is made here, at the first call. Once closed, a
   * temporary folder is never made: an upload or export still under way at close would make a
   * folder nobody removes until a later start sweeps it, so it fails here instead.
   */
  get path(): string {
    if (this.closed && this.temporary) throw new Error(`the emulator has closed: its ${this.kind} folder is gone`);
    this.folder ??= this.withSubfolders(fs.mkdtempSync(path.join(os.tmpdir(), `${PREFIX}${this.kind}-${process.pid}-`)));
    return this.folder;
  }

  /** Whether the folder exists (or, once closed, existed): a temporary one not yet made holds nothing. */
  get made(): boolean {
    return this.folder !== undefined;
  }

  /** Removes everything the folder holds, if it was made (the folder stays). */
  clear(): void {
    if (this.folder === undefined) return;
    for (const entry of fs.readdirSync(this.folder)) fs.rmSync(path.join(this.folder, entry), { recursive: true, force: true });
  }

  /** Removes a temporary folder (a data dir's stays). */
  close(): void {
    this.closed = true;
    if (this.temporary && this.folder !== undefined) fs.rmSync(this.folder, { recursive: true, force: true });
  }

  /** Made only the owner's (0700), as the data dir's database is (private-files.ts); one of an earlier version, and its subfolders, are made so. */
  private withSubfolders(folder: string): string {
    for (const made of [folder, ...this.subfolders.map((sub) => path.join(folder, sub))]) {
      fs.mkdirSync(made, { recursive: true, mode: OWNER_ONLY_FOLDER });
      ownerOnlyFolderIfPresent(made);
    }
    return folder;
  }
}
