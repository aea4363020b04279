/**
 * Property-based tests (fast-check): whatever the bytes, the engine answers with a report and never
 * throws; and any table written as proper CSV reads back cell for cell, whatever the chunking.
 */
import fc from 'fast-check';
import { Readable } from 'node:stream';
import { executeImport, validateImport } from '../../../backend-emulator/import-engine';
import { csvReader } from '../../../backend-emulator/import-engine/readers/csv';
import { validate as validateSchema } from '../../../schemas';
import { MemorySink, VM_HEADER } from '../../support/import-engine';
import { chunkedFile } from '../../support/payload-files';
import { propertyRuns } from '../../support/property-runs';

const FORMAT = 'IMPORT_JOB_FORMAT_MANUAL_CSV';
const RUNS = propertyRuns(150);

/** Characters that stress CSV: separators, quotes, line breaks, BOM, multi-byte, formula starters. */
const cellChar = fc.constantFrom(',', '"', '\n', '\r', ' ', 'a', 'Z', '0', '9', '.', '-', '=', '@', '+', ';', ':', '\uFEFF', 'é', '€', '😀', '\t', '\u0000');
const cell = fc.string({ unit: cellChar, maxLength: 12 });
const table = fc.array(fc.array(cell, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 12 });

function toCsv(rows: string[][], newline: string): string {
  const q = (s: string) => (/[",\r\n]/.test(s) || s === '' ? `"${s.replace(/"/g, '""')}"` : s);
  return rows.map((r) => r.map(q).join(',')).join(newline) + newline;
}

describe('never throws', () => {
  test('random bytes as any of the four files: a schema-valid report, no exception', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('vmInfo.csv', 'perfInfo.csv', 'diskInfo.csv', 'tagInfo.csv'),
        fc.uint8Array({ maxLength: 2000 }),
        fc.array(fc.nat(), { maxLength: 5 }),
        async (name, bytes, cuts) => {
          const files = [chunkedFile(name, bytes, cuts)];
          if (name !== 'vmInfo.csv') files.push(chunkedFile('vmInfo.csv', Buffer.from(`${VM_HEADER}\nvm-1,a,,,,,,,,1,1\n`), []));
          const report = await validateImport(FORMAT, files, { maxRowBytes: 256 });
          expect(validateSchema('ValidationReport', report)).toEqual([]);
          const exec = await executeImport(FORMAT, files, new MemorySink(), { maxRowBytes: 256 });
          expect(validateSchema('ExecutionReport', exec)).toEqual([]);
        },
      ),
      { numRuns: RUNS },
    );
  });

  test('random rows under the real vmInfo.csv header: a report, and every asset has a machine id', async () => {
    await fc.assert(
      fc.asyncProperty(table, fc.constantFrom('\n', '\r\n'), fc.array(fc.nat(), { maxLength: 4 }), async (rows, nl, cuts) => {
        const csv = `${VM_HEADER}${nl}${toCsv(rows, nl)}`;
        const file = chunkedFile('vmInfo.csv', Buffer.from(csv), cuts);
        const report = await validateImport(FORMAT, [file]);
        expect(validateSchema('ValidationReport', report)).toEqual([]);
        const sink = new MemorySink();
        const exec = await executeImport(FORMAT, [file], sink);
        expect(sink.assets.every((a) => typeof a.machineId === 'string' && a.machineId.length > 0)).toBe(true);
        expect(exec.framesReported).toBe(sink.assets.length);
      }),
      { numRuns: RUNS },
    );
  });
});

test('round trip: any table written as CSV reads back cell for cell, whatever the chunking', async () => {
  await fc.assert(
    fc.asyncProperty(table, fc.constantFrom('\n', '\r\n'), fc.array(fc.nat(), { maxLength: 6 }), async (rows, nl, cuts) => {
      // The header must not be blank (a blank first row is skipped as an empty line).
      const all = [['h1', 'h2'], ...rows];
      const bytes = Buffer.from(toCsv(all, nl));
      const file = chunkedFile('t.csv', bytes, cuts);
      const got: string[][] = [];
      const numbers: number[] = [];
      async function* source() {
        for await (const c of file.open() as Readable) yield c as Buffer;
      }
      for await (const ev of csvReader(source(), { fileName: 't.csv', maxRowBytes: 1 << 20 })) {
        if (ev.type === 'table') got.push(ev.header as string[]);
        if (ev.type === 'rows') {
          ev.rows.forEach((r, i) => {
            got.push(r as string[]);
            numbers.push(ev.firstRow + i);
          });
        }
        expect(ev.type === 'fileIssue' || ev.type === 'rowIssue').toBe(false);
      }
      // Cells are delivered raw; the last cell of an unquoted CRLF row keeps its "\r" (trimmed later by the templates).
      const strip = (r: string[]) => r.map((c, i) => (nl === '\r\n' && i === r.length - 1 ? c.replace(/\r$/, '') : c));
      expect(got.map(strip)).toEqual(all.map(strip));
      expect(numbers).toEqual(rows.map((_, i) => i + 2));
    }),
    { numRuns: RUNS * 2 },
  );
});
