/**
 * The output files of export jobs, on disk: `<dataDir>/exports/<collection>/` (a temporary
 * directory, removed on close, for an in-memory emulator).
 *
 *   <hash of the job name>/<execution id>/<file>         one execution's files (`inventory.csv`)
 *   <hash of the job name>/<execution id>/<file>.part    a file being written
 *
 * A hashed job name keeps any resource name a safe folder name, and one folder per execution lets
 * an execution's files go in one step. Files the store no longer names (a job deleted while the
 * emulator was down, an execution a kill -9 interrupted, an expired one) are swept at start-up.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { FilesFolder } from '../../temp-folders';
import { CsvFileWriter, type TableWriter } from './table-files';

const hash = (name: string): string => createHash('sha256').update(name).digest('hex').slice(0, 40);
/** Execution ids are UUIDs; a file name is one of the family's own (`inventory.csv`). */
const SAFE_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export class ExportFiles {
  private readonly folder: FilesFolder;

  /** `dataDir` undefined: a temporary directory, made at the first export and removed by `close()`. */
  constructor(dataDir: string | undefined, collection: string) {
    this.folder = new FilesFolder(dataDir, path.join('exports', collection), `exports-${collection}`);
  }

  get root(): string {
    return this.folder.path;
  }

  private executionDir(job: string, executionId: string): string {
    if (!SAFE_SEGMENT.test(executionId)) throw new Error(`not an execution id: ${executionId}`);
    return path.join(this.root, hash(job), executionId);
  }

  /** The path of an execution's file; undefined for a name that is no file name of ours. */
  filePath(job: string, executionId: string, file: string): string | undefined {
    if (!SAFE_SEGMENT.test(executionId) || !SAFE_SEGMENT.test(file) || file.endsWith('.part')) return undefined;
    return path.join(this.executionDir(job, executionId), file);
  }

  /** A CSV writer for one file of an execution (its folder is made here). */
  csv(job: string, executionId: string, file: string, columns: readonly string[]): TableWriter {
    const dir = this.executionDir(job, executionId);
    fs.mkdirSync(dir, { recursive: true });
    return new CsvFileWriter(path.join(dir, file), file, columns);
  }

  /** Removes an execution's files. */
  removeExecution(job: string, executionId: string): void {
    fs.rmSync(this.executionDir(job, executionId), { recursive: true, force: true });
  }

  /** Removes every file of a job. */
  removeJob(job: string): void {
    fs.rmSync(path.join(this.root, hash(job)), { recursive: true, force: true });
  }

  /**
   * Removes every execution folder `keep` does not name (`keep`: job name -> execution ids whose
   * files are still wanted). Returns how many folders went.
   */
  sweep(keep: ReadonlyMap<string, ReadonlySet<string>>): number {
    if (!this.folder.made) return 0;
    const wanted = new Map<string, ReadonlySet<string>>();
    for (const [job, ids] of keep) wanted.set(hash(job), ids);
    let removed = 0;
    for (const jobDir of fs.readdirSync(this.root)) {
      const ids = wanted.get(jobDir);
      const full = path.join(this.root, jobDir);
      if (!ids) {
        fs.rmSync(full, { recursive: true, force: true });
        removed++;
        continue;
      }
      for (const executionId of fs.readdirSync(full)) {
        if (ids.has(executionId)) continue;
        fs.rmSync(path.join(full, executionId), { recursive: true, force: true });
        removed++;
      }
    }
    return removed;
  }

  /** Reset: every file goes. */
  clear(): void {
    if (!this.folder.made) return;
    for (const entry of fs.readdirSync(this.root)) fs.rmSync(path.join(this.root, entry), { recursive: true, force: true });
  }

  close(): void {
    this.folder.close();
  }
}
