/**
 * An answer whose ProtoJSON holds strings kept in files (file-string.ts): an import job's FULL
 * view, whose inline payload text is 15.6 MB for 100,000 machines. Made as one string, that text
 * was read into a string, copied by JSON.stringify into the answer's text, and copied again into
 * the socket's bytes, all on the request thread (some 70 ms of its CPU a get, and 130 to 156 MB
 * more RSS over five gets in a row, in the inline-payload bench). Here the text around the file
 * strings is made as any answer's (ProtoJSON's rules, then JSON.stringify, a field or item at a
 * time) and each file's bytes are spliced in as the answer is sent, read a chunk at a time in
 * libuv's pool: the request thread only passes the chunks on to the socket.
 *
 * The front end sends it (front-end.ts: the serializer answers the stream, with its Content-Length)
 * and closes its files once the response is over, whether it was sent, failed or never started.
 */
import { Readable, type Writable } from 'node:stream';
import { FileString } from './file-string';
import { toProtoJson } from './protojson';

/** Bytes of a file string read and sent at a time. */
const CHUNK_BYTES = 256 * 1024;

/** A piece of the answer's bytes: JSON text, or the text of a file string (its characters between the quotes). */
type Piece = Buffer | FileString;

export class StreamedProtoJson {
  private constructor(
    /** The answer in ProtoJSON (defaults left out), its file strings as FileString values. */
    readonly value: unknown,
    /** Every file string opened for the answer (some may be left out of `value`: closed all the same). */
    private readonly files: readonly FileString[],
  ) {}

  /**
   * The answer `value` (as a route returns it; ProtoJSON's rules are applied here, a file string
   * of no characters is left out as an empty string is) whose file strings are `files`.
   */
  static of(value: unknown, files: readonly FileString[]): StreamedProtoJson {
    return new StreamedProtoJson(toProtoJson(value), files);
  }

  /** The same files under another value (another API version's shape of it, which may leave some out). */
  withValue(value: unknown): StreamedProtoJson {
    return new StreamedProtoJson(value, this.files);
  }

  /** Closes every file of the answer (once it is sent, or not to be); again is harmless. */
  readonly release = (): void => {
    for (const file of this.files) file.close().catch(() => undefined);
  };

  /**
   * The answer's bytes: their count, and a stream that writes them to `destination` (the response)
   * once it is read (piped), ends when they are written, and closes the files then or when it is
   * destroyed.
   */
  body(destination: Writable): { length: number; stream: Readable } {
    const pieces = jsonPieces(this.value);
    let length = 0;
    for (const piece of pieces) length += Buffer.isBuffer(piece) ? piece.length : piece.size;
    return { length, stream: new PiecesStream(pieces, this.release, destination) };
  }
}

/**
 * The JSON text of `value` (as JSON.stringify writes it) in pieces: text, and each FileString's
 * characters in its place between quotes. Only the objects and lists that hold a FileString are
 * written here, a member at a time; everything else is written by JSON.stringify whole.
 */
export function jsonPieces(value: unknown): Piece[] {
  const holders = new Set<object>();
  markHolders(value, holders);
  const pieces: Piece[] = [];
  let text = '';
  const flush = () => {
    if (text.length > 0) pieces.push(Buffer.from(text, 'utf8'));
    text = '';
  };
  const write = (v: unknown): void => {
    if (v instanceof FileString) {
      text += '"';
      flush();
      if (v.size > 0) pieces.push(v);
      text += '"';
    } else if (!holders.has(v as object)) {
      text += JSON.stringify(v) ?? 'null';
    } else if (Array.isArray(v)) {
      text += '[';
      for (let i = 0; i < v.length; i++) {
        if (i > 0) text += ',';
        // JSON.stringify writes an item it cannot (undefined, a function) as null.
        if (holders.has(v[i] as object) || v[i] instanceof FileString) write(v[i]);
        else text += JSON.stringify(v[i]) ?? 'null';
      }
      text += ']';
    } else {
      text += '{';
      let first = true;
      for (const [key, member] of Object.entries(v as Record<string, unknown>)) {
        const plain = !(holders.has(member as object) || member instanceof FileString);
        // JSON.stringify leaves out a member it cannot write (undefined, a function).
        const memberText = plain ? JSON.stringify(member) : '';
        if (plain && memberText === undefined) continue;
        text += `${first ? '' : ','}${JSON.stringify(key)}:`;
        first = false;
        if (plain) text += memberText;
        else write(member);
      }
      text += '}';
    }
  };
  write(value);
  flush();
  return pieces;
}

/** Whether `value` holds a FileString at any depth; every object and list that does goes into `holders`. */
function markHolders(value: unknown, holders: Set<object>): boolean {
  if (value instanceof FileString) return true;
  // Bytes and dates are written whole by JSON.stringify (a Buffer's members are its bytes).
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || value instanceof Date) return false;
  let holds = false;
  // Every member is looked at (not only up to the first holder): each holder below must be marked.
  for (const member of Array.isArray(value) ? value : Object.values(value)) if (markHolders(member, holders)) holds = true;
  if (holds) holders.add(value);
  return holds;
}

/**
 * The pieces written to the response by the stream itself, a write at a time; the stream handed
 * to the framework carries no data: it ends once the last write is done (the framework then ends
 * the response), fails if a read or a write fails, and stops when it is destroyed (the client went
 * away). Text goes as it is. A file's text is read a chunk at a time into one of two buffers
 * while the other one's write is under way, and a buffer is read into again only once its write's
 * callback said the socket has taken its bytes: fresh buffers for a 15.6 MB answer were 15.6 MB of
 * memory outside V8's heap that V8 counts toward its next full collection, one mark-compact per
 * answer on the request thread (about 50 against 15 ms of CPU a get, measured in process).
 */
class PiecesStream extends Readable {
  private started = false;

  constructor(
    private readonly pieces: Piece[],
    private readonly release: () => void,
    private readonly destination: Writable,
  ) {
    super();
  }

  override _read(): void {
    if (this.started) return;
    this.started = true;
    this.writeAll().then(
      () => {
        this.release();
        this.push(null);
      },
      (err: Error) => this.destroy(err),
    );
  }

  private async writeAll(): Promise<void> {
    let buffers: Buffer[] | undefined;
    let turn = 0;
    // The write under way: one at a time, each awaited before the next (its buffer then free again).
    let writing: Promise<Error | undefined> = Promise.resolve(undefined);
    const next = async (bytes: Buffer) => {
      const failed = await writing;
      if (failed) throw failed;
      writing = this.write(bytes);
    };
    for (const piece of this.pieces) {
      if (Buffer.isBuffer(piece) || piece.bytes !== undefined) {
        await next(Buffer.isBuffer(piece) ? piece : piece.bytes!);
        continue;
      }
      buffers ??= [Buffer.allocUnsafe(CHUNK_BYTES), Buffer.allocUnsafe(CHUNK_BYTES)];
      for (let at = 0; at < piece.size; at += CHUNK_BYTES) {
        if (this.stopped()) return;
        // Read into the buffer no write holds, while the other one's write may still be under way.
        await next(await piece.readInto(buffers[turn++ % 2], at, Math.min(CHUNK_BYTES, piece.size - at)));
      }
    }
    const failed = await writing;
    if (failed) throw failed;
  }

  /**
   * Writes `bytes` to the response; resolves once they are handed to the socket (the buffer may
   * then be written into again), with the write's error if it failed (never rejects: a write may
   * fail while nothing awaits it yet, during the next read).
   */
  private write(bytes: Buffer): Promise<Error | undefined> {
    return new Promise((resolve) => {
      if (this.stopped()) return resolve(undefined);
      this.destination.write(bytes, (err) => resolve(err ?? undefined));
    });
  }

  /**
   * Nothing more to write: the stream was destroyed (the client went away), or the response has
   * ended without its body (a HEAD request: fastify ends it and only drains the stream).
   */
  private stopped(): boolean {
    return this.destroyed || this.destination.writableEnded;
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    this.release();
    done(err);
  }
}
