/**
 * The import engine's limits at their default sizes (`npm test` runs this file; `test:quick` leaves
 * the soak files out): a 50 MB field under the 1 MiB row limit, a stream past the 100 MiB file
 * limit. The same rules under small limits are in hostile.test.ts.
 * "Streamed, not held" is asserted as a count of the stream's pieces still reachable after a full
 * collection (tests/support/reachability.ts), never as megabytes: the machine's load cannot move it.
 */
import { executeImport, validateImport, type PayloadFile } from '../../../backend-emulator/import-engine';
import { MemorySink, VM_HEADER, vmRow } from '../../support/import-engine';
import { watchedStream } from '../../support/reachability';

// A soak file's limit (CONTRIBUTING.md): 50 MiB and 100 MiB streamed on a loaded 2-core machine.
jest.setTimeout(300_000);

const FORMAT = 'IMPORT_JOB_FORMAT_MANUAL_CSV';
const MB = 1024 * 1024;
const SKIPPED = 'the row is longer than 1 MiB; it was skipped without being read';

describe('a 50 MB field', () => {
  const unit = Buffer.alloc(64 * 1024, 'a');
  const count = 800; // 800 x 64 KiB = 50 MiB

  test.each([
    ['quoted, with line breaks inside', `${VM_HEADER}\n${vmRow('vm-1')}\nvm-2,"`, Buffer.from('a'.repeat(64 * 1024 - 1) + '\n'), '",2,4\n'],
    ['unquoted, one line', `${VM_HEADER}\n${vmRow('vm-1')}\nvm-2,`, unit, ',2,4\n'],
  ])('%s: the row is skipped and reported, the next rows are read, the field is streamed, not held', async (_name, head, body, tail) => {
    const stream = watchedStream(head, () => body, count, `${tail}${vmRow('vm-3')}\n`, 100);
    const file: PayloadFile = { name: 'vmInfo.csv', open: stream.open };
    const sink = new MemorySink();
    const result = await executeImport(FORMAT, [file], sink);
    expect(result.executionErrors).toEqual({
      jobErrors: [],
      fileValidations: [
        {
          fileName: 'vmInfo.csv',
          fileErrors: [],
          partialReport: false,
          rowErrors: [{ rowNumber: 3, vmName: '', vmUuid: '', errors: [{ severity: 'ERROR', errorDetails: SKIPPED }], csvError: { rowNumber: 3 } }],
        },
      ],
    });
    expect(sink.assets.map((a) => a.machineId)).toEqual(['vm-1', 'vm-3']);
    expect(result.totalRowsCount).toBe(2);
    // All 800 pieces of 64 KiB were read, and at none of the eight checks (one per 100 pieces: each
    // is a full collection) were more than the 1 MiB row limit of them (16)
    // plus a few were held at once: the 50 MiB field streamed past, it was not kept.
    expect(stream.pulled()).toBe(count);
    expect(stream.pieces.mostHeld).toBeLessThanOrEqual(MB / (64 * 1024) + 4);
  });
});

describe('file size limit', () => {
  test('a stream longer than maxFileBytes (default 100 MiB) is a file error; it is not read further', async () => {
    // An unterminated quoted field: the scanner skips it cheaply, so the test is about the limit.
    // 200 pieces of 1 MiB offered: reading stops at the 101st, the one that crosses the limit.
    const unit = Buffer.alloc(MB, 'z');
    const stream = watchedStream(`${VM_HEADER}\nvm-1,"`, () => unit, 200);
    const result = await validateImport(FORMAT, [{ name: 'vmInfo.csv', open: stream.open }]);
    expect(result.fileValidations[0].fileErrors).toEqual([
      { severity: 'ERROR', errorDetails: 'the file is larger than the 100 MiB limit for one file; reading stopped there' },
    ]);
    expect(stream.pulled()).toBeGreaterThanOrEqual(100);
    expect(stream.pulled()).toBeLessThanOrEqual(102);
    expect(stream.pieces.mostHeld).toBeLessThanOrEqual(4);
  });
});
