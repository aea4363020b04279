/**
 * The emulator's storage interface: named collections of JSON documents keyed by resource name.
 *
 * Every call is synchronous and every `transaction` is atomic and isolated: domain code does a
 * whole read-check-write (an etag comparison, a requestId lookup) inside one transaction, and
 * since Node runs it without yielding, no other request can interleave. A write is durable once
 * `whenFlushed` says so (the SQLite store: its commit is in the WAL when `put` returns, fsynced
 * with the commits made beside it by a group commit), and no answer leaves before
 * (http/flushed-answers.ts).
 */
import type { AssetStore } from './asset-store';

export interface ListOptions {
  /** Only keys starting with this prefix. */
  prefix?: string;
  /** Only keys strictly greater than this one (for page tokens). */
  after?: string;
  /** At most this many entries. */
  limit?: number;
}

export interface StoredEntry<T> {
  key: string;
  value: T;
}

export interface SharedDatabase {
  file: string;
  /** A SharedArrayBuffer of two Int32: how many writes of the first connection wait or are under way, a request's and background ones (sqlite-store.ts). */
  priority: SharedArrayBuffer;
  /** The cells through which second connections mark their writes (writer-cells.ts). */
  writerCells: SharedArrayBuffer;
  /** The turn between second connections' writes (writer-turn.ts). */
  writerTurn: SharedArrayBuffer;
  /** This second connection's cell in `writerCells`; none: its writes are not marked. */
  writerCell?: number;
}

/** A second connection's database, lent by the store that holds it, and `giveBack` once the connection's thread has ended. */
export interface LentDatabase {
  database: SharedDatabase;
  giveBack(): void;
}

export interface Store {
  get<T>(collection: string, key: string): T | undefined;
  /** Whether `key` holds a document (without reading and parsing it). */
  has(collection: string, key: string): boolean;
  put<T>(collection: string, key: string, value: T): void;
  /** Returns whether something was deleted. */
  delete(collection: string, key: string): boolean;
  /** Entries in ascending key order. */
  list<T>(collection: string, options?: ListOptions): StoredEntry<T>[];
  count(collection: string, prefix?: string): number;
  /** Deletes every key of a collection with this prefix; returns how many. */
  deletePrefix(collection: string, prefix: string): number;
  /** Runs `fn` atomically; a throw rolls everything back. Nested calls join the outer one. */
  transaction<R>(fn: () => R): R;
  /**
   * A write nobody waits for, which a crash may lose (an Operation's progress): `fn` runs once no
   * other connection's write is under way, without blocking the thread meanwhile (at once when
   * none is: then `fn` has run when this returns; else when that write has committed, before that
   * connection starts another), and its commit does not wait for the disk, nor does any answer
   * (`whenFlushed`). A plain write would block the thread until the other's commit.
   */
  backgroundWrite<R>(fn: () => R): Promise<R>;
  /**
   * Undefined when everything this store has committed is on disk (always, in memory); else a
   * promise resolved once it is, rejected if it cannot be (a failed fsync: then every later call
   * too). What an answer waits for before it leaves: a write's answer once the write is durable,
   * and any answer made after a commit not yet on disk, which it may show. `backgroundWrite`s owe
   * nothing.
   */
  whenFlushed(): Promise<void> | undefined;
  /**
   * Whether commits return before they are on disk, for `whenFlushed` to say when they are: a
   * file-backed store. False in memory, where nothing is ever owed (and no answer need ask).
   */
  readonly flushesLater: boolean;
  /**
   * The documents' version: a number that changes whenever a document may have changed since it
   * was last asked (a write of this store, committed or rolled back, or a commit of any other
   * connection to its database). While it is the same, every document reads as it did, so a
   * reader may keep what it made of them (http/answer-text.ts). Undefined inside a transaction,
   * whose reads may see writes not yet committed. Ask it before the reads it stamps.
   */
  documentsVersion(): number | undefined;
  /**
   * Migration Center assets: a table of their own with typed, indexed columns (asset-store.ts),
   * in the same database, so its writes join `transaction`.
   */
  readonly assets: AssetStore;
  /**
   * When the store is file-backed: its database file, for a second connection in this process
   * (the import worker's writer, run-writer.ts) to write beside this one, with the cells through
   * which this store's writes go first (SqliteStore's `priority`) and the lent connection marks
   * its own. Undefined for an in-memory store, which no second connection can share, and for a
   * second connection.
   */
  lendSecondConnection(): LentDatabase | undefined;
  /** Drops every document of every collection, and every asset. */
  clear(): void;
  close(): void;
}
