/**
 * Full garbage collections of the request thread around the answer to a request with a large body.
 *
 * V8 allocates every string or buffer over about 128 KiB as a large object of its old generation,
 * and frees it only in a full collection, which it starts once the old generation has grown past a
 * limit it sets from the heap's size. The request thread's own work is small: after the create of
 * a 100,000-row inline payload (15.6 MB of base64: the body's text, the parsed string, the stored
 * Operation's JSON and the answer), 47 MB of such strings outlived the request through the whole
 * import that followed, beside the import threads' heaps (the emulator's peak RSS target is
 * 300 MB). So the thread collects twice: before the answer's text is made (the body's copies are
 * garbage by then) and once the answer has been sent; each a pause of a few ms to some tens of ms,
 * in a request that took seconds.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fullCollection } from '../garbage-collection';

/** A body of at least this many bytes is collected after (a few of them stay under V8's large-object size). */
export const LARGE_BODY_BYTES = 1 << 20;

/** The requests whose body was large, until they are answered. */
const largeBodies = new WeakSet<FastifyRequest>();

/** The body parser read a large body for `request`. */
export function noteLargeBody(request: FastifyRequest): void {
  largeBodies.add(request);
}

let collectionQueued = false;

/**
 * `request` is being answered (the answer's text is made right after this): when its body was
 * large, a full collection runs once the answer is sent. Not before: the socket holds the answer's
 * text until its last byte is written, and its text is as large as the body was (a create answers
 * the job as given).
 */
export function answering(request: FastifyRequest, reply: FastifyReply): void {
  if (!largeBodies.delete(request)) return;
  // The body's copies (its bytes, their text, the payload's bytes written to disk) are garbage by
  // now: collected before the answer's text (as large as the body) is made, they are not resident
  // beside it (the peak of an inline create was all of them at once).
  fullCollection()?.();
  reply.raw.once('close', collectSoon);
}

/** A full collection in a later turn of the event loop (one for the large answers sent meanwhile). */
function collectSoon(): void {
  const collect = fullCollection();
  if (!collect || collectionQueued) return;
  collectionQueued = true;
  setImmediate(() => {
    collectionQueued = false;
    collect();
  });
}
