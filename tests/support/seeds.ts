/** Seeds of random tests: from an environment variable to replay one, else from the clock, always printed. */
import * as path from 'node:path';

/** A seed from the environment variable `name` (an integer), or from the clock; printed with how to replay it. */
export function seedFrom(name: string, what: string): number {
  const given = process.env[name];
  if (given !== undefined && given !== '') {
    const seed = Number(given);
    if (!Number.isSafeInteger(seed)) throw new Error(`${name}=${given} is not an integer seed`);
    return seed;
  }
  const seed = (Date.now() ^ (process.hrtime()[1] << 8)) >>> 1;
  // process.stderr, not console: jest prints it as is, without a stack, even when the test passes.
  process.stderr.write(`${what}: seed ${seed} (replay: ${name}=${seed} npx jest ${testPath()})\n`);
  return seed;
}

function testPath(): string {
  const state = (expect as unknown as { getState?: () => { testPath?: string } }).getState?.();
  return state?.testPath ? path.relative(process.cwd(), state.testPath) : '<test file>';
}

/** The seed of a test that draws its own random numbers (TEST_SEED replays it). */
export function testSeed(what = 'random test'): number {
  return seedFrom('TEST_SEED', what);
}
