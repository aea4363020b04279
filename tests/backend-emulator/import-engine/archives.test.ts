/**
 * `.zip` payload files (import-engine/archives.ts): the four collection-script zips read entry by
 * entry, unread entries named (INFO), row errors located with `archiveError`, and hostile archives
 * (path traversal, bombs, lies about sizes, encryption, too many entries) refused in the archive's
 * report without inflating past the limits.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hasBlockingErrors, type PayloadFile, type ValidationReport } from '../../../backend-emulator/import-engine';
import { unsafeEntryReason } from '../../../backend-emulator/import-engine/archives';
import { awsCsv } from '../../../backend-emulator/import-engine/formats/aws-csv';
import { azureCsv } from '../../../backend-emulator/import-engine/formats/azure-csv';
import { aws141Zip, aws15Zip, azure141Zip, azure152Zip, zip, zerosPart } from '../../support/cloud-zips';
import { bufferFile, execute, fileReport, fixtureFiles, validate, FIXTURES } from '../../support/import-formats';
import { tempDir } from '../../../support/temp-dir';

const AWS_VM = fs.readFileSync(path.join(FIXTURES, 'aws/valid/vmInfo.csv'));

const severities = (r: ValidationReport, fileName: string) => fileReport(r, fileName).fileErrors.map((e) => [e.severity, e.errorDetails]);
const rowsOf = (r: ValidationReport) => r.fileValidations.flatMap((f) => f.rowErrors);

describe.each([
  ['AWS 1.4.1', awsCsv, aws141Zip, 'output/vmInfo.csv', ['output/resources.json'], 3],
  ['AWS 1.5.x', awsCsv, aws15Zip, 'output/vm/vmInfo.csv', ['output/services/resources.json', 'output/services/db_mysql-prod.json'], 3],
  ['Azure 1.4.1', azureCsv, azure141Zip, 'vmInfo.csv', ['resources.json'], 3],
  ['Azure 1.5.2', azureCsv, azure152Zip, 'output/vmInfo.csv', [], 3],
] as const)('the %s script zip', (_label, def, build, vmPath, unread, machines) => {
  const z = build();
  it('validates entry by entry: one report per entry read, the archive report names the entries not read', async () => {
    const report = await validate(def, [bufferFile(z.name, z.data)]);
    expect(report.jobErrors).toEqual([]);
    expect(hasBlockingErrors(report)).toBe(false);
    expect(report.fileValidations[0].fileName).toBe(z.name);
    expect(severities(report, z.name)).toEqual(
      unread.map((u) => ['INFO', `the archive entry "${u}" is not read by format ${def.label} (${def.format}); it is ignored`]),
    );
    expect(fileReport(report, `${z.name}/${vmPath}`).fileErrors).toEqual([]);
    expect(report.fileValidations).toHaveLength(5);
    // Rows of a CSV inside the archive are located as Google's ImportRowError does: archiveError, not csvError.
    const rows = rowsOf(report);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.csvError).toBeUndefined();
      expect(row.archiveError).toEqual({ filePath: expect.stringMatching(/(^|\/)(perf|tag|disk|vm)Info\.csv$/), csvError: { rowNumber: row.rowNumber } });
    }
  });

  it('executes to the same assets as the unzipped files', async () => {
    const zipped = await execute(def, [bufferFile(z.name, z.data)]);
    expect(zipped.assets).toHaveLength(machines);
    // 1.4.1 holds the fixtures' bytes; 1.5.x adds empty columns, which change nothing either.
    const plain = await execute(def, fixtureFiles(def === awsCsv ? 'aws/valid' : 'azure/valid'));
    expect(zipped.report.totalRowsCount).toBe(plain.report.totalRowsCount);
    expect(zipped.report.framesReported).toBe(plain.report.framesReported);
    expect(zipped.assets).toEqual(plain.assets);
  });
});

describe('archives from anywhere', () => {
  it('reads a zip on disk (a storage object, a CLI path) like one in memory', async () => {
    const dir = tempDir();
    try {
      const z = aws141Zip();
      const file = path.join(dir, z.name);
      fs.writeFileSync(file, z.data);
      const onDisk: PayloadFile = { name: z.name, size: z.data.length, open: () => fs.createReadStream(file, { highWaterMark: 97 }) };
      expect(await validate(awsCsv, [onDisk])).toEqual(await validate(awsCsv, [bufferFile(z.name, z.data)]));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('puts row errors of an invalid CSV entry under archiveError with its path', async () => {
    const data = zip(
      ['vmInfo.csv', 'perfInfo.csv', 'tagInfo.csv'].map((n) => ({ name: `out/${n}`, data: fs.readFileSync(path.join(FIXTURES, 'aws/invalid', n)) })),
    );
    const report = await validate(awsCsv, [bufferFile('aws-import-files.zip', data)]);
    expect(hasBlockingErrors(report)).toBe(true);
    const vm = fileReport(report, 'aws-import-files.zip/out/vmInfo.csv');
    const bad = vm.rowErrors.find((r) => r.rowNumber === 3)!;
    expect(bad).toMatchObject({ vmName: 'bad-cores', archiveError: { filePath: 'out/vmInfo.csv', csvError: { rowNumber: 3 } } });
    expect(bad.errors[0].severity).toBe('ERROR');
    expect(bad.csvError).toBeUndefined();
  });

  it('says the archive holds no vmInfo.csv (job error), not that the payload is empty', async () => {
    const report = await validate(awsCsv, [bufferFile('x.zip', zip([{ name: 'readme.txt', data: 'hi' }]))]);
    expect(report.jobErrors.map((e) => e.errorDetails)).toEqual([expect.stringMatching(/^vmInfo\.csv is required/)]);
    expect(severities(report, 'x.zip')).toEqual([['INFO', expect.stringContaining('"readme.txt" is not read by format')]]);
  });
});

describe('hostile archives are refused in the report', () => {
  it.each([['../vmInfo.csv'], ['/etc/vmInfo.csv'], ['..\\..\\vmInfo.csv'], ['C:/temp/vmInfo.csv'], ['out/../../vmInfo.csv']])(
    'refuses the entry %s (path traversal) and reads nothing of it',
    async (name) => {
      const data = zip([
        { name, data: 'MachineId\nnot-read\n' },
        { name: 'good/diskInfo.csv', data: fs.readFileSync(path.join(FIXTURES, 'aws/valid/diskInfo.csv')) },
      ]);
      const report = await validate(awsCsv, [bufferFile('evil.zip', data)]);
      expect(severities(report, 'evil.zip')).toEqual([['ERROR', `the archive entry "${name}" is refused: ${unsafeEntryReason(name)}; nothing of it is read`]]);
      // nothing of it read: vmInfo.csv is still missing, and no report bears its name
      expect(report.jobErrors.map((e) => e.errorDetails)).toEqual([expect.stringMatching(/^vmInfo\.csv is required/)]);
      expect(report.fileValidations.map((f) => f.fileName)).toEqual(['evil.zip', 'evil.zip/good/diskInfo.csv']);
    },
  );

  it('keeps ordinary Windows separators: output\\vmInfo.csv is read', async () => {
    const report = await validate(awsCsv, [bufferFile('w.zip', zip([{ name: 'output\\vmInfo.csv', data: AWS_VM }]))]);
    expect(hasBlockingErrors(report)).toBe(false);
    expect(fileReport(report, 'w.zip/output/vmInfo.csv').fileErrors).toEqual([]);
  });

  it('refuses a zip bomb (ratio) before inflating it', async () => {
    const data = zip([zerosPart('vmInfo.csv', 8 * 1024 * 1024)]);
    expect(data.length).toBeLessThan(64 * 1024);
    const report = await validate(awsCsv, [bufferFile('bomb.zip', data)]);
    expect(severities(report, 'bomb.zip')).toEqual([
      [
        'ERROR',
        expect.stringMatching(
          /^the archive entry "vmInfo\.csv" is refused: it declares 8388608 inflated bytes from \d+ compressed, a ratio above the 200:1 accepted \(zip bomb\?\); nothing of it is read$/,
        ),
      ],
    ]);
  });

  it('refuses an entry declared larger than one file may be, and entries past the total', async () => {
    const parts = [
      { name: 'vmInfo.csv', data: AWS_VM },
      { name: 'diskInfo.csv', data: fs.readFileSync(path.join(FIXTURES, 'aws/valid/diskInfo.csv')) },
    ];
    const small = await validate(awsCsv, [bufferFile('a.zip', zip(parts))], { maxFileBytes: 2000, archiveLimits: { maxTotalBytes: 1000 } });
    expect(severities(small, 'a.zip')).toEqual(
      [
        [
          'ERROR',
          expect.stringMatching(/^the archive entry "vmInfo\.csv" is refused: it declares \d+ inflated bytes, more than the 1000 bytes accepted for one file/),
        ],
        [
          'ERROR',
          expect.stringMatching(
            /^the archive entry "diskInfo\.csv" is refused: the entries read from the archive would inflate to more than the 1000 bytes accepted in total/,
          ),
        ],
      ].slice(AWS_VM.length > 1000 ? 0 : 1),
    );
  });

  it('stops an entry that inflates past its declared size one byte after the claim', async () => {
    const data = zip([{ name: 'vmInfo.csv', data: AWS_VM, declaredSize: 100 }]);
    const report = await validate(awsCsv, [bufferFile('liar.zip', data)]);
    expect(severities(report, 'liar.zip/vmInfo.csv')).toContainEqual([
      'ERROR',
      expect.stringContaining('vmInfo.csv inflates past the 100 bytes its zip header declares'),
    ]);
  });

  it('refuses too many entries, encrypted entries and bytes that are not a zip, as archive errors', async () => {
    const many = zip(Array.from({ length: 5 }, (_, i) => ({ name: `f${i}.txt`, data: 'x' })));
    const r1 = await validate(awsCsv, [bufferFile('many.zip', many)], { archiveLimits: { maxEntries: 4 } });
    expect(severities(r1, 'many.zip')).toEqual([['ERROR', 'the archive cannot be read: the archive holds 5 entries, more than the 4 accepted']]);
    const locked = zip([{ name: 'vmInfo.csv', data: AWS_VM, flags: 0x1 }]);
    const r2 = await validate(awsCsv, [bufferFile('locked.zip', locked)]);
    expect(severities(r2, 'locked.zip')).toEqual([
      ['ERROR', 'the archive cannot be read: the entry vmInfo.csv is encrypted: zip the files again without a password'],
    ]);
    const r3 = await validate(awsCsv, [bufferFile('fake.zip', AWS_VM)]);
    expect(severities(r3, 'fake.zip')).toEqual([['ERROR', 'the archive cannot be read: the file is not a zip archive']]);
    for (const r of [r1, r2, r3]) expect(hasBlockingErrors(r)).toBe(true);
  });
});
