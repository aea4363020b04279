import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../../backend-emulator/commands/main';
import { validateCommand } from '../../../backend-emulator/commands/validate';
import { templatesCommand } from '../../../backend-emulator/commands/templates';
import { textSink } from '../../support/text-sink';

const FIXTURES = path.join(__dirname, '..', '..', 'fixtures', 'manual-csv');

describe('google-native-local validate', () => {
  it('prints a summary and exits 0 when there is no ERROR', async () => {
    const out = textSink();
    const code = await validateCommand([path.join(FIXTURES, 'valid', 'basic'), '--format', 'IMPORT_JOB_FORMAT_MANUAL_CSV'], out);
    expect(code).toBe(0);
    expect(out.text).toMatch(/^OK: no blocking errors \(IMPORT_JOB_FORMAT_MANUAL_CSV\)\n\d+ file\(s\); 0 error\(s\)/);
  });

  it('groups errors by file with row numbers and exits 1', async () => {
    const out = textSink();
    const code = await validateCommand([path.join(FIXTURES, 'invalid', 'bad-int'), '--format', 'manual-csv'], out);
    expect(code).toBe(1);
    expect(out.text).toContain('FAILED: the payload has blocking errors');
    expect(out.text).toMatch(/vmInfo\.csv:\n {2}ERROR {3}row 2 \(.*\): AllocatedProcessorCoreCount/);
  });

  it("names a workbook row's sheet: each sheet numbers its rows from 1", async () => {
    const out = textSink();
    const workbook = path.join(__dirname, '..', '..', 'fixtures', 'rvtools', 'SizingWorkshop-RVTools.xlsx');
    expect(await validateCommand([workbook, '--format', 'rvtools-xlsx'], out)).toBe(0);
    expect(out.text).toContain('  INFO    sheet vInfo row 228: VM "Bowf17webprod" is a template');
  });

  it('prints the ValidationReport shape with --json', async () => {
    const out = textSink();
    const code = await validateCommand([path.join(FIXTURES, 'invalid', 'bad-int', 'vmInfo.csv'), '--format', 'manual-csv', '--json'], out);
    const report = JSON.parse(out.text);
    expect(code).toBe(1);
    expect(report).toMatchObject({ jobErrors: [], fileValidations: [{ fileName: 'vmInfo.csv', partialReport: false }] });
    expect(report.fileValidations[0].rowErrors[0]).toMatchObject({ rowNumber: 2, errors: [{ severity: 'ERROR' }] });
  });

  it('exits 2 on bad usage: unknown flag, unknown format, no paths, no format, missing file', async () => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await main(['validate', '--bogus'])).toBe(2);
      expect(await main(['validate', FIXTURES, '--format', 'nope'])).toBe(2);
      expect(await main(['validate', '--format', 'manual-csv'])).toBe(2);
      expect(await main(['validate', FIXTURES])).toBe(2);
      expect(await main(['validate', '/no/such/file', '--format', 'manual-csv'])).toBe(2);
      expect(await main(['frobnicate'])).toBe(2);
      const said = stderr.mock.calls.map((c) => String(c[0])).join('');
      expect(said).toContain("unknown format 'nope'");
      expect(said).toContain('--format is required: one of manual-csv, rvtools-xlsx, rvtools-csv, aws-csv, azure-csv, cmdb');
    } finally {
      stderr.mockRestore();
    }
  });

  it('has --help on every command', async () => {
    const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await main(['--help'])).toBe(0);
      expect(await main(['validate', '--help'])).toBe(0);
      expect(await main(['templates', '--help'])).toBe(0);
      const text = stdout.mock.calls.map((c) => String(c[0])).join('');
      expect(text).toContain('Usage: google-native-local COMMAND');
      expect(text).toContain('Usage: google-native-local validate');
      expect(text).toContain('Usage: google-native-local templates');
    } finally {
      stdout.mockRestore();
    }
  });
});

describe('google-native-local templates', () => {
  it('writes templates that validate clean once filled with their example rows', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-templates-'));
    try {
      expect(await templatesCommand(['manual-csv', dir], textSink())).toBe(0);
      expect(fs.readdirSync(dir).sort()).toEqual(['diskInfo.csv', 'perfInfo.csv', 'tagInfo.csv', 'vmInfo.csv']);
      expect(fs.readFileSync(path.join(dir, 'vmInfo.csv'), 'utf8').split('\r\n')[0]).toContain('MachineId');
      const out = textSink();
      expect(await validateCommand([dir, '--format', 'manual-csv'], out)).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the progress bar', () => {
  const fakeStream = (isTTY: boolean) => {
    const writes: string[] = [];
    return { stream: { isTTY, write: (s: string) => writes.push(s) } as unknown as NodeJS.WriteStream, writes };
  };
  const { progressBar, PROGRESS_MIN_BYTES } =
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('../../../backend-emulator/commands/progress') as typeof import('../../../backend-emulator/commands/progress');

  it('draws on a terminal for large inputs, once per percent', () => {
    const { stream, writes } = fakeStream(true);
    const bar = progressBar(PROGRESS_MIN_BYTES * 2, stream);
    for (let i = 0; i < 1000; i++) bar.add(PROGRESS_MIN_BYTES / 500);
    bar.done();
    expect(writes.length).toBeLessThanOrEqual(102);
    expect(writes[writes.length - 2]).toContain('100% of 8.0 MiB');
  });

  it('stays silent when not a terminal, or for small inputs', () => {
    const notTty = fakeStream(false);
    progressBar(PROGRESS_MIN_BYTES * 2, notTty.stream).add(PROGRESS_MIN_BYTES);
    const small = fakeStream(true);
    progressBar(1000, small.stream).add(1000);
    expect([notTty.writes, small.writes]).toEqual([[], []]);
  });
});

describe("every format's templates", () => {
  it.each(['manual-csv', 'rvtools-xlsx', 'rvtools-csv', 'aws-csv', 'azure-csv', 'cmdb'])('%s: written, then validated without an ERROR', async (format) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-templates-'));
    try {
      expect(await templatesCommand([format, dir], textSink())).toBe(0);
      const out = textSink();
      const code = await validateCommand([dir, '--format', format], out);
      expect({ code, report: out.text }).toEqual({ code: 0, report: expect.stringContaining('OK: no blocking errors') });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('format names', () => {
  const stderrOf = async (argv: string[]): Promise<{ code: number; said: string }> => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const code = await main(argv);
      return { code, said: stderr.mock.calls.map((c) => String(c[0])).join('') };
    } finally {
      stderr.mockRestore();
    }
  };

  it('takes the names of the pages of docs/formats/, every IMPORT_JOB_FORMAT_* spelling, and the earlier exported-* ones', () => {
    const { parseFormat } =
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require('../../../backend-emulator/commands/validate') as typeof import('../../../backend-emulator/commands/validate');
    expect(
      ['aws-csv', 'azure-csv', 'rvtools-xlsx', 'exported-aws-csv', 'IMPORT_JOB_FORMAT_EXPORTED_CLOUDB_CSV', 'IMPORT_JOB_FORMAT_CMDB'].map((f) =>
        parseFormat(f),
      ),
    ).toEqual([
      'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV',
      'IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV',
      'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
      'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV',
      'IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV',
      'IMPORT_JOB_FORMAT_CMDB',
    ]);
    expect(parseFormat('database-zip', 'api')).toBe('IMPORT_JOB_FORMAT_DATABASE_ZIP');
  });

  it('every page of docs/formats/ but its index is a name the commands take, and the index links each', () => {
    const dir = path.join(__dirname, '..', '..', '..', 'docs', 'formats');
    const pages = fs
      .readdirSync(dir)
      .filter((f) => f !== 'README.md')
      .map((f) => f.replace(/\.md$/, ''));
    expect(pages.sort()).toEqual(['aws-csv', 'azure-csv', 'cmdb', 'manual-csv', 'rvtools-csv', 'rvtools-xlsx']);
    const index = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
    for (const page of pages) expect(index).toContain(`[\`${page}\`](${page}.md)`);
    const { parseFormat } =
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require('../../../backend-emulator/commands/validate') as typeof import('../../../backend-emulator/commands/validate');
    for (const page of pages) expect(() => parseFormat(page)).not.toThrow();
  });

  it('an unknown name: the error lists the short names of the formats the command takes', async () => {
    const { code, said } = await stderrOf(['templates', 'aws', '/tmp/unused']);
    expect(code).toBe(2);
    expect(said).toContain(
      "unknown format 'aws': expected one of manual-csv, rvtools-xlsx, rvtools-csv, aws-csv, azure-csv, cmdb (or its IMPORT_JOB_FORMAT_* name)",
    );
  });

  it('a format the engine does not import: templates and validate say why, and list what they take', async () => {
    const { code, said } = await stderrOf(['templates', 'IMPORT_JOB_FORMAT_DATABASE_ZIP', '/tmp/unused']);
    expect(code).toBe(2);
    expect(said).toContain("format 'IMPORT_JOB_FORMAT_DATABASE_ZIP' is not imported by this package (database assets are not emulated");
    expect(said).toContain('the formats it imports: manual-csv, rvtools-xlsx, rvtools-csv, aws-csv, azure-csv, cmdb');
  });

  it('the help of validate, templates and import lists the short names', async () => {
    const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      for (const command of ['validate', 'templates', 'import']) await main(['help', command]);
      const text = stdout.mock.calls.map((c) => String(c[0])).join('');
      expect(text.split('manual-csv, rvtools-xlsx, rvtools-csv, aws-csv, azure-csv, cmdb').length - 1).toBe(3);
      expect(text).toContain('aws-csv, azure-csv, cmdb, database-zip');
    } finally {
      stdout.mockRestore();
    }
  });
});

describe('the command line with no command, and serve --help', () => {
  it('no command: prints the usage on standard error and exits 2', async () => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await main([])).toBe(2);
      expect(stderr.mock.calls.map((c) => String(c[0])).join('')).toContain('Usage: google-native-local COMMAND');
    } finally {
      stderr.mockRestore();
    }
  });

  it('serve --help names the command that runs it', async () => {
    const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await main(['serve', '--help'])).toBe(-1);
      const text = stdout.mock.calls.map((c) => String(c[0])).join('');
      expect(text.split('\n')[0]).toBe('Usage: google-native-local serve [flags]    (in a checkout: npm start -- [flags])');
    } finally {
      stdout.mockRestore();
    }
  });
});
