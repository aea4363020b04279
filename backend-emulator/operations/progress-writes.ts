/**
 * The progress writes of one Operation's background work (its `metadata.statusMessage`), made
 * without blocking the thread that answers requests.
 *
 * A run on a file-backed store is written by a writer thread on a second connection, which holds
 * SQLite's lock for a group of batches at a time (tens of ms on a loaded machine, more on a slow
 * disk). A progress write made then would block this thread until that group commits, and every
 * request behind it with it: the Operation's polls during a 100,000-row inline `:run` waited up to
 * 155 ms. So a progress write goes through `Store.backgroundWrite`: at once when no other write
 * is under way (as before), else once it has committed; and its commit does not wait for the disk
 * (a crash may lose the last message written; restart recovery ends the Operation anyway). The
 * changes asked for meanwhile are merged and written together, in order, so the last message
 * asked for is the one written. `settle` writes what still waits at once, before the
 * Operation's end is written.
 */
import type { Store } from '../store/store';

export class ProgressWrites {
  /** Metadata changes asked for and not yet written, merged in the order asked. */
  private waiting?: Record<string, unknown>;
  /** Whether a write is queued with the store (it writes whatever `waiting` holds then). */
  private queued = false;

  /** `apply` writes a change into the Operation's metadata in the store (a transaction of its own). */
  constructor(
    private readonly store: Store,
    private readonly apply: (change: Record<string, unknown>) => void,
  ) {}

  /** Writes `change` (merged over any change still waiting) as soon as no other write is under way. */
  write(change: Record<string, unknown>): void {
    this.waiting = { ...this.waiting, ...change };
    if (this.queued) return;
    this.queued = true;
    void this.store
      .backgroundWrite(() => {
        this.queued = false;
        this.settle();
      })
      .catch(() => {
        this.queued = false;
      });
  }

  /** Writes the change still waiting, if any, now (waiting for the store's lock if it must). */
  settle(): void {
    const change = this.waiting;
    this.waiting = undefined;
    if (change) this.apply(change);
  }
}
