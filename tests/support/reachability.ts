/**
 * How much of a stream a reader still holds, measured so that the machine's load cannot move it:
 * fresh buffers are tracked with WeakRef, and after a macrotask turn (WeakRef targets stay alive
 * until the microtask queue drains) a full collection leaves only those the reader still reaches.
 * A count of pieces, not megabytes: it is the same on an idle laptop and a loaded CI runner.
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
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

/** Tracks buffers and counts how many are still reachable. */
export class Reachability {
  private readonly refs: Array<WeakRef<ArrayBuffer>> = [];
  private readonly seen = new WeakSet<ArrayBuffer>();
  /** The most pieces found reachable at one check. */
  mostHeld = 0;

  track(piece: Buffer): void {
    const ab = piece.buffer as ArrayBuffer;
    if (this.seen.has(ab)) return;
    this.seen.add(ab);
    this.refs.push(new WeakRef(ab));
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
