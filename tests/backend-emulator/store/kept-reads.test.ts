/**
 * KeptReads (store/kept-reads.ts): a read's value kept while the store's documents version stands
 * still, read again once it moves, never kept inside a transaction (no version), the least
 * recently asked dropped past the limit.
 */
import { KeptReads } from '../../../backend-emulator/store/kept-reads';

/** A read that counts its calls and returns a new object each time. */
function counted(key: string): { read: () => { key: string; n: number }; calls: () => number } {
  let n = 0;
  return { read: () => ({ key, n: ++n }), calls: () => n };
}

test('the same value while the version stands still; read again once it moves', () => {
  const kept = new KeptReads<{ key: string; n: number }>(4);
  const a = counted('a');
  const first = kept.get('a', 1, a.read);
  expect(kept.get('a', 1, a.read)).toBe(first);
  expect(a.calls()).toBe(1);
  expect(kept.get('a', 2, a.read)).toEqual({ key: 'a', n: 2 });
  expect(kept.get('a', 2, a.read)).toEqual({ key: 'a', n: 2 });
  expect(a.calls()).toBe(2);
});

test('nothing is kept without a version (inside a transaction), nor when the read throws', () => {
  const kept = new KeptReads<{ key: string; n: number }>(4);
  const a = counted('a');
  kept.get('a', undefined, a.read);
  kept.get('a', undefined, a.read);
  expect(a.calls()).toBe(2);
  expect(() =>
    kept.get('b', 1, () => {
      throw new Error('NOT_FOUND');
    }),
  ).toThrow('NOT_FOUND');
  const b = counted('b');
  kept.get('b', 1, b.read);
  expect(b.calls()).toBe(1);
});

test('past the limit the least recently asked is read again; a new version drops every older value', () => {
  const kept = new KeptReads<{ key: string; n: number }>(2);
  const reads = { a: counted('a'), b: counted('b'), c: counted('c') };
  kept.get('a', 1, reads.a.read);
  kept.get('b', 1, reads.b.read);
  kept.get('a', 1, reads.a.read); // a asked last: b is now the least recent
  kept.get('c', 1, reads.c.read); // over the limit of 2: b goes
  kept.get('a', 1, reads.a.read);
  kept.get('c', 1, reads.c.read);
  expect([reads.a.calls(), reads.c.calls()]).toEqual([1, 1]);
  kept.get('b', 1, reads.b.read);
  expect(reads.b.calls()).toBe(2);
  // Version 2: what version 1 made is stale, whatever its key.
  kept.get('a', 2, reads.a.read);
  kept.get('c', 1, reads.c.read);
  expect([reads.a.calls(), reads.c.calls()]).toEqual([2, 2]);
});

test('values kept at a version after its first miss stay kept through the misses that follow', () => {
  const kept = new KeptReads<{ key: string; n: number }>(8);
  const reads = { a: counted('a'), b: counted('b'), c: counted('c') };
  kept.get('a', 1, reads.a.read);
  kept.get('b', 2, reads.b.read); // the first miss of version 2 drops a
  kept.get('c', 2, reads.c.read);
  kept.get('b', 2, reads.b.read);
  kept.get('a', 2, reads.a.read);
  expect([reads.a.calls(), reads.b.calls(), reads.c.calls()]).toEqual([2, 1, 1]);
});
