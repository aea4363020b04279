/**
 * The streaming XLSX reader on a sheet of the largest size Excel allows (1,048,576 rows, 50 MiB
 * of XML): a soak test, run by `npm test` and left out of `npm run test:quick`.
 */
import { createXlsxReader } from '../../../../backend-emulator/import-engine/readers/xlsx';
import type { CellValue } from '../../../../backend-emulator/import-engine';
import { watchInflation } from '../../../support/reachability';
import { handWorkbook, inlineRow, sheetXml } from '../../../../support/xlsx-build';

// Full-scale work whose duration is the machine's load's (the XLSX sheet: 22 s on a quiet 2-core
// machine, past jest's 30 s default with another suite running): the test asserts what is held,
// never how long it takes.
jest.setTimeout(180_000);

test('streams a sheet of 1,048,576 rows, all empty but the header and the last one, holding a few inflated pieces at a time', async () => {
  const parts: string[] = [inlineRow(1, ['VM', 'CPUs', 'Memory', 'VM ID'])];
  for (let r = 2; r < 1_048_576; r++) parts.push(`<row r="${r}" spans="1:4"><c r="A${r}" s="0"/><c r="B${r}" s="0"/></row>`);
  parts.push(inlineRow(1_048_576, ['last', 2, 2048, 'vm-last']));
  const xml = sheetXml(parts.join(''));
  parts.length = 0;
  const buf = handWorkbook([['vInfo', xml]]);
  expect(xml.length).toBeGreaterThan(50 * 1024 * 1024);
  const inflation = watchInflation();
  const reader = createXlsxReader({ sheetOrder: [/.*/] });
  const rows: Array<{ n: number; cells: CellValue[] }> = [];
  try {
    for await (const ev of reader(
      (async function* () {
        yield buf;
      })(),
      { fileName: 'big.xlsx', maxRowBytes: 1 << 20 },
    )) {
      if (ev.type === 'rows') ev.rows.forEach((cells, i) => rows.push({ n: ev.rowNumbers![i], cells }));
    }
  } finally {
    inflation.restore();
  }
  // Both passes inflate the 50 MiB sheet (hundreds of 256 KiB pieces); the reader holds a few.
  // Time and peak memory of this read are measured by `npm run bench` (bench/hostile.ts).
  expect(inflation.pieces.tracked).toBeGreaterThan(300);
  expect(inflation.pieces.mostHeld).toBeLessThanOrEqual(4);
  expect(rows).toEqual([{ n: 1_048_576, cells: ['last', 2, 2048, 'vm-last'] }]);
});
