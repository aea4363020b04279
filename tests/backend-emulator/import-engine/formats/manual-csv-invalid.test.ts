/**
 * One fixture per rule (tests/fixtures/manual-csv/invalid/<rule>/), each report asserted in full:
 * job errors, file errors, row errors with row number, vmName, vmUuid, assetTitle, csvError and
 * every error's text and severity.
 */
import {
  hasBlockingErrors,
  validateImport,
  type ImportError,
  type ImportRowError,
  type Severity,
  type ValidationReport,
} from '../../../../backend-emulator/import-engine';
import { validate as validateSchema } from '../../../../schemas';
import { fixtureFiles } from '../../../support/import-engine';

const FORMAT = 'IMPORT_JOB_FORMAT_MANUAL_CSV';

const E = (errorDetails: string): ImportError => ({ errorDetails, severity: 'ERROR' });
const W = (errorDetails: string): ImportError => ({ errorDetails, severity: 'WARNING' });
const I = (errorDetails: string): ImportError => ({ errorDetails, severity: 'INFO' });

/** A row error; `title` defaults to vmName, else vmUuid (the engine's rule). */
function row(rowNumber: number, vmName: string, vmUuid: string, errors: ImportError[], title?: string): ImportRowError {
  const assetTitle = title ?? (vmName || vmUuid);
  return { rowNumber, vmName, vmUuid, errors, csvError: { rowNumber }, ...(assetTitle ? { assetTitle } : {}) };
}

function file(fileName: string, fileErrors: ImportError[] = [], rowErrors: ImportRowError[] = [], partialReport = false) {
  return { fileName, fileErrors, rowErrors, partialReport };
}

async function run(fixture: string): Promise<ValidationReport> {
  const report = await validateImport(FORMAT, fixtureFiles(`invalid/${fixture}`));
  expect(validateSchema('ValidationReport', report)).toEqual([]);
  return report;
}

const TYPE_MSG = 'must be a timestamp (ISO 8601 like 2024-01-31T13:30:00Z, or MM/dd/yyyy HH:mm:ss)';
const KEY_RULE = 'is not a valid label key: 1 to 63 characters, starting with a lowercase letter, made of lowercase letters, digits, "_" and "-"';
const VALUE_RULE = 'is not a valid label value: at most 63 characters, made of lowercase letters, digits, "_" and "-"';
const REC = (col: string) => `the column ${col} is missing from the header of vmInfo.csv; it is recommended`;
const FORMULA = (col: string, ch: string, v: string) => `${col} starts with "${ch}" ("${v}"): it is kept as plain text, not evaluated as a formula`;

describe('job rules', () => {
  test('missing-vminfo: vmInfo.csv is required; references cannot be checked', async () => {
    expect(await run('missing-vminfo')).toEqual({
      jobErrors: [E('vmInfo.csv is required in every Manual CSV import, and the payload has none')],
      fileValidations: [file('perfInfo.csv', [I('MachineId values were not checked against vmInfo.csv: the payload has no vmInfo.csv')])],
    });
  });

  test('unknown-file-name: a file error, the other files are still validated', async () => {
    const r = await run('unknown-file-name');
    expect(r).toEqual({
      jobErrors: [],
      fileValidations: [
        file('notes.txt', [E('unknown file name "notes.txt": Manual CSV accepts vmInfo.csv, perfInfo.csv, diskInfo.csv, tagInfo.csv')]),
        file('vmInfo.csv'),
      ],
    });
  });

  test('mixed-formats: a job error naming the other format, and a file error', async () => {
    expect(await run('mixed-formats')).toEqual({
      jobErrors: [
        E(
          'the payload mixes formats: the job is Manual CSV (IMPORT_JOB_FORMAT_MANUAL_CSV) but has files of RVTools CSV (IMPORT_JOB_FORMAT_RVTOOLS_CSV); one import job takes one format',
        ),
      ],
      fileValidations: [
        file('RVTools_tabvInfo.csv', [E('"RVTools_tabvInfo.csv" is a file of the RVTools CSV format (IMPORT_JOB_FORMAT_RVTOOLS_CSV), not of Manual CSV')]),
        file('vmInfo.csv'),
      ],
    });
  });

  test('duplicate-vminfo: the second file of a kind is refused (recognised by its last path segment)', async () => {
    expect(await run('duplicate-vminfo')).toEqual({
      jobErrors: [],
      fileValidations: [file('a/vmInfo.csv'), file('b/vmInfo.csv', [E('a second vmInfo.csv ("a/vmInfo.csv" is the first); an import takes one vmInfo.csv')])],
    });
  });
});

describe('file rules', () => {
  test('missing-required-column: a file ERROR, no row is checked', async () => {
    expect(await run('missing-required-column')).toEqual({
      jobErrors: [],
      fileValidations: [file('vmInfo.csv', [E('the required column MemoryGiB is missing from the header of vmInfo.csv')])],
    });
  });

  test('perf-missing-required-column: same rule on perfInfo.csv', async () => {
    const r = await run('perf-missing-required-column');
    expect(r.fileValidations).toEqual([
      file('perfInfo.csv', [E('the required column TimeStamp is missing from the header of perfInfo.csv')]),
      file('vmInfo.csv'),
    ]);
  });

  test('duplicate-column: matching ignores case and "(optional)", so MachineName appears twice', async () => {
    expect(await run('duplicate-column')).toEqual({
      jobErrors: [],
      fileValidations: [
        file('vmInfo.csv', [
          E('the column MachineName appears 2 times in the header (positions 2, 5)'),
          W(REC('TotalDiskAllocatedGiB')),
          W(REC('OsName')),
          W(REC('IsPhysical')),
        ]),
      ],
    });
  });

  test('missing-recommended-columns: WARNINGs only, the import stays valid', async () => {
    const r = await run('missing-recommended-columns');
    expect(r).toEqual({
      jobErrors: [],
      fileValidations: [file('vmInfo.csv', [W(REC('TotalDiskAllocatedGiB')), W(REC('OsName')), W(REC('IsPhysical'))])],
    });
    expect(hasBlockingErrors(r)).toBe(false);
  });

  test('empty-file: no header row', async () => {
    expect((await run('empty-file')).fileValidations).toEqual([file('vmInfo.csv', [E('the file is empty: it has no header row')])]);
  });

  test('header-only: a WARNING, not an error', async () => {
    const r = await run('header-only');
    expect(r.fileValidations).toEqual([file('vmInfo.csv', [W('the file has a header but no data rows')])]);
    expect(hasBlockingErrors(r)).toBe(false);
  });

  test('cr-only-line-endings: refused with a file error', async () => {
    expect((await run('cr-only-line-endings')).fileValidations).toEqual([
      file('vmInfo.csv', [E('the file uses CR-only line endings (classic Mac OS); save it with LF or CRLF line endings')]),
    ]);
  });

  test('invalid-utf8: a file ERROR naming the row and byte offset; earlier rows were checked', async () => {
    expect((await run('invalid-utf8')).fileValidations).toEqual([
      file('vmInfo.csv', [E('the file is not valid UTF-8: invalid bytes in row 3 (byte offset 404); save it as UTF-8')]),
    ]);
  });
});

describe('vmInfo.csv row rules', () => {
  test('required-value-missing: MachineName, MachineId (blank counts as empty), cores and memory', async () => {
    expect((await run('required-value-missing')).fileValidations).toEqual([
      file(
        'vmInfo.csv',
        [],
        [
          row(2, '', 'vm-1', [E('MachineName is required')]),
          row(3, 'host-2', '', [E('MachineId is required')]),
          row(4, 'host-3', 'vm-3', [E('AllocatedProcessorCoreCount is required'), E('MemoryGiB is required')]),
        ],
      ),
    ]);
  });

  test('bad-int: words, decimals and negative counts', async () => {
    expect((await run('bad-int')).fileValidations[0].rowErrors).toEqual([
      row(2, 'host-1', 'vm-1', [E('AllocatedProcessorCoreCount must be a whole number (cores), got "four"')]),
      row(3, 'host-1', 'vm-2', [E('AllocatedProcessorCoreCount must be a whole number (cores), got "2.5"')]),
      row(4, 'host-1', 'vm-3', [E('AllocatedProcessorCoreCount must be at least 0 (cores), got -1')]),
    ]);
  });

  test('bad-number: units in the cell, decimal comma (with a hint), negative', async () => {
    expect((await run('bad-number')).fileValidations[0].rowErrors).toEqual([
      row(2, 'host-1', 'vm-1', [E('MemoryGiB must be a number (GiB), got "16GB"')]),
      row(3, 'host-1', 'vm-2', [E('MemoryGiB must be a number (GiB), got "1,5" (use a dot as decimal separator)')]),
      row(4, 'host-1', 'vm-3', [E('MemoryGiB must be at least 0 (GiB), got -2')]),
    ]);
  });

  test('bad-bool', async () => {
    expect((await run('bad-bool')).fileValidations[0].rowErrors).toEqual([row(2, 'host-1', 'vm-1', [E('IsPhysical must be 0, 1, true or false, got "yes"')])]);
  });

  test('bad-timestamp: day-first dates and impossible dates', async () => {
    expect((await run('bad-timestamp')).fileValidations[0].rowErrors).toEqual([
      row(2, 'host-1', 'vm-1', [E(`CreateDate ${TYPE_MSG}, got "31/01/2024"`)]),
      row(3, 'host-1', 'vm-2', [E(`CreateDate ${TYPE_MSG}, got "2024-02-30"`)]),
    ]);
  });

  test('bad-ip: out-of-range octet, not an address, comma-separated list', async () => {
    expect((await run('bad-ip')).fileValidations[0].rowErrors).toEqual([
      row(2, 'host-1', 'vm-1', [E('PrimaryIPAddress must be an IPv4 or IPv6 address, got "10.0.0.256"')]),
      row(3, 'host-1', 'vm-2', [E('PublicIPAddress must be an IPv4 or IPv6 address, got "abc"')]),
      row(4, 'host-1', 'vm-3', [
        E('IpAddressListSemiColonDelimited must list IP addresses separated by ";", "10.0.0.1,10.0.0.2" is not one (separate addresses with ";")'),
      ]),
    ]);
  });

  test('bad-mac', async () => {
    expect((await run('bad-mac')).fileValidations[0].rowErrors).toEqual([
      row(2, 'host-1', 'vm-1', [E('PrimaryMACAddress must be a MAC address like 00:1a:2b:3c:4d:5e, got "00:1a:2b:3c:4d"')]),
    ]);
  });

  test('duplicate-machine-id: the later row is the error and names the first', async () => {
    expect((await run('duplicate-machine-id')).fileValidations[0].rowErrors).toEqual([
      row(4, 'again', 'vm-1', [E('MachineId "vm-1" is a duplicate: row 2 has the same MachineId')]),
    ]);
  });

  test('formula-cells: accepted as text with a WARNING per cell', async () => {
    const r = await run('formula-cells');
    expect(r.fileValidations[0].rowErrors).toEqual([
      row(2, '=HYPERLINK("http://x")', 'vm-1', [W(FORMULA('MachineName', '=', '=HYPERLINK("http://x")'))]),
      row(3, 'host-1', 'vm-2', [
        W(FORMULA('MachineTypeLabel', '+', '+cmd')),
        W(FORMULA('HostingLocation', '-', '-east')),
        W(FORMULA('OsName', '@', '@SUM(A1)')),
      ]),
    ]);
    expect(hasBlockingErrors(r)).toBe(false);
  });

  test('field-count: extra non-empty fields are an ERROR, trailing empty ones are fine, missing ones a WARNING', async () => {
    expect((await run('field-count')).fileValidations[0].rowErrors).toEqual([
      row(2, 'host-1', 'vm-1', [E('the row has 21 fields but the header has 20')]),
      row(4, 'host-3', 'vm-3', [
        W('the row has 3 fields but the header has 20; the missing fields are taken as empty'),
        E('AllocatedProcessorCoreCount is required'),
        E('MemoryGiB is required'),
      ]),
    ]);
  });

  test('malformed-quotes: the damage stays in its own row; row numbers stay right', async () => {
    const rest = 'abc"def,10.0.0.1,,,,100,50,,2,4,eu,Linux,,Ubuntu,22.04,running,,2023-01-01T00:00:00Z,0';
    const rest3 = 'unterminated,10.0.0.1,,,,100,50,,2,4,eu,Linux,,Ubuntu,22.04,running,,2023-01-01T00:00:00Z,0';
    const missing = [
      W('the row has 2 fields but the header has 20; the missing fields are taken as empty'),
      E('AllocatedProcessorCoreCount is required'),
      E('MemoryGiB is required'),
    ];
    expect((await run('malformed-quotes')).fileValidations[0].rowErrors).toEqual([
      row(2, rest, 'vm-1', [E('a quoted field has characters after its closing quote (write "" for a quote inside a quoted field)'), ...missing]),
      row(4, rest3, 'vm-3', [E('a quoted field is not closed (its closing " is missing)'), ...missing]),
    ]);
  });

  test('disk-used-above-allocated: WARNING', async () => {
    expect((await run('disk-used-above-allocated')).fileValidations[0].rowErrors).toEqual([
      row(2, 'host-1', 'vm-1', [W('TotalDiskUsedGiB (20) is larger than TotalDiskAllocatedGiB (10)')]),
    ]);
  });

  test('create-date-in-future: WARNING', async () => {
    expect((await run('create-date-in-future')).fileValidations[0].rowErrors).toEqual([
      row(2, 'host-1', 'vm-1', [W('CreateDate 2999-01-01T00:00:00.000Z is in the future')]),
    ]);
  });
});

describe('child file rules', () => {
  test('perf-invalid: range, unknown machine, missing timestamp, empty sample', async () => {
    const r = await run('perf-invalid');
    expect(r.fileValidations).toEqual([
      file(
        'perfInfo.csv',
        [],
        [
          row(2, '', 'vm-1', [E('CpuUtilizationPercentage must be at most 100 (percent), got 150')]),
          row(3, '', 'vm-9', [E('MachineId "vm-9" matches no MachineId of vmInfo.csv')]),
          row(4, '', 'vm-1', [E('TimeStamp is required')]),
          row(5, '', 'vm-2', [W('the sample has no metric value; it is ignored')]),
        ],
      ),
      file('vmInfo.csv'),
    ]);
  });

  test('disk-invalid: used above size, unknown machine, missing size', async () => {
    expect((await run('disk-invalid')).fileValidations[0]).toEqual(
      file(
        'diskInfo.csv',
        [],
        [
          row(2, '', 'vm-1', [W('UsedInGib (20) is larger than SizeInGib (10)')]),
          row(3, '', 'vm-9', [E('MachineId "vm-9" matches no MachineId of vmInfo.csv')]),
          row(4, '', 'vm-2', [E('SizeInGib is required')]),
        ],
      ),
    );
  });

  test('tag-invalid: Google label rules, repeated key, unknown machine', async () => {
    expect((await run('tag-invalid')).fileValidations[0]).toEqual(
      file(
        'tagInfo.csv',
        [],
        [
          row(2, '', 'vm-1', [E(`Key "Env" ${KEY_RULE}`)]),
          row(3, '', 'vm-1', [E(`Value "Prod Value" ${VALUE_RULE}`)]),
          row(4, '', 'vm-1', [E(`Key "${'k'.repeat(64)}" ${KEY_RULE}`)]),
          row(6, '', 'vm-1', [W('the label key "team" is given more than once for MachineId "vm-1"; the last value wins')]),
          row(7, '', 'vm-9', [E('MachineId "vm-9" matches no MachineId of vmInfo.csv')]),
          row(8, '', 'vm-2', [E(`Key "9lives" ${KEY_RULE}`)]),
        ],
      ),
    );
  });

  test('too-many-labels: the 65th distinct key of a machine is an ERROR', async () => {
    expect((await run('too-many-labels')).fileValidations[0]).toEqual(
      file('tagInfo.csv', [], [row(66, '', 'vm-1', [E('MachineId "vm-1" has more than 64 labels; "key64" is one too many')])]),
    );
  });
});

test('severities: every fixture but the warning-only ones fails validation', async () => {
  const warningOnly = ['missing-recommended-columns', 'header-only', 'formula-cells', 'disk-used-above-allocated', 'create-date-in-future'];
  const fs = await import('node:fs');
  const { FIXTURES } = await import('../../../support/import-engine');
  for (const fixture of fs.readdirSync(`${FIXTURES}/invalid`)) {
    const r = await validateImport(FORMAT, fixtureFiles(`invalid/${fixture}`));
    const severities = new Set<Severity>();
    r.jobErrors.forEach((e) => severities.add(e.severity));
    r.fileValidations.forEach((f) => {
      f.fileErrors.forEach((e) => severities.add(e.severity));
      f.rowErrors.forEach((x) => x.errors.forEach((e) => severities.add(e.severity)));
    });
    expect({ fixture, blocking: hasBlockingErrors(r) }).toEqual({ fixture, blocking: !warningOnly.includes(fixture) });
    expect(severities.size).toBeGreaterThan(0);
  }
});
