/**
 * Hostile workbooks, timed and weighed: the figures the tests no longer assert (a loaded machine
 * moves them), so a regression in speed or memory still shows. The tests assert the behaviour
 * (refused before inflating, a few pieces held at a time); this prints how long and how much.
 */
import { createXlsxReader } from '../backend-emulator/import-engine/readers/xlsx';
import { bombPart, handWorkbook, inlineRow, sheetXml } from '../support/xlsx-build';

const GIB = 1024 * 1024 * 1024;
const HEAD =
  '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>VM</t></is></c></row>';
const TAIL = '</sheetData></worksheet>';

interface Figure {
  name: string;
  seconds: number;
  rssGrowthMiB: number;
  heapGrowthMiB: number;
}

async function* once(b: Buffer): AsyncGenerator<Buffer> {
  yield b;
}

async function measure(name: string, buf: Buffer): Promise<Figure> {
  const before = process.memoryUsage();
  let rss = before.rss;
  let heap = before.heapUsed;
  const t0 = performance.now();
  for await (const _ev of createXlsxReader({ sheetOrder: [/.*/] })(once(buf), { fileName: `${name}.xlsx`, maxRowBytes: 1 << 20 })) {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  }
  const m = process.memoryUsage();
  return {
    name,
    seconds: (performance.now() - t0) / 1000,
    rssGrowthMiB: (Math.max(rss, m.rss) - before.rss) / 2 ** 20,
    heapGrowthMiB: (Math.max(heap, m.heapUsed) - before.heapUsed) / 2 ** 20,
  };
}

function millionRowSheet(): Buffer {
  const parts: string[] = [inlineRow(1, ['VM', 'CPUs', 'Memory', 'VM ID'])];
  for (let r = 2; r < 1_048_576; r++) parts.push(`<row r="${r}" spans="1:4"><c r="A${r}" s="0"/><c r="B${r}" s="0"/></row>`);
  parts.push(inlineRow(1_048_576, ['last', 2, 2048, 'vm-last']));
  return handWorkbook([['vInfo', sheetXml(parts.join(''))]]);
}

export async function runHostileBench(): Promise<Figure[]> {
  return [
    await measure('a 3 GiB sheet declared in a 16 MiB deflate stream', handWorkbook([['vInfo', bombPart(HEAD, 16, TAIL, 3 * GIB)]])),
    await measure('2 GiB of XML declared as 4 KiB', handWorkbook([['vInfo', bombPart(HEAD, 2048, TAIL, 4096)]])),
    await measure('1,048,576 rows, all empty but two (50 MiB of XML)', millionRowSheet()),
  ];
}

export function printHostileBench(figures: Figure[]): void {
  for (const f of figures) {
    console.log(`${f.name}: ${f.seconds.toFixed(2)} s, peak RSS +${f.rssGrowthMiB.toFixed(0)} MiB, heap +${f.heapGrowthMiB.toFixed(0)} MiB`);
  }
}
