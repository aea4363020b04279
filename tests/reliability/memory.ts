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
 * Runs `fn` while measuring the live memory every `intervalMs` (a full collection each time);
 * returns the highest growth over the value before, in MB.
 */
export async function peakLiveGrowthMb<T>(fn: () => Promise<T>, intervalMs = 100): Promise<{ result: T; growthMb: number }> {
  const base = liveMb();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, liveMb())), intervalMs);
  try {
    const result = await fn();
    peak = Math.max(peak, liveMb());
    return { result, growthMb: peak - base };
  } finally {
    clearInterval(timer);
  }
}
