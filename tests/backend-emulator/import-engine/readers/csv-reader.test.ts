/**
 * The shared CSV reader: records, quoting, row numbers, chunk boundaries, limits.
 */
import { csvReader, RecordScanner, splitRecords, firstInvalidUtf8 } from '../../../../backend-emulator/import-engine/readers/csv';
import type { ReaderEvent } from '../../../../backend-emulator/import-engine';

async function* pieces(content: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < content.length; at += size) yield content.subarray(at, at + size);
}

/** Reader events flattened: rows become [rowNumber, cells]. */
export async function readAll(content: string | Buffer, chunk = 1 << 20, maxRowBytes = 1 << 20): Promise<Array<unknown>> {
  const buf = typeof content === 'string' ? Buffer.from(content) : content;
  const out: unknown[] = [];
  for await (const ev of csvReader(pieces(buf, chunk), { fileName: 'x.csv', maxRowBytes })) out.push(...flatten(ev));
  return out;
}

function flatten(ev: ReaderEvent): unknown[] {
  if (ev.type === 'rows') {
    const issues = ev.issues?.map((i) => ['issue', i.rowNumber, i.issue.errorDetails]) ?? [];
    return [...issues, ...ev.rows.map((cells, i) => [ev.rowNumbers ? ev.rowNumbers[i] : ev.firstRow + i, cells])];
  }
  if (ev.type === 'table') return [['table', ev.headerRow, ev.header]];
  if (ev.type === 'rowIssue') return [['rowIssue', ev.rowNumber, ev.issue.errorDetails]];
  return [['fileIssue', ev.fatal, ev.issue.errorDetails]];
}

const TRICKY = '\uFEFFa,b,c\r\n' + '1,"x, y","he said ""hi"""\r\n' + '\r\n' + '2,"multi\nline\r\ncell",z\n' + '3,,\n' + '4,"",""\n' + '5,é€😀,"last"';

const TRICKY_EVENTS = [
  ['table', 1, ['a', 'b', 'c\r']],
  [2, ['1', 'x, y', 'he said "hi"']],
  [3, ['\r']],
  [4, ['2', 'multi\nline\r\ncell', 'z']],
  [5, ['3', '', '']],
  [6, ['4', '', '']],
  [7, ['5', 'é€😀', 'last']],
];

describe('csvReader', () => {
  test('quotes, escaped quotes, multi-line cells, BOM, CRLF, empty lines, non-ASCII, no final newline', async () => {
    expect(await readAll(TRICKY)).toEqual(TRICKY_EVENTS);
  });

  test.each([1, 2, 3, 5, 7, 64])('the same events whatever the chunk size (%i bytes)', async (size) => {
    const events = await readAll(TRICKY, size);
    // A BOM split over several chunks reaches the header as U+FEFF; header matching strips it.
    const header = events[0] as [string, number, string[]];
    header[2][0] = header[2][0].replace(/^\uFEFF/, '');
    expect(events).toEqual(TRICKY_EVENTS);
  });

  test('leading empty lines: the header is the first non-empty row and keeps its row number', async () => {
    expect(await readAll('\n\r\na,b\n1,2\n')).toEqual([
      ['table', 3, ['a', 'b']],
      [4, ['1', '2']],
    ]);
  });

  test('a row longer than maxRowBytes is skipped and reported; the rows around keep their numbers', async () => {
    const long = 'x'.repeat(5000);
    const csv = `a,b\n1,2\n3,${long}\n4,"${long}\n${long}"\n5,6\n`;
    for (const chunk of [7, 1000, 1 << 20]) {
      expect(await readAll(csv, chunk, 1024)).toEqual([
        ['table', 1, ['a', 'b']],
        [2, ['1', '2']],
        ['rowIssue', 3, 'the row is longer than 1 KiB; it was skipped without being read'],
        ['rowIssue', 4, 'the row is longer than 1 KiB; it was skipped without being read'],
        [5, ['5', '6']],
      ]);
    }
  });

  test('a header longer than maxRowBytes ends the file', async () => {
    expect(await readAll(`${'h'.repeat(3000)}\n1\n`, 100, 1024)).toEqual([['fileIssue', true, 'the header row is longer than 1 KiB']]);
  });

  test('invalid UTF-8: rows before it are delivered, then a fatal file issue with row and byte offset', async () => {
    const buf = Buffer.concat([Buffer.from('a,b\n1,2\n3,'), Buffer.from([0xc3, 0x28]), Buffer.from('\n5,6\n')]);
    expect(await readAll(buf)).toEqual([
      ['table', 1, ['a', 'b']],
      [2, ['1', '2']],
      ['fileIssue', true, 'the file is not valid UTF-8: invalid bytes in row 3 (byte offset 10); save it as UTF-8'],
    ]);
  });

  test('empty file, BOM-only file, file of empty lines', async () => {
    const empty = [['fileIssue', true, 'the file is empty: it has no header row']];
    expect(await readAll('')).toEqual(empty);
    expect(await readAll('\uFEFF')).toEqual(empty);
    expect(await readAll('\n\n\r\n')).toEqual(empty);
  });

  test('CR-only line endings are refused', async () => {
    expect(await readAll('a,b\r1,2\r')).toEqual([
      ['fileIssue', true, 'the file uses CR-only line endings (classic Mac OS); save it with LF or CRLF line endings'],
    ]);
  });

  test('a quote inside an unquoted field is literal (papaparse rule), and does not swallow the next rows', async () => {
    expect(await readAll('a,b\n1,5" disk\n2,x\n')).toEqual([
      ['table', 1, ['a', 'b']],
      [2, ['1', '5" disk']],
      [3, ['2', 'x']],
    ]);
  });
});

describe('RecordScanner', () => {
  test('records come out whole whatever the piece boundaries, escaped quotes split across pieces included', () => {
    const text = Buffer.from('a,"b""\nc"\n"""",d\nlast');
    for (let size = 1; size <= text.length; size++) {
      const s = new RecordScanner(1 << 20);
      const data: string[] = [];
      for (let at = 0; at < text.length; at += size) {
        for (const seg of s.push(text.subarray(at, at + size))) if (seg.kind === 'data') data.push(seg.buf.toString());
      }
      for (const seg of s.end()) if (seg.kind === 'data') data.push(seg.buf.toString());
      expect(splitRecords(Buffer.from(data.join('')))).toEqual(splitRecords(text));
      expect(data.join('')).toBe(text.toString());
      expect(splitRecords(text).map(String)).toEqual(['a,"b""\nc"\n', '"""",d\n', 'last']);
    }
  });
});

test('firstInvalidUtf8 finds truncated, overlong and surrogate sequences', () => {
  expect(firstInvalidUtf8(Buffer.from('héllo'))).toBe(-1);
  expect(firstInvalidUtf8(Buffer.from([0x61, 0xe2, 0x82]))).toBe(1); // truncated
  expect(firstInvalidUtf8(Buffer.from([0x61, 0xc0, 0xaf]))).toBe(1); // overlong
  expect(firstInvalidUtf8(Buffer.from([0xed, 0xa0, 0x80]))).toBe(0); // surrogate
  expect(firstInvalidUtf8(Buffer.from([0x61, 0x62, 0xff]))).toBe(2);
});
