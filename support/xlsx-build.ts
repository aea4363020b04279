/**
 * Workbooks for the tests and benches: well-formed ones through exceljs, hostile ones by hand (a small zip
 * writer over node's zlib), so nothing large is committed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import Papa from 'papaparse';

/** The tests' fixture folders (read as data, not imported). */
const FIXTURES = join(__dirname, '..', 'tests', 'fixtures');

export type Cell = string | number | boolean | Date | null | { formula: string; result?: string | number } | undefined;

export interface SheetSpec {
  name: string;
  rows: Cell[][];
  merges?: string[];
  /** Write the sheet hidden. */
  hidden?: boolean;
}

/** A workbook written by exceljs (shared strings, styles, typed cells). */
export async function buildWorkbook(sheets: SheetSpec[]): Promise<Buffer> {
  // Loaded here, not at the top: exceljs takes seconds to load into a jest worker's module
  // registry, and most users of this module only need the hand-made zip writer below.
  const ExcelJS = (await import('exceljs')).default;
  const wb = new ExcelJS.Workbook();
  for (const s of sheets) {
    const ws = wb.addWorksheet(s.name, s.hidden ? { state: 'hidden' } : undefined);
    for (const row of s.rows) {
      const r = ws.addRow(row.map((c) => (c === undefined ? null : c)));
      row.forEach((c, i) => {
        if (c instanceof Date) r.getCell(i + 1).numFmt = 'yyyy-mm-dd hh:mm:ss';
      });
    }
    for (const m of s.merges ?? []) ws.mergeCells(m);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const NUMERIC = /^-?\d+(\.\d+)?$/;
const RV_DATE = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** A CSV text as exceljs would hold it in a workbook: numbers as numbers, RVTools dates as dates. */
export function typedRows(csvText: string): Cell[][] {
  const rows = Papa.parse<string[]>(csvText.replace(/\r\n$/, ''), { newline: '\r\n' }).data;
  return rows.map((row, i) =>
    row.map((v) => {
      if (i === 0 || v === '') return v === '' ? null : v;
      if (NUMERIC.test(v) && !/^0\d/.test(v)) return Number(v);
      const d = RV_DATE.exec(v);
      if (d) return new Date(Date.UTC(+d[1], +d[2] - 1, +d[3], +d[4], +d[5], +d[6]));
      return v;
    }),
  );
}

/** The RVTools CSV fixture tabs of `dir` as workbook sheets (`RVTools_tabvInfo.csv` -> `vInfo`). */
export function sheetsFromCsvFixture(dir: string): SheetSpec[] {
  const path = join(FIXTURES, dir);
  return readdirSync(path)
    .filter((n) => /^RVTools_tab\w+\.csv$/.test(n))
    .sort()
    .map((n) => ({ name: /^RVTools_tab(\w+)\.csv$/.exec(n)![1], rows: typedRows(readFileSync(join(path, n), 'utf8')) }));
}

// ---------------------------------------------------------------------------------------------
// A hand-made zip writer
// ---------------------------------------------------------------------------------------------

export interface ZipPart {
  name: string;
  data: Buffer | string;
  /** 0 stored, 8 deflated (default). */
  method?: number;
  /** Pre-compressed data (deflate raw) with the sizes to declare. */
  raw?: { compressed: Buffer; uncompressedSize: number; crc32: number };
  /** Overrides of what the headers declare. */
  declaredSize?: number;
  crc32?: number;
  flags?: number;
}

/** Builds a zip archive (local headers, central directory, end record; no Zip64). */
export function zip(parts: ZipPart[]): Buffer {
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name, 'utf8');
    const data = typeof p.data === 'string' ? Buffer.from(p.data, 'utf8') : p.data;
    const method = p.method ?? 8;
    let body: Buffer;
    let usize: number;
    let crc: number;
    if (p.raw) {
      body = p.raw.compressed;
      usize = p.raw.uncompressedSize;
      crc = p.raw.crc32;
    } else {
      body = method === 8 ? zlib.deflateRawSync(data) : data;
      usize = data.length;
      crc = zlib.crc32(data);
    }
    if (p.declaredSize !== undefined) usize = p.declaredSize;
    if (p.crc32 !== undefined) crc = p.crc32;
    const flags = (p.flags ?? 0) | 0x800;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(0, 10);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(usize >>> 0, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    chunks.push(local, name, body);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(flags, 8);
    cd.writeUInt16LE(method, 10);
    cd.writeUInt32LE(0, 12);
    cd.writeUInt32LE(crc >>> 0, 16);
    cd.writeUInt32LE(body.length, 20);
    cd.writeUInt32LE(usize >>> 0, 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    central.push(cd, name);
    offset += 30 + name.length + body.length;
  }
  const cdBuf = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cdBuf.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, cdBuf, end]);
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RNS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The parts around some sheets: content types, relationships, workbook. */
export function workbookParts(sheetNames: string[], opts: { sharedStrings?: boolean; workbookXml?: string } = {}): ZipPart[] {
  const rels = sheetNames.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${RNS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('');
  const ss = opts.sharedStrings ? `<Relationship Id="rIdS" Type="${RNS}/sharedStrings" Target="sharedStrings.xml"/>` : '';
  const sheets = sheetNames.map((n, i) => `<sheet name="${n}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
  return [
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    },
    {
      name: '_rels/.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RNS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      data: opts.workbookXml ?? `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${NS}" xmlns:r="${RNS}"><sheets>${sheets}</sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}${ss}</Relationships>`,
    },
  ];
}

/** Inline-string cells of one row: `<row r="n"><c r="A1" t="inlineStr"><is><t>..</t></is></c>...</row>`. */
export function inlineRow(n: number, values: Array<string | number>): string {
  const cells = values
    .map((v, i) => {
      const ref = `${String.fromCharCode(65 + i)}${n}`;
      return typeof v === 'number' ? `<c r="${ref}"><v>${v}</v></c>` : `<c r="${ref}" t="inlineStr"><is><t>${v}</t></is></c>`;
    })
    .join('');
  return `<row r="${n}">${cells}</row>`;
}

export function sheetXml(rowsXml: string, extra = ''): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="${NS}"><sheetData>${rowsXml}</sheetData>${extra}</worksheet>`;
}

/** A minimal vInfo sheet: header and rows of VM, CPUs, Memory, VM ID. */
export function vInfoXml(rows: Array<[string, number, number, string]>, extraRowsXml = ''): string {
  return sheetXml(inlineRow(1, ['VM', 'CPUs', 'Memory', 'VM ID']) + rows.map((r, i) => inlineRow(i + 2, r)).join('') + extraRowsXml);
}

/** A workbook by hand from sheet XML texts (name -> XML). */
export function handWorkbook(sheets: Array<[string, string | ZipPart]>, opts: { sharedStringsXml?: string; workbookXml?: string } = {}): Buffer {
  const parts = workbookParts(
    sheets.map(([n]) => n),
    { sharedStrings: opts.sharedStringsXml !== undefined, workbookXml: opts.workbookXml },
  );
  sheets.forEach(([, xml], i) => {
    const name = `xl/worksheets/sheet${i + 1}.xml`;
    parts.push(typeof xml === 'string' ? { name, data: xml } : { ...xml, name });
  });
  if (opts.sharedStringsXml !== undefined) parts.push({ name: 'xl/sharedStrings.xml', data: opts.sharedStringsXml });
  return zip(parts);
}

/**
 * A deflate stream inflating to `head` + `repeat` x 1 MiB of spaces + `tail` without ever holding
 * it: sync-flushed, self-contained segments can be concatenated. Declares `declaredSize`.
 */
export function bombPart(head: string, repeatMiB: number, tail: string, declaredSize: number): ZipPart {
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  const a = zlib.deflateRawSync(Buffer.from(head), flush);
  const mid = zlib.deflateRawSync(Buffer.alloc(1024 * 1024, 0x20), flush);
  const z = zlib.deflateRawSync(Buffer.from(tail));
  const compressed = Buffer.concat([a, ...Array.from({ length: repeatMiB }, () => mid), z]);
  return { name: '', data: '', raw: { compressed, uncompressedSize: declaredSize, crc32: 0 } };
}
