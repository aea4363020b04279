/**
 * What the body worker (http/body-worker.ts) hands the request thread of a large body: the request
 * thread pays for every key it receives (the copy, then the route's validation), so a wide body is
 * refused or cut in the worker. An import job's create of 2.6 million unknown keys (32 MiB) held
 * the request thread 7.6 s after the worker had parsed it; one of 2.4 million labels, 11 s.
 *
 * - unknown names are refused in the worker, by the method's message, the first 100 of them;
 * - an object goes back with at most 1,001 keys and a list with 1,001 items: enough for the route
 *   to refuse it by the same rule as the whole (`labels` at most 64, a payload at most 1,000 files).
 */
import type { FastifyInstance } from 'fastify';
import { BodyWorker } from '../../../backend-emulator/http/body-thread';
import { messageShape, VALUE } from '../../../backend-emulator/http/message-shapes';
import { GoogleApiError } from '../../../backend-emulator/errors';
import { BASE, call, googleError, newApp, tempDir, violations } from '../../support/migrationcenter';

/** An import job's names, as a message of the front end (request-bodies.ts) gives them. */
const JOB = messageShape({
  displayName: VALUE,
  labels: VALUE,
  inlinePayload: messageShape({ format: VALUE, payload: messageShape({ name: VALUE, data: VALUE }) }),
});

const bytesOf = (value: unknown) => Buffer.from(JSON.stringify(value));
const keys = <T>(count: number, value: T): Record<string, T> => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, value]));

describe('the body worker', () => {
  let worker: BodyWorker;
  beforeAll(() => {
    worker = new BodyWorker(() => tempDir('body-worker-bounds-'));
  });
  afterAll(() => worker.close());

  test('refuses unknown names itself, naming the first 100 at their message', async () => {
    const body = { displayName: 'd', inlinePayload: { format: 'F', payload: [{ name: 'a', data: '', ...keys(5_000, 0) }] } };
    const refusal = await worker.read(bytesOf(body), undefined, [], { shape: JOB, at: 'import_job' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(GoogleApiError);
    const lines = (refusal as GoogleApiError).message.split('\n');
    // k0 ... k99, in the body's order.
    expect(lines).toEqual(
      Array.from(
        { length: 100 },
        (_, i) => `Invalid JSON payload received. Unknown name "k${i}" at 'import_job.inline_payload.payload[0]': Cannot find field.`,
      ),
    );
  });

  test('hands back at most 1,001 keys of an object and 1,001 items of a list, the first ones', async () => {
    const body = { labels: keys(5_000, 'v'), inlinePayload: { format: 'F', payload: Array.from({ length: 3_000 }, (_, i) => ({ name: `f${i}` })) } };
    const { value } = await worker.read(bytesOf(body), undefined, [], { shape: JOB, at: 'import_job' });
    const read = value as { labels: Record<string, string>; inlinePayload: { payload: Array<{ name: string }> } };
    expect(Object.keys(read.labels)).toEqual(Object.keys(keys(1_001, 'v')));
    expect(read.inlinePayload.payload.map((f) => f.name)).toEqual(Array.from({ length: 1_001 }, (_, i) => `f${i}`));
  });

  test('a body within the bounds comes back whole', async () => {
    const body = { labels: keys(1_001, 'v'), inlinePayload: { format: 'F', payload: [{ name: 'a', data: 'QUFB' }] } };
    expect((await worker.read(bytesOf(body), undefined, [], { shape: JOB, at: 'import_job' })).value).toEqual(body);
  });
});

describe("an import job's large create (read by the body worker) is refused as a small one is", () => {
  let app: FastifyInstance;
  beforeAll(() => {
    app = newApp();
  });
  afterAll(() => app.close());

  /** A payload text of 1.2 MB: the body is over LARGE_BODY_BYTES, so the worker reads it. */
  const LARGE = 'QUFB'.repeat(300_000);
  const create = (labels: Record<string, string>, data: string) =>
    call(app, 'POST', `${BASE}/importJobs?importJobId=j`, {
      assetSource: `${BASE.slice(10)}/sources/src`,
      labels,
      inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data }] },
    });

  test('5,000 labels: "must have at most 64 entries", the same answer', async () => {
    const large = googleError(await create(keys(5_000, 'v'), LARGE), 400, 'INVALID_ARGUMENT');
    expect(large).toEqual(googleError(await create(keys(5_000, 'v'), 'QUFB'), 400, 'INVALID_ARGUMENT'));
    expect(violations(large)).toEqual([{ field: 'labels', description: 'must have at most 64 entries' }]);
  });
});
