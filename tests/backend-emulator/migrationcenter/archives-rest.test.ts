/**
 * `.zip` inline payloads over the REST wire: a collection script's zip imports (the report on the
 * wire is the engine's, archiveError included), and a zip bomb and a path-traversal entry end
 * FAILED_VALIDATION with a report while the emulator keeps answering.
 */
import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { validateImport, type ImportJobFormat } from '../../../backend-emulator/import-engine';
import { validateOutput } from '../../../schemas';
import { aws141Zip, azure152Zip, zip, zerosPart } from '../../support/cloud-zips';
import { act, BASE, call, createJob, newApp, ok, onTheWire } from '../../support/migrationcenter';

function inline(format: ImportJobFormat, z: { name: string; data: Buffer }) {
  return { format, payload: [{ name: z.name, data: z.data.toString('base64') }] };
}

const engine = (format: ImportJobFormat, z: { name: string; data: Buffer }) => validateImport(format, [{ name: z.name, open: () => Readable.from([z.data]) }]);

describe('zip payloads over REST', () => {
  let app: FastifyInstance;
  beforeAll(() => {
    app = newApp();
  });
  afterAll(() => app.close());

  it.each([
    ['IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV', aws141Zip(), 3],
    ['IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV', azure152Zip(), 3],
  ] as const)('%s: the script zip validates READY with the engine report and runs COMPLETED', async (format, z, machines) => {
    const id = `zip-${format.endsWith('AWS_CSV') ? 'aws' : 'azure'}`;
    ok(await createJob(app, id, { inlinePayload: inline(format, z) }));
    const [, validated] = await act(app, id, 'validate');
    expect(validated.state).toBe('IMPORT_JOB_STATE_READY');
    expect(validateOutput('ValidationReport', validated.validationReport)).toEqual([]);
    expect(validated.validationReport).toEqual(onTheWire(await engine(format, z)));
    const [, job] = await act(app, id, 'run');
    expect(job.state).toBe('IMPORT_JOB_STATE_COMPLETED');
    expect(job.executionReport.totalRowsCount).toBeGreaterThan(machines);
    const page = ok(await call(app, 'GET', `${BASE}/assets?pageSize=500`));
    expect((page.assets ?? []).length).toBeGreaterThanOrEqual(machines);
  });

  it('refuses a zip bomb and a path-traversal entry with a report; the emulator keeps answering', async () => {
    const format = 'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV';
    const z = { name: 'aws-import-files.zip', data: zip([zerosPart('vmInfo.csv', 8 * 1024 * 1024), { name: '../perfInfo.csv', data: 'x' }]) };
    ok(await createJob(app, 'zip-bomb', { inlinePayload: inline(format, z) }));
    const [, job] = await act(app, 'zip-bomb', 'validate');
    expect(job.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
    expect(job.validationReport).toEqual(onTheWire(await engine(format, z)));
    const archive = job.validationReport.fileValidations[0];
    expect(archive.fileName).toBe('aws-import-files.zip');
    expect(archive.fileErrors).toEqual([
      {
        severity: 'ERROR',
        errorDetails: expect.stringMatching(/^the archive entry "vmInfo\.csv" is refused: .* ratio above the 200:1 accepted \(zip bomb\?\)/),
      },
      { severity: 'ERROR', errorDetails: expect.stringMatching(/^the archive entry "\.\.\/perfInfo\.csv" is refused: its path leaves the archive/) },
    ]);
    // still up
    expect(ok(await call(app, 'GET', `${BASE}/importJobs/zip-bomb`)).state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
  });
});
