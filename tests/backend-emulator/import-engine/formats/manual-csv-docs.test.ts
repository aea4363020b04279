/** docs/formats/manual-csv.md stays in step with the definitions it documents. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { columnTable, DEFAULTS, listFormats } from '../../../../backend-emulator/import-engine';

const doc = fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'docs', 'formats', 'manual-csv.md'), 'utf8');
const manual = listFormats().find((f) => f.format === 'IMPORT_JOB_FORMAT_MANUAL_CSV')!;

test.each(manual.fileKinds.map((k) => [k.title, k]))('%s: the column table in the docs is the one generated from the definition', (_t, kind) => {
  expect(doc).toContain(columnTable(kind));
});

test('every rule is documented with its id and severity', () => {
  for (const kind of manual.fileKinds) for (const rule of kind.rules ?? []) expect(doc).toContain(`\`${rule.id}\` (${rule.severity}): ${rule.description}`);
});

test('the documented limits are the defaults', () => {
  expect(DEFAULTS.maxFileBytes).toBe(104_857_600);
  expect(doc).toContain('104,857,600 bytes');
  expect(DEFAULTS.maxRowErrorsPerFile).toBe(1000);
  expect(DEFAULTS.maxRowBytes).toBe(1024 * 1024);
  expect(DEFAULTS.sinkBatchSize).toBe(1000);
  expect(DEFAULTS.joinMemoryBytes).toBe(16 * 1024 * 1024);
});
