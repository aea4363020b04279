/**
 * The one Store implementation: SQLite through better-sqlite3, either a file in the data
 * directory (durable) or `:memory:`.
 *
 * One table `documents(collection, key, value)` with primary key (collection, key); values are
 * JSON text (a large one in `large_documents`: LARGE_DOCUMENT_CHARS). WAL journal. The first
 * connection of a durable store (the request thread's) commits with `synchronous=NORMAL`: when
 * `put` or the outer `transaction` returns, the commit is whole in the WAL in the OS's page cache
 * (it survives kill -9), and the store owes a flush: one fsync of the WAL for all the commits made
 * meanwhile, off the thread (wal-flush.ts, a group commit). `whenFlushed` says when they are on
 * disk, and no answer leaves the emulator before (http/flushed-answers.ts): an acknowledged write
 * survives kill -9 and power loss. Every other connection commits with `synchronous=FULL` (its
 * commit is an fsync of the WAL, which carries the first connection's commits made before it).
 * One emulator process per data dir is the guard database's business (lock.ts); within the process
 * a second connection may write the same file (the import worker's writer, `secondConnection`),
 * so every transaction starts with BEGIN IMMEDIATE (a deferred one that read first would get
 * SQLITE_BUSY at its first write, not wait, whenever the other connection committed meanwhile)
 * and every connection waits for the other's transaction (BUSY_TIMEOUT_MS) rather than fail.
 *
 * The first connection's writes (requests) go first: SQLite's busy handler polls, with sleeps of
 * up to 100 ms, and a second connection writing batch after batch would take the lock again
 * between two polls, for seconds (measured: a cancel took 4.6 s, a request 2.8 s). So the first
 * connection counts its writes waiting or under way in a shared cell (`priority`), and a second
 * connection starts no transaction while that count is above zero: the first waits for at most
 * the transaction under way, or, for a transaction a second connection holds open across batches
 * (a run's writer: `beginHeldTransaction`), for its statement under way and its commit. Background
 * writes (`backgroundWrite`) are counted in a cell of their own: they too keep a second connection
 * from starting a transaction, but do not end a held one early. A second connection's write under
 * way is marked in a cell of its own (writer-cells.ts): a write of the first that nobody waits
 * for (`backgroundWrite`) waits for those commits without blocking the request thread, where
 * SQLite's busy handler would have slept in it (20 to 155 ms per progress write of a run, on a
 * loaded machine).
 */
import * as path from 'path';
import type BetterSqlite3 from 'better-sqlite3';
import type { LentDatabase, ListOptions, SharedDatabase, Store, StoredEntry } from './store';
import { newWriterCells, waitAsync, WriterCell, WriterCellLender } from './writer-cells';
import { newWriterTurn, WriterTurn, WriterTurnLender } from './writer-turn';
import type { AssetStore } from './asset-store';
import { SqliteAssetStore } from './sqlite-assets';
import { OWNER_ONLY_FILE, ownerOnlyFile, ownerOnlyIfPresent } from '../private-files';
import { DataDirError, holdDataDir, prepareDataDir, removeLockFile, writeLockFile, type DataDirHold } from './lock';
import { WalFlush, type FileSync } from './wal-flush';

export const DATABASE_FILE_NAME = 'emulator.sqlite';

/** Sorts after every character a key can hold, for prefix range scans that use the index. */
const MAX_CHAR = '\u{10FFFF}';

/**
 * How long a connection waits for the other connection's write transaction before SQLITE_BUSY: a
 * run's batch (import-thread.ts) takes milliseconds on a quiet machine and can take a second or
 * two on a loaded one; a request's write must wait it out, never fail.
 */
export const BUSY_TIMEOUT_MS = 60_000;

/** How long a second connection sleeps at most between two looks at the first one's writes (it is woken at once otherwise). */
const YIELD_POLL_MS = 20;

/**
 * The cells of `priority`: the first connection's writes a request waits for (every write but a
 * `backgroundWrite`), and its background writes. A second connection starts no write while either
 * is above zero; one that holds a transaction open ends it early for the first only.
 */
const REQUEST_WRITES = 0;
const BACKGROUND_WRITES = 1;
const PRIORITY_CELLS = 2;

/** SQLite's `synchronous = NORMAL`: a WAL commit does not wait for the disk (`backgroundWrite`). */
const SYNCHRONOUS_NORMAL = 1;

/**
 * How long `backgroundWrite` waits for a second connection's write before writing anyway (and
 * waiting for SQLite's lock as any write does, which ends a held transaction after its batch under
 * way): a run's writer commits the transaction it holds within a second (run-writer-worker.ts,
 * HOLD_MS); a thread terminated in the middle of a write leaves its cell marked until the cell is
 * given back.
 */
const WHEN_FREE_WAIT_MS = 2_000;

export interface SqliteStoreOptions {
  /** A directory for the database file; ignored when `inMemory`. */
  dataDir?: string;
  inMemory?: boolean;
  /**
   * The database of a store this process already holds (its `lendSecondConnection`), opened as a
   * second connection: no data dir guard of its own (the holder's covers it), and its transactions wait
   * for the holder's writes. The import worker's writer.
   */
  secondConnection?: SharedDatabase;
  /** How the first connection's flushes reach the disk (tests delay, count or fail them); default fs's fsync. */
  fileSync?: FileSync;
  /** Told at once when a flush fails (the app logs it): from then on every `whenFlushed` fails. */
  onFlushFailure?: (err: Error) => void;
}

/**
 * Documents whose JSON text is longer than this (in UTF-16 units) are kept in `large_documents`,
 * and their row of `documents` holds LARGE_DOCUMENT_MARK. `documents` is WITHOUT ROWID: its rows
 * are the keys of its b-tree, and SQLite reads the whole of a row that spills out of its page
 * every time a lookup compares a key with it. The create Operation of a 100,000-row inline
 * payload answers the job as given, 15.6 MB of it: each read or write of a key beside it (the polls
 * of the next Operation, its progress) read those 15.6 MB again, 6 to 15 ms of the request
 * thread's time each. `large_documents` has row ids: its rows are read only when fetched. A row of
 * this size spills two pages at most, which a comparison reads in microseconds.
 */
export const LARGE_DOCUMENT_CHARS = 16_384;

/** The value of a `documents` row whose text is in `large_documents`: no JSON text is empty. */
const LARGE_DOCUMENT_MARK = '';

/**
 * The documents' tables. The triggers drop a large document's text when its row is deleted (one
 * key, a prefix, everything) or is given a short text: `large_documents` holds only what a
 * `documents` row names.
 */
const DOCUMENT_TABLES_SQL = `
CREATE TABLE IF NOT EXISTS documents (
  collection TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (collection, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS large_documents (collection TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (collection, key));
CREATE TRIGGER IF NOT EXISTS large_document_deleted AFTER DELETE ON documents WHEN OLD.value = '${LARGE_DOCUMENT_MARK}'
BEGIN DELETE FROM large_documents WHERE collection = OLD.collection AND key = OLD.key; END;
CREATE TRIGGER IF NOT EXISTS large_document_replaced AFTER UPDATE OF value ON documents WHEN OLD.value = '${LARGE_DOCUMENT_MARK}' AND NEW.value <> '${LARGE_DOCUMENT_MARK}'
BEGIN DELETE FROM large_documents WHERE collection = OLD.collection AND key = OLD.key; END;
`;

/** A `documents` row's text (`d`), from `large_documents` when the row names it there. */
const DOCUMENT_VALUE = `CASE WHEN d.value = '${LARGE_DOCUMENT_MARK}' THEN (SELECT l.value FROM large_documents l WHERE l.collection = d.collection AND l.key = d.key) ELSE d.value END`;

interface Statements {
  get: BetterSqlite3.Statement<[string, string], { value: string }>;
  has: BetterSqlite3.Statement<[string, string], { found: number }>;
  put: BetterSqlite3.Statement<[string, string, string]>;
  putLarge: BetterSqlite3.Statement<[string, string, string]>;
  delete: BetterSqlite3.Statement<[string, string]>;
  list: BetterSqlite3.Statement<[string, string, string, number], { key: string; value: string }>;
  listAfter: BetterSqlite3.Statement<[string, string, string, string, number], { key: string; value: string }>;
  count: BetterSqlite3.Statement<[string, string, string], { n: number }>;
  deletePrefix: BetterSqlite3.Statement<[string, string, string]>;
  clear: BetterSqlite3.Statement<[]>;
  dataVersion: BetterSqlite3.Statement<[], number>;
  synchronous: BetterSqlite3.Statement<[], number>;
  schemaRead: BetterSqlite3.Statement<[], number>;
}

export class SqliteStore implements Store {
  /** The database file, or ':memory:'. */
  readonly location: string;
  private readonly dataDir?: string;
  private readonly db: BetterSqlite3.Database;
  private readonly stmts: Statements;
  readonly assets: AssetStore;
  /** The first connection's database as a second connection opens it, without a writer cell. */
  private readonly shared?: SharedDatabase;
  /** The shared count of the first connection's writes (see the module comment). */
  private readonly priority?: Int32Array;
  /** The first connection's side of the writer cells. */
  private readonly writerCells?: WriterCellLender;
  /** A second connection's own writer cell. */
  private readonly writerCell?: WriterCell;
  /** The first connection's side of the turn between second connections' writes. */
  private readonly writerTurns?: WriterTurnLender;
  /** A second connection's place in that turn (with its writer cell). */
  private readonly writerTurn?: WriterTurn;
  private readonly isSecond: boolean;
  private readonly runInTransaction: (fn: () => unknown) => unknown;
  /** The data dir guard this store holds (the first connection of a file-backed store). */
  private readonly hold?: DataDirHold;
  /** The group commit of the first connection of a file-backed store: what its commits owe the disk. */
  private readonly walFlush?: WalFlush;
  /** Whether a `backgroundWrite` runs: its commits owe nothing (a crash may lose them, nobody waits for them). */
  private inBackground = false;
  private closed = false;
  /** documentsVersion(): bumped by each write of this store, and when SQLite's data_version moves. */
  private version = 0;
  /** SQLite's `data_version` when last read: it changes with every commit of another connection. */
  private otherCommits = -1;
  /**
   * How many `transaction` calls are under way (every transaction of this connection is one):
   * documentsVersion reads it rather than the driver's inTransaction, a call into native code.
   */
  private transactionDepth = 0;

  constructor(options: SqliteStoreOptions = {}) {
    // Required here, not at module load, so that importing the module costs nothing.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Database = require('better-sqlite3') as typeof BetterSqlite3;
    this.isSecond = options.secondConnection !== undefined;
    if (options.secondConnection) {
      const second = options.secondConnection;
      this.location = second.file;
      this.priority = new Int32Array(second.priority);
      if (second.writerCell !== undefined) {
        this.writerCell = new WriterCell(second.writerCells, second.writerCell);
        this.writerTurn = new WriterTurn(second.writerTurn, second.writerCell);
      }
      this.db = openShared(Database, this.location);
    } else if (options.inMemory || !options.dataDir) {
      this.location = ':memory:';
      this.db = new Database(':memory:');
    } else {
      const dir = prepareDataDir(options.dataDir);
      this.dataDir = dir;
      this.location = path.join(dir, DATABASE_FILE_NAME);
      this.shared = { file: this.location, priority: new SharedArrayBuffer(PRIORITY_CELLS * 4), writerCells: newWriterCells(), writerTurn: newWriterTurn() };
      this.priority = new Int32Array(this.shared.priority);
      this.writerCells = new WriterCellLender(this.shared.writerCells);
      this.writerTurns = new WriterTurnLender(this.shared.writerTurn);
      // The guard first: a second emulator must not touch the database at all.
      this.hold = holdDataDir(Database, dir);
      try {
        this.db = openShared(Database, this.location);
      } catch (err) {
        this.hold.release();
        throw err;
      }
      writeLockFile(dir);
    }
    this.db.exec(DOCUMENT_TABLES_SQL);
    this.stmts = {
      get: this.db.prepare(`SELECT ${DOCUMENT_VALUE} AS value FROM documents d WHERE d.collection = ? AND d.key = ?`),
      has: this.db.prepare('SELECT 1 AS found FROM documents WHERE collection = ? AND key = ?'),
      put: this.db.prepare(
        'INSERT INTO documents (collection, key, value) VALUES (?, ?, ?) ON CONFLICT (collection, key) DO UPDATE SET value = excluded.value',
      ),
      putLarge: this.db.prepare(
        'INSERT INTO large_documents (collection, key, value) VALUES (?, ?, ?) ON CONFLICT (collection, key) DO UPDATE SET value = excluded.value',
      ),
      delete: this.db.prepare('DELETE FROM documents WHERE collection = ? AND key = ?'),
      list: this.db.prepare(
        `SELECT d.key AS key, ${DOCUMENT_VALUE} AS value FROM documents d WHERE d.collection = ? AND d.key >= ? AND d.key < ? ORDER BY d.key LIMIT ?`,
      ),
      listAfter: this.db.prepare(
        `SELECT d.key AS key, ${DOCUMENT_VALUE} AS value FROM documents d WHERE d.collection = ? AND d.key >= ? AND d.key < ? AND d.key > ? ORDER BY d.key LIMIT ?`,
      ),
      count: this.db.prepare('SELECT count(*) AS n FROM documents WHERE collection = ? AND key >= ? AND key < ?'),
      deletePrefix: this.db.prepare('DELETE FROM documents WHERE collection = ? AND key >= ? AND key < ?'),
      clear: this.db.prepare('DELETE FROM documents'),
      // A read of the connection's own page cache state (no table is read): about a sixth of a get.
      dataVersion: this.db.prepare<[], number>('PRAGMA data_version').pluck(),
      synchronous: this.db.prepare<[], number>('PRAGMA synchronous').pluck(),
      // A read of the schema's first page: it opens a read transaction's snapshot (readSnapshot).
      schemaRead: this.db.prepare<[], number>('SELECT count(*) FROM sqlite_master').pluck(),
    };
    this.assets = new SqliteAssetStore(this.db, this.isSecond ? { cacheKiB: SECOND_CONNECTION_CACHE_KIB, analyzeAsItGrows: false, makeIndexes: false } : {});
    // One reusable transaction wrapper; better-sqlite3 turns nested calls into savepoints, so a
    // nested transaction is atomic inside the outer one and commits only with it. IMMEDIATE: see
    // the module comment.
    this.runInTransaction = this.db.transaction((fn: () => unknown) => fn()).immediate;
    // The tables are made (committed with FULL, at start-up): from here on the first connection's
    // commits are flushed by the group commit. The WAL file exists once the connection has read.
    if (this.hold !== undefined) {
      try {
        this.db.pragma(`synchronous = ${SYNCHRONOUS_NORMAL}`);
        this.walFlush = new WalFlush(`${this.location}-wal`, options.fileSync, options.onFlushFailure);
      } catch (err) {
        this.close();
        throw new DataDirError('DATA_DIR_UNUSABLE', `Cannot use the database ${this.location}: ${(err as Error).message}`);
      }
    }
  }

  get<T>(collection: string, key: string): T | undefined {
    const row = this.stmts.get.get(collection, key);
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  has(collection: string, key: string): boolean {
    return this.stmts.has.get(collection, key) !== undefined;
  }

  put<T>(collection: string, key: string, value: T): void {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`Cannot store undefined at ${collection}/${key}`);
    if (text.length <= LARGE_DOCUMENT_CHARS) {
      this.write(() => this.stmts.put.run(collection, key, text));
      return;
    }
    this.transaction(() => {
      this.stmts.putLarge.run(collection, key, text);
      this.stmts.put.run(collection, key, LARGE_DOCUMENT_MARK);
    });
  }

  delete(collection: string, key: string): boolean {
    return this.write(() => this.stmts.delete.run(collection, key).changes > 0);
  }

  list<T>(collection: string, options: ListOptions = {}): StoredEntry<T>[] {
    const prefix = options.prefix ?? '';
    const limit = options.limit === undefined ? -1 : Math.max(0, Math.floor(options.limit));
    const rows =
      options.after === undefined
        ? this.stmts.list.all(collection, prefix, prefix + MAX_CHAR, limit)
        : this.stmts.listAfter.all(collection, prefix, prefix + MAX_CHAR, options.after, limit);
    return rows.map((r) => ({ key: r.key, value: JSON.parse(r.value) as T }));
  }

  count(collection: string, prefix = ''): number {
    return this.stmts.count.get(collection, prefix, prefix + MAX_CHAR)?.n ?? 0;
  }

  deletePrefix(collection: string, prefix: string): number {
    return this.write(() => this.stmts.deletePrefix.run(collection, prefix, prefix + MAX_CHAR).changes);
  }

  transaction<R>(fn: () => R): R {
    return this.write(() => {
      this.transactionDepth++;
      try {
        return this.runInTransaction(fn) as R;
      } finally {
        this.transactionDepth--;
      }
    });
  }

  /**
   * Runs `fn`'s reads in one read transaction: they all see the database as it was when the
   * transaction began (WAL keeps that snapshot while other connections commit). The snapshot is
   * taken at once, by a first read, not at `fn`'s first query. For a second connection's long
   * reads (a report's summary, reports/report-snapshot.ts): it takes no write lock and waits for
   * no write, and writes of both connections go on beside it.
   */
  readSnapshot<R>(fn: () => R): R {
    this.db.exec('BEGIN');
    try {
      this.stmts.schemaRead.get();
      return fn();
    } finally {
      this.db.exec('COMMIT');
    }
  }

  documentsVersion(): number | undefined {
    if (this.transactionDepth > 0) return undefined;
    const otherCommits = this.stmts.dataVersion.get() as number;
    if (otherCommits !== this.otherCommits) {
      this.otherCommits = otherCommits;
      this.version++;
    }
    return this.version;
  }

  /** A write, in its turn; the documents' version moves once it is done, committed or not. */
  private write<R>(fn: () => R): R {
    try {
      return this.writeInTurn(fn);
    } finally {
      this.version++;
    }
  }

  /**
   * Runs a write (a transaction, or a statement outside one) in its turn: the first connection
   * counts it in `priority` while it waits for and holds SQLite's lock; a second connection first
   * waits until no write of the first is waiting or under way. Inside a transaction, it just runs.
   */
  private writeInTurn<R>(fn: () => R): R {
    const priority = this.priority;
    // transactionDepth first: a write inside this store's own transaction (most of them) asks the
    // driver nothing; inTransaction, a call into native code, covers the others (asset store's).
    if (!priority || this.transactionDepth > 0 || this.db.inTransaction) return fn();
    if (this.isSecond) return this.secondWriteInTurn(priority, fn);
    Atomics.add(priority, REQUEST_WRITES, 1);
    // Wakes a second connection that holds a transaction open while it waits for work (`whenAskedToCommit`).
    Atomics.notify(priority, REQUEST_WRITES);
    try {
      const result = fn();
      // Committed (a throw rolled back, or failed the commit): the disk is owed it.
      if (!this.inBackground) this.walFlush?.committedOne();
      return result;
    } finally {
      Atomics.sub(priority, REQUEST_WRITES, 1);
      Atomics.notify(priority, REQUEST_WRITES);
    }
  }

  /**
   * A second connection's write: it says it writes, then looks for a write of the first; the first
   * counts its write, then looks whether the second writes (`backgroundWrite`). Atomics are
   * sequentially consistent, so at least one of the two sees the other: the second gives way, or
   * the first waits for its commit.
   */
  private secondWriteInTurn<R>(priority: Int32Array, fn: () => R): R {
    this.secondTurn(priority);
    try {
      return fn();
    } finally {
      this.endSecondWrite();
    }
  }

  /** A second connection's write ended (committed or rolled back): unmarked, and the turn handed on. */
  private endSecondWrite(): void {
    this.writerCell?.unmark();
    this.writerTurn?.pass();
  }

  /**
   * Waits for this connection's turn among the second connections (writer-turn.ts; an idle holder
   * of a transaction is woken to end it, through the cell it waits on for a request's write:
   * `whenAskedToCommit`), then until no write of the first connection waits or is under way, then
   * marks this connection's write (secondWriteInTurn).
   */
  private secondTurn(priority: Int32Array): void {
    this.writerTurn?.take(BUSY_TIMEOUT_MS, () => Atomics.notify(priority, REQUEST_WRITES));
    const cell = this.writerCell;
    for (;;) {
      for (const kind of [REQUEST_WRITES, BACKGROUND_WRITES])
        for (let waiting = Atomics.load(priority, kind); waiting > 0; waiting = Atomics.load(priority, kind))
          Atomics.wait(priority, kind, waiting, YIELD_POLL_MS);
      cell?.mark();
      if (Atomics.load(priority, REQUEST_WRITES) === 0 && Atomics.load(priority, BACKGROUND_WRITES) === 0) break;
      cell?.unmark();
    }
  }

  /**
   * A second connection's transaction held open across turns of its thread's event loop (a run's
   * writer, run-writer.ts): begun in its turn, as any write of a second connection, and marked as
   * a write under way until `endHeldTransaction`. The holder ends it as soon as a request's write
   * waits (`requestWriteWaiting`, `whenAskedToCommit`): the first connection's writes still go
   * first, after the holder's statement under way and its commit; and once it has nothing more to
   * write at once when another second connection waits for its turn (`anotherWriterWaiting`). Its
   * `transaction` calls meanwhile are savepoints (each costs a copy of the pages it changes again:
   * the run's writer makes none).
   */
  beginHeldTransaction(): void {
    const priority = this.priority;
    if (!this.isSecond || !priority) throw new Error('only a second connection holds a transaction open');
    if (this.transactionDepth > 0 || this.db.inTransaction) throw new Error('a transaction is already open');
    this.secondTurn(priority);
    try {
      this.db.exec('BEGIN IMMEDIATE');
    } catch (err) {
      this.endSecondWrite();
      throw err;
    }
    this.transactionDepth++;
  }

  /**
   * Commits (`commit`) or rolls back the held transaction. A commit that fails rolls back: nothing
   * of it is kept. SQLite may have rolled it back already (a failure such as a full disk ends the
   * whole transaction, not only its statement): a commit then throws, a rollback does nothing.
   */
  endHeldTransaction(commit: boolean): void {
    if (this.transactionDepth !== 1) throw new Error('no held transaction is open');
    try {
      if (commit) this.db.exec('COMMIT');
      else if (this.db.inTransaction) this.db.exec('ROLLBACK');
    } catch (err) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw err;
    } finally {
      if (!this.db.inTransaction) {
        this.transactionDepth--;
        this.version++;
        this.endSecondWrite();
      }
    }
  }

  /** The held transaction is open: begun, and not ended (nor rolled back whole by SQLite). */
  get heldTransactionOpen(): boolean {
    return this.transactionDepth === 1 && this.db.inTransaction;
  }

  /** A request's write (any write of the first connection but a `backgroundWrite`) waits or is under way: a held transaction ends. */
  get requestWriteWaiting(): boolean {
    return this.priority !== undefined && Atomics.load(this.priority, REQUEST_WRITES) > 0;
  }

  /**
   * Another second connection (another run's writer) waits for its turn (writer-turn.ts): a held
   * transaction ends once its holder has nothing more to write at once, or at its limits.
   */
  get anotherWriterWaiting(): boolean {
    return this.writerTurn?.othersWaiting ?? false;
  }

  /**
   * Resolves once a request's write waits or another second connection starts waiting for its
   * turn (both notify the cell of the first one's requests: `secondTurn`), or after `ms`: a holder
   * idle with its transaction open waits on it beside its thread's messages, then reads what woke it.
   */
  whenAskedToCommit(ms: number): Promise<unknown> {
    if (!this.priority) return new Promise((resolve) => setTimeout(resolve, ms));
    const wait = waitAsync(this.priority, REQUEST_WRITES, 0, ms);
    return wait.async ? wait.value : Promise.resolve();
  }

  lendSecondConnection(): LentDatabase | undefined {
    const { shared, writerCells, writerTurns } = this;
    if (!shared || !writerCells || !writerTurns || this.closed) return undefined;
    const writerCell = writerCells.lend();
    let lent = writerCell !== undefined;
    if (lent) writerTurns.lend(writerCell!);
    return {
      database: { ...shared, writerCell },
      giveBack: () => {
        if (lent) {
          writerTurns.giveBack(writerCell!);
          writerCells.giveBack(writerCell!);
        }
        lent = false;
      },
    };
  }

  async backgroundWrite<R>(fn: () => R): Promise<R> {
    const { priority, writerCells } = this;
    if (this.db.inTransaction) return fn();
    if (!priority || !writerCells) return this.withoutDiskWait(fn);
    // Counted first: second connections start no other write from now on (secondWriteInTurn).
    // Counted apart from a request's: a run's writer holding a transaction open does not end it
    // early for this write, which nobody waits for, but at its own limit (run-writer.ts).
    Atomics.add(priority, BACKGROUND_WRITES, 1);
    try {
      if (writerCells.anyWriting()) await writerCells.untilNoneWriting(WHEN_FREE_WAIT_MS);
      return this.withoutDiskWait(fn);
    } finally {
      Atomics.sub(priority, BACKGROUND_WRITES, 1);
      Atomics.notify(priority, BACKGROUND_WRITES);
    }
  }

  /**
   * Runs `fn` with commits that do not wait for the disk: `synchronous = NORMAL`, under which a
   * WAL commit is not fsynced (the next fsynced commit, or checkpoint, carries it), and owe the
   * group commit nothing: no answer waits for them. A crash may lose such a commit, never one made
   * before it.
   */
  private withoutDiskWait<R>(fn: () => R): R {
    const background = this.inBackground;
    this.inBackground = true;
    try {
      const level = this.stmts.synchronous.get() as number;
      if (level <= SYNCHRONOUS_NORMAL) return fn();
      this.db.pragma(`synchronous = ${SYNCHRONOUS_NORMAL}`);
      try {
        return fn();
      } finally {
        this.db.pragma(`synchronous = ${level}`);
      }
    } finally {
      this.inBackground = background;
    }
  }

  whenFlushed(): Promise<void> | undefined {
    return this.walFlush?.whenFlushed();
  }

  get flushesLater(): boolean {
    return this.walFlush !== undefined;
  }

  clear(): void {
    try {
      this.stmts.clear.run();
      this.assets.clear();
      this.walFlush?.committedOne();
    } finally {
      this.version++;
    }
  }

  /** Whether a transaction is open (for assertions in domain code and tests). */
  get inTransaction(): boolean {
    return this.db.inTransaction;
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    // What the last commits owe the disk first: a second connection still open keeps the WAL
    // from being checkpointed by this close.
    this.walFlush?.close();
    this.db.close();
    if (this.dataDir) removeLockFile(this.dataDir);
    this.hold?.release();
  }
}

/**
 * The page cache of a second connection (a run's writer, which only writes): its cache is resident
 * memory for the whole run. 8 MB instead of the first connection's 32 MB took 26 MB off the
 * emulator's peak RSS during a 600,000-row run of ordered machine ids with no measurable change in
 * the run's CPU time. With random ids (real exports' UUIDs) each batch lands on random leaves of
 * the asset id's unique index (about 40 MB at 600,000 assets), which an 8 MB cache read again from
 * the WAL and the file at every group: 32 MB, with groups of 8 batches (run-writer-worker.ts),
 * took the writer alone from 13.6-14.0 to 11.0-11.6 CPU-s and 20-27 to 16 s of wall time
 * (docs/benchmarks.md, 2026-11-27 uuid14). It also bounds what a transaction the writer holds open
 * keeps in memory: beyond it, SQLite spills the transaction's pages to the WAL (uncommitted, so a
 * kill leaves them unread). With the held transaction (run-writer-worker.ts) the 32 MB cache took
 * the emulator's peak RSS to 330 MB (lean file) and 349 MB (full), over the 300 MB target; 16 MB:
 * 293 and 316 MB, for :run at 0.71x the floor against 0.65x; 8 MB: 288 MB at 0.79x (one run each,
 * quiet machine, docs/benchmarks.md, 2026-11-27 fifteenth session). The fifteenth session's quiet
 * block at 16 MB: 314 and 321 MB; then 2 MB: 283 MB at 0.73x (lean) and 293 MB at 0.74x (full),
 * one run each: a held transaction rewrites each leaf once a commit whatever the cache holds, so
 * the cache buys little speed and costs its memory.
 */
const SECOND_CONNECTION_CACHE_KIB = 2_048;

/**
 * The settings of every connection to the store's database (the benchmarks' bare baselines take
 * them from here). Pages of 8 KiB for a new database (an existing one keeps its own): asset rows
 * are ~700 bytes, and 4 KiB pages held five of them with an eighth of each page unused. WAL with
 * `synchronous=FULL`: a commit is an fsync of the WAL (the first connection turns to NORMAL once
 * its tables are made, and its group commit fsyncs: see the module comment).
 */
export const DATABASE_PRAGMAS: readonly string[] = ['page_size = 8192', 'journal_mode = WAL', 'synchronous = FULL'];

/** Opens the database file in WAL mode, ready for a second connection of this process beside it. */
function openShared(Database: typeof BetterSqlite3, file: string): BetterSqlite3.Database {
  let db: BetterSqlite3.Database;
  try {
    ownerOnlyFile(file);
    for (const companion of ['-wal', '-shm', '-journal']) ownerOnlyIfPresent(file + companion, OWNER_ONLY_FILE);
    db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  } catch (err) {
    throw new DataDirError('DATA_DIR_UNUSABLE', `Cannot open the database ${file}: ${(err as Error).message}`);
  }
  try {
    for (const pragma of DATABASE_PRAGMAS) db.pragma(pragma);
  } catch (err) {
    db.close();
    throw new DataDirError('DATA_DIR_UNUSABLE', `Cannot use the database ${file}: ${(err as Error).message}`);
  }
  return db;
}

/** Opens the store described by the options (file-backed in `dataDir`, or in memory). */
export function openStore(options: SqliteStoreOptions): SqliteStore {
  return new SqliteStore(options);
}
