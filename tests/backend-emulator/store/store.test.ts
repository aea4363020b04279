import * as fs from 'fs';
import * as path from 'path';
import Database from 'better-sqlite3';
import { DATABASE_FILE_NAME, LARGE_DOCUMENT_CHARS, SqliteStore } from '../../../backend-emulator/store/sqlite-store';
import { DataDirError, LOCK_FILE_NAME } from '../../../backend-emulator/store/lock';
import { waitsForTurn } from '../../../backend-emulator/store/writer-turn';
import { startWorker } from '../../../backend-emulator/worker-threads';
import { tempDir } from '../../../support/temp-dir';

describe('SqliteStore', () => {
  let store: SqliteStore;
  beforeEach(() => {
    store = new SqliteStore({ inMemory: true });
  });
  afterEach(() => store.close());

  test('put, get, delete, count', () => {
    expect(store.get('c', 'a')).toBeUndefined();
    store.put('c', 'a', { x: 1 });
    store.put('c', 'a', { x: 2 });
    store.put('d', 'a', { y: 1 });
    expect(store.get('c', 'a')).toEqual({ x: 2 });
    expect(store.count('c')).toBe(1);
    expect(store.delete('c', 'a')).toBe(true);
    expect(store.delete('c', 'a')).toBe(false);
    expect(store.get('d', 'a')).toEqual({ y: 1 });
  });

  test('returned values are copies', () => {
    store.put('c', 'a', { list: [1] });
    const v = store.get<{ list: number[] }>('c', 'a')!;
    v.list.push(2);
    expect(store.get('c', 'a')).toEqual({ list: [1] });
  });

  test('list: prefix, after, limit, ascending key order', () => {
    for (const k of ['p/b', 'p/a', 'p/c', 'q/a', 'p', 'p/a/x']) store.put('c', k, k);
    expect(store.list('c', { prefix: 'p/' }).map((e) => e.key)).toEqual(['p/a', 'p/a/x', 'p/b', 'p/c']);
    expect(store.list('c', { prefix: 'p/', after: 'p/a/x', limit: 1 }).map((e) => e.key)).toEqual(['p/b']);
    expect(store.list('c').map((e) => e.key)).toEqual(['p', 'p/a', 'p/a/x', 'p/b', 'p/c', 'q/a']);
    expect(store.count('c', 'p/')).toBe(4);
    expect(store.deletePrefix('c', 'p/a')).toBe(2);
    expect(store.list('c').map((e) => e.key)).toEqual(['p', 'p/b', 'p/c', 'q/a']);
  });

  test('transaction rolls back on throw; nested transactions commit with the outer one', () => {
    expect(() =>
      store.transaction(() => {
        store.put('c', 'a', 1);
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(store.get('c', 'a')).toBeUndefined();

    store.transaction(() => {
      store.put('c', 'outer', 1);
      store.transaction(() => store.put('c', 'inner', 1));
      expect(store.inTransaction).toBe(true);
    });
    expect(store.count('c')).toBe(2);

    expect(() =>
      store.transaction(() => {
        store.put('c', 'x', 1);
        store.transaction(() => store.put('c', 'y', 1));
        throw new Error('outer fails');
      }),
    ).toThrow('outer fails');
    expect(store.get('c', 'x')).toBeUndefined();
    expect(store.get('c', 'y')).toBeUndefined();
  });

  test('clear drops everything', () => {
    store.put('a', 'k', 1);
    store.put('b', 'k', 1);
    store.clear();
    expect(store.count('a') + store.count('b')).toBe(0);
  });
});

describe('SqliteStore large documents', () => {
  /** A document whose JSON text is `chars` long (its text is one string). */
  const doc = (chars: number, fill = 'x') => ({ text: fill.repeat(chars - '{"text":""}'.length) });
  const LARGE = LARGE_DOCUMENT_CHARS + 1;

  /** The rows of the closed store's database: each `documents` row's text length, and the keys in `large_documents`. */
  function rows(dir: string): { documents: Record<string, number>; large: string[] } {
    const db = new Database(path.join(dir, DATABASE_FILE_NAME), { readonly: true });
    try {
      const documents = Object.fromEntries(
        (db.prepare('SELECT key, length(value) AS n FROM documents').all() as Array<{ key: string; n: number }>).map((r) => [r.key, r.n]),
      );
      const large = (db.prepare('SELECT key FROM large_documents ORDER BY key').all() as Array<{ key: string }>).map((r) => r.key);
      return { documents, large };
    } finally {
      db.close();
    }
  }

  test('read back, listed and replaced like any other; kept apart from the documents table, and only while a row names them', () => {
    const dir = tempDir();
    let store = new SqliteStore({ dataDir: dir });
    store.put('c', 'a', doc(LARGE_DOCUMENT_CHARS));
    store.put('c', 'b', doc(LARGE, 'b'));
    store.put('c', 'c', doc(LARGE, 'c'));
    store.put('c', 'd', doc(LARGE, 'd'));
    store.put('c', 'e', doc(LARGE, 'e'));
    store.put('k', 'z', doc(LARGE, 'z'));
    expect(store.get('c', 'b')).toEqual(doc(LARGE, 'b'));
    expect(store.has('c', 'b')).toBe(true);
    expect(store.list('c').map((e) => [e.key, e.value])).toEqual([
      ['a', doc(LARGE_DOCUMENT_CHARS)],
      ['b', doc(LARGE, 'b')],
      ['c', doc(LARGE, 'c')],
      ['d', doc(LARGE, 'd')],
      ['e', doc(LARGE, 'e')],
    ]);
    expect(store.list('c', { after: 'c', limit: 1 }).map((e) => e.value)).toEqual([doc(LARGE, 'd')]);
    store.put('c', 'b', { small: true }); // large to small
    store.put('c', 'c', doc(LARGE + 5, 'C')); // large to large
    store.put('c', 'a', doc(LARGE, 'A')); // small to large
    expect(store.delete('c', 'd')).toBe(true);
    expect(store.get('c', 'b')).toEqual({ small: true });
    expect(store.get('c', 'c')).toEqual(doc(LARGE + 5, 'C'));
    expect(store.get('c', 'd')).toBeUndefined();
    store.close();
    // A row of `documents` holds the text only up to LARGE_DOCUMENT_CHARS; a longer one is in `large_documents`.
    expect(rows(dir)).toEqual({ documents: { a: 0, b: 14, c: 0, e: 0, z: 0 }, large: ['a', 'c', 'e', 'z'] });

    store = new SqliteStore({ dataDir: dir });
    expect(store.get('c', 'a')).toEqual(doc(LARGE, 'A'));
    expect(store.deletePrefix('c', '')).toBe(4);
    expect(store.list('c')).toEqual([]);
    store.close();
    expect(rows(dir)).toEqual({ documents: { z: 0 }, large: ['z'] });
    store = new SqliteStore({ dataDir: dir });
    store.clear();
    store.close();
    expect(rows(dir)).toEqual({ documents: {}, large: [] });
  });

  test('a transaction rolled back leaves neither table changed', () => {
    const store = new SqliteStore({ inMemory: true });
    try {
      store.put('c', 'a', doc(LARGE, 'a'));
      expect(() =>
        store.transaction(() => {
          store.put('c', 'a', doc(LARGE, 'b'));
          store.put('c', 'n', doc(LARGE, 'n'));
          throw new Error('rolled back');
        }),
      ).toThrow('rolled back');
      expect(store.get('c', 'a')).toEqual(doc(LARGE, 'a'));
      expect(store.get('c', 'n')).toBeUndefined();
    } finally {
      store.close();
    }
  });

  test("a second connection reads the first one's large documents, and the first the second's", () => {
    const dir = tempDir();
    const first = new SqliteStore({ dataDir: dir });
    try {
      const second = new SqliteStore({ secondConnection: first.lendSecondConnection()!.database });
      try {
        first.put('c', 'a', doc(LARGE, 'a'));
        second.put('c', 'b', doc(LARGE, 'b'));
        expect(second.get('c', 'a')).toEqual(doc(LARGE, 'a'));
        expect(first.get('c', 'b')).toEqual(doc(LARGE, 'b'));
      } finally {
        second.close();
      }
    } finally {
      first.close();
    }
  });
});

describe('SqliteStore backgroundWrite', () => {
  test('with no other connection writing: runs at once', async () => {
    const store = new SqliteStore({ dataDir: tempDir() });
    try {
      let ran = false;
      const done = store.backgroundWrite(() => {
        ran = true;
        store.put('c', 'k', 1);
        return 'result';
      });
      expect(ran).toBe(true);
      expect(store.get('c', 'k')).toBe(1);
      await expect(done).resolves.toBe('result');
    } finally {
      store.close();
    }
  });

  /** Resolves once `test` holds, looked at every 5 ms. */
  const until = (test: () => boolean) =>
    new Promise<void>((resolve) => {
      const look = () => (test() ? resolve() : setTimeout(look, 5));
      look();
    });

  /**
   * A writer thread on a second connection: it says 'starting', then holds a transaction that
   * wrote `key` open (saying 'writing') until `release` or `holdMs`, then writes `${key}-next`.
   */
  function secondWriter(database: unknown, key: string, holdMs = -1) {
    const entry = path.join(tempDir(), 'second-writer');
    fs.writeFileSync(
      `${entry}.ts`,
      `
const { parentPort, workerData } = require('worker_threads');
const { SqliteStore } = require(${JSON.stringify(path.resolve(__dirname, '../../../backend-emulator/store/sqlite-store.ts'))});
const release = new Int32Array(workerData.release);
const second = new SqliteStore({ secondConnection: workerData.database });
parentPort.postMessage('starting');
second.transaction(() => {
  second.put('c', workerData.key, 1);
  parentPort.postMessage('writing');
  if (workerData.holdMs < 0) Atomics.wait(release, 0, 0);
  else Atomics.wait(release, 0, 0, workerData.holdMs);
});
second.put('c', workerData.key + '-next', 1);
second.close();
parentPort.postMessage('done');
`,
    );
    const release = new Int32Array(new SharedArrayBuffer(4));
    const worker = startWorker(entry, { workerData: { database, key, holdMs, release: release.buffer } });
    const messages: string[] = [];
    worker.on('message', (m: string) => messages.push(m));
    return {
      worker,
      heard: (what: string) => until(() => messages.includes(what)),
      release: () => {
        Atomics.store(release, 0, 1);
        Atomics.notify(release, 0);
      },
    };
  }

  test("waits for a second connection's write without blocking the thread, and runs before that connection's next write", async () => {
    const first = new SqliteStore({ dataDir: tempDir() });
    const lent = first.lendSecondConnection()!;
    const writer = secondWriter(lent.database, 'second');
    try {
      await writer.heard('writing');
      let seen: { second?: number; next?: number } | undefined;
      const done = first.backgroundWrite(() => {
        seen = { second: first.get('c', 'second'), next: first.get('c', 'second-next') };
        first.put('c', 'first', 1);
      });
      // Not run yet, and the thread is free meanwhile: a timer fires while the write waits.
      expect(seen).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(seen).toBeUndefined();
      writer.release();
      await done;
      // It ran after the second connection's commit, and before that connection's next write.
      expect(seen).toEqual({ second: 1, next: undefined });
      await writer.heard('done');
      expect([first.get('c', 'first'), first.get('c', 'second-next')]).toEqual([1, 1]);
    } finally {
      writer.release();
      await writer.worker.terminate();
      lent.giveBack();
      first.close();
    }
  });

  test("with a second connection waiting for another's transaction: runs after that transaction's commit, before the waiting one's write", async () => {
    const first = new SqliteStore({ dataDir: tempDir() });
    const lentA = first.lendSecondConnection()!;
    const lentB = first.lendSecondConnection()!;
    expect(lentB.database.writerCell).not.toBe(lentA.database.writerCell);
    const a = secondWriter(lentA.database, 'a');
    let b: ReturnType<typeof secondWriter> | undefined;
    try {
      await a.heard('writing');
      // Started once A holds the turn and SQLite's lock. B commits on its own 2 s after it began,
      // should this thread be blocked meanwhile.
      b = secondWriter(lentB.database, 'b', 2_000);
      // B waits for its turn (A's transaction to end), its write not begun nor marked.
      await until(() => waitsForTurn(lentB.database.writerTurn, lentB.database.writerCell!));
      let seen: { a?: number; b?: number } | undefined;
      const done = first.backgroundWrite(() => {
        seen = { a: first.get('c', 'a'), b: first.get('c', 'b') };
      });
      expect(seen).toBeUndefined();
      a.release();
      await done;
      expect(seen).toEqual({ a: 1, b: undefined });
      await b.heard('writing');
      b.release();
      await b.heard('done');
      expect([first.get('c', 'b'), first.get('c', 'b-next')]).toEqual([1, 1]);
    } finally {
      a.release();
      b?.release();
      await Promise.all([a.worker.terminate(), b?.worker.terminate()]);
      lentA.giveBack();
      lentB.giveBack();
      first.close();
    }
  });

  test('a cell given back is cleared, whatever its thread left: a writer terminated in a write holds no later write back', async () => {
    const first = new SqliteStore({ dataDir: tempDir() });
    const lent = first.lendSecondConnection()!;
    const writer = secondWriter(lent.database, 'stopped');
    try {
      await writer.heard('writing');
      // Terminated in its transaction: its `finally` does not run, its cell stays marked.
      await writer.worker.terminate();
      let ran = false;
      const waiting = first.backgroundWrite(() => (ran = true));
      expect(ran).toBe(false);
      lent.giveBack();
      await waiting;
      // Given back: the next write runs at once, and the terminated transaction left nothing.
      let next = false;
      const done = first.backgroundWrite(() => {
        next = true;
        first.put('c', 'after', 1);
      });
      expect(next).toBe(true);
      await done;
      expect([first.get('c', 'stopped'), first.get('c', 'after')]).toEqual([undefined, 1]);
      // A cell given back is lent again.
      const again = first.lendSecondConnection()!;
      expect(again.database.writerCell).toBe(lent.database.writerCell);
      again.giveBack();
    } finally {
      first.close();
    }
  });
});

describe('SqliteStore documentsVersion', () => {
  test('stays while nothing is written, moves with every write (committed or rolled back), undefined inside a transaction', () => {
    const store = new SqliteStore({ inMemory: true });
    try {
      const seen: number[] = [];
      const next = (): number => {
        const v = store.documentsVersion();
        expect(typeof v).toBe('number');
        expect(seen).not.toContain(v);
        seen.push(v as number);
        return v as number;
      };
      const v0 = next();
      store.get('c', 'a');
      store.has('c', 'a');
      store.list('c');
      expect(store.documentsVersion()).toBe(v0);
      store.put('c', 'a', { x: 1 });
      next();
      store.delete('c', 'missing'); // deletes nothing, but a write was made: the version moves all the same
      next();
      store.deletePrefix('c', 'a');
      next();
      store.transaction(() => {
        expect(store.documentsVersion()).toBeUndefined();
        store.put('c', 'b', { x: 2 });
      });
      next();
      expect(() =>
        store.transaction(() => {
          store.put('c', 'b', { x: 3 });
          throw new Error('rolled back');
        }),
      ).toThrow('rolled back');
      expect(store.get('c', 'b')).toEqual({ x: 2 });
      next();
      store.clear();
      const last = next();
      expect(store.documentsVersion()).toBe(last);
    } finally {
      store.close();
    }
  });

  test("moves with a commit of the file's second connection (the import worker's)", () => {
    const dir = tempDir();
    const first = new SqliteStore({ dataDir: dir });
    try {
      const second = new SqliteStore({ secondConnection: first.lendSecondConnection()!.database });
      try {
        const before = first.documentsVersion();
        expect(first.documentsVersion()).toBe(before);
        second.put('c', 'k', { v: 1 });
        const after = first.documentsVersion();
        expect(after).not.toBe(before);
        expect(first.get('c', 'k')).toEqual({ v: 1 });
        expect(first.documentsVersion()).toBe(after);
        second.transaction(() => second.put('c', 'k', { v: 2 }));
        expect(first.documentsVersion()).not.toBe(after);
      } finally {
        second.close();
      }
    } finally {
      first.close();
    }
  });
});

describe('SqliteStore on disk', () => {
  test('data survives close and reopen; lock file names the holder and is removed on close', () => {
    const dir = tempDir();
    const a = new SqliteStore({ dataDir: dir });
    a.put('c', 'k', { v: 1 });
    const lock = JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8'));
    expect(lock.pid).toBe(process.pid);
    a.close();
    expect(fs.existsSync(path.join(dir, LOCK_FILE_NAME))).toBe(false);
    const b = new SqliteStore({ dataDir: dir });
    expect(b.get('c', 'k')).toEqual({ v: 1 });
    b.close();
  });

  test('a second store on the same data dir is refused with a clear message', () => {
    const dir = tempDir();
    const a = new SqliteStore({ dataDir: dir });
    try {
      let error: unknown;
      try {
        new SqliteStore({ dataDir: dir });
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(DataDirError);
      expect((error as DataDirError).code).toBe('DATA_DIR_LOCKED');
      expect((error as Error).message).toContain(dir);
      expect((error as Error).message).toMatch(/in use/);
      // The refusal did not disturb the holder.
      a.put('c', 'k', 1);
      expect(a.get('c', 'k')).toBe(1);
    } finally {
      a.close();
    }
  });

  test('a stale lock file from a dead process is taken over', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, LOCK_FILE_NAME), JSON.stringify({ pid: 2 ** 22 + 12345, startedAt: 'long ago' }));
    const s = new SqliteStore({ dataDir: dir });
    expect(JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8')).pid).toBe(process.pid);
    s.close();
  });

  test('an unusable data dir is a clear error naming the path', () => {
    const dir = tempDir();
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, 'x');
    for (const bad of [file, path.join(file, 'sub')]) {
      let error: unknown;
      try {
        new SqliteStore({ dataDir: bad });
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(DataDirError);
      expect((error as DataDirError).code).toBe('DATA_DIR_UNUSABLE');
      expect((error as Error).message).toContain(bad);
    }
  });
});
