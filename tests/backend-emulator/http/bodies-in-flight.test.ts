/**
 * The bodies being received at once are bounded (http/body-bytes.ts, BodiesInFlight): in bytes
 * across connections, and in how long one may send nothing. A body is held in memory until whole
 * and fastify sets no request time limit: 20 clients that each sent an import job's create of
 * 32 MiB but its last byte held the emulator at 833 MB of RSS (107 at rest), for as long as they
 * stayed connected.
 *
 * readBodyBytes is driven directly, a stream standing for each connection's body, with a small
 * bound and idle time (the defaults are 256 MiB and 60 s).
 */
import { PassThrough } from 'stream';
import type { FastifyRequest } from 'fastify';
import { BodiesInFlight, readBodyBytes } from '../../../backend-emulator/http/body-bytes';
import { GoogleApiError } from '../../../backend-emulator/errors';

interface Outcome {
  error?: Error;
  bytes?: Buffer;
}

/** A body of `declared` bytes (chunked when undefined) being read: its stream, and its outcome once settled. */
function body(inFlight: BodiesInFlight, declared: number | undefined): { stream: PassThrough; outcome: Promise<Outcome>; settled: () => boolean } {
  const stream = new PassThrough();
  const headers: Record<string, string> = declared === undefined ? {} : { 'content-length': String(declared) };
  const request = { routeOptions: { bodyLimit: 1024 * 1024 }, headers } as unknown as FastifyRequest;
  let settled = false;
  const outcome = new Promise<Outcome>((resolve) =>
    readBodyBytes(
      request,
      stream,
      (error, bytes) => {
        settled = true;
        resolve(error ? { error } : { bytes });
      },
      inFlight,
    ),
  );
  return { stream, outcome, settled: () => settled };
}

const status = (outcome: Outcome) => (outcome.error instanceof GoogleApiError ? [outcome.error.status, outcome.error.httpCode] : outcome.error);
const tick = () => new Promise((r) => setImmediate(r));

test('past the bound, a body is refused UNAVAILABLE at once; a stalled body is refused after the idle time and gives its share back', async () => {
  const inFlight = new BodiesInFlight(1000, 200);
  const stalled = body(inFlight, 600);
  stalled.stream.write('x'.repeat(599));
  await tick();
  expect(inFlight.bytes).toBe(600);

  // 600 more do not fit in 1,000: refused before any byte is read.
  const second = body(inFlight, 600);
  expect(status(await second.outcome)).toEqual(['UNAVAILABLE', 503]);
  expect(inFlight.bytes).toBe(600);

  // A small one fits beside it and is read whole.
  const small = body(inFlight, 2);
  small.stream.end('{}');
  expect((await small.outcome).bytes?.toString()).toBe('{}');
  expect(inFlight.bytes).toBe(600);

  // The stalled one sends nothing for the idle time: refused 408, its share given back.
  expect(status(await stalled.outcome)).toEqual(['DEADLINE_EXCEEDED', 408]);
  expect(inFlight.bytes).toBe(0);
  const third = body(inFlight, 600);
  third.stream.end('"' + 'y'.repeat(598) + '"');
  expect((await third.outcome).bytes).toHaveLength(600);
  expect(inFlight.bytes).toBe(0);
}, 20_000);

test('a body that keeps sending is never cut by the idle time', async () => {
  // A byte every 100 ms for 1.4 s, three times the idle time.
  const inFlight = new BodiesInFlight(1000, 500);
  const slow = body(inFlight, 15);
  for (let i = 0; i < 14; i++) {
    slow.stream.write('1');
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(slow.settled()).toBe(false);
  slow.stream.end('2');
  expect((await slow.outcome).bytes?.toString()).toBe('11111111111111' + '2');
});

test('a client that hangs up mid-body gives its share back', async () => {
  const inFlight = new BodiesInFlight(1000, 10_000);
  const gone = body(inFlight, 800);
  gone.stream.write('x'.repeat(100));
  await tick();
  expect(inFlight.bytes).toBe(800);
  gone.stream.destroy();
  await tick();
  expect(inFlight.bytes).toBe(0);
});

test('one body larger than the bound is taken when nothing else is held; a chunked body counts what it sent', async () => {
  const inFlight = new BodiesInFlight(1000, 10_000);
  const large = body(inFlight, 1500);
  await tick();
  expect(inFlight.bytes).toBe(1500);
  const chunked = body(inFlight, undefined);
  chunked.stream.write('[1');
  expect(status(await chunked.outcome)).toEqual(['UNAVAILABLE', 503]);
  large.stream.end('"' + 'z'.repeat(1498) + '"');
  expect((await large.outcome).bytes).toHaveLength(1500);

  const alone = body(inFlight, undefined);
  alone.stream.write('[1,');
  await tick();
  expect(inFlight.bytes).toBe(3);
  alone.stream.end('2]');
  expect((await alone.outcome).bytes?.toString()).toBe('[1,2]');
  expect(inFlight.bytes).toBe(0);
});
