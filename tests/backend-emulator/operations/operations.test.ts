import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../../../backend-emulator/context';
import { GoogleApiError } from '../../../backend-emulator/errors';
import { EMPTY_TYPE, Operations, type Operation, type ServiceOperations } from '../../../backend-emulator/operations/operations';
import { registerOperationRoutes } from '../../../backend-emulator/operations/routes';
import { SqliteStore } from '../../../backend-emulator/store/sqlite-store';
import { call, expectGoogleError, newApp } from '../../support/networkservices';

const META = 'type.googleapis.com/test.v9.OperationMetadata';
const PARENT = 'projects/p1/locations/us-central1';

let app: FastifyInstance;
let ops: ServiceOperations;
let ctx: EmulatorContext;
let store: SqliteStore;

/** A promise with its resolve/reject outside. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

beforeEach(async () => {
  store = new SqliteStore({ inMemory: true });
  app = newApp({
    store,
    services: [
      async (instance, c) => {
        ctx = c;
        ops = c.operations.forService({ service: 'testsvc', apiVersion: 'v9', metadataType: META });
        registerOperationRoutes(instance, ops, '/v9');
      },
    ],
  });
  await app.ready();
});
afterEach(async () => {
  await app.close();
  store.close();
});

const start = (work: Parameters<ServiceOperations['start']>[0]['work']): Operation =>
  ops.start({ parent: PARENT, target: `${PARENT}/things/t1`, verb: 'run', responseType: EMPTY_TYPE, work });

test('background work: not done at first, then done with its response; progress updates statusMessage', async () => {
  const gate = deferred();
  const reported = deferred();
  const op = start(async (ctl) => {
    ctl.progress('halfway', { progressPercent: 50 });
    reported.resolve();
    await gate.promise;
    return { rows: 3 };
  });
  expect(op).toMatchObject({ done: false, metadata: { '@type': META, verb: 'run', apiVersion: 'v9', requestedCancellation: false } });
  await reported.promise;
  const mid = await call(app, 'GET', `/v9/${op.name}`);
  expect(mid.body).toMatchObject({ done: false, metadata: { statusMessage: 'halfway', progressPercent: 50 } });
  gate.resolve();
  const done = await ops.settled(op.name);
  expect(done).toMatchObject({ done: true, response: { '@type': EMPTY_TYPE, rows: 3 } });
  expect(done.metadata.endTime).toEqual(expect.any(String));
  expect((await call(app, 'GET', `/v9/${op.name}`)).body).toEqual(done);
});

test('a GoogleApiError keeps its code; any other throw is INTERNAL', async () => {
  const a = start(async () => {
    throw new GoogleApiError('FAILED_PRECONDITION', 'not ready');
  });
  const b = start(async () => {
    throw new Error('oops');
  });
  expect((await ops.settled(a.name)).error).toEqual({ code: 9, message: 'not ready', details: [] });
  expect((await ops.settled(b.name)).error).toMatchObject({ code: 13 });
});

test(':cancel aborts running work: requestedCancellation, then CANCELLED (code 1)', async () => {
  const listening = deferred();
  const op = start(
    (ctl) =>
      new Promise((_resolve, reject) => {
        ctl.signal.addEventListener('abort', () => reject(new Error('stopped')));
        listening.resolve();
      }),
  );
  await listening.promise;
  expect((await call(app, 'POST', `/v9/${op.name}:cancel`)).body).toEqual({});
  const done = await ops.settled(op.name);
  expect(done.metadata.requestedCancellation).toBe(true);
  expect(done.error).toEqual({ code: 1, message: 'Operation was cancelled.', details: [] });
});

test('reset aborts running work and its late result is not written back', async () => {
  const gate = deferred();
  const op = start(async () => {
    await gate.promise;
    return { late: true };
  });
  ctx.reset();
  gate.resolve();
  await ctx.operations.idle();
  expectGoogleError(await call(app, 'GET', `/v9/${op.name}`), 404, 'NOT_FOUND');
  expect((await call(app, 'GET', `/v9/${PARENT}/operations`)).body).toEqual({ operations: [] });
});

test('closing the app fails running work with ABORTED', async () => {
  const listening = deferred();
  const op = start(
    (ctl) =>
      new Promise((_resolve, reject) => {
        ctl.signal.addEventListener('abort', () => reject(new Error('stopped')));
        listening.resolve();
      }),
  );
  await listening.promise;
  await app.close();
  expect(store.get<Operation>('operations/testsvc', op.name)).toMatchObject({ done: true, error: { code: 10 } });
});

test('operations left unfinished by a previous process are failed at start', () => {
  const s = new SqliteStore({ inMemory: true });
  const first = new Operations(s, app.log).forService({ service: 'x', apiVersion: 'v1', metadataType: META, failInterrupted: false });
  const op = first.start({ parent: PARENT, target: 't', verb: 'run', responseType: EMPTY_TYPE, work: () => new Promise(() => undefined) });
  // A new registry on the same store stands for the next process.
  const second = new Operations(s, app.log).forService({ service: 'x', apiVersion: 'v1', metadataType: META });
  expect(second.get(op.name)).toMatchObject({ done: true, error: { code: 10, message: expect.stringContaining('restarted') } });
  s.close();
});

test('completed / failed record finished operations; list pages; unknown names are 404', async () => {
  const a = ops.completed({ parent: PARENT, target: 't', verb: 'create', responseType: 'type.googleapis.com/x.Y', response: { name: 't' } });
  const b = ops.failed({ parent: PARENT, target: 't', verb: 'create', responseType: EMPTY_TYPE, error: new GoogleApiError('ALREADY_EXISTS', 'exists') });
  expect(a).toMatchObject({ done: true, response: { '@type': 'type.googleapis.com/x.Y', name: 't' } });
  expect(b).toMatchObject({ done: true, error: { code: 6 } });
  const page1 = await call(app, 'GET', `/v9/${PARENT}/operations?pageSize=1`);
  const page2 = await call(app, 'GET', `/v9/${PARENT}/operations?pageSize=1&pageToken=${page1.body.nextPageToken}`);
  expect([...page1.body.operations, ...page2.body.operations].map((o: Operation) => o.name).sort()).toEqual([a.name, b.name].sort());
  expect(page2.body.nextPageToken).toBeUndefined();
  expectGoogleError(await call(app, 'GET', `/v9/${PARENT}/operations/operation-nope`), 404, 'NOT_FOUND');
  expectGoogleError(await call(app, 'POST', `/v9/${PARENT}/operations/operation-nope:cancel`), 404, 'NOT_FOUND');
  // Operations of one service are not visible under another's routes.
  expect((await call(app, 'GET', `/v1/${PARENT}/operations`)).body).toEqual({});
});
