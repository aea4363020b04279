/**
 * Memory measurements for the reliability tests: the live heap (JS heap + array buffers) after a
 * full garbage collection, so that garbage waiting for the collector (the chunks of a 50 MB stream
 * already read) does not count, only what is still held.
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

const MB = 1024 * 1024;

/** A full garbage collection when one can be had (`--expose-gc`, or enabled through v8 flags). */
export const forceGc: () => void = (() => {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return () => undefined;
  }
})();

/** Live heap + array buffers in MB, after a full collection. */
export function liveMb(): number {
  forceGc();
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / MB;
}

/**
 * Runs `fn` while measuring the live memory about every `intervalMs` (a full collection each time);
 * returns the highest growth over the value before, in MB. A full collection of a big test heap
 * can take longer than the interval on a loaded machine, so the next sample waits at least four
 * times as long as the last one took: sampling never takes more than a fifth of the time from `fn`.
 */
export async function peakLiveGrowthMb<T>(fn: () => Promise<T>, intervalMs = 100): Promise<{ result: T; growthMb: number }> {
  const base = liveMb();
  let peak = base;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const sample = (): void => {
    if (stopped) return;
    const t0 = performance.now();
    peak = Math.max(peak, liveMb());
    timer = setTimeout(sample, Math.max(intervalMs, 4 * (performance.now() - t0)));
  };
  timer = setTimeout(sample, intervalMs);
  try {
    const result = await fn();
    peak = Math.max(peak, liveMb());
    return { result, growthMb: peak - base };
  } finally {
    stopped = true;
    clearTimeout(timer);
  }
}
