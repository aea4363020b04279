/** `google-native-local validate FILE.zip --format ...`: a collection script's zip, read as the engine reads it. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateCommand } from '../../../backend-emulator/commands/validate';
import { aws15Zip, zip } from '../../support/cloud-zips';
import { FIXTURES } from '../../support/import-formats';
import { tempDir } from '../../../support/temp-dir';
import { textSink } from '../../support/text-sink';

describe('google-native-local validate FILE.zip', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('reads vm-aws-import-files.zip: exit 0, entries reported as <zip>/<path>, the JSON named as not read', async () => {
    const z = aws15Zip();
    const file = path.join(dir, z.name);
    fs.writeFileSync(file, z.data);
    const out = textSink();
    expect(await validateCommand([file, '--format', 'exported-aws-csv', '--json'], out)).toBe(0);
    const report = JSON.parse(out.text);
    expect(report.fileValidations.map((f: { fileName: string }) => f.fileName)).toEqual([
      'vm-aws-import-files.zip',
      'vm-aws-import-files.zip/output/vm/vmInfo.csv',
      'vm-aws-import-files.zip/output/vm/diskInfo.csv',
      'vm-aws-import-files.zip/output/vm/perfInfo.csv',
      'vm-aws-import-files.zip/output/vm/tagInfo.csv',
    ]);
    expect(report.fileValidations[0].fileErrors[0]).toEqual({
      severity: 'INFO',
      errorDetails: expect.stringContaining('"output/services/resources.json" is not read by format'),
    });
  });

  it('prints row errors under the entry and exits 1 for an invalid CSV inside the zip', async () => {
    const file = path.join(dir, 'aws-import-files.zip');
    fs.writeFileSync(file, zip([{ name: 'output/vmInfo.csv', data: fs.readFileSync(path.join(FIXTURES, 'aws/invalid/vmInfo.csv')) }]));
    const out = textSink();
    expect(await validateCommand([file, '--format', 'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV'], out)).toBe(1);
    expect(out.text).toMatch(/aws-import-files\.zip\/output\/vmInfo\.csv:\n(.*\n)* {2}ERROR {3}row 3 \(bad-cores/);
  });
});
