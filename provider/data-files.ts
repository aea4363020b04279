/**
 * Local files as import data files: what the ImportJob provider and the `import` command share.
 *
 * - `dataFileId`: the data file id a file name gives (Google's resource id rule);
 * - `inspectLocalFiles`: each file's size and sha256, read as a stream (a 100 MB file is never
 *   held whole in memory), or failures naming the file and the rule it breaks;
 * - `uploadLocalFile`: one data file per file, its bytes streamed to the signed upload URL.
 *
 * No Pulumi here: the command line uses it without loading the Pulumi SDK.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pipeline, Transform } from 'node:stream';
import { RESOURCE_ID } from '../backend-emulator/http/names';
import { applyDataFileIdSteps } from '../schemas/data-file-id';
import { MAX_DATA_FILE_BYTES } from '../backend-emulator/migrationcenter/import-data-files/data-file-bytes';
import type { GoogleRestClient, Operation } from './client';

export { MAX_DATA_FILE_BYTES };

const API_VERSION = 'v1alpha1';

/** A local file as recorded in state: the path as given, and what its bytes were. */
export interface LocalFileState {
  path: string;
  sha256: string;
  size: number;
}

/** A problem with one local file, by its index in the list. */
export interface LocalFileFailure {
  index: number;
  path: string;
  reason: string;
}

/**
 * The data file id of a file name: `vmInfo.csv` -> `vm-info-csv`. A camel-case hump becomes a
 * '-', every character other than a-z, 0-9 and '-' becomes '-' (the extension stays, so
 * `vmInfo.csv` and `vmInfo.xlsx` do not collide), runs of '-' become one, a name that does not start
 * with a letter gets `f-` before it, and the id is cut to 63 characters without a trailing '-'.
 */
export function dataFileId(fileName: string): string {
  const id = applyDataFileIdSteps(fileName);
  if (!RESOURCE_ID.test(id)) throw new Error(`cannot make a data file id from the file name '${fileName}'`);
  return id;
}

/** The sha256 (hex) and byte count of a file, read as a stream. */
export function hashFile(file: string): Promise<{ sha256: string; size: number }> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    let size = 0;
    fs.createReadStream(file)
      .on('data', (chunk: Buffer | string) => {
        hash.update(chunk);
        size += chunk.length;
      })
      .on('error', reject)
      .on('end', () => resolve({ sha256: hash.digest('hex'), size }));
  });
}

function explain(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read: permission denied';
  if (code === 'EISDIR') return 'is a folder, not a file';
  return `cannot be read: ${(err as Error).message}`;
}

/**
 * Sizes and hashes of the local files (paths relative to `cwd`), or one failure per file that is
 * missing, not a regular file, over 100 MB (Google's limit for one data file) or not readable,
 * and one per file whose data file id another file already gives.
 */
export async function inspectLocalFiles(paths: string[], cwd: string = process.cwd()): Promise<{ files: LocalFileState[]; failures: LocalFileFailure[] }> {
  const files: LocalFileState[] = [];
  const failures: LocalFileFailure[] = [];
  const ids = new Map<string, string>();
  for (const [index, given] of paths.entries()) {
    const fail = (reason: string) => failures.push({ index, path: given, reason: `${given}: ${reason}` });
    const full = path.resolve(cwd, given);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(full);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') fail(`no such file (looked for ${full})`);
      else fail(explain(err));
      continue;
    }
    if (!stat.isFile()) {
      fail(stat.isDirectory() ? 'is a folder, not a file: name each file' : 'is not a regular file');
      continue;
    }
    if (stat.size > MAX_DATA_FILE_BYTES) {
      fail(`is ${stat.size} bytes: a data file holds at most 100 MB (${MAX_DATA_FILE_BYTES} bytes), Google's limit per uploaded file; split it`);
      continue;
    }
    const name = path.basename(full);
    const id = dataFileId(name);
    const other = ids.get(id);
    if (other !== undefined) {
      fail(`its data file id '${id}' (from the file name) is also ${other}'s: rename one of them`);
      continue;
    }
    ids.set(id, given);
    try {
      files.push({ path: given, ...(await hashFile(full)) });
    } catch (err) {
      fail(explain(err));
    }
  }
  return { files, failures };
}

interface UploadFileInfo {
  signedUri: string;
  headers?: Record<string, string>;
}

export interface UploadOptions {
  /** Hears every chunk as it is sent (progress). */
  onBytes?: (bytes: number) => void;
  /** The folder relative paths start from (default: the process's). */
  cwd?: string;
  timeoutMs?: number;
  /** The data file's id (default: `dataFileId` of the file name). */
  importDataFileId?: string;
  /** The data file's display name (default: the file name). */
  displayName?: string;
  /** Google's idempotency key for the data file's create. */
  requestId?: string;
}

/**
 * Adds the data file of `file` to the job `jobName` (`projects/.../importJobs/{id}`): id from the
 * file name and display name the file name unless the options give them, `format`, then streams
 * the bytes to its signed upload URL.
 * Resolves with the size and sha256 of the bytes sent (which the server now holds).
 */
export async function uploadLocalFile(
  client: GoogleRestClient,
  jobName: string,
  file: string,
  format: string,
  options: UploadOptions = {},
): Promise<LocalFileState> {
  const full = path.resolve(options.cwd ?? process.cwd(), file);
  const name = path.basename(full);
  const size = fs.statSync(full).size;
  const created = await client.post<Operation>(
    `/${API_VERSION}/${jobName}/importDataFiles`,
    { displayName: options.displayName ?? name, format },
    { importDataFileId: options.importDataFileId ?? dataFileId(name), ...(options.requestId ? { requestId: options.requestId } : {}) },
  );
  const done = await client.waitForOperation(created, { apiVersion: API_VERSION, timeoutMs: options.timeoutMs, initialPollMs: 100, maxPollMs: 2000 });
  const info = (done.response as { uploadFileInfo?: UploadFileInfo } | undefined)?.uploadFileInfo;
  if (!info?.signedUri) throw new Error(`the data file of ${file} came back without uploadFileInfo.signedUri: cannot upload its bytes`);
  const hash = createHash('sha256');
  let sent = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _enc, next) {
      hash.update(chunk);
      sent += chunk.length;
      options.onBytes?.(chunk.length);
      next(null, chunk);
    },
  });
  // pipeline, not pipe: a read error reaches `counted`, and through it the upload, which fails.
  pipeline(fs.createReadStream(full), counted, () => undefined);
  await client.upload(info.signedUri, info.headers ?? {}, counted, size);
  if (sent !== size) throw new Error(`${file} changed while it was uploaded (${size} bytes at the start, ${sent} sent): upload it again`);
  return { path: file, sha256: hash.digest('hex'), size };
}
