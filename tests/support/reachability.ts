/**
 * How much of a stream a reader still holds, measured so that the machine's load cannot move it:
 * fresh buffers are tracked with WeakRef, and after a macrotask turn (WeakRef targets stay alive
 * until the microtask queue drains) a full collection leaves only those the reader still reaches.
 * A count of pieces, not megabytes: it is the same on an idle laptop and a loaded CI runner.
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';

let gcFn: (() => void) | undefined;
/** A full garbage collection (`--expose-gc` set at run time, as jest workers start without it). */
export function fullGc(): void {
  if (!gcFn) {
    v8.setFlagsFromString('--expose-gc');
    gcFn = vm.runInNewContext('gc') as () => void;
  }
  gcFn();
}

/**
 * Tracks buffers (by their memory: a view or a slice of a piece keeps it counted) and other
 * objects (streams, reports), and counts how many are still reachable. A buffer must own its
 * memory: small ones from Buffer.from/alloc share Node's pool, so use `freshBuffer`.
 */
export class Reachability {
  private readonly refs: Array<WeakRef<object>> = [];
  private readonly seen = new WeakSet<object>();
  /** The most pieces found reachable at one check. */
  mostHeld = 0;

  track(piece: Buffer | object): void {
    const target: object = Buffer.isBuffer(piece) ? piece.buffer : piece;
    if (this.seen.has(target)) return;
    this.seen.add(target);
    this.refs.push(new WeakRef(target));
  }

  get tracked(): number {
    return this.refs.length;
  }

  /** Collects, then records how many tracked pieces survive. Call from a macrotask (see above). */
  check(): number {
    fullGc();
    const held = this.refs.filter((r) => r.deref() !== undefined).length;
    this.mostHeld = Math.max(this.mostHeld, held);
    return held;
  }
}

/** Bytes in memory of their own (never a slice of Node's shared pool), so that they can be tracked. */
export function freshBuffer(bytes: Uint8Array | string): Buffer {
  const source = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  const out = Buffer.from(new ArrayBuffer(source.length));
  out.set(source);
  return out;
}

/**
 * A generated stream whose every piece is fresh memory, tracked: `head`, then `count` pieces made
 * by `piece(i)`, then `tail`, produced lazily. Every `checkEvery` pieces the stream waits for the
 * next macrotask turn, checks, then hands the piece over, so `pieces.mostHeld` says how many the
 * reader held at once, mid-read; `pulled()` says how many pieces were asked of the stream (a
 * reader that stops stops pulling).
 */
export function watchedStream(
  head: string,
  piece: (i: number) => Buffer,
  count: number,
  tail = '',
  checkEvery = 32,
): { open: () => Readable; pieces: Reachability; pulled: () => number } {
  const pieces = new Reachability();
  let pulled = 0;
  const open = () => {
    let i = -1;
    return new Readable({
      read() {
        if (i === -1) this.push(freshBuffer(head));
        else if (i < count) {
          const p = freshBuffer(piece(i));
          pulled++;
          pieces.track(p);
          if (pulled % checkEvery !== 0) this.push(p);
          else
            // A reader of a stream in memory may never yield to the event loop: the stream does,
            // and checks before handing over the next piece.
            setImmediate(() => {
              pieces.check();
              this.push(p);
            });
        } else if (i === count) this.push(freshBuffer(tail));
        else this.push(null);
        i++;
      },
    });
  };
  return { open, pieces, pulled: () => pulled };
}

/**
 * Watches every raw inflater the code under test creates (zlib.createInflateRaw): counts the bytes
 * it inflates and tracks its output pieces; every `checkEvery` pieces a check runs on the next
 * macrotask turn. `restore()` puts zlib back.
 */
export function watchInflation(checkEvery = 16): { inflatedBytes: () => number; pieces: Reachability; restore: () => void } {
  const pieces = new Reachability();
  let bytes = 0;
  const original = zlib.createInflateRaw;
  // zlib's exports are read-only but configurable: replaced and restored by defineProperty (the
  // code under test reads them through TypeScript's live import bindings).
  const watched = (options?: zlib.ZlibOptions) => {
    const inflater = original(options);
    const push = inflater.push.bind(inflater);
    inflater.push = (chunk: any, encoding?: BufferEncoding) => {
      if (Buffer.isBuffer(chunk)) {
        bytes += chunk.length;
        pieces.track(chunk);
        if (pieces.tracked % checkEvery === 0) setImmediate(() => pieces.check());
      }
      return push(chunk, encoding);
    };
    return inflater;
  };
  const descriptor = Object.getOwnPropertyDescriptor(zlib, 'createInflateRaw')!;
  Object.defineProperty(zlib, 'createInflateRaw', { ...descriptor, value: watched });
  return { inflatedBytes: () => bytes, pieces, restore: () => Object.defineProperty(zlib, 'createInflateRaw', descriptor) };
}
