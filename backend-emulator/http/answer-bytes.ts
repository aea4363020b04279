/**
 * One buffer kept for the bytes of large answers written as text (protojson.ts
 * `protoJsonListText`: batchUpdate's up to 1,000 assets, 385 KB), lent to one answer at a time.
 *
 * A buffer that large is memory of its own (malloc maps it, or grows its heap, for it), freed only
 * once V8 collects the Buffer: each answer wrote into fresh pages, and a first write to a page is
 * a page fault (about 20 µs on the machines this was measured on, 55 µs under load). A 385 KB
 * answer is some 94 of them, as much as the request's whole SQL in the worst case. The kept
 * buffer is written again and again: its pages stay mapped.
 *
 * The buffer goes back once the answer is sent (`release`, on the response's 'finish': the last
 * byte has left for the socket, or for `inject`'s copy), never earlier: a socket that cannot take
 * the answer at once holds the buffer, not a copy, until then. An answer that is not sent (an
 * error after it was written, another version's edge that rewrites it) never gives it back: the
 * Buffer is then collected as any other, and the next answer takes a new one.
 */

/** Answers at least this long are written into the kept buffer (smaller ones come from Node's pool). */
const MIN_KEPT_BYTES = 64 * 1024;

/** Answers longer than this get a buffer of their own, as before: the kept one would hold their size for good. */
const MAX_KEPT_BYTES = 1 << 20;

/** The kept buffer when no answer holds it (undefined while lent, or before the first large answer). */
let kept: Buffer | undefined;

/** Bytes to write an answer into, and what gives them back once the answer is sent. */
export interface AnswerBytes {
  /** Exactly `length` bytes long. */
  bytes: Buffer;
  /** Gives the kept buffer back (call once the answer is sent); undefined for bytes of their own. */
  release?: () => void;
}

/** `length` bytes for an answer's text: the kept buffer when it is free and the length fits it, else bytes of their own. */
export function answerBytes(length: number): AnswerBytes {
  if (length < MIN_KEPT_BYTES || length > MAX_KEPT_BYTES) return { bytes: Buffer.allocUnsafe(length) };
  const buffer = kept !== undefined && kept.length >= length ? kept : Buffer.allocUnsafe(Math.max(length, kept?.length ?? 0));
  kept = undefined;
  let lent = true;
  return {
    bytes: buffer.subarray(0, length),
    release: () => {
      // Once: a second release would lend the buffer twice.
      if (!lent) return;
      lent = false;
      if (kept === undefined || kept.length < buffer.length) kept = buffer;
    },
  };
}
