/**
 * V8's full garbage collection, on demand, for the threads whose work leaves large garbage that V8
 * would keep for a long time: the request thread after a large body (http/large-bodies.ts), an
 * import worker going idle after a job (import-worker.ts).
 */
import * as v8 from 'v8';
import * as vm from 'vm';

let collector: (() => void) | undefined;

/**
 * V8's full collection (`gc()`) for the calling thread, reached without starting the process with
 * --expose-gc: the `gc` of a process started with it, or else the flag is set for as long as it
 * takes to make a context, which then has `gc`, and unset. The flag is the whole process's, and
 * another thread may unset it in between: a failure is not kept, the next call tries again.
 * Undefined where the runtime refuses; the memory is then freed when V8 decides, as before.
 */
export function fullCollection(): (() => void) | undefined {
  if (collector) return collector;
  const exposed: unknown = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return (collector = exposed as () => void);
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('gc');
    if (typeof gc === 'function') collector = gc as () => void;
  } catch {
    // Refused, or unset by another thread meanwhile: no collection this time.
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
  return collector;
}

/**
 * Lets go of the last string a regular expression matched on this thread. V8 keeps the subject of
 * the last successful match (for the legacy `RegExp.lastMatch`, `RegExp.$1`, ...) until another
 * match replaces it, so a large text a regex was tested on stays reachable after everything else
 * let go of it: the body worker's 19 MB of base64 text, tested by `isBase64Text`, outlived its
 * collection until the worker ended. A match on a one-character string replaces it.
 */
export function forgetLastRegExpMatch(): void {
  /./.exec('.');
}

/** Whether `view` spans the whole of its buffer (so that the buffer may be moved or freed as the view's alone). */
export function ownsItsBuffer(view: Uint8Array): view is Uint8Array & { buffer: ArrayBuffer } {
  return view.byteOffset === 0 && view.byteLength === view.buffer.byteLength && view.buffer instanceof ArrayBuffer;
}

/**
 * Frees the memory of `view`'s buffer now, rather than at its thread's next collection: the buffer
 * is detached (ES2024 `ArrayBuffer.prototype.transfer`), and every view of it reads as empty from
 * then on. V8 frees a buffer's memory only once a collection finds its object dead, and the object
 * is small: a thread that makes few objects beside large buffers collects seldom and keeps the
 * dead buffers resident. The run's writer kept 40 to 50 MB of batches it had written and
 * committed (issue 27). A view that does not own its whole buffer is left to the collector.
 */
export function freeNow(view: Uint8Array): void {
  if (!ownsItsBuffer(view)) return;
  (view.buffer as ArrayBuffer & { transfer(length: number): ArrayBuffer }).transfer(0);
}
