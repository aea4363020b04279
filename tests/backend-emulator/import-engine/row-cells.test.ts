/** readRowCells: a report's row read back from the payload, by file name, sheet and row number. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRowCells, validateImport } from '../../../backend-emulator/import-engine';
import { aws141Zip } from '../../support/cloud-zips';
import { FIXTURES } from '../../support/import-formats';
import { bufferFile } from '../../support/payload-files';

const WORKBOOK = readFileSync(join(FIXTURES, 'rvtools', 'BillSampleNextRvtoolsFinal.xlsx'));

const cell = (row: { header: string[]; cells: unknown[] } | undefined, column: string) => row?.cells[row.header.indexOf(column)];

test('a workbook row by sheet and row number; another sheet of the same row number is another row', async () => {
  const files = [bufferFile('inventory.xlsx', WORKBOOK)];
  const vInfo = await readRowCells('IMPORT_JOB_FORMAT_RVTOOLS_XLSX', files, { fileName: 'inventory.xlsx', sheet: 'vInfo', rowNumber: 2 });
  expect(vInfo?.header).toContain('VM');
  expect(typeof cell(vInfo, 'VM')).toBe('string');
  const vDisk = await readRowCells('IMPORT_JOB_FORMAT_RVTOOLS_XLSX', files, { fileName: 'inventory.xlsx', sheet: 'vDisk', rowNumber: 2 });
  expect(vDisk?.header).toContain('Capacity MB');
  expect(await readRowCells('IMPORT_JOB_FORMAT_RVTOOLS_XLSX', files, { fileName: 'inventory.xlsx', sheet: 'NoSuchSheet', rowNumber: 2 })).toBeUndefined();
});

test('an entry of a collection script zip, named as its report names it', async () => {
  const zip = aws141Zip();
  const files = [bufferFile(zip.name, zip.data)];
  const report = await validateImport('IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV', files);
  const vmFile = report.fileValidations.find((f) => f.fileName.endsWith('vmInfo.csv'))!;
  expect(vmFile.fileName).toContain(zip.name);
  const row = await readRowCells('IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV', files, { fileName: vmFile.fileName, rowNumber: 2 });
  expect(row?.header[0]).toBe('MachineId');
  expect(cell(row, 'MachineId')).toMatch(/\S/);
});

test('a name, format or row that is not there is undefined, never an error', async () => {
  const files = [bufferFile('vmInfo.csv', 'MachineId,MachineName\nm-1,web-1\n')];
  expect(await readRowCells('IMPORT_JOB_FORMAT_MANUAL_CSV', files, { fileName: 'vmInfo.csv', rowNumber: 2 })).toEqual({
    header: ['MachineId', 'MachineName'],
    cells: ['m-1', 'web-1'],
  });
  expect(await readRowCells('IMPORT_JOB_FORMAT_MANUAL_CSV', files, { fileName: 'vmInfo.csv', rowNumber: 3 })).toBeUndefined();
  expect(await readRowCells('IMPORT_JOB_FORMAT_MANUAL_CSV', files, { fileName: 'other.csv', rowNumber: 2 })).toBeUndefined();
  expect(await readRowCells('IMPORT_JOB_FORMAT_DATABASE_ZIP', files, { fileName: 'vmInfo.csv', rowNumber: 2 })).toBeUndefined();
});
