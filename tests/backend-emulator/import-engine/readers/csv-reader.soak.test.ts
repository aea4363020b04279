/**
 * The CSV reader on a field larger than memory should ever hold: a soak test, run by `npm test`
 * and left out of `npm run test:quick`.
 */
import { csvReader } from '../../../../backend-emulator/import-engine/readers/csv';

// Full-scale work whose duration is the machine's load's (the XLSX sheet: 22 s on a quiet 2-core
// machine, past jest's 30 s default with another suite running): the test asserts what is held,
// never how long it takes.
jest.setTimeout(180_000);

/**
 * Streamed, not held, asserted without measuring memory (which the machine's load moves): the
 * pieces of a 600 MiB field are fresh buffers, and after every 32 of them a full collection shows
 * how many are still reachable from the reader; and a field held as one string would pass V8's
 * maximum string length (about 512 MiB) and fail the read.
 */
test('a 600 MiB field is skipped past holding at most a few pieces of it, never the field', async () => {
  const v8 = await import('v8');
  const vm = await import('vm');
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const PIECE = 1 << 20;
  const alive: Array<WeakRef<ArrayBuffer>> = [];
  let mostHeld = 0;
  async function* source(): AsyncGenerator<Buffer> {
    yield Buffer.from('MachineId,MachineName\nm-1,web-1\nm-2,"');
    for (let i = 0; i < 600; i++) {
      const piece = Buffer.allocUnsafeSlow(PIECE).fill('x');
      alive.push(new WeakRef(piece.buffer as ArrayBuffer));
      yield piece;
      if (i % 32 === 31) {
        // A macrotask turn first: WeakRef targets stay alive until the microtask queue drains.
        await new Promise((resolve) => setImmediate(resolve));
        gc();
        mostHeld = Math.max(mostHeld, alive.filter((r) => r.deref() !== undefined).length);
      }
    }
    yield Buffer.from('"\nm-3,web-3\n');
  }
  const out: unknown[] = [];
  for await (const ev of csvReader(source(), { fileName: 'vmInfo.csv', maxRowBytes: 1 << 20 })) {
    if (ev.type === 'table') out.push(['table', ev.headerRow, ev.header]);
    else if (ev.type === 'rows') ev.rows.forEach((cells, k) => out.push([ev.rowNumbers ? ev.rowNumbers[k] : ev.firstRow + k, cells]));
    else if (ev.type === 'rowIssue') out.push(['rowIssue', ev.rowNumber, ev.issue.errorDetails]);
    else out.push([ev.type, ev]);
  }
  expect(out).toEqual([
    ['table', 1, ['MachineId', 'MachineName']],
    [2, ['m-1', 'web-1']],
    ['rowIssue', 3, 'the row is longer than 1 MiB; it was skipped without being read'],
    [4, ['m-3', 'web-3']],
  ]);
  // The piece being read and the few before it that the reader's last batch still refers to.
  expect(mostHeld).toBeLessThanOrEqual(4);
});
