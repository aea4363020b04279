/**
 * The shared cells through which a second connection (a run's writer thread) tells the first
 * (the request thread) that one of its writes is under way (sqlite-store.ts, `backgroundWrite`).
 *
 * One cell per second connection, lent by the first connection and given back when the thread
 * that wrote through it has ended: a single on/off cell was wrong in two ways. Two runs writing at
 * once cleared each other's mark (the first to commit said "nobody writes" while the other still
 * did), and a thread terminated in the middle of a write (its `finally` does not run) left the
 * mark set until another run's writer wrote, so that every progress write meanwhile waited out
 * its whole timeout. A cell given back is cleared, whatever its thread left in it.
 */

/** How many second connections can mark their writes at once; one more writes unmarked (see `lend`). */
export const WRITER_CELLS = 32;

/** A new, cleared set of cells, to be shared with the threads of second connections. */
export function newWriterCells(): SharedArrayBuffer {
  return new SharedArrayBuffer(WRITER_CELLS * Int32Array.BYTES_PER_ELEMENT);
}

/** Atomics.waitAsync (Node 16 on), typed here: TypeScript has it from its ES2024 library, after the project's ES2022. */
export const waitAsync = (
  Atomics as unknown as {
    waitAsync(cells: Int32Array, index: number, value: number, timeoutMs: number): { async: false } | { async: true; value: Promise<string> };
  }
).waitAsync.bind(Atomics);

/** The first connection's side: lends cells, and waits for the marked writes to end. */
export class WriterCellLender {
  private readonly cells: Int32Array;
  private readonly lent = new Set<number>();

  constructor(buffer: SharedArrayBuffer) {
    this.cells = new Int32Array(buffer);
  }

  /**
   * A free cell, cleared; undefined when all are lent (its connection then writes unmarked: a
   * background write may wait for it in SQLite's busy handler, as any other write does).
   */
  lend(): number | undefined {
    for (let cell = 0; cell < WRITER_CELLS; cell++) {
      if (this.lent.has(cell)) continue;
      this.lent.add(cell);
      this.clear(cell);
      return cell;
    }
    return undefined;
  }

  /** Takes a cell back once its thread has ended, and clears what that thread left in it. */
  giveBack(cell: number): void {
    if (!this.lent.delete(cell)) return;
    this.clear(cell);
  }

  /** Whether a lent cell is marked: a second connection writes, or was stopped in a write. */
  anyWriting(): boolean {
    for (const cell of this.lent) if (Atomics.load(this.cells, cell) !== 0) return true;
    return false;
  }

  /**
   * Resolves when no cell is marked, or once `timeoutMs` has passed (a thread may be stopped in a
   * write and its cell not yet given back); the thread is free meanwhile.
   */
  async untilNoneWriting(timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    for (const cell of this.lent) {
      for (let left = timeoutMs; left > 0; left = deadline - performance.now()) {
        const wait = waitAsync(this.cells, cell, 1, left);
        if (!wait.async) break;
        await wait.value;
      }
    }
  }

  private clear(cell: number): void {
    Atomics.store(this.cells, cell, 0);
    Atomics.notify(this.cells, cell);
  }
}

/** A second connection's side: its one cell, marked while it writes. */
export class WriterCell {
  private readonly cells: Int32Array;

  constructor(
    buffer: SharedArrayBuffer,
    private readonly cell: number,
  ) {
    this.cells = new Int32Array(buffer);
  }

  mark(): void {
    Atomics.store(this.cells, this.cell, 1);
  }

  unmark(): void {
    Atomics.store(this.cells, this.cell, 0);
    Atomics.notify(this.cells, this.cell);
  }
}
