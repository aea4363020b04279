/**
 * The turn between second connections (runs' writer threads): one writes at a time, and the one
 * that ends its write hands the turn to the next that waits, in the order of their cells, so that
 * none starves.
 *
 * Without it, SQLite's lock decided: a writer waiting for another's transaction polls in SQLite's
 * busy handler (sleeps of up to 100 ms), and a run's writer holds a transaction across batches
 * (run-writer-worker.ts), committing and beginning again in the same turn of its event loop when
 * it has batches queued. The waiting run got the lock only when a poll fell in a gap of the other's
 * (a stretch with no transaction open): on a loaded machine it waited 0.3 to 2.2 s, but nothing
 * bounded the wait, which fails with SQLITE_BUSY (its job FAILED) past the busy timeout, 60 s. An
 * idle holder kept the lock until its hold's time limit.
 *
 * Each second connection that writes has a cell (writer-cells.ts, lent by the first connection and
 * given back when its thread has ended). The shared cells here: whether each cell is lent, whether
 * its connection waits for the turn, and the turn itself (0: free; else the holder's cell + 1).
 * A cell given back leaves the turn, and is never handed it again: a thread terminated while it held
 * the turn, or waited for it, blocks nobody.
 */
import { WRITER_CELLS } from './writer-cells';

const LENT = 0;
const WAITING = WRITER_CELLS;
const TURN = 2 * WRITER_CELLS;

/** A new set of turn cells (nothing lent, the turn free), shared with the threads of second connections. */
export function newWriterTurn(): SharedArrayBuffer {
  return new SharedArrayBuffer((2 * WRITER_CELLS + 1) * Int32Array.BYTES_PER_ELEMENT);
}

/** Whether the connection of `cell` waits for the turn (tests). */
export function waitsForTurn(buffer: SharedArrayBuffer, cell: number): boolean {
  return Atomics.load(new Int32Array(buffer), WAITING + cell) !== 0;
}

/** Whether `cell` is lent and its connection waits for the turn. */
function waiting(cells: Int32Array, cell: number): boolean {
  return Atomics.load(cells, WAITING + cell) !== 0 && Atomics.load(cells, LENT + cell) !== 0;
}

/**
 * Hands the turn on from `from`'s cell, if it holds it: to the next lent cell after it that waits,
 * or frees it. A cell handed the turn that was given back meanwhile (its thread ended as it waited)
 * is passed over at once: either its giving back sees the turn is its own, or this sees it given back.
 */
function handOn(cells: Int32Array, from: number): void {
  let holder = from;
  for (;;) {
    let next = -1;
    for (let step = 1; step < WRITER_CELLS; step++) {
      const cell = (holder + step) % WRITER_CELLS;
      if (waiting(cells, cell)) {
        next = cell;
        break;
      }
    }
    if (Atomics.compareExchange(cells, TURN, holder + 1, next + 1) !== holder + 1) return;
    Atomics.notify(cells, TURN);
    if (next < 0 || Atomics.load(cells, LENT + next) !== 0) return;
    holder = next;
  }
}

/** The first connection's side: marks cells lent, and takes a cell's turn back when its thread has ended. */
export class WriterTurnLender {
  private readonly cells: Int32Array;

  constructor(buffer: SharedArrayBuffer) {
    this.cells = new Int32Array(buffer);
  }

  lend(cell: number): void {
    Atomics.store(this.cells, WAITING + cell, 0);
    Atomics.store(this.cells, LENT + cell, 1);
  }

  giveBack(cell: number): void {
    Atomics.store(this.cells, LENT + cell, 0);
    Atomics.store(this.cells, WAITING + cell, 0);
    handOn(this.cells, cell);
  }
}

/** A second connection's side: its cell's place in the turn. */
export class WriterTurn {
  private readonly cells: Int32Array;
  private holding = false;

  constructor(
    buffer: SharedArrayBuffer,
    private readonly cell: number,
  ) {
    this.cells = new Int32Array(buffer);
  }

  /**
   * Waits (blocking the thread, as SQLite's busy handler would) until this connection has the turn,
   * or `timeoutMs` has passed (then SQLite's lock decides, as without a turn). `onWait` is called once
   * if another holds it: that holder is to be told (sqlite-store.ts wakes an idle holder with it).
   */
  take(timeoutMs: number, onWait: () => void): void {
    if (this.holding) return;
    const { cells, cell } = this;
    Atomics.store(cells, WAITING + cell, 1);
    const deadline = performance.now() + timeoutMs;
    let told = false;
    try {
      for (;;) {
        const holder = Atomics.load(cells, TURN);
        if (holder === cell + 1 || (holder === 0 && Atomics.compareExchange(cells, TURN, 0, cell + 1) === 0)) {
          this.holding = true;
          return;
        }
        if (holder === 0) continue;
        if (!told) {
          told = true;
          onWait();
        }
        const left = deadline - performance.now();
        if (left <= 0) return;
        Atomics.wait(cells, TURN, holder, left);
      }
    } finally {
      Atomics.store(cells, WAITING + cell, 0);
    }
  }

  /** Ends this connection's turn: the next waiting connection has it. */
  pass(): void {
    if (!this.holding) return;
    this.holding = false;
    handOn(this.cells, this.cell);
  }

  /** Another second connection waits for the turn (this one's holder is to end its transaction soon). */
  get othersWaiting(): boolean {
    for (let cell = 0; cell < WRITER_CELLS; cell++) if (cell !== this.cell && waiting(this.cells, cell)) return true;
    return false;
  }
}
