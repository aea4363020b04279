/**
 * The group commit of a durable store (store/wal-flush.ts) and the answers that wait for it
 * (http/flushed-answers.ts): through the wire, with a seam in place of fs's fsync that holds,
 * counts or fails the flushes.
 */
import * as fs from 'fs';
import type { FastifyInstance } from 'fastify';
import { SqliteStore } from '../../../backend-emulator/store/sqlite-store';
import type { FileSync } from '../../../backend-emulator/store/wal-flush';
import { tempDir } from '../../../support/temp-dir';
import { createPolicy, expectGoogleError, getIam, newApp, policyName, setIam, type Res } from '../../support/networkservices';

// Apps on a data dir and worker starts take seconds on a loaded 2-core machine.
jest.setTimeout(60_000);

/** fs's fsync, counted; while `holding`, each one waits until `release` (or `fail`) lets it go. */
class HeldSync implements FileSync {
  holding = false;
  calls = 0;
  syncCalls = 0;
  private held: Array<(err: NodeJS.ErrnoException | null) => void> = [];
  private readonly fds: number[] = [];

  fsync(fd: number, callback: (err: NodeJS.ErrnoException | null) => void): void {
    this.calls++;
    if (!this.holding) return fs.fsync(fd, callback);
    this.fds.push(fd);
    this.held.push(callback);
  }

  fsyncSync(fd: number): void {
    this.syncCalls++;
    fs.fsyncSync(fd);
  }

  get pending(): number {
    return this.held.length;
  }

  /** Lets the held fsyncs run (for real), and the later ones too. */
  release(): void {
    this.holding = false;
    const held = this.held.splice(0);
    const fds = this.fds.splice(0);
    held.forEach((callback, i) => fs.fsync(fds[i], callback));
  }

  /** Ends the held fsyncs with an error, as a disk that refused them. */
  fail(code = 'EIO'): void {
    const held = this.held.splice(0);
    this.fds.splice(0);
    for (const callback of held) callback(Object.assign(new Error(`${code}: i/o error, fsync`), { code }));
  }
}

/** Waits (a turn of the event loop at a time) until `condition` holds, for at most 10 s. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A few turns of the event loop: what was ready to happen has happened. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Tracks a request under way: whether it has been answered. */
function track(res: Promise<Res>): { answered: () => boolean; res: Promise<Res> } {
  let answered = false;
  void res.then(() => (answered = true));
  return { answered: () => answered, res };
}

const RESOURCE = policyName('ep');
const bindingOf = (member: string) => ({ policy: { bindings: [{ role: 'roles/networkservices.viewer', members: [member] }] } });

describe('the group commit of a data dir', () => {
  let sync: HeldSync;
  let store: SqliteStore;
  let app: FastifyInstance;
  /** The routes' answers made so far (method and URL), before they wait for a flush. */
  let made: string[];
  /** The failed flushes the store told of. */
  let failures: Error[];

  beforeEach(async () => {
    sync = new HeldSync();
    failures = [];
    store = new SqliteStore({ dataDir: tempDir('gnl-group-commit-'), fileSync: sync, onFlushFailure: (err) => failures.push(err) });
    app = newApp({ store, closeStore: true });
    made = [];
    // A hook of the app itself runs before the flush's onSend: the answer has been made.
    app.addHook('preSerialization', (request, _reply, payload, done) => {
      made.push(`${request.method} ${request.url}`);
      done(null, payload);
    });
    expect((await createPolicy(app, 'ep')).status).toBe(200);
    // Start-up's own commit (interrupted Operations) and the create's are flushed: nothing is owed.
    expect(store.whenFlushed()).toBeUndefined();
    made = [];
  });

  afterEach(async () => {
    sync.release();
    await app.close();
  });

  test("a write's answer waits for its flush, and so does a read made after it", async () => {
    sync.holding = true;
    const calls = sync.calls;
    const write = track(setIam(app, RESOURCE, bindingOf('user:a@example.com')));
    await until(() => sync.pending === 1, 'the write is committed and its flush started');
    const read = track(getIam(app, RESOURCE));
    await until(() => made.some((m) => m.startsWith('GET ')), 'the read has made its answer');
    await turns(20);
    expect([write.answered(), read.answered()]).toEqual([false, false]);

    sync.release();
    const [written, got] = await Promise.all([write.res, read.res]);
    expect(written.status).toBe(200);
    expect(got.status).toBe(200);
    // The read shows the write it waited for.
    expect(got.body.etag).toBe(written.body.etag);
    expect(got.body.bindings).toEqual([{ role: 'roles/networkservices.viewer', members: ['user:a@example.com'] }]);
    expect(sync.calls - calls).toBe(1); // the write's: the read owed none of its own
  });

  test('an answer made while nothing is owed goes at once, and asks for no fsync', async () => {
    expect(store.whenFlushed()).toBeUndefined();
    sync.holding = true;
    const calls = sync.calls;
    const got = await getIam(app, RESOURCE);
    expect(got.status).toBe(200);
    expect(sync.calls).toBe(calls);
  });

  test('10 writes at once cost at most 2 fsyncs, each answered after its commit is on disk', async () => {
    sync.holding = true;
    const calls = sync.calls;
    const members = Array.from({ length: 10 }, (_, i) => `user:u${i}@example.com`);
    const writes = members.map((member) => track(setIam(app, RESOURCE, bindingOf(member))));
    await until(() => made.length === 10, 'every write has committed and made its answer');
    await turns(20);
    expect(writes.filter((w) => w.answered())).toEqual([]);
    // The first flush started the turn after the first commit; it covers those before it, and
    // one more covers all the others.
    expect(sync.pending).toBe(1);

    sync.release();
    const answers = await Promise.all(writes.map((w) => w.res));
    expect(answers.map((a) => a.status)).toEqual(members.map(() => 200));
    expect(new Set(answers.map((a) => a.body.etag)).size).toBe(10);
    expect(sync.calls - calls).toBeGreaterThanOrEqual(1);
    expect(sync.calls - calls).toBeLessThanOrEqual(2);
    expect(store.whenFlushed()).toBeUndefined();
  });

  test("a failed fsync: the answer waiting and every later one are 500 INTERNAL in Google's shape", async () => {
    sync.holding = true;
    const write = setIam(app, RESOURCE, bindingOf('user:lost@example.com'));
    await until(() => sync.pending === 1, 'the flush started');
    sync.fail();
    // Told at once, whoever waits.
    expect(failures.map((f) => f.message)).toEqual([expect.stringMatching(/could not be written to disk \(fsync: EIO/)]);
    const failed = await write;
    expectGoogleError(failed, 500, 'INTERNAL');
    expect(failed.body).toEqual({ error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } });
    // Nothing the store holds can be promised durable any more: a read is refused too.
    expectGoogleError(await getIam(app, RESOURCE), 500, 'INTERNAL');
    await expect(store.whenFlushed()).rejects.toThrow(/fsync: EIO/);
    expect(failures).toHaveLength(1);
  });
});

describe('the group commit of a store', () => {
  test('close flushes what is owed, on its own thread, and the answers waiting go', async () => {
    const sync = new HeldSync();
    const dir = tempDir('gnl-group-close-');
    const store = new SqliteStore({ dataDir: dir, fileSync: sync });
    sync.holding = true;
    store.put('c', 'k', { v: 1 });
    const flushed = store.whenFlushed();
    expect(flushed).toBeDefined();
    await until(() => sync.pending === 1, 'the flush started');
    store.put('c', 'k', { v: 2 });
    store.close();
    expect(sync.syncCalls).toBe(1);
    await flushed;
    sync.release();
    const again = new SqliteStore({ dataDir: dir });
    try {
      expect(again.get('c', 'k')).toEqual({ v: 2 });
    } finally {
      again.close();
    }
  });

  test('a background write owes nothing; an in-memory store never does', async () => {
    const sync = new HeldSync();
    const store = new SqliteStore({ dataDir: tempDir('gnl-group-background-'), fileSync: sync });
    try {
      await store.backgroundWrite(() => store.put('c', 'progress', { step: 1 }));
      expect(store.whenFlushed()).toBeUndefined();
      store.transaction(() => store.put('c', 'k', 1));
      await store.whenFlushed();
      expect(sync.calls).toBe(1);
    } finally {
      store.close();
    }
    const memory = new SqliteStore({ inMemory: true });
    memory.put('c', 'k', 1);
    expect(memory.whenFlushed()).toBeUndefined();
    // So an in-memory app does not even ask (http/flushed-answers.ts installs no hook).
    expect(memory.flushesLater).toBe(false);
    expect(store.flushesLater).toBe(true);
    memory.close();
  });
});
