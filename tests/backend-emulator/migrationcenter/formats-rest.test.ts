/**
 * Every import format through the emulator's REST API: a valid fixture ends COMPLETED with its
 * assets listed; an invalid one ends FAILED_VALIDATION; and the REST reports equal, field by
 * field, what the engine itself reports for the same files.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { validateImport, type ImportJobFormat } from '../../../backend-emulator/import-engine';
import { validate, validateOutput } from '../../../schemas';
import { act, BASE, call, createJob, newApp, ok, onTheWire } from '../../support/migrationcenter';
import { sharedApp } from '../../support/app';

const FIXTURES = path.join(__dirname, '..', '..', 'fixtures');

interface Case {
  format: ImportJobFormat;
  valid: string;
  invalid: string;
  /** The machines of the valid files, counted by hand: the assets the run must list. */
  machines: number;
}

const CASES: Case[] = [
  // Counted by hand in the fixtures: the rows of vmInfo.csv (vm-001, vm-002, pm-003).
  { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', valid: 'manual-csv/valid/basic', invalid: 'manual-csv/invalid/bad-int', machines: 3 },
  // The public sample has 131 VMs, 2 of them templates.
  {
    format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
    valid: 'rvtools/BillSampleNextRvtoolsFinal.xlsx',
    invalid: 'rvtools/csv-valid/RVTools_tabvInfo.csv',
    machines: 129,
  },
  // vInfo: web-01, db-01, app-02 and the template tmpl-rhel8 (templates are not machines).
  { format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV', valid: 'rvtools/csv-valid', invalid: 'rvtools/csv-invalid', machines: 3 },
  // vmInfo.csv: i-0a1b2c3d4e5f6000{1,2,3}.
  { format: 'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV', valid: 'aws/valid', invalid: 'aws/invalid', machines: 3 },
  // vmInfo.csv: app-vm-01, sql-vm-01, batch-vm-01.
  { format: 'IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV', valid: 'azure/valid', invalid: 'azure/invalid', machines: 3 },
  // Two Linux servers (app-server-01, batch-01) and one Windows server (sql-phys-01).
  { format: 'IMPORT_JOB_FORMAT_CMDB', valid: 'cmdb/valid', invalid: 'cmdb/invalid', machines: 3 },
];

function filesOf(relative: string): string[] {
  const p = path.join(FIXTURES, relative);
  return fs.statSync(p).isDirectory()
    ? fs
        .readdirSync(p)
        .sort()
        .map((f) => path.join(p, f))
    : [p];
}

function inline(format: string, files: string[]) {
  return { format, payload: files.map((f) => ({ name: path.basename(f), data: fs.readFileSync(f).toString('base64') })) };
}

async function engineReport(format: ImportJobFormat, files: string[]) {
  return validateImport(
    format,
    files.map((f) => ({ name: path.basename(f), open: () => Readable.from([fs.readFileSync(f)]) })),
  );
}

// One emulator for the file, emptied before each test (so the assets listed are this format's
// only): an emulator per format started an app and an import worker six times.
const sharedAppOfFile = sharedApp(() => newApp());

describe.each(CASES)('$format over REST', ({ format, valid, invalid, machines }) => {
  let app: FastifyInstance;
  beforeEach(() => {
    app = sharedAppOfFile();
  });
  const id = format.toLowerCase().replace(/_/g, '-').replace('import-job-format-', '');

  it(`imports ${valid}: COMPLETED, assets listed, reports as the engine gives them`, async () => {
    const files = filesOf(valid);
    ok(await createJob(app, `${id}-ok`, { inlinePayload: inline(format, files) }));
    const [, validated] = await act(app, `${id}-ok`, 'validate');
    expect(validated.state).toBe('IMPORT_JOB_STATE_READY');
    const engine = await engineReport(format, files);
    // The engine's own output is valid as it is; the wire is it with ProtoJSON's defaults left out.
    expect(validate('ValidationReport', engine)).toEqual([]);
    expect(validateOutput('ValidationReport', validated.validationReport)).toEqual([]);
    expect(validated.validationReport).toEqual(onTheWire(engine));
    const [, job] = await act(app, `${id}-ok`, 'run');
    expect(job.state).toBe('IMPORT_JOB_STATE_COMPLETED');
    expect(validateOutput('ExecutionReport', job.executionReport)).toEqual([]);
    expect(job.executionReport.totalRowsCount).toBeGreaterThan(0);
    expect(job.executionReport.framesReported).toBeGreaterThan(0);
    const assets: unknown[] = [];
    let token = '';
    do {
      const page = ok(await call(app, 'GET', `${BASE}/assets?pageSize=500${token ? `&pageToken=${token}` : ''}`));
      assets.push(...(page.assets ?? []));
      token = page.nextPageToken ?? '';
    } while (token);
    expect(assets.length).toBe(machines);
    ok(await call(app, 'DELETE', `/v1alpha1/${BASE.slice('/v1alpha1/'.length)}/importJobs/${id}-ok?force=true`));
  });

  it(`refuses ${invalid}: FAILED_VALIDATION with the engine's report, field by field`, async () => {
    const files = filesOf(invalid);
    ok(await createJob(app, `${id}-bad`, { inlinePayload: inline(format, files) }));
    const [, job] = await act(app, `${id}-bad`, 'validate');
    expect(job.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
    const engine = await engineReport(format, files);
    expect(validate('ValidationReport', engine)).toEqual([]);
    expect(validateOutput('ValidationReport', job.validationReport)).toEqual([]);
    expect(job.validationReport).toEqual(onTheWire(engine));
    const severities = JSON.stringify(job.validationReport).match(/"severity":"ERROR"/g) ?? [];
    expect(severities.length).toBeGreaterThan(0);
  });
});
