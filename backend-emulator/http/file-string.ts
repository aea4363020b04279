/**
 * A JSON string value whose characters are kept in a file (an import job's inline payload text,
 * import-jobs/inline-payload-files.ts), opened for one answer. The answer's text is made around
 * it, and its bytes are copied in as the answer is sent (streamed-json.ts), read a chunk at a time
 * off the request thread, instead of being read into a string and serialised again with the rest.
 *
 * The file's bytes are the string's characters exactly as they stand between the quotes of the
 * JSON text: the caller vouches that no character needs escaping. Base64 (either alphabet:
 * letters, digits, `+` `/` `-` `_`, `=` at the end), which is all an inline payload's text can be
 * (schemas/keywords.ts refuses anything else), needs none.
 *
 * The file is opened before the answer is made, so the answer is the text as it was when the job's
 * record was read: a patch or delete that removes the file afterwards does not reach an open file
 * (POSIX keeps an unlinked file's bytes while it is open). A small file is read whole at once and
 * closed, so that an answer holding many (a list of jobs) does not hold a descriptor for each.
 */
import { promises as fsp } from 'node:fs';

/** Files at most this long are read whole when opened (no descriptor held through the answer). */
const READ_WHOLE_BYTES = 64 * 1024;

export class FileString {
  private constructor(
    /** The length of the string's text in bytes (one byte a character: the text is ASCII). */
    readonly size: number,
    /** The whole text (a small file), or the open file it is read from. */
    private readonly source: Buffer | fsp.FileHandle,
  ) {}

  /** Opens the file at `path` (its bytes as they are; a small one read at once). Rejects as `open` does (ENOENT). */
  static async open(path: string): Promise<FileString> {
    const handle = await fsp.open(path, 'r');
    try {
      const { size } = await handle.stat();
      if (size > READ_WHOLE_BYTES) return new FileString(size, handle);
      const bytes = Buffer.allocUnsafe(size);
      await readExactly(handle, bytes, 0);
      await handle.close();
      return new FileString(size, bytes);
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  /** The text in hand, when the file was small enough to be read whole. */
  get bytes(): Buffer | undefined {
    return Buffer.isBuffer(this.source) ? this.source : undefined;
  }

  /**
   * `length` bytes of the text from byte `at`, read into the start of `into` (answered: that part
   * of it); rejects if the file holds fewer than when it was opened.
   */
  async readInto(into: Buffer, at: number, length: number): Promise<Buffer> {
    const bytes = into.subarray(0, length);
    if (Buffer.isBuffer(this.source)) this.source.copy(bytes, 0, at, at + length);
    else await readExactly(this.source, bytes, at);
    return bytes;
  }

  /** Closes the file (once it is read, or if the answer is not sent); again is harmless. */
  async close(): Promise<void> {
    // A FileHandle's close waits for reads under way and answers the same promise when called again.
    if (!Buffer.isBuffer(this.source)) await this.source.close();
  }
}

/** Fills `bytes` from the file's byte `at`. */
async function readExactly(handle: fsp.FileHandle, bytes: Buffer, at: number): Promise<void> {
  for (let done = 0; done < bytes.length;) {
    const { bytesRead } = await handle.read(bytes, done, bytes.length - done, at + done);
    if (bytesRead === 0) throw new Error(`the file ended at byte ${at + done}, before the ${at + bytes.length} it held when opened`);
    done += bytesRead;
  }
}
