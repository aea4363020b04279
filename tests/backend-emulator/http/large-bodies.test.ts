/**
 * A full garbage collection of the request thread before a request with a large body is answered
 * and once it is (http/large-bodies.ts): V8 frees large strings only in a full collection, which the request
 * thread's small work would not reach for a long time. Seen through V8's own record of its
 * collections (perf_hooks 'gc' entries): the collection is a forced full one.
 */
import { constants, PerformanceObserver, type PerformanceEntry } from 'perf_hooks';
import type { FastifyInstance } from 'fastify';
import { fullCollection } from '../../../backend-emulator/garbage-collection';
import { LARGE_BODY_BYTES } from '../../../backend-emulator/http/large-bodies';
import type { ServiceRoutes } from '../../../backend-emulator/context';
import { inMemoryApp } from '../../support/app';
import { call, ok } from '../../support/inject';

const PARENT = 'projects/lb/locations/us-central1';

/** The forced full collections V8 records while `run` runs (and for two turns of the event loop after). */
async function forcedFullCollections(run: () => Promise<unknown>): Promise<number> {
  const entries: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  try {
    await run();
    for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
    // Entries are delivered asynchronously: a timer turn lets the last ones arrive.
    await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    observer.disconnect();
  }
  return entries.filter((e) => {
    const detail = (e as PerformanceEntry & { detail?: { kind: number; flags: number } }).detail;
    return detail !== undefined && detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR && (detail.flags & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) !== 0;
  }).length;
}

test('fullCollection reaches V8 without --expose-gc, and forces a full collection', async () => {
  const gc = fullCollection();
  expect(typeof gc).toBe('function');
  expect(await forcedFullCollections(async () => gc!())).toBeGreaterThanOrEqual(1);
});

describe('after a request', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    // A route of no Google API, with a body limit above LARGE_BODY_BYTES and no large bytes fields
    // declared: its body is parsed on the request thread (an emulator started with a larger --body-limit).
    const echo: ServiceRoutes = async (instance) => {
      instance.post('/test/echo', { bodyLimit: 4 * LARGE_BODY_BYTES }, async (request) => ({ keys: Object.keys(request.body as object) }));
    };
    app = inMemoryApp({ services: [echo] });
    await app.ready();
    ok(await call(app, 'POST', `/v1alpha1/${PARENT}/sources?sourceId=src`, { type: 'SOURCE_TYPE_UPLOAD' }));
  });
  afterAll(() => app.close());

  const echo = async (bytes: number) => ok(await call(app, 'POST', '/test/echo', { text: 'a'.repeat(bytes) }));

  test(`with a body of ${LARGE_BODY_BYTES} bytes or more: the request thread collects before its answer is made and once it is out`, async () => {
    expect(await forcedFullCollections(() => echo(LARGE_BODY_BYTES))).toBe(2);
  });

  test('with a smaller body: no collection', async () => {
    expect(await forcedFullCollections(() => echo(LARGE_BODY_BYTES - 1000))).toBe(0);
  });

  test('a large body of a route with large bytes fields is read by the body worker: no collection on the request thread', async () => {
    const create = () =>
      call(app, 'POST', `/v1alpha1/${PARENT}/importJobs?importJobId=big`, {
        assetSource: `${PARENT}/sources/src`,
        inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: 'QUFB'.repeat(LARGE_BODY_BYTES / 4) }] },
      });
    expect(await forcedFullCollections(async () => ok(await create()))).toBe(0);
  });
});
