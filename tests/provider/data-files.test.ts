import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { dataFileId, inspectLocalFiles, MAX_DATA_FILE_BYTES } from '../../provider/data-files';
import { RESOURCE_ID } from '../../backend-emulator/http/names';
import { tempDir } from '../../support/temp-dir';

describe('dataFileId', () => {
  it.each([
    ['vmInfo.csv', 'vm-info-csv'],
    ['perfInfo.csv', 'perf-info-csv'],
    ['RVTools_export_all.xlsx', 'rvtools-export-all-xlsx'],
    ['2024 inventory (final).csv', 'f-2024-inventory-final-csv'],
    ['___', 'f'],
    [`${'a'.repeat(62)}-b.csv`, 'a'.repeat(62)],
  ])('%s -> %s, a valid resource id', (name, id) => {
    expect(dataFileId(name)).toBe(id);
    expect(dataFileId(name)).toMatch(RESOURCE_ID);
  });
});

describe('inspectLocalFiles', () => {
  const dir = tempDir('gnl-data-files-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('gives size and the streamed sha256 of each file, paths as given', async () => {
    fs.writeFileSync(path.join(dir, 'vmInfo.csv'), 'MachineId\nvm-1\n');
    const { files, failures } = await inspectLocalFiles(['vmInfo.csv'], dir);
    expect(failures).toEqual([]);
    expect(files).toEqual([{ path: 'vmInfo.csv', size: 15, sha256: createHash('sha256').update('MachineId\nvm-1\n').digest('hex') }]);
  });

  it('names the file and the rule: missing, a folder, over 100 MB, an id another file gives', async () => {
    fs.mkdirSync(path.join(dir, 'folder'), { recursive: true });
    // A sparse file: over the limit on disk without writing (or reading into memory) 100 MB.
    fs.writeFileSync(path.join(dir, 'huge.csv'), '');
    fs.truncateSync(path.join(dir, 'huge.csv'), MAX_DATA_FILE_BYTES + 1);
    fs.writeFileSync(path.join(dir, 'vm_info.csv'), 'x');
    const { failures } = await inspectLocalFiles(['nope.csv', 'folder', 'huge.csv', 'vmInfo.csv', 'vm_info.csv'], dir);
    expect(failures).toEqual([
      { index: 0, path: 'nope.csv', reason: `nope.csv: no such file (looked for ${path.join(dir, 'nope.csv')})` },
      { index: 1, path: 'folder', reason: 'folder: is a folder, not a file: name each file' },
      { index: 2, path: 'huge.csv', reason: expect.stringMatching(/^huge\.csv: is 104857601 bytes: a data file holds at most 100 MB/) },
      { index: 4, path: 'vm_info.csv', reason: "vm_info.csv: its data file id 'vm-info-csv' (from the file name) is also vmInfo.csv's: rename one of them" },
    ]);
  });
});
