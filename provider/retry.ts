/**
 * Retries a whole read-modify-write cycle when the server reports a concurrent change
 * (409 ABORTED, or 412 from some front ends), with exponential backoff and full jitter.
 */
export interface RetryOptions {
  /** Give up once this much time has passed (ms). */
  deadlineMs?: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export function isConcurrencyConflict(err: unknown): boolean {
  const e = err as { status?: string; httpCode?: number } | undefined;
  return e?.status === 'ABORTED' || e?.httpCode === 409 || e?.httpCode === 412;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function retryOnConflict<T>(cycle: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.deadlineMs ?? 5 * 60_000);
  const initial = options.initialDelayMs ?? 100;
  const max = options.maxDelayMs ?? 8_000;
  const sleep = options.sleep ?? realSleep;
  for (let attempt = 0; ; attempt++) {
    try {
      return await cycle();
    } catch (err) {
      if (!isConcurrencyConflict(err)) throw err;
      const ceiling = Math.min(max, initial * 2 ** attempt);
      const delay = Math.random() * ceiling;
      if (Date.now() + delay > deadline) throw err;
      await sleep(delay);
    }
  }
}
