/**
 * The contract between background work and the operations module (operations/work.ts): the
 * module ends the Operation together with the resource's final state, maps abort reasons to
 * errors in one place, and drives restart recovery through a domain's hook. Read on the wire.
 */
import type { FastifyInstance } from 'fastify';
import { GoogleApiError } from '../../../backend-emulator/errors';
import { EMPTY_TYPE, Operations, WorkEnd, type ServiceOperations, type WorkState } from '../../../backend-emulator/operations/operations';
import { registerOperationRoutes } from '../../../backend-emulator/operations/routes';
import { SqliteStore } from '../../../backend-emulator/store/sqlite-store';
import { call, newApp } from '../../support/networkservices';

const META = 'type.googleapis.com/test.v9.OperationMetadata';
const PARENT = 'projects/p1/locations/us-central1';
const TARGET = `${PARENT}/things/t1`;
const THINGS = 'test.things';

let app: FastifyInstance;
let ops: ServiceOperations;
let store: SqliteStore;

beforeEach(async () => {
  store = new SqliteStore({ inMemory: true });
  app = newApp({
    store,
    services: [
      async (instance, c) => {
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

/** A WorkState that records the failed state in the `test.things` collection. */
function thingState(): WorkState {
  return {
    during: 'the thing was BUSY',
    activity: 'busying',
    resource: `Thing ${TARGET}`,
    gone: () => new GoogleApiError('ABORTED', 'the thing was deleted'),
    failed: (message) => store.put(THINGS, TARGET, { state: 'FAILED', message }),
  };
}

/** Work that never ends by itself: it stops only when its signal fires. */
/** A promise and its resolve: a test awaits the moment the work started, not a fixed sleep. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('stopped'))));
}

/** Starts `work` on TARGET, whose failed state the work's stop records (thingState). */
function startOnTarget(work: Parameters<typeof ops.start>[0]['work']): ReturnType<typeof ops.start> {
  return ops.start({ parent: PARENT, target: TARGET, verb: 'run', responseType: EMPTY_TYPE, state: thingState(), work });
}

const getOp = async (name: string): Promise<any> => (await call(app, 'GET', `/v9/${name}`)).body;

/** Starts work on TARGET that runs until it is aborted; resolves once the work has begun. */
async function startUntilAborted(): Promise<{ name: string }> {
  const started = deferred();
  const op = startOnTarget((ctl) => {
    started.resolve();
    return untilAborted(ctl.signal);
  });
  await started.promise;
  return op;
}

test('WorkEnd: the final state and the Operation commit together; the waiter sees both', async () => {
  const op = startOnTarget(async () => new WorkEnd(() => store.put(THINGS, TARGET, { state: 'DONE' })));
  const done = await ops.settled(op.name);
  expect(done).toMatchObject({ done: true, response: { '@type': EMPTY_TYPE } });
  expect(store.get(THINGS, TARGET)).toEqual({ state: 'DONE' });
});

test('a final state that cannot be written (the resource is gone) ends the Operation with that error and writes nothing', async () => {
  const op = startOnTarget(
    async () =>
      new WorkEnd(() => {
        store.put(THINGS, TARGET, { state: 'HALF' });
        throw new GoogleApiError('ABORTED', 'gone meanwhile');
      }),
  );
  await ops.settled(op.name);
  expect(await getOp(op.name)).toMatchObject({ done: true, error: { code: 10, message: 'gone meanwhile' } });
  expect(store.get(THINGS, TARGET)).toBeUndefined();
});

test.each([
  ['cancelled', 1, 'cancelled: the operation was cancelled while the thing was BUSY'],
  ['shutdown', 10, 'interrupted: the emulator stopped while the thing was BUSY'],
] as const)('abort for %s: the resource records why and the Operation ends with code %d', async (reason, code, message) => {
  const op = await startUntilAborted();
  if (reason === 'cancelled') expect((await call(app, 'POST', `/v9/${op.name}:cancel`, {})).status).toBe(200);
  else ops.abortTarget(TARGET, 'shutdown');
  await ops.settled(op.name);
  expect(await getOp(op.name)).toMatchObject({ done: true, error: { code, message } });
  expect(store.get(THINGS, TARGET)).toEqual({ state: 'FAILED', message });
});

test(':cancel records the stop before it answers: the work, still running, finds it recorded and its late end is dropped', async () => {
  const started = deferred();
  const release = deferred();
  // Work that does not listen to its signal: it ends only when the test releases it, with a state of its own.
  const op = startOnTarget(async () => {
    started.resolve();
    await release.promise;
    return new WorkEnd(() => store.put(THINGS, TARGET, { state: 'DONE' }), undefined, { late: true });
  });
  await started.promise;
  expect((await call(app, 'POST', `/v9/${op.name}:cancel`, {})).status).toBe(200);
  const message = 'cancelled: the operation was cancelled while the thing was BUSY';
  // Read from the store at once: what a kill -9 right after the answer would leave.
  expect(store.get(THINGS, TARGET)).toEqual({ state: 'FAILED', message });
  expect(store.get('operations/testsvc', op.name)).toMatchObject({ done: true, error: { code: 1, message }, metadata: { requestedCancellation: true } });
  expect(ops.isRunning(TARGET)).toBe(true);
  release.resolve();
  while (ops.isRunning(TARGET)) await new Promise((r) => setImmediate(r));
  expect(store.get(THINGS, TARGET)).toEqual({ state: 'FAILED', message });
  expect(await getOp(op.name)).toMatchObject({ done: true, error: { code: 1, message } });
  expect((await getOp(op.name)).response).toBeUndefined();
});

test("abortTarget(…, 'deleted') ends the work's Operation with the domain's gone error and writes no state", async () => {
  const op = await startUntilAborted();
  expect(ops.isRunning(TARGET)).toBe(true);
  ops.abortTarget(TARGET, 'deleted');
  await ops.settled(op.name);
  expect(await getOp(op.name)).toMatchObject({ done: true, error: { code: 10, message: 'the thing was deleted' } });
  expect(store.get(THINGS, TARGET)).toBeUndefined();
  expect(ops.isRunning(TARGET)).toBe(false);
});

test('a failure that is no GoogleApiError is INTERNAL naming the resource; the resource records it', async () => {
  const op = startOnTarget(async () => {
    throw new Error('disk on fire');
  });
  await ops.settled(op.name);
  const message = 'busying stopped by an internal error: disk on fire';
  expect(await getOp(op.name)).toMatchObject({ done: true, error: { code: 13, message: `Thing ${TARGET}: ${message}` } });
  expect(store.get(THINGS, TARGET)).toEqual({ state: 'FAILED', message });
});

test('restart recovery: the hook marks its resources failed and their Operations end ABORTED with its message; other Operations end ABORTED too', () => {
  const s = new SqliteStore({ inMemory: true });
  try {
    const first = new Operations(s, app.log).forService({ service: 'x', apiVersion: 'v1', metadataType: META, failInterrupted: false });
    const never = () => new Promise<never>(() => undefined);
    const owned = first.start({ parent: PARENT, target: TARGET, verb: 'run', responseType: EMPTY_TYPE, work: never });
    const other = first.start({ parent: PARENT, target: `${PARENT}/things/t2`, verb: 'run', responseType: EMPTY_TYPE, work: never });
    s.put(THINGS, TARGET, { state: 'BUSY', operation: owned.name });
    s.put(THINGS, `${PARENT}/things/no-op`, { state: 'BUSY' });

    // A new registry on the same store stands for the next process.
    const second = new Operations(s, app.log).forService({ service: 'x', apiVersion: 'v1', metadataType: META, failInterrupted: false });
    second.onRestart({
      inProgress: () =>
        s
          .list<{ state: string; operation?: string }>(THINGS)
          .filter((e) => e.value.state === 'BUSY')
          .map((e) => ({ target: e.key, ...(e.value.operation ? { operation: e.value.operation } : {}) })),
      markInterrupted: (target) => {
        s.put(THINGS, target, { state: 'FAILED' });
        return `interrupted: ${target}`;
      },
    });
    expect(second.recoverInterrupted()).toBe(2);
    expect(s.list(THINGS).map((e) => e.value)).toEqual([{ state: 'FAILED' }, { state: 'FAILED' }]);
    expect(second.get(owned.name)).toMatchObject({ done: true, error: { code: 10, message: `interrupted: ${TARGET}` } });
    expect(second.get(other.name)).toMatchObject({ done: true, error: { code: 10, message: expect.stringContaining('restarted') } });
  } finally {
    s.close();
  }
});
