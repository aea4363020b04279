/**
 * Randomness in tests, replayable.
 *
 * - How many cases a fast-check property tries: `n` scaled by FC_RUNS (default 1). `npm test` runs
 *   every property at full strength; `npm run test:quick` sets FC_RUNS=0.25 for the edit loop, and
 *   FC_RUNS=10 hunts for rarer failures.
 * - Which cases: every test file that imports this module runs its properties from one seed,
 *   FC_SEED when set, else drawn from the clock, and prints it (fast-check also prints the seed and
 *   the path of a failing case). Replay: `FC_SEED=<seed> npx jest <file>` (with the same FC_RUNS
 *   or more: the first cases of a seed are the same whatever the number of runs).
 * - A test that draws its own random numbers (the kill tests' moments) takes its seed from
 *   `testSeed()` (tests/support/seeds.ts): TEST_SEED when set, else from the clock, printed the same way.
 */
import fc from 'fast-check';
import { seedFrom } from './seeds';

const SCALE = Number(process.env.FC_RUNS ?? 1);

export function propertyRuns(n: number): number {
  return Math.max(1, Math.round(n * (Number.isFinite(SCALE) && SCALE > 0 ? SCALE : 1)));
}

/** The seed of this file's fast-check properties (FC_SEED replays it). */
export const FC_SEED = seedFrom('FC_SEED', 'fast-check properties');
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: FC_SEED });
