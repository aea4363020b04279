/**
 * Watching a SQLite database's write lock from a test: another connection to the same file.
 */
import Database from 'better-sqlite3';

/**
 * Resolves once a connection other than this one holds the database's write lock (a transaction
 * open on it: `BEGIN IMMEDIATE` is refused busy), looking every 5 ms; throws after `withinMs`.
 */
export async function aWriterHoldsTheLock(file: string, withinMs = 30_000): Promise<void> {
  const db = new Database(file, { timeout: 0 });
  try {
    const deadline = Date.now() + withinMs;
    for (;;) {
      try {
        db.exec('BEGIN IMMEDIATE');
        db.exec('ROLLBACK');
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_BUSY') return;
        throw err;
      }
      if (Date.now() > deadline) throw new Error(`no writer opened its transaction within ${withinMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    db.close();
  }
}
