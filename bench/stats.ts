/** The benches' summaries of repeated measurements. */

/** The item whose `value` is the median of the items' (the upper middle of an even count): a whole sample, not a mix. */
export function medianBy<T>(items: readonly T[], value: (item: T) => number): T {
  const sorted = [...items].sort((a, b) => value(a) - value(b));
  return sorted[Math.floor(sorted.length / 2)];
}

/** The median of `values` (the upper middle of an even count). */
export function median(values: readonly number[]): number {
  return medianBy(values, (v) => v);
}
