/**
 * The store of folded child rows: the spilled one (a window in front of a temp database) must
 * give back exactly what the in-memory one does, whatever the order of folds and takes.
 */
import { isDeepStrictEqual } from 'node:util';
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
  // The 2,000 machines' answers gathered and compared at once: an expect() per machine and check
  // (10,000) cost about 0.5 CPU-s of jest's matcher set-up alone.
  const taken: Array<Acc | undefined> = [];
  const folded: Array<Acc | undefined> = [];
  const wrong: string[] = [];
  try {
    for (let m = 1999; m >= 0; m--) {
      const ref = `vm-${m}@vc01.example.com`;
      const expected = memory.take(ref);
      if (expected?.disks.length !== 3) wrong.push(`${ref}: ${expected?.disks.length} disks folded in memory`);
      const got = spilled.take(ref);
      if (!Object.is(got?.samples[1], Number.NaN) || !Object.is(got?.samples[3], -0) || got?.samples.length !== 12)
        throw new Error(`${ref}: samples ${JSON.stringify(got?.samples)}`);
      taken.push(got);
      folded.push(expected);
      // A plain object (its prototype is an Object.prototype, of whichever realm deserialised it).
      if (Object.getPrototypeOf(Object.getPrototypeOf(got.labels)) !== null) wrong.push(`${ref}: labels are not a plain object`);
      if (!isDeepStrictEqual(Object.keys(got.labels!), Object.keys(expected!.labels!))) wrong.push(`${ref}: labels in the order ${Object.keys(got.labels!)}`);
      if (spilled.take(ref) !== undefined) wrong.push(`${ref}: taken twice`);
    }
    expect(wrong).toEqual([]);
    expect(taken).toEqual(folded);
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
    const refs = Array.from({ length: 2000 }, (_, m) => `vm-${m}@vc01.example.com`);
    // Compared at once (one expect() per machine was 2,000 of jest's matcher set-ups).
    expect(refs.map((ref) => spilled.take(ref))).toEqual(refs.map((ref) => memory.take(ref)));
  } finally {
    spilled.close();
  }
});
