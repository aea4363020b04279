/**
 * The base64 text of import jobs' inline payloads, on disk, apart from the jobs' records:
 * `<dataDir>/inline-payloads/` (a temporary directory, removed on close, for an in-memory emulator).
 *
 *   <hash of the job name>-<generation>/<index>   the text of payload file `index` of one payload
 *
 * A job's record names its payload's generation (StoredJob.inlinePayloadFiles). A record read for
 * every `operations.get` poll, every state change and every job `get` stays small however large the
 * payload: the text (13.6 MB of base64 for 100,000 machines) is written once, at create or at a
 * patch of the payload, and read by the import that opens it (in its worker thread, by path).
 *
 * A payload is written and fsynced before the store transaction that names it commits, so a record
 * never names text that a kill -9 could lose; text no record names (a create refused or replayed,
 * a kill -9 between the write and the commit, a job deleted while the emulator was down) is removed
 * after the write or swept at start-up. Each payload has its own folder, so removing one never
 * touches another being written for the same job name.
 */
import { createHash, randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type { StoredInlineFile } from '../../payloads';
import { decodedBase64Size } from '../../payloads';
import { LargeBytesText } from '../../http/large-bytes';
import { FilesFolder } from '../../temp-folders';
import { syncPath } from '../../fs-sync';
import { FileString } from '../../http/file-string';
import type { InlinePayloadRef } from '../types';

/**
 * An inline file as a request gives it: its base64 text a string, or a large text the body worker
 * already wrote to a file (http/large-bytes.ts), which is moved here rather than written again.
 */
export interface InputInlineFile {
  name: string;
  data: string | LargeBytesText;
}

const hash = (name: string): string => createHash('sha256').update(name).digest('hex').slice(0, 40);

export class InlinePayloadFiles {
  private readonly rootFolder: FilesFolder;

  /** `dataDir` undefined: a temporary directory, made at the first payload and removed by `close()`. */
  constructor(dataDir: string | undefined) {
    this.rootFolder = new FilesFolder(dataDir, 'inline-payloads', 'inline-payloads');
  }

  /** The folder that holds everything (`<dataDir>/inline-payloads`). */
  get root(): string {
    return this.rootFolder.path;
  }

  private folder(jobName: string, generation: string): string {
    return path.join(this.root, `${hash(jobName)}-${generation}`);
  }

  /** The file of payload file `index` of a stored payload, with its name and decoded size. */
  files(jobName: string, names: readonly string[], ref: InlinePayloadRef): StoredInlineFile[] {
    const folder = this.folder(jobName, ref.generation);
    return names.map((name, i) => ({ name, path: path.join(folder, String(i)), size: ref.sizes[i] ?? 0 }));
  }

  /**
   * The base64 text of payload file `index`, opened to be spliced into an answer as it is sent (a
   * FULL view of the job: http/streamed-json.ts). The text is the `data` string as the request
   * sent it, which was let through only as base64 (schemas/base64.ts: the schema's keyword, and the
   * body worker for a large text): no character of it needs escaping in JSON. Rejects with ENOENT
   * when the payload's files are gone (replaced or deleted meanwhile).
   */
  open(jobName: string, ref: InlinePayloadRef, index: number): Promise<FileString> {
    return FileString.open(this.textPath(jobName, ref, index));
  }

  private textPath(jobName: string, ref: InlinePayloadRef, index: number): string {
    return path.join(this.folder(jobName, ref.generation), String(index));
  }

  /**
   * Writes a payload's text under a new generation and fsyncs it (off the request thread: the
   * writes and fsyncs run in libuv's pool; a large text is moved, already fsynced). Nothing names
   * it until a record does.
   */
  async write(jobName: string, files: readonly InputInlineFile[]): Promise<InlinePayloadRef> {
    const generation = randomBytes(8).toString('hex');
    const folder = this.folder(jobName, generation);
    await fs.promises.mkdir(folder);
    try {
      for (const [i, file] of files.entries()) {
        if (file.data instanceof LargeBytesText) {
          await file.data.moveTo(path.join(folder, String(i)));
          continue;
        }
        const handle = await fs.promises.open(path.join(folder, String(i)), 'wx', 0o600);
        try {
          await writeText(handle, file.data);
          await handle.sync();
        } finally {
          await handle.close();
        }
      }
      // The names written in them survive a crash.
      await syncPath(folder);
      await syncPath(this.root);
    } catch (err) {
      this.remove(jobName, { generation, sizes: [] });
      throw err;
    }
    return { generation, sizes: files.map((f) => (f.data instanceof LargeBytesText ? f.data.decodedSize : decodedBase64Size(f.data))) };
  }

  /** Removes one payload's text (gone already: nothing to do). */
  remove(jobName: string, ref: InlinePayloadRef): void {
    fs.rmSync(this.folder(jobName, ref.generation), { recursive: true, force: true });
  }

  /**
   * Removes every payload that none of `kept` (job name and generation, from the records the store
   * holds) names; returns how many went. Run at start-up, before any request.
   */
  sweep(kept: Iterable<{ jobName: string; ref: InlinePayloadRef }>): number {
    const keep = new Set<string>();
    for (const { jobName, ref } of kept) keep.add(path.basename(this.folder(jobName, ref.generation)));
    let removed = 0;
    if (!this.rootFolder.made) return removed;
    for (const entry of fs.readdirSync(this.root)) {
      if (keep.has(entry)) continue;
      fs.rmSync(path.join(this.root, entry), { recursive: true, force: true });
      removed++;
    }
    return removed;
  }

  /** Every payload folder (tests check that nothing is left behind). */
  listAll(): string[] {
    return this.rootFolder.made ? fs.readdirSync(this.root).sort() : [];
  }

  /** Removes every payload (the emulator's reset). */
  clear(): void {
    this.sweep([]);
  }

  close(): void {
    this.rootFolder.close();
  }
}

/** The text is written in pieces of this many characters (base64: one byte each). */
const WRITE_PIECE = 1 << 20;

/**
 * Writes base64 text in pieces: the bytes of a 15.6 MB payload in one piece were one more copy of
 * it resident at once, beside the request's body and its parsed text (the emulator's peak RSS).
 */
async function writeText(handle: fs.promises.FileHandle, text: string): Promise<void> {
  for (let at = 0; at < text.length; at += WRITE_PIECE) {
    const piece = Buffer.from(text.slice(at, at + WRITE_PIECE), 'latin1');
    for (let written = 0; written < piece.length;) written += (await handle.write(piece, written)).bytesWritten;
  }
}
