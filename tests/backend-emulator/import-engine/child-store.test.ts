/**
 * The store of folded child rows: the spilled one (a window in front of a temp database) must
 * give back exactly what the in-memory one does, whatever the order of folds and takes.
 */
import { MemoryChildStore, SpilledChildStore, type ChildStore } from '../../../backend-emulator/import-engine/child-store';

interface Acc {
  disks: Array<{ label: string | undefined; size: number }>;
  labels: Record<string, string> | null;
  samples: Array<number | undefined>;
}
const create = (): Acc => ({ disks: [], labels: null, samples: [] });

/** Folds rows for 2,000 machines, interleaved (so the spilled store's window of 16 must evict and reload). */
function fill(store: ChildStore<Acc>): void {
  for (let round = 0; round < 3; round++) {
    for (let m = 0; m < 2000; m++) {
      const ref = `vm-${(m * 7919) % 2000}@vc01.example.com`;
      store.fold(ref, create, (acc) => {
        acc.disks.push({ label: round === 1 ? undefined : `Hard disk ${round}`, size: m + round / 10 });
        (acc.labels ??= {})[round === 2 ? 'constructor' : `k${round}`] = `v${m}`;
        acc.samples.push(round, Number.NaN, undefined, -0);
      });
    }
  }
}

test('a spilled store gives back exactly what an in-memory one does, each accumulator once', () => {
  const memory = new MemoryChildStore<Acc>();
  const spilled = new SpilledChildStore<Acc>(16);
  fill(memory);
  fill(spilled);
  try {
    for (let m = 1999; m >= 0; m--) {
      const ref = `vm-${m}@vc01.example.com`;
      const expected = memory.take(ref);
      expect(expected?.disks).toHaveLength(3);
      const got = spilled.take(ref);
      if (!Object.is(got?.samples[1], Number.NaN) || !Object.is(got?.samples[3], -0) || got?.samples.length !== 12)
        throw new Error(`${ref}: samples ${JSON.stringify(got?.samples)}`);
      expect(got).toEqual(expected);
      // A plain object (its prototype is an Object.prototype, of whichever realm deserialised it).
      expect(Object.getPrototypeOf(Object.getPrototypeOf(got!.labels))).toBeNull();
      expect(Object.keys(got!.labels!)).toEqual(Object.keys(expected!.labels!));
      expect(spilled.take(ref)).toBeUndefined();
    }
    expect(spilled.take('vm-never')).toBeUndefined();
  } finally {
    spilled.close();
    spilled.close();
  }
});

test('when the temp database cannot be written, the store keeps folding in memory and loses nothing', () => {
  const memory = new MemoryChildStore<Acc>();
  const spilled = new SpilledChildStore<Acc>(16);
  let writes = 0;
  const real = (spilled as unknown as { upsert: { run(k: string, v: Buffer): unknown } }).upsert;
  (spilled as unknown as { upsert: { run(k: string, v: Buffer): unknown } }).upsert = {
    run(k: string, v: Buffer) {
      if (++writes > 100) throw new Error('SQLITE_FULL: database or disk is full');
      return real.run(k, v);
    },
  };
  fill(memory);
  fill(spilled);
  try {
    expect(writes).toBeGreaterThan(100);
    for (let m = 0; m < 2000; m++) {
      const ref = `vm-${m}@vc01.example.com`;
      expect(spilled.take(ref)).toEqual(memory.take(ref));
    }
  } finally {
    spilled.close();
  }
});
