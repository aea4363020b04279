/**
 * Hostile payloads, generated as streams (nothing big is committed): a field many times the row
 * limit, files over the size limit, broken streams, decoded text with replacement characters,
 * non-byte chunks. The same limits at their default sizes (a 50 MB field, a file past 100 MiB) are
 * in hostile.soak.test.ts.
 * "Streamed, not held" is asserted as a count of the stream's pieces still reachable after a full
 * collection (tests/support/reachability.ts), never as megabytes: the machine's load cannot move it.
 * How long these reads take and how much memory they use is measured by `npm run bench -- hostile`.
 */
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { executeImport, validateImport, type PayloadFile } from '../../../backend-emulator/import-engine';
import { memFile, MemorySink, VM_HEADER, vmRow } from '../../support/import-engine';
import { watchedStream } from '../../support/reachability';

const FORMAT = 'IMPORT_JOB_FORMAT_MANUAL_CSV';
const MB = 1024 * 1024;

describe('a field many times the row limit (maxRowBytes 256 KiB: a 5 MiB field)', () => {
  // The same rule as the 50 MB field under the default 1 MiB limit (hostile.soak.test.ts), at a
  // tenth of the bytes: what costs is the full collection of each check, not the bytes read.
  const unit = Buffer.alloc(64 * 1024, 'a');
  const count = 80; // 80 x 64 KiB = 5 MiB, 20 times the limit
  const maxRowBytes = 256 * 1024;

  test.each([
    ['quoted, with line breaks inside', `${VM_HEADER}\n${vmRow('vm-1')}\nvm-2,"`, Buffer.from('a'.repeat(64 * 1024 - 1) + '\n'), '",2,4\n'],
    ['unquoted, one line', `${VM_HEADER}\n${vmRow('vm-1')}\nvm-2,`, unit, ',2,4\n'],
  ])('%s: the row is skipped and reported, the next rows are read, the field is streamed, not held', async (_name, head, body, tail) => {
    const stream = watchedStream(head, () => body, count, `${tail}${vmRow('vm-3')}\n`, 20);
    const file: PayloadFile = { name: 'vmInfo.csv', open: stream.open };
    const sink = new MemorySink();
    const result = await executeImport(FORMAT, [file], sink, { maxRowBytes });
    expect(result.executionErrors).toEqual({
      jobErrors: [],
      fileValidations: [
        {
          fileName: 'vmInfo.csv',
          fileErrors: [],
          partialReport: false,
          rowErrors: [
            {
              rowNumber: 3,
              vmName: '',
              vmUuid: '',
              errors: [{ severity: 'ERROR', errorDetails: 'the row is longer than 256 KiB; it was skipped without being read' }],
              csvError: { rowNumber: 3 },
            },
          ],
        },
      ],
    });
    expect(sink.assets.map((a) => a.machineId)).toEqual(['vm-1', 'vm-3']);
    expect(result.totalRowsCount).toBe(2);
    // All 80 pieces were read, and at none of the four checks (one per 20 pieces, each a full
    // collection) were more than the row limit of them (4) plus a few held at once.
    expect(stream.pulled()).toBe(count);
    expect(stream.pieces.mostHeld).toBeLessThanOrEqual(maxRowBytes / (64 * 1024) + 4);
  });
});

describe('file size limit', () => {
  test('a stream longer than maxFileBytes is a file error; it is not read further', async () => {
    // The rule of the default 100 MiB limit (hostile.soak.test.ts) under an 8 MiB one: 16 pieces
    // of 1 MiB offered, reading stops at the 9th, the one that crosses the limit.
    const unit = Buffer.alloc(MB, 'z');
    const stream = watchedStream(`${VM_HEADER}\nvm-1,"`, () => unit, 16, '', 4);
    const result = await validateImport(FORMAT, [{ name: 'vmInfo.csv', open: stream.open }], { maxFileBytes: 8 * MB });
    expect(result.fileValidations[0].fileErrors).toEqual([
      { severity: 'ERROR', errorDetails: 'the file is larger than the 8 MiB limit for one file; reading stopped there' },
    ]);
    expect(stream.pulled()).toBeGreaterThanOrEqual(8);
    expect(stream.pulled()).toBeLessThanOrEqual(10);
    expect(stream.pieces.mostHeld).toBeLessThanOrEqual(4);
  });

  test('a file announcing a size over the limit is not opened', async () => {
    const file: PayloadFile = {
      name: 'vmInfo.csv',
      size: 100 * MB + 1,
      open: () => {
        throw new Error('must not be opened');
      },
    };
    const r = await validateImport(FORMAT, [file]);
    expect(r.fileValidations[0].fileErrors).toEqual([
      { severity: 'ERROR', errorDetails: 'the file is 104857601 bytes, larger than the 100 MiB limit for one file' },
    ]);
  });

  test('maxFileBytes is an option; the rows before the limit are checked', async () => {
    const content = `${VM_HEADER}\n${vmRow('vm-1')}\n${vmRow('vm-2')}\n${vmRow('vm-3')}\n`;
    const file = { ...memFile('vmInfo.csv', content), size: undefined };
    const r = await validateImport(FORMAT, [file], { maxFileBytes: content.length - 5 });
    expect(r.fileValidations[0].fileErrors).toEqual([
      { severity: 'ERROR', errorDetails: `the file is larger than the ${content.length - 5} bytes limit for one file; reading stopped there` },
    ]);
  });
});

describe('unreadable files never crash the engine', () => {
  test('open() throws: a file error, and the machine index counts as incomplete', async () => {
    const bad: PayloadFile = {
      name: 'vmInfo.csv',
      open: () => {
        throw new Error('EACCES: permission denied');
      },
    };
    const r = await validateImport(FORMAT, [bad, memFile('tagInfo.csv', 'MachineId,Key,Value\nvm-1,env,prod\n')]);
    expect(r.jobErrors).toEqual([]);
    expect(r.fileValidations).toEqual([
      {
        fileName: 'vmInfo.csv',
        fileErrors: [{ severity: 'ERROR', errorDetails: 'the file could not be opened: EACCES: permission denied' }],
        rowErrors: [],
        partialReport: false,
      },
      {
        fileName: 'tagInfo.csv',
        fileErrors: [{ severity: 'INFO', errorDetails: 'MachineId values were not checked against vmInfo.csv: vmInfo.csv could not be read completely' }],
        rowErrors: [],
        partialReport: false,
      },
    ]);
  });

  test('the stream fails half way: rows before are processed, then a file error', async () => {
    const file: PayloadFile = {
      name: 'vmInfo.csv',
      open: () =>
        new Readable({
          read() {
            this.push(`${VM_HEADER}\n${vmRow('vm-1')}\n`);
            this.destroy(new Error('connection reset'));
          },
        }),
    };
    const sink = new MemorySink();
    const r = await executeImport(FORMAT, [file], sink);
    expect(r.executionErrors.fileValidations[0].fileErrors).toEqual([{ severity: 'ERROR', errorDetails: 'the file could not be read: connection reset' }]);
    expect(sink.assets.map((a) => a.machineId)).toEqual(['vm-1']);
  });

  test('open() returns something that is not a stream', async () => {
    const file = { name: 'vmInfo.csv', open: () => 42 as unknown as Readable };
    const r = await validateImport(FORMAT, [file]);
    expect(r.fileValidations[0].fileErrors).toEqual([{ severity: 'ERROR', errorDetails: 'open() did not return a readable stream' }]);
  });

  test('a stream of objects instead of bytes', async () => {
    const file = { name: 'vmInfo.csv', open: () => Readable.from([{ not: 'bytes' }]) };
    const r = await validateImport(FORMAT, [file]);
    expect(r.fileValidations[0].fileErrors).toEqual([{ severity: 'ERROR', errorDetails: 'the file stream produced something other than bytes' }]);
  });

  test('text decoded upstream with replacement characters counts as invalid UTF-8', async () => {
    const file = { name: 'vmInfo.csv', open: () => Readable.from([`${VM_HEADER}\n`, `vm-1,caf\uFFFD,1,2\n`]) };
    const r = await validateImport(FORMAT, [file]);
    expect(r.fileValidations[0].fileErrors).toEqual([
      { severity: 'ERROR', errorDetails: 'the file is not valid UTF-8: it contains a replacement character (U+FFFD) at byte 313' },
    ]);
  });

  test('an old-style stream (not async-iterable) is wrapped', async () => {
    const file = {
      name: 'vmInfo.csv',
      open: () => {
        const e = Object.assign(new EventEmitter(), { pause: () => undefined, resume: () => undefined });
        setImmediate(() => {
          e.emit('data', Buffer.from(`${VM_HEADER}\n${vmRow('vm-1')}\n`));
          e.emit('end');
        });
        return e as unknown as NodeJS.ReadableStream;
      },
    };
    const sink = new MemorySink();
    const r = await executeImport(FORMAT, [file], sink);
    expect(r.executionErrors.fileValidations[0]).toEqual({ fileName: 'vmInfo.csv', fileErrors: [], rowErrors: [], partialReport: false });
    expect(sink.assets).toHaveLength(1);
  });
});

test('garbage payload entries (no name, hostile names) are reported, not thrown', async () => {
  const weird = [
    { name: undefined as unknown as string, open: () => Readable.from([]) },
    { name: `${'x'.repeat(10_000)}.csv`, open: () => Readable.from([]) },
  ];
  const r = await validateImport(FORMAT, weird);
  expect(r.fileValidations.map((f) => f.fileErrors[0].errorDetails.length < 400)).toEqual([true, true]);
  expect(r.jobErrors.map((e) => e.errorDetails)).toEqual(['vmInfo.csv is required in every Manual CSV import, and the payload has none']);
});
