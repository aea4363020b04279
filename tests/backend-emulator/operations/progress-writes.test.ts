/**
 * ProgressWrites (operations/progress-writes.ts): an Operation's progress is written through the
 * store's background write, at once when nothing else writes, else later, merged, in order; what
 * still waits is written by `settle` before the Operation's end.
 */
import { ProgressWrites } from '../../../backend-emulator/operations/progress-writes';
import type { Store } from '../../../backend-emulator/store/store';

/** A store whose background writes run at once (`free`) or wait until `release()`. */
function fakeStore(free: boolean): { store: Store; release: () => Promise<void>; queued: () => number } {
  const queue: Array<() => void> = [];
  const store = {
    backgroundWrite: <R>(fn: () => R): Promise<R> => {
      if (free) return Promise.resolve(fn());
      return new Promise<R>((resolve) => queue.push(() => resolve(fn())));
    },
  } as unknown as Store;
  return {
    store,
    queued: () => queue.length,
    release: async () => {
      for (const run of queue.splice(0)) run();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

test('written at once when the store is free, each change in its own write', () => {
  const written: Array<Record<string, unknown>> = [];
  const progress = new ProgressWrites(fakeStore(true).store, (change) => written.push(change));
  progress.write({ statusMessage: 'a' });
  progress.write({ statusMessage: 'b', progressPercent: 5 });
  expect(written).toEqual([{ statusMessage: 'a' }, { statusMessage: 'b', progressPercent: 5 }]);
  progress.settle();
  expect(written).toHaveLength(2);
});

test('while the store is busy: one write queued, the changes merged in order, written when it is free', async () => {
  const written: Array<Record<string, unknown>> = [];
  const fake = fakeStore(false);
  const progress = new ProgressWrites(fake.store, (change) => written.push(change));
  progress.write({ statusMessage: 'a', progressPercent: 1 });
  progress.write({ statusMessage: 'b' });
  progress.write({ statusMessage: 'c', other: true });
  expect(written).toEqual([]);
  expect(fake.queued()).toBe(1);
  await fake.release();
  expect(written).toEqual([{ statusMessage: 'c', progressPercent: 1, other: true }]);
  // Nothing waits any more: a later change queues a write of its own.
  progress.write({ statusMessage: 'd' });
  expect(fake.queued()).toBe(1);
  await fake.release();
  expect(written).toEqual([{ statusMessage: 'c', progressPercent: 1, other: true }, { statusMessage: 'd' }]);
});

test('settle writes what waits at once; the queued write then finds nothing to write', async () => {
  const written: Array<Record<string, unknown>> = [];
  const fake = fakeStore(false);
  const progress = new ProgressWrites(fake.store, (change) => written.push(change));
  progress.write({ statusMessage: 'a' });
  progress.write({ statusMessage: 'b' });
  progress.settle();
  expect(written).toEqual([{ statusMessage: 'b' }]);
  await fake.release();
  expect(written).toEqual([{ statusMessage: 'b' }]);
});
