/**
 * The streaming XLSX reader on its own: real workbooks (checked against exceljs as an oracle),
 * generated workbooks (property test), zip and XML edge cases, and hostile files: zip bombs,
 * entity expansion, formulas, merged header cells. A million empty rows: xlsx-reader.soak.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import {
  createXlsxReader,
  decodeEntities,
  excelSerialToDate,
  isDateFormat,
  readZipDirectory,
  DEFAULT_XLSX_LIMITS,
  XlsxWorkbook,
  XlsxError,
  type XlsxReaderOptions,
} from '../../../../backend-emulator/import-engine/readers/xlsx';
import type { CellValue, ReaderEvent } from '../../../../backend-emulator/import-engine';
import { FIXTURES } from '../../../support/import-formats';
import { propertyRuns } from '../../../support/property-runs';
import { watchInflation } from '../../../support/reachability';
import { bombPart, buildWorkbook, handWorkbook, inlineRow, sheetXml, vInfoXml, zip, type Cell } from '../../../../support/xlsx-build';

async function* once(b: Buffer): AsyncGenerator<Buffer> {
  yield b;
}

async function readAll(buf: Buffer, options: Partial<XlsxReaderOptions> = {}): Promise<ReaderEvent[]> {
  const reader = createXlsxReader({ sheetOrder: [/.*/], ...options });
  const out: ReaderEvent[] = [];
  for await (const ev of reader(once(buf), { fileName: 'book.xlsx', maxRowBytes: 1 << 20 })) out.push(ev);
  return out;
}

/** sheet -> rows (with row numbers), from the reader's events. */
function tables(events: ReaderEvent[]): Map<string, { header: CellValue[]; rows: Array<{ n: number; cells: CellValue[] }> }> {
  const out = new Map<string, { header: CellValue[]; rows: Array<{ n: number; cells: CellValue[] }> }>();
  let cur: { header: CellValue[]; rows: Array<{ n: number; cells: CellValue[] }> } | undefined;
  for (const ev of events) {
    if (ev.type === 'table') out.set(ev.sheet!, (cur = { header: ev.header, rows: [] }));
    if (ev.type === 'rows') ev.rows.forEach((cells, i) => cur!.rows.push({ n: ev.rowNumbers ? ev.rowNumbers[i] : ev.firstRow + i, cells }));
  }
  return out;
}

const fileIssues = (events: ReaderEvent[]) => events.filter((e): e is Extract<ReaderEvent, { type: 'fileIssue' }> => e.type === 'fileIssue');

function plain(v: unknown): CellValue {
  if (v === null || v === undefined) return undefined;
  if (v instanceof Date || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (typeof v === 'object' && v !== null && 'result' in v) return plain((v as { result: unknown }).result);
  if (typeof v === 'object' && v !== null && 'richText' in v) return (v as { richText: Array<{ text: string }> }).richText.map((r) => r.text).join('');
  return String(v);
}

/** exceljs' reading of a workbook, empty rows dropped, trailing empty cells trimmed. */
async function oracle(buf: Buffer): Promise<Map<string, Array<{ n: number; cells: CellValue[] }>>> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  const out = new Map<string, Array<{ n: number; cells: CellValue[] }>>();
  wb.eachSheet((ws) => {
    const rows: Array<{ n: number; cells: CellValue[] }> = [];
    ws.eachRow({ includeEmpty: false }, (row, n) => {
      const values = (row.values as unknown[]).slice(1).map(plain);
      while (
        values.length > 0 &&
        (values[values.length - 1] === undefined || (typeof values[values.length - 1] === 'string' && (values[values.length - 1] as string).trim() === ''))
      )
        values.pop();
      if (values.some((v) => v !== undefined && !(typeof v === 'string' && v.trim() === ''))) rows.push({ n, cells: values });
    });
    out.set(ws.name, rows);
  });
  return out;
}

function trimmed(cells: CellValue[]): CellValue[] {
  const c = cells.slice();
  while (c.length > 0 && (c[c.length - 1] === undefined || (typeof c[c.length - 1] === 'string' && (c[c.length - 1] as string).trim() === ''))) c.pop();
  return c.map((v) => (v === null ? undefined : v));
}

describe('real RVTools workbooks, against exceljs', () => {
  for (const file of ['SizingWorkshop-RVTools.xlsx', 'BillSampleNextRvtoolsFinal.xlsx']) {
    it(`reads every sheet of ${file} like exceljs does`, async () => {
      const buf = readFileSync(join(FIXTURES, 'rvtools', file));
      const mine = tables(await readAll(buf));
      const theirs = await oracle(buf);
      expect([...mine.keys()].sort()).toEqual([...theirs.keys()].sort());
      for (const [sheet, rows] of theirs) {
        const t = mine.get(sheet)!;
        const got = [
          { n: 1, cells: trimmed(t.header as CellValue[]).map((v) => (v === '' ? undefined : v)) },
          ...t.rows.map((r) => ({ n: r.n, cells: trimmed(r.cells) })),
        ];
        expect(got).toEqual(rows);
      }
    });
  }

  it('reads the same from a workbook, and from shared strings, spooled to temp files as from memory', async () => {
    for (const name of ['BillSampleNextRvtoolsFinal.xlsx', 'SizingWorkshop-RVTools.xlsx']) {
      const buf = readFileSync(join(FIXTURES, 'rvtools', name));
      const inMemory = await readAll(buf);
      expect(inMemory.filter((e) => e.type === 'rows').length).toBeGreaterThan(0);
      expect(await readAll(buf, { spoolAboveBytes: 1 })).toEqual(inMemory);
      expect(await readAll(buf, { limits: { spoolSharedStringsAboveBytes: 0 } })).toEqual(inMemory);
    }
  });

  it('reads the same from any split of the bytes into pieces (headers and parts straddling pieces)', async () => {
    const buf = readFileSync(join(FIXTURES, 'rvtools', 'BillSampleNextRvtoolsFinal.xlsx'));
    const whole = await readAll(buf);
    for (const size of [1, 997, 65_537]) {
      async function* split(): AsyncGenerator<Buffer> {
        for (let at = 0; at < buf.length; at += size) yield buf.subarray(at, at + size);
      }
      const reader = createXlsxReader({ sheetOrder: [/.*/] });
      const events: ReaderEvent[] = [];
      for await (const ev of reader(split(), { fileName: 'book.xlsx', maxRowBytes: 1 << 20 })) events.push(ev);
      expect(events).toEqual(whole);
    }
  });

  it('gives the sheet row numbers and skips the empty (styled) rows of the 3.x sample', async () => {
    const buf = readFileSync(join(FIXTURES, 'rvtools', 'SizingWorkshop-RVTools.xlsx'));
    const events = await readAll(buf, { sheetOrder: [/^vInfo$/] });
    const t = tables(events).get('vInfo')!;
    // 805 VMs on rows 2..806; rows 807..3504 are empty cells with styles.
    expect(t.rows).toHaveLength(805);
    expect(t.rows[0].n).toBe(2);
    expect(t.rows[804].n).toBe(806);
    expect(t.header).toEqual([
      'VM',
      'Powerstate',
      'Template',
      'CPUs',
      'Memory',
      'NICs',
      'Disks',
      'Provisioned MB',
      'In Use MB',
      'Datacenter',
      'Cluster',
      'Host',
      'OS according to the configuration file',
      'OS according to the VMware Tools',
    ]);
    expect(t.rows[0].cells).toEqual([
      'wadfs1',
      'poweredOn',
      'False',
      1,
      4096,
      1,
      1,
      86201,
      62420,
      'Datacenter1',
      'Cluster1',
      'bovmsp-04.customer.com',
      'Microsoft Windows Server 2008 R2 (64-bit)',
      'Microsoft Windows Server 2008 R2 (64-bit)',
    ]);
    expect(fileIssues(events).map((e) => e.issue)).toEqual([{ severity: 'INFO', errorDetails: 'sheets not read by this format: vPartition, vHost' }]);
  });
});

describe('generated workbooks (property: what exceljs writes, the reader reads back)', () => {
  const text = fc.stringMatching(/^[A-Za-z0-9 <>&"'\u00e9\u4e2d\u{1F600}_x.;,-]{1,12}$/u).filter((s) => s.trim() !== '');
  const cell: fc.Arbitrary<Cell> = fc.oneof(
    text,
    fc.integer({ min: -1e9, max: 1e9 }),
    fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
    fc.boolean(),
    fc.integer({ min: Date.UTC(1971, 0, 1) / 1000, max: Date.UTC(2090, 0, 1) / 1000 }).map((s) => new Date(s * 1000)),
    fc.constant(null),
  );
  it('round-trips strings (XML specials, unicode), numbers, booleans, dates and gaps', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }), async (rows) => {
        const header = ['A', 'B', 'C', 'D', 'E', 'F'];
        const buf = await buildWorkbook([{ name: 'S', rows: [header, ...rows] }]);
        const t = tables(await readAll(buf)).get('S')!;
        expect(t.header).toEqual(header);
        const expected = rows
          .map((r, i) => ({ n: i + 2, cells: trimmed(r.map((c) => (c === null ? undefined : (c as CellValue)))) }))
          .filter((r) => r.cells.length > 0);
        expect(t.rows.map((r) => ({ n: r.n, cells: trimmed(r.cells) }))).toEqual(expected);
      }),
      { numRuns: propertyRuns(40) },
    );
  });
});

describe('cells and XML details', () => {
  it('decodes entities and character references, and refuses any other entity', () => {
    expect(decodeEntities('a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos; &#233; &#x4E2D;', 'x')).toBe('a <b> & "c" \'d\' é 中');
    expect(() => decodeEntities('&lol9;', 'sheet')).toThrow(/undeclared entity/);
    expect(() => decodeEntities('&#0;', 'sheet')).toThrow(/invalid character reference/);
  });

  it('knows date formats from number formats', () => {
    expect(isDateFormat('yyyy-mm-dd hh:mm:ss')).toBe(true);
    expect(isDateFormat('[h]:mm')).toBe(true);
    expect(isDateFormat('#,##0.00')).toBe(false);
    expect(isDateFormat('0.00"days"')).toBe(false);
    expect(isDateFormat('[Red]#,##0')).toBe(false);
    expect(excelSerialToDate(45000.5, false).toISOString()).toBe('2023-03-15T12:00:00.000Z');
    expect(excelSerialToDate(0, true).toISOString()).toBe('1904-01-01T00:00:00.000Z');
  });

  it('keeps long shared strings exactly, a lone surrogate from an `_xD800_` escape included', async () => {
    const ss =
      '<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
      '<si><t>VM</t></si><si><t>abc_xD800_defghijklmnop</t></si><si><t>a long name, \u00e9t\u00e9 \u4e2d\u6587 \ud83d\ude00 and more</t></si></sst>';
    const rows = '<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>1</v></c></row><row r="3"><c r="A3" t="s"><v>2</v></c></row>';
    const t = tables(await readAll(handWorkbook([['S', sheetXml(rows)]], { sharedStringsXml: ss }))).get('S')!;
    expect(t.rows.map((r) => r.cells[0])).toEqual(['abc\ud800defghijklmnop', 'a long name, \u00e9t\u00e9 \u4e2d\u6587 \ud83d\ude00 and more']);
  });

  it('reads shared strings (rich runs, phonetic runs left out), inline strings, booleans, errors, ISO dates, `_x000D_` escapes', async () => {
    const ss =
      '<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
      '<si><t>VM</t></si><si><r><rPr><b/></rPr><t>we</t></r><r><t xml:space="preserve">b-01 </t></r></si>' +
      '<si><t>漢字</t><rPh sb="0" eb="2"><t>カンジ</t></rPh></si><si><t>line_x000D_break</t></si></sst>';
    const rows =
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>Flag</t></is></c><c r="C1" t="inlineStr"><is><t>When</t></is></c><c r="D1" t="inlineStr"><is><t>Err</t></is></c></row>' +
      '<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2" t="b"><v>1</v></c><c r="C2" t="d"><v>2024-01-31T13:30:00</v></c><c r="D2" t="e"><v>#N/A</v></c></row>' +
      '<row r="3"><c r="A3" t="s"><v>2</v></c><c r="B3" t="b"><v>0</v></c><c r="D3" t="s"><v>3</v></c></row>' +
      '<row r="4"><c r="A4" t="s"><v>99</v></c></row>';
    const events = await readAll(handWorkbook([['S', sheetXml(rows)]], { sharedStringsXml: ss }));
    const t = tables(events).get('S')!;
    expect(t.header).toEqual(['VM', 'Flag', 'When', 'Err']);
    expect(t.rows).toEqual([
      { n: 2, cells: ['web-01 ', true, new Date('2024-01-31T13:30:00Z'), undefined] },
      { n: 3, cells: ['漢字', false, undefined, 'line\rbreak'] },
    ]);
    const issues = events.flatMap((e) => (e.type === 'rows' ? (e.issues ?? []) : e.type === 'rowIssue' ? [{ rowNumber: e.rowNumber, issue: e.issue }] : []));
    expect(issues).toEqual([
      { rowNumber: 2, issue: { severity: 'WARNING', errorDetails: 'cell D2 holds the error value #N/A; it is read as empty' } },
      { rowNumber: 4, issue: { severity: 'ERROR', errorDetails: 'cell A4 refers to shared string 99, which the workbook does not hold' } },
    ]);
  });

  it('places cells by their reference, and counts cells and rows without references', async () => {
    const rows =
      '<row r="1"><c t="inlineStr"><is><t>a</t></is></c><c t="inlineStr"><is><t>b</t></is></c><c r="E1" t="inlineStr"><is><t>e</t></is></c></row>' +
      '<row><c><v>1</v></c><c r="D2"><v>4</v></c><c><v>5</v></c></row><row r="7"><c r="B7"><v>2</v></c></row>';
    const t = tables(await readAll(handWorkbook([['S', sheetXml(rows)]]))).get('S')!;
    expect(t.header).toEqual(['a', 'b', '', '', 'e']);
    expect(t.rows).toEqual([
      { n: 2, cells: [1, undefined, undefined, 4, 5] },
      { n: 7, cells: [undefined, 2, undefined, undefined, undefined] },
    ]);
  });

  it('reads namespace prefixes, CDATA and comments, and splits tokens across 64 KiB pieces', async () => {
    const filler = `<!-- ${'x'.repeat(70_000)} -->`;
    const xml =
      '<?xml version="1.0"?><x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>' +
      `<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t><![CDATA[<VM> & co]]></x:t></x:is></x:c></x:row>${filler}` +
      `<x:row r="2"><x:c r="A2" t="inlineStr"><x:is><x:t>${'é'.repeat(40_000)}&amp;</x:t></x:is></x:c></x:row>` +
      '</x:sheetData></x:worksheet>';
    const t = tables(await readAll(handWorkbook([['S', xml]]))).get('S')!;
    expect(t.header).toEqual(['<VM> & co']);
    expect(t.rows).toEqual([{ n: 2, cells: [`${'é'.repeat(40_000)}&`] }]);
  });

  it('reads the requested sheets in the requested order and names the others in one INFO', async () => {
    const buf = handWorkbook([
      ['vHost', sheetXml(inlineRow(1, ['Host']) + inlineRow(2, ['esx01']))],
      ['vDisk', sheetXml(inlineRow(1, ['VM']) + inlineRow(2, ['d']))],
      ['vInfo', vInfoXml([['a', 1, 1024, 'vm-1']])],
    ]);
    const events = await readAll(buf, { sheetOrder: [/^vinfo$/i, /^vdisk$/i] });
    expect(events.filter((e) => e.type === 'table').map((e) => (e as { sheet: string }).sheet)).toEqual(['vInfo', 'vDisk']);
    expect(fileIssues(events).map((e) => e.issue.errorDetails)).toEqual(['sheets not read by this format: vHost']);
  });

  it('skips the sheets a pass does not use when the context says so (proposed ReaderContext.tables)', async () => {
    const buf = handWorkbook([
      ['vInfo', vInfoXml([['a', 1, 1024, 'vm-1']])],
      ['vDisk', sheetXml(inlineRow(1, ['VM']) + inlineRow(2, ['d']))],
    ]);
    const reader = createXlsxReader({ sheetOrder: [/^vInfo$/, /^vDisk$/] });
    const events: ReaderEvent[] = [];
    const ctx = { fileName: 'x.xlsx', maxRowBytes: 1 << 20, tables: (sheet: string) => sheet === 'vDisk' };
    for await (const ev of reader(once(buf), ctx)) events.push(ev);
    expect(events.filter((e) => e.type === 'table').map((e) => (e as { sheet: string }).sheet)).toEqual(['vDisk']);
  });

  it('names a missing required sheet in a fatal file error', async () => {
    const buf = handWorkbook([['Sheet1', sheetXml(inlineRow(1, ['VM']))]]);
    const events = await readAll(buf, { requiredSheets: [{ test: /^vInfo$/i, name: 'vInfo' }] });
    expect(events).toEqual([
      { type: 'fileIssue', fatal: true, issue: { severity: 'ERROR', errorDetails: 'the workbook has no "vInfo" sheet; it is required (sheets: "Sheet1")' } },
    ]);
  });
});

describe('not a workbook, broken archives', () => {
  const fatalText = async (buf: Buffer) => {
    const events = await readAll(buf);
    const f = events.find((e) => e.type === 'fileIssue' && e.fatal) as Extract<ReaderEvent, { type: 'fileIssue' }> | undefined;
    return f?.issue;
  };
  it('refuses a CSV, a legacy .xls (or a password-protected workbook), an empty file', async () => {
    expect(await fatalText(Buffer.from('VM,CPUs\nweb,2\n'))).toEqual({
      severity: 'ERROR',
      errorDetails: 'the file is not an .xlsx workbook (not a zip archive)',
    });
    const ole = Buffer.alloc(512);
    Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(ole);
    expect((await fatalText(ole))!.errorDetails).toMatch(/legacy \.xls workbook or a password-protected workbook/);
    expect((await fatalText(Buffer.alloc(0)))!.errorDetails).toBe('the file is not an .xlsx workbook (not a zip archive)');
  });
  it('refuses a truncated archive, a zip without a workbook, an encrypted part, an unknown method, a CRC mismatch', async () => {
    const good = handWorkbook([['vInfo', vInfoXml([['a', 1, 1024, 'vm-1']])]]);
    expect((await fatalText(good.subarray(0, good.length - 30)))!.errorDetails).toMatch(/truncated or corrupt/);
    expect((await fatalText(zip([{ name: 'hello.txt', data: 'hi' }])))!.errorDetails).toBe('the archive is not a workbook: it has no xl/workbook.xml part');
    const parts = [{ name: 'x', data: 'x' }];
    expect((await fatalText(zip([...parts.map((p) => ({ ...p, flags: 1 }))])))!.errorDetails).toMatch(/is encrypted/);
    const sheet = vInfoXml([['a', 1, 1024, 'vm-1']]);
    const bz = handWorkbook([['vInfo', { name: '', data: sheet, method: 12 }]]);
    expect((await fatalText(bz))!.errorDetails).toBe(
      'sheet "vInfo": xl/worksheets/sheet1.xml uses zip compression method 12; only stored and deflated parts are supported',
    );
    const crc = handWorkbook([['vInfo', { name: '', data: sheet, crc32: 12345 }]]);
    expect((await fatalText(crc))!.errorDetails).toBe('sheet "vInfo": xl/worksheets/sheet1.xml fails its CRC-32 check: the archive is corrupt');
  });
  it('reads stored (uncompressed) parts', async () => {
    const buf = handWorkbook([['vInfo', { name: '', data: vInfoXml([['a', 1, 1024, 'vm-1']]), method: 0 }]]);
    expect(tables(await readAll(buf)).get('vInfo')!.rows).toEqual([{ n: 2, cells: ['a', 1, 1024, 'vm-1'] }]);
  });
  it('refuses overlapping entries and duplicated part names', () => {
    const buf = zip([
      { name: 'a', data: 'aaaa' },
      { name: 'A', data: 'bbbb' },
    ]);
    expect(() => readZipDirectory(buf, DEFAULT_XLSX_LIMITS)).toThrow(/holds the part A twice/);
  });
});

describe('hostile workbooks', () => {
  const GIB = 1024 * 1024 * 1024;
  const head =
    '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>VM</t></is></c></row>';
  const tail = '</sheetData></worksheet>';

  it('a tiny zip declaring a 3 GiB sheet: file error before inflating anything', async () => {
    const part = bombPart(head, 16, tail, 3 * GIB);
    const buf = handWorkbook([['vInfo', part]]);
    expect(buf.length).toBeLessThan(64 * 1024);
    const inflation = watchInflation();
    const events = await readAll(buf).finally(inflation.restore);
    // Refused on the declared size: the 16 MiB the part really holds are never inflated (the
    // few bytes inflated are the workbook's small XML parts).
    expect(inflation.inflatedBytes()).toBeLessThan(64 * 1024);
    expect(events).toEqual([
      {
        type: 'fileIssue',
        fatal: true,
        issue: {
          severity: 'ERROR',
          errorDetails: 'sheet "vInfo": xl/worksheets/sheet1.xml would inflate to 3221225472 bytes, more than the 1024 MiB accepted for one part (zip bomb?)',
        },
      },
    ]);
  });

  it('a zip bomb lying about its size (2 GiB of XML declared as 4 KiB): stopped one byte past the claim', async () => {
    const part = bombPart(head, 2048, tail, 4096);
    const buf = handWorkbook([['vInfo', part]]);
    expect(buf.length).toBeLessThan(3 * 1024 * 1024);
    const inflation = watchInflation();
    const events = await readAll(buf).finally(inflation.restore);
    // Stopped at the first 256 KiB piece past the claim: a few pieces of the 2 GiB, not more.
    expect(inflation.inflatedBytes()).toBeLessThan(4 * 1024 * 1024);
    expect(events).toEqual([
      {
        type: 'fileIssue',
        fatal: true,
        issue: {
          severity: 'ERROR',
          errorDetails:
            'sheet "vInfo": xl/worksheets/sheet1.xml inflates past the 4096 bytes its zip header declares: the archive is corrupt or hostile (zip bomb?)',
        },
      },
    ]);
  });

  it('caps the inflated bytes per part and in total (honest sizes, small caps)', async () => {
    const big = (mib: number) => sheetXml(inlineRow(1, ['VM', 'CPUs', 'Memory', 'VM ID']) + ' '.repeat(mib * 1024 * 1024));
    const perPart = await readAll(handWorkbook([['vInfo', big(3)]]), { limits: { maxEntryBytes: 2 * 1024 * 1024 } });
    expect((perPart[0] as { issue: { errorDetails: string } }).issue.errorDetails).toMatch(
      /^sheet "vInfo": xl\/worksheets\/sheet1\.xml would inflate to \d+ bytes, more than the 2 MiB accepted for one part \(zip bomb\?\)$/,
    );
    const total = await readAll(
      handWorkbook([
        ['vInfo', big(3)],
        ['vDisk', big(3)],
      ]),
      { limits: { maxEntryBytes: 4 * 1024 * 1024, maxTotalBytes: 5 * 1024 * 1024 } },
    );
    const last = total[total.length - 1] as Extract<ReaderEvent, { type: 'fileIssue' }>;
    expect(last).toEqual({
      type: 'fileIssue',
      fatal: true,
      issue: { severity: 'ERROR', errorDetails: 'sheet "vDisk": the workbook would inflate to more than the 5 MiB accepted in total (zip bomb?)' },
    });
  });

  it('refuses entity declarations (billion laughs) in a sheet, the shared strings or the workbook part', async () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
      '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>';
    const inSheet = await readAll(
      handWorkbook([['vInfo', laughs + sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>&lol3;</t></is></c></row>').replace(/^<\?xml[^>]*>/, '')]]),
    );
    expect(inSheet).toEqual([
      {
        type: 'fileIssue',
        fatal: true,
        issue: {
          severity: 'ERROR',
          errorDetails:
            'sheet "vInfo": xl/worksheets/sheet1.xml carries a DOCTYPE or other declaration (<!...>): document type and entity declarations are refused',
        },
      },
    ]);
    const ss = laughs + '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&lol3;</t></si></sst>';
    const inStrings = await readAll(handWorkbook([['vInfo', vInfoXml([])]], { sharedStringsXml: ss }));
    expect(inStrings).toEqual([
      {
        type: 'fileIssue',
        fatal: true,
        issue: {
          severity: 'ERROR',
          errorDetails: 'xl/sharedStrings.xml carries a DOCTYPE or other declaration (<!...>): document type and entity declarations are refused',
        },
      },
    ]);
    const wbXml = laughs + '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets/></workbook>';
    const inWorkbook = await readAll(handWorkbook([['vInfo', vInfoXml([])]], { workbookXml: wbXml }));
    expect((inWorkbook[0] as { issue: { errorDetails: string } }).issue.errorDetails).toBe(
      'xl/workbook.xml carries a DOCTYPE or other declaration (<!...>): document type and entity declarations are refused',
    );
    // An external entity reference without a declaration is refused too, never resolved.
    const ext = await readAll(handWorkbook([['vInfo', sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>&xxe;</t></is></c></row>')]]));
    expect((ext[0] as { issue: { errorDetails: string } }).issue.errorDetails).toBe(
      'sheet "vInfo": sheet "vInfo" uses an undeclared entity or a bare "&": entities are never expanded',
    );
  });

  it('refuses a row number past 1,048,576 and a cell past column XFD', async () => {
    const far = await readAll(handWorkbook([['S', sheetXml(inlineRow(1, ['VM']) + '<row r="1048577"><c r="A1048577"><v>1</v></c></row>')]]));
    expect((far[far.length - 1] as { issue: { errorDetails: string } }).issue.errorDetails).toBe('sheet "S": sheet "S" has an invalid row number "1048577"');
    const wide = await readAll(handWorkbook([['S', sheetXml('<row r="1"><c r="XFE1"><v>1</v></c></row>')]]));
    expect((wide[wide.length - 1] as { issue: { errorDetails: string } }).issue.errorDetails).toBe('sheet "S": sheet "S" has a cell beyond column XFD (row 1)');
  });

  it('bounds a text value and unfinished markup', async () => {
    const longText = await readAll(handWorkbook([['S', sheetXml(`<row r="1"><c r="A1" t="inlineStr"><is><t>${'a'.repeat(300_000)}</t></is></c></row>`)]]), {
      limits: { maxTokenChars: 100_000 },
    });
    expect((longText[0] as { issue: { errorDetails: string } }).issue.errorDetails).toBe(
      'sheet "S": sheet "S" holds a text value longer than 100000 characters',
    );
    const longTag = await readAll(handWorkbook([['S', sheetXml(`<row r="1" ${'x'.repeat(300_000)}></row>`)]]), { limits: { maxTokenChars: 100_000 } });
    expect((longTag[0] as { issue: { errorDetails: string } }).issue.errorDetails).toBe('sheet "S": sheet "S" holds markup longer than 100000 characters');
  });

  it('skips a row holding more text than maxRowBytes (ERROR), keeps the next rows', async () => {
    const big = 'x'.repeat(30_000);
    const rows = inlineRow(1, ['VM', 'Notes', 'More']) + inlineRow(2, ['a', big, big]) + inlineRow(3, ['b', 'short', 'ok']);
    const reader = createXlsxReader({ sheetOrder: [/.*/] });
    const events: ReaderEvent[] = [];
    for await (const ev of reader(once(handWorkbook([['S', sheetXml(rows)]])), { fileName: 'x.xlsx', maxRowBytes: 50_000 })) events.push(ev);
    expect(tables(events).get('S')!.rows).toEqual([{ n: 3, cells: ['b', 'short', 'ok'] }]);
    expect(events.filter((e) => e.type === 'rowIssue')).toEqual([
      { type: 'rowIssue', rowNumber: 2, issue: { severity: 'ERROR', errorDetails: 'the row holds more than 50000 characters of text; it is skipped' } },
    ]);
  });

  it('caps the shared strings part, which is held while the sheets are read', async () => {
    const ss = `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>${'s'.repeat(5000)}</t></si></sst>`;
    const events = await readAll(handWorkbook([['vInfo', vInfoXml([])]], { sharedStringsXml: ss }), { limits: { maxSharedStringsBytes: 4096 } });
    expect(events).toEqual([
      {
        type: 'fileIssue',
        fatal: true,
        issue: {
          severity: 'ERROR',
          errorDetails: `the shared strings part would inflate to ${ss.length} bytes, more than the 4096 bytes accepted (they are held while the sheets are read)`,
        },
      },
    ]);
  });

  it('gives a formula cell its cached value with a WARNING (one entry per row)', async () => {
    const buf = await buildWorkbook([
      {
        name: 'vInfo',
        rows: [
          ['VM', 'CPUs', 'Memory'],
          ['a', { formula: '1+1', result: 2 }, { formula: 'B2*1024', result: 2048 }],
          ['b', { formula: 'NOW()' }, 1024],
        ],
      },
    ]);
    const events = await readAll(buf);
    expect(tables(events).get('vInfo')!.rows).toEqual([
      { n: 2, cells: ['a', 2, 2048] },
      { n: 3, cells: ['b', undefined, 1024] },
    ]);
    const issues = events.flatMap((e) => (e.type === 'rows' ? (e.issues ?? []) : []));
    expect(issues).toEqual([
      {
        rowNumber: 2,
        issue: {
          severity: 'WARNING',
          errorDetails:
            'cell B2 holds a formula (=1+1); its cached value is used, the formula is not evaluated; cell C2 holds a formula (=B2*1024); its cached value is used, the formula is not evaluated',
        },
      },
      { rowNumber: 3, issue: { severity: 'WARNING', errorDetails: 'cell B3 holds a formula (=NOW()) without a cached value; it is read as empty' } },
    ]);
  });

  it('refuses merged header cells (file error, sheet not read) and warns about merged data cells', async () => {
    const buf = await buildWorkbook([
      {
        name: 'vInfo',
        rows: [
          ['VM', null, 'Memory'],
          ['a', 2, 1024],
        ],
        merges: ['A1:B1'],
      },
      {
        name: 'vDisk',
        rows: [
          ['VM', 'Capacity MiB'],
          ['a', 100],
          [null, 200],
        ],
        merges: ['A2:A3'],
      },
    ]);
    const events = await readAll(buf);
    expect(events.filter((e) => e.type === 'table').map((e) => (e as { sheet: string }).sheet)).toEqual(['vDisk']);
    expect(fileIssues(events).map((e) => e.issue)).toEqual([
      { severity: 'ERROR', errorDetails: 'sheet "vInfo": header row 1 has merged cells (A1:B1): each column needs its own header cell; the sheet is not read' },
      { severity: 'WARNING', errorDetails: 'sheet "vDisk": merged cells A2:A3: only the first cell of a merged range holds its value' },
    ]);
  });
});

describe('the workbook model', () => {
  it('opens the real sample: sheets in workbook order, no 1904 dates, 3 sheets', async () => {
    const wb = await XlsxWorkbook.open(readFileSync(join(FIXTURES, 'rvtools', 'SizingWorkshop-RVTools.xlsx')));
    expect(wb.sheets).toEqual([
      { name: 'vInfo', part: 'xl/worksheets/sheet1.xml', state: 'visible' },
      { name: 'vPartition', part: 'xl/worksheets/sheet2.xml', state: 'visible' },
      { name: 'vHost', part: 'xl/worksheets/sheet3.xml', state: 'visible' },
    ]);
    expect(wb.date1904).toBe(false);
  });
  it('XlsxError carries a code', () => {
    expect(() => readZipDirectory(Buffer.from('nope'), DEFAULT_XLSX_LIMITS)).toThrow(XlsxError);
    try {
      readZipDirectory(Buffer.from('nope'), DEFAULT_XLSX_LIMITS);
    } catch (e) {
      expect((e as XlsxError).code).toBe('NOT_A_WORKBOOK');
    }
  });
  it('zlib.crc32 is available (Node >= 20.15)', () => {
    expect(zlib.crc32('abc')).toBe(0x352441c2);
  });
});
