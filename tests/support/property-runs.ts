/**
 * How many cases a fast-check property tries: `n` scaled by FC_RUNS (default 1). `npm test` runs
 * every property at full strength; `npm run test:quick` sets FC_RUNS=0.25 for the edit loop, and
 * FC_RUNS=10 hunts for rarer failures.
 */
const SCALE = Number(process.env.FC_RUNS ?? 1);

export function propertyRuns(n: number): number {
  return Math.max(1, Math.round(n * (Number.isFinite(SCALE) && SCALE > 0 ? SCALE : 1)));
}
