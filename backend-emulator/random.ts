/**
 * Random bytes for etags and operation ids, drawn from a pool refilled a few KiB at a time.
 * `crypto.randomBytes(8)` per write costs a system call each time; on the setIamPolicy path it was
 * the largest single cost after the store (profiled, about 6% of a write). Node's own
 * `randomUUID` batches its entropy the same way.
 */
import { randomFillSync } from 'crypto';

const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;

/** `size` fresh random bytes (a copy: callers may change them). */
export function randomBytesPooled(size: number): Buffer {
  if (size > POOL_SIZE) return randomFillSync(Buffer.alloc(size));
  if (offset + size > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + size));
  offset += size;
  return bytes;
}
