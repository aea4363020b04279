/**
 * The bytes of import data files, on disk: `<dataDir>/data-files/` (a temporary directory,
 * removed on close, for an in-memory emulator).
 *
 *   files/<hash of the job name>/<hash of the data file name>   the bytes of one data file
 *   tmp/<random>.part                                           uploads under way
 *
 * An upload streams into `tmp/` (never whole in memory), is counted against the limit while it
 * streams, is fsynced, and only then renamed over the data file's bytes: a reader sees the old
 * bytes or the new ones, never half of an upload. Hashed names keep any resource name a safe file
 * name; one folder per job lets a job's bytes go in one step. What the store no longer names
 * (an upload a kill -9 interrupted, bytes whose data file was deleted while the emulator was
 * down) is swept at start-up.
 */
import { createHash, randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type { Readable } from 'stream';
import { FilesFolder } from '../../temp-folders';

/** Google's limit for one uploaded file (Migration Center: "maximum 100 MB per uploaded file"). */
export const MAX_DATA_FILE_BYTES = 100 * 1024 * 1024;

/** Thrown by `receive` when the stream goes past the limit (the temporary file is gone already). */
export class UploadTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the upload is larger than ${limit} bytes`);
    this.name = 'UploadTooLarge';
  }
}

/** An upload written and fsynced under its temporary name, not yet in place. */
export interface ReceivedUpload {
  tempPath: string;
  size: number;
}

const hash = (name: string): string => createHash('sha256').update(name).digest('hex').slice(0, 40);

/** `projects/p/locations/l/importJobs/j/importDataFiles/f` -> `projects/p/locations/l/importJobs/j`. */
function jobOf(name: string): string {
  const at = name.lastIndexOf('/importDataFiles/');
  return at < 0 ? name : name.slice(0, at);
}

export class DataFileBytes {
  private readonly folder: FilesFolder;

  /** `dataDir` undefined: a temporary directory, made at the first upload and removed by `close()`. */
  constructor(dataDir: string | undefined) {
    this.folder = new FilesFolder(dataDir, 'data-files', 'data-files', ['files', 'tmp']);
  }

  /** The folder that holds everything (`<dataDir>/data-files`). */
  get root(): string {
    return this.folder.path;
  }

  private get filesDir(): string {
    return path.join(this.root, 'files');
  }

  private get tmpDir(): string {
    return path.join(this.root, 'tmp');
  }

  private jobDir(jobName: string): string {
    return path.join(this.filesDir, hash(jobName));
  }

  /** Where the bytes of a data file are (whether or not any were uploaded). */
  pathOf(name: string): string {
    return path.join(this.jobDir(jobOf(name)), hash(name));
  }

  /** The size of a data file's bytes; undefined when none were uploaded. */
  size(name: string): number | undefined {
    try {
      return fs.statSync(this.pathOf(name)).size;
    } catch {
      return undefined;
    }
  }

  /**
   * Streams `body` into a temporary file, at most `limit` bytes (UploadTooLarge past it, checked
   * on every chunk), then fsyncs it. On any failure (too large, the client went away) the
   * temporary file is removed before the error is rethrown.
   */
  async receive(body: Readable, limit = MAX_DATA_FILE_BYTES): Promise<ReceivedUpload> {
    const tempPath = path.join(this.tmpDir, `${randomBytes(12).toString('hex')}.part`);
    const file = await fs.promises.open(tempPath, 'wx', 0o600);
    let size = 0;
    try {
      // Not destroyed when the loop stops early: the caller still answers on the same request.
      for await (const chunk of body.iterator({ destroyOnReturn: false })) {
        const bytes = chunk as Buffer;
        size += bytes.length;
        if (size > limit) throw new UploadTooLarge(limit);
        // One write at a time: the for-await loop pulls the next chunk only after it (backpressure).
        await file.write(bytes, 0, bytes.length);
      }
      await file.sync();
      await file.close();
      return { tempPath, size };
    } catch (err) {
      await file.close().catch(() => undefined);
      fs.rmSync(tempPath, { force: true });
      throw err;
    }
  }

  /** Puts a received upload in place of the data file's bytes (an atomic rename). */
  commit(upload: ReceivedUpload, name: string): void {
    const target = this.pathOf(name);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.renameSync(upload.tempPath, target);
  }

  /** Drops a received upload that will not be put in place. */
  discard(upload: ReceivedUpload): void {
    fs.rmSync(upload.tempPath, { force: true });
  }

  open(name: string): Readable {
    return fs.createReadStream(this.pathOf(name));
  }

  remove(name: string): void {
    fs.rmSync(this.pathOf(name), { force: true });
  }

  /** Removes the bytes of every data file of a job. */
  removeJob(jobName: string): void {
    fs.rmSync(this.jobDir(jobName), { recursive: true, force: true });
  }

  /**
   * Removes every upload under way and every byte file that none of `names` (the data files the
   * store holds) owns; returns how many files went. Run at start-up, before any upload.
   */
  sweep(names: Iterable<string>): number {
    if (!this.folder.made) return 0;
    const keep = new Set<string>();
    for (const name of names) keep.add(this.pathOf(name));
    let removed = 0;
    for (const entry of fs.readdirSync(this.tmpDir)) {
      fs.rmSync(path.join(this.tmpDir, entry), { recursive: true, force: true });
      removed++;
    }
    for (const dir of fs.readdirSync(this.filesDir)) {
      const jobDir = path.join(this.filesDir, dir);
      const entries = fs.statSync(jobDir).isDirectory() ? fs.readdirSync(jobDir) : [];
      for (const entry of entries) {
        const file = path.join(jobDir, entry);
        if (keep.has(file)) continue;
        fs.rmSync(file, { recursive: true, force: true });
        removed++;
      }
      if (!fs.statSync(jobDir).isDirectory() || fs.readdirSync(jobDir).length === 0) fs.rmSync(jobDir, { recursive: true, force: true });
    }
    return removed;
  }

  /** Every byte file and upload under way (tests check that nothing is left behind). */
  listAll(): string[] {
    const out: string[] = [];
    if (!this.folder.made) return out;
    for (const entry of fs.readdirSync(this.tmpDir)) out.push(path.join('tmp', entry));
    for (const dir of fs.readdirSync(this.filesDir)) {
      const jobDir = path.join(this.filesDir, dir);
      if (fs.statSync(jobDir).isDirectory()) for (const entry of fs.readdirSync(jobDir)) out.push(path.join('files', dir, entry));
    }
    return out;
  }

  /** Removes every byte file (the emulator's reset). */
  clear(): void {
    this.sweep([]);
  }

  close(): void {
    this.folder.close();
  }
}
