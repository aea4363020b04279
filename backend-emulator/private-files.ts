/**
 * The data dir's files are the owner's alone: the database holds every resource, IAM policy and
 * import the emulator keeps, readable by anyone who can read the file, whatever `--auth` says. With
 * the usual umask (022) SQLite made `emulator.sqlite`, its WAL and the guard 0644 in a 0755 data
 * dir, so any other user of the machine read the whole state beside an emulator that answered them
 * 401. Files are made 0600 and folders 0700 (as the signing key, the data files and the inline
 * payloads already were), and a data dir of an earlier version is made so at the next start.
 */
import * as fs from 'fs';

export const OWNER_ONLY_FILE = 0o600;
export const OWNER_ONLY_FOLDER = 0o700;

/**
 * Makes `file` if it is missing (empty, 0600) and takes group and other access off it if it
 * exists. SQLite gives a database's journal, WAL and shared-memory files the mode of the database
 * file, so making the database file first is enough for its companions made later.
 */
export function ownerOnlyFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', OWNER_ONLY_FILE));
  restrict(file, OWNER_ONLY_FILE);
}

/** Takes group and other access off `entry` if it exists (a companion file left by an earlier run). */
export function ownerOnlyIfPresent(entry: string, mode: number): void {
  if (fs.existsSync(entry)) restrict(entry, mode);
}

/**
 * A folder of the data dir made the owner's only (OWNER_ONLY_FOLDER) if it exists, unless it is a
 * symbolic link: the folder a link names is the user's own, elsewhere (`exports` linked to a
 * folder shared with a team), and keeps its mode, as an existing data dir does. chmod follows a
 * link: every start made such a folder 0700. The emulator's files in it are private all the same
 * (0600, and its own folders inside 0700).
 */
export function ownerOnlyFolderIfPresent(folder: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(folder);
  } catch {
    return;
  }
  if (!stat.isSymbolicLink()) restrict(folder, OWNER_ONLY_FOLDER);
}

/**
 * chmod, only where it changes something and only on what this user owns: a file of another
 * owner (a data dir shared on purpose) is left as it is, and then the open that follows says why
 * it cannot be used, as before.
 */
function restrict(entry: string, mode: number): void {
  const stat = fs.statSync(entry);
  if ((stat.mode & 0o777) === mode) return;
  if (process.getuid !== undefined && stat.uid !== process.getuid()) return;
  fs.chmodSync(entry, mode);
}
