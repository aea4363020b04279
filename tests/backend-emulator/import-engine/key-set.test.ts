/** KeySet: the hashed key index of the import pipeline must behave as a Map of key -> first row. */
import { KeySet } from '../../../backend-emulator/import-engine/key-set';

// 60,000 keys grow the table from 1,024 slots to 131,072: seven growths (in jest's sandbox typed-array code
// runs several times slower than in the emulator, so more keys would only cost time).
test('60,000 keys through several growths: each found with its first row, absent keys absent', () => {
  const set = new KeySet();
  const keys = Array.from({ length: 60_000 }, (_, i) => (i % 3 === 0 ? `vm-${i}@vc01.example.com` : i % 3 === 1 ? `${i}` : `机器-${i}-ü`));
  keys.forEach((k, i) => set.set(k, i + 2));
  expect(set.size).toBe(keys.length);
  // A repeat keeps the first row, as the duplicate check needs.
  set.set(keys[10], 999_999);
  expect(set.size).toBe(keys.length);
  keys.forEach((k, i) => {
    if (set.get(k) !== i + 2) throw new Error(`${k}: ${set.get(k)} instead of ${i + 2}`);
  });
  for (let i = 0; i < 20_000; i++) {
    for (const absent of [`vm-${i}@vc02.example.com`, `x${i}`, `${i + 60_000}`]) if (set.has(absent)) throw new Error(`${absent} found`);
  }
  expect(set.has('')).toBe(false);
  set.set('');
  expect(set.get('')).toBe(1);
});

test('keys that differ only by case, by a trailing space or by code-unit order are distinct', () => {
  const set = new KeySet();
  for (const [i, k] of ['VM-1', 'vm-1', 'vm-1 ', 'ab', 'ba', '\u00e9', 'e\u0301'].entries()) set.set(k, i + 1);
  expect(['VM-1', 'vm-1', 'vm-1 ', 'ab', 'ba', '\u00e9', 'e\u0301'].map((k) => set.get(k))).toEqual([1, 2, 3, 4, 5, 6, 7]);
});

test('row numbers must be positive (0 marks an empty slot)', () => {
  expect(() => new KeySet().set('a', 0)).toThrow(RangeError);
});

test('firstRow records a new key (undefined) and answers the first row of a repeated one without changing it', () => {
  const set = new KeySet();
  expect(set.firstRow('vm-1', 2)).toBeUndefined();
  expect(set.firstRow('vm-2', 3)).toBeUndefined();
  expect(set.firstRow('vm-1', 7)).toBe(2);
  expect(set.get('vm-1')).toBe(2);
  expect(set.size).toBe(2);
});
