/**
 * Load and concurrency against the compiled CLI with a durable data dir (the short versions of
 * bench/reliability.ts; `npm run bench` runs 50 clients for 30 s and a 60 s soak). The assertions
 * are correctness properties only, never timings or memory figures: they must hold on a loaded
 * 2-core machine too.
 */
import { runIamContention, runRequestIdRace, runSoak } from '../../bench/reliability';
import { compiledCli } from '../../support/cli-process';

jest.setTimeout(120_000);

beforeAll(() => {
  compiledCli();
}, 120_000);

test('50 clients read-modify-write one IAM policy for 3 s: every 200 of the last 100 is in the history, no update lost, conflicts are 409 ABORTED only', async () => {
  const r = await runIamContention({ clients: 50, durationMs: 3_000 });
  expect(r.violations).toEqual([]);
  expect(r.writes).toBeGreaterThan(0);
  // With 50 writers on one etag, conflicts must happen, and each was a clean 409 ABORTED.
  expect(r.conflicts).toBeGreaterThan(0);
  expect(r.finalCounter).toBe(r.writes);
  // The history keeps the last IAM_HISTORY_KEPT (100) writes.
  expect(r.historyEntries).toBe(Math.min(r.writes, 100));
});

test('20 concurrent creates with one requestId: exactly one job (same request: one Operation for all; different ids: one 200, the rest INVALID_ARGUMENT on requestId)', async () => {
  const r = await runRequestIdRace({ concurrency: 20, rounds: 5 });
  expect(r.violations).toEqual([]);
  expect(r.jobs).toBe(10);
});

// The emulator's memory over a soak (RSS at start and end, highest, slope) is a figure the
// machine's load moves: `npm run bench -- reliability` measures it over 60 s (runSoak, printSoak).
test('a 5 s mixed soak at 16 clients: every answer is one the operation may give, the server stays up', async () => {
  const r = await runSoak({ durationMs: 5_000, concurrency: 16, sampleMs: 500 });
  expect(r.violations).toEqual([]);
  expect(r.requests).toBeGreaterThan(100);
  expect(Object.keys(r.perOperation).length).toBeGreaterThanOrEqual(10);
});
