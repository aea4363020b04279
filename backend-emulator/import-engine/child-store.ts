/**
 * Where execution keeps each machine's child rows (disks, partitions, network adapters, tags,
 * performance samples), folded by the format's asset mapping, until the machine is built.
 *
 * Small payloads fold into a Map. Large ones fold into a small in-memory window of recently used
 * accumulators in front of an anonymous SQLite database (a temp file SQLite deletes on close, its
 * page cache capped): child rows of one machine usually come together in a file, so most folds hit
 * the window, and an accumulator leaves it for the database (v8-serialised, exact for the plain
 * data accumulators hold) only when it has not been used for a while. Memory then stays flat
 * whatever the number of machines, in one pass over the files.
 */
import Database from 'better-sqlite3';
import { deserialize, serialize } from 'node:v8';
import { flat } from './util';

export interface ChildStore<C> {
  /** Folds into the accumulator of `ref`, made with `create` on first use. */
  fold(ref: string, create: () => C, fn: (acc: C) => void): void;
  /** The accumulator of `id`, removed from the store (each machine is built once), or undefined. */
  take(id: string): C | undefined;
  /** Releases the database, if any; idempotent. */
  close(): void;
}

/** A store for a join over `childBytes` of child source data. */
export function childStore<C>(childBytes: number, spillAboveBytes: number): ChildStore<C> {
  return childBytes > spillAboveBytes ? new SpilledChildStore<C>() : new MemoryChildStore<C>();
}

export class MemoryChildStore<C> implements ChildStore<C> {
  private readonly map = new Map<string, C>();

  fold(ref: string, create: () => C, fn: (acc: C) => void): void {
    let acc = this.map.get(ref);
    if (acc === undefined) {
      acc = create();
      this.map.set(flat(ref), acc);
    }
    fn(acc);
  }

  take(id: string): C | undefined {
    const acc = this.map.get(id);
    if (acc !== undefined) this.map.delete(id);
    return acc;
  }

  close(): void {
    this.map.clear();
  }
}

/** Accumulators kept in memory in front of the database. */
const WINDOW = 4096;

export class SpilledChildStore<C> implements ChildStore<C> {
  private db: Database.Database | undefined;
  private readonly select: Database.Statement<[string], { v: Buffer }>;
  private readonly upsert: Database.Statement<[string, Buffer]>;
  private readonly remove: Database.Statement<[string]>;
  /** Recently used accumulators, least recent first. */
  private readonly window = new Map<string, C>();
  /** Set when a write to the database failed: the window then grows instead. */
  private inMemoryOnly = false;

  constructor(private readonly windowSize = WINDOW) {
    // '' = an anonymous database in a temp file that SQLite removes when it is closed.
    const db = new Database('');
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -4096'); // KiB
    db.exec('CREATE TABLE c (k TEXT PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID');
    this.select = db.prepare('SELECT v FROM c WHERE k = ?');
    this.upsert = db.prepare('INSERT INTO c (k, v) VALUES (?, ?) ON CONFLICT (k) DO UPDATE SET v = excluded.v');
    this.remove = db.prepare('DELETE FROM c WHERE k = ?');
    // One transaction for the whole join: nothing is ever committed, the file goes with the handle.
    db.exec('BEGIN');
    this.db = db;
  }

  fold(ref: string, create: () => C, fn: (acc: C) => void): void {
    let acc = this.window.get(ref);
    if (acc !== undefined) {
      this.window.delete(ref);
    } else {
      // The database row, if any, is the latest version (an eviction writes it); it stays there,
      // outdated once the window changes it, until `take` removes it or the next eviction overwrites it.
      const row = this.select.get(ref);
      acc = row ? (deserialize(row.v) as C) : create();
    }
    this.window.set(ref, acc);
    fn(acc);
    if (this.window.size > this.windowSize) this.evictOldest();
  }

  take(id: string): C | undefined {
    const acc = this.window.get(id);
    if (acc !== undefined) {
      this.window.delete(id);
      this.forget(id);
      return acc;
    }
    const row = this.select.get(id);
    if (!row) return undefined;
    this.forget(id);
    return deserialize(row.v) as C;
  }

  /** Drops the database row of a taken key; a failed delete only leaves a row nobody reads again. */
  private forget(id: string): void {
    try {
      this.remove.run(id);
    } catch {
      // see above
    }
  }

  private evictOldest(): void {
    if (this.inMemoryOnly) return;
    const [key, acc] = this.window.entries().next().value as [string, C];
    try {
      this.upsert.run(key, serialize(acc));
    } catch {
      // The temp file cannot be written (no temp dir, disk full): keep everything in memory from
      // here on rather than fail the import; what was spilled before stays readable.
      this.inMemoryOnly = true;
      return;
    }
    this.window.delete(key);
  }

  close(): void {
    this.window.clear();
    if (!this.db) return;
    this.db.close();
    this.db = undefined;
  }
}
