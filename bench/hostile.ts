/**
 * Hostile workbooks and CSV streams, timed and weighed: the figures the tests no longer assert (a
 * loaded machine moves them), so a regression in speed or memory still shows. The tests assert the
 * behaviour (refused before inflating, a few pieces held at a time: readers/xlsx-reader.test.ts,
 * import-engine/hostile.test.ts, reliability/hostile.test.ts); this prints how long and how much.
 */
import { Readable } from 'node:stream';
import { executeImport, validateImport, type Asset, type PayloadFile } from '../backend-emulator/import-engine';
import { createXlsxReader } from '../backend-emulator/import-engine/readers/xlsx';
import { bombPart, handWorkbook, inlineRow, sheetXml, vInfoXml } from '../support/xlsx-build';

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

/** Times `run` and weighs it: peak RSS and heap growth, sampled by `run` itself and every 10 ms. */
async function measureRun(name: string, run: (sample: () => void) => Promise<unknown>): Promise<Figure> {
  const before = process.memoryUsage();
  let rss = before.rss;
  let heap = before.heapUsed;
  const sample = () => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  const timer = setInterval(sample, 10);
  const t0 = performance.now();
  try {
    await run(sample);
  } finally {
    clearInterval(timer);
  }
  const seconds = (performance.now() - t0) / 1000;
  sample();
  return { name, seconds, rssGrowthMiB: (rss - before.rss) / 2 ** 20, heapGrowthMiB: (heap - before.heapUsed) / 2 ** 20 };
}

/** A workbook read by the XLSX reader alone, sampled at each event. */
function measure(name: string, buf: Buffer): Promise<Figure> {
  return measureRun(name, async (sample) => {
    for await (const _ev of createXlsxReader({ sheetOrder: [/.*/] })(once(buf), { fileName: `${name}.xlsx`, maxRowBytes: 1 << 20 })) sample();
  });
}

const CSV_FORMAT = 'IMPORT_JOB_FORMAT_MANUAL_CSV';
const VM_HEADER = 'MachineId,MachineName,PrimaryIPAddress,AllocatedProcessorCoreCount,MemoryGiB,OsName';
const vmRow = (id: string) => `${id},host-${id},10.0.0.1,2,4,Ubuntu`;

/** `head`, `count` times `unit`, then `tail`, produced lazily. */
function generated(head: string, unit: Buffer, count: number, tail = ''): PayloadFile {
  return {
    name: 'vmInfo.csv',
    open: () => {
      let i = -1;
      return new Readable({
        read() {
          if (i === -1) this.push(Buffer.from(head));
          else if (i < count) this.push(unit);
          else if (i === count) this.push(Buffer.from(tail));
          else this.push(null);
          i++;
        },
      });
    },
  };
}

const LAUGHS =
  '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
  '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]>';

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
    await measure(
      'XML entity expansion (billion laughs) in the sheet',
      handWorkbook([['vInfo', LAUGHS + sheetXml('<row r="1"><c r="A1" t="inlineStr"><is><t>&lol4;</t></is></c></row>').replace(/^<\?xml[^>]*>/, '')]]),
    ),
    await measure(
      'XML entity expansion in the shared strings',
      handWorkbook([['vInfo', vInfoXml([])]], {
        sharedStringsXml: `${LAUGHS}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&lol4;</t></si></sst>`,
      }),
    ),
    await measure('4 KiB of random bytes named .xlsx', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256))),
    await measureRun('a 50 MiB unquoted CSV field, skipped (executeImport)', () => {
      const sink = { write: (_assets: Asset[]) => undefined };
      return executeImport(
        CSV_FORMAT,
        [generated(`${VM_HEADER}\n${vmRow('vm-1')}\nvm-2,`, Buffer.alloc(64 * 1024, 'a'), 800, `,2,4\n${vmRow('vm-3')}\n`)],
        sink,
      );
    }),
    await measureRun('a CSV stream past the 100 MiB file limit (validateImport)', () =>
      validateImport(CSV_FORMAT, [generated(`${VM_HEADER}\nvm-1,"`, Buffer.alloc(1024 * 1024, 'z'), 101)]),
    ),
  ];
}

export function printHostileBench(figures: Figure[]): void {
  for (const f of figures) {
    console.log(`${f.name}: ${f.seconds.toFixed(2)} s, peak RSS +${f.rssGrowthMiB.toFixed(0)} MiB, heap +${f.heapGrowthMiB.toFixed(0)} MiB`);
  }
}
