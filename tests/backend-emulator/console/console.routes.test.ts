/**
 * The web console's JSON routes (`/emulator/v1/console/...`) and static files, through
 * app.inject(): pages and page tokens, the row-error filters (file, severity) and offsets, 404 for
 * an unknown job, the admin token with --auth (a 100,000-row-error report served page by page:
 * console-pages.soak.test.ts).
 */
import * as path from 'path';
import type { FastifyInstance } from 'fastify';
import { Assets } from '../../../backend-emulator/migrationcenter/assets/assets';
import { COLLECTIONS } from '../../../backend-emulator/migrationcenter/names';
import type { Asset } from '../../../backend-emulator/import-engine/asset';
import { findStaticDir, staticDirCandidates, STATIC_FILES } from '../../../backend-emulator/console/static-files';
import {
  CONDITION,
  CONSOLE,
  GOOD_CSV,
  MATCHER,
  MC_PARENT,
  MIXED_CSV,
  NS_PARENT,
  bigJobSeed,
  MC_SOURCE,
  SOURCE_SEED,
  bigReport,
  call,
  googleError,
  inlinePayload,
  newApp,
  ok,
} from '../../support/console';

import * as mc from '../../support/migrationcenter';
import { sharedApp } from '../../support/app';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const jobName = (id: string) => `${MC_PARENT}/importJobs/${id}`;
const jobUrl = (id: string) => `${CONSOLE}/${jobName(id)}`;

// One app for the file's tests (reset before each); those needing other options build their own.
const sharedAppOfFile = sharedApp();
let app: FastifyInstance;

async function waitOperation(name: string): Promise<any> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const op = ok(await call(app, 'GET', `/v1alpha1/${name}`));
    if (op.done) return op;
    if (Date.now() > deadline) throw new Error(`operation ${name} not done`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function createValidated(id: string, files: Record<string, string>, run = false, assetSource = MC_SOURCE): Promise<any> {
  // The source must exist first (nothing is created for a reference).
  const [parent, sourceId] = assetSource.split('/sources/');
  const created = await call(app, 'POST', `/v1alpha1/${parent}/sources?sourceId=${sourceId}`, {});
  if (created.status !== 409) ok(created);
  ok(await call(app, 'POST', `/v1alpha1/${MC_PARENT}/importJobs?importJobId=${id}`, { inlinePayload: inlinePayload(files), assetSource }));
  await waitOperation(ok(await call(app, 'POST', `/v1alpha1/${jobName(id)}:validate`, {})).name);
  if (run) await waitOperation(ok(await call(app, 'POST', `/v1alpha1/${jobName(id)}:run`, {})).name);
  return ok(await call(app, 'GET', `/v1alpha1/${jobName(id)}`));
}

describe('static files', () => {
  beforeEach(() => {
    app = sharedAppOfFile();
  });

  test('GET / is the console page; its script and style sheet are served with their types', async () => {
    const page = await call(app, 'GET', '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.raw).toContain('<script src="/console/app.js"');
    expect(page.raw).toContain('href="/console/console.css"');
    const js = await call(app, 'GET', '/console/app.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.raw).toContain('/emulator/v1/console');
    const css = await call(app, 'GET', '/console/console.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(googleError(await call(app, 'GET', '/console/nothing.js'), 404, 'NOT_FOUND').message).toContain('/console/nothing.js');
  });

  test('the static folder is found from the sources and from the compiled dist/ (relative to the package root)', () => {
    const fromSources = findStaticDir(path.join(ROOT, 'backend-emulator', 'console'));
    expect(fromSources).toBe(path.join(ROOT, 'backend-emulator', 'console', 'static'));
    // dist/backend-emulator/console has no static/ (tsc copies no HTML): the package root's is used.
    const fromDist = findStaticDir(path.join(ROOT, 'dist', 'backend-emulator', 'console'));
    expect(fromDist).toBe(path.join(ROOT, 'backend-emulator', 'console', 'static'));
    expect(staticDirCandidates(path.join(ROOT, 'dist', 'backend-emulator', 'console'))[0]).toBe(
      path.join(ROOT, 'dist', 'backend-emulator', 'console', 'static'),
    );
    // Outside any copy of the package there is nothing to find.
    expect(findStaticDir('/')).toBeUndefined();
    expect(STATIC_FILES.map((f) => f.url)).toEqual([
      '/',
      '/console/constants.js',
      '/console/kit.js',
      '/console/charts.js',
      '/console/import.js',
      '/console/inventory.js',
      '/console/planning-model.js',
      '/console/planning.js',
      '/console/app.js',
      '/console/console.css',
    ]);
  });
});

describe('endpoint policies and import jobs', () => {
  beforeEach(async () => {
    app = sharedAppOfFile();
    ok(
      await call(app, 'POST', '/emulator/v1/seed', {
        endpointPolicies: [
          { name: `${NS_PARENT}/endpointPolicies/alpha`, type: 'SIDECAR_PROXY', endpointMatcher: MATCHER, description: 'first' },
          { name: `${NS_PARENT}/endpointPolicies/beta`, type: 'GRPC_SERVER', endpointMatcher: MATCHER },
          { name: 'projects/p2/locations/global/endpointPolicies/gamma', type: 'SIDECAR_PROXY', endpointMatcher: MATCHER },
        ],
        iamPolicies: {
          [`${NS_PARENT}/endpointPolicies/alpha`]: {
            version: 3,
            bindings: [
              { role: 'roles/networkservices.viewer', members: ['user:alice@example.com', 'group:devs@example.com'] },
              { role: 'roles/networkservices.admin', members: ['user:bob@example.com'], condition: CONDITION },
            ],
          },
        },
        sources: [SOURCE_SEED],
        importJobs: [
          bigJobSeed('big', { 'vmInfo.csv': 7, 'perfInfo.csv': 5 }),
          { name: jobName('pending'), assetSource: MC_SOURCE, inlinePayload: inlinePayload({ 'vmInfo.csv': MIXED_CSV }) },
        ],
      }),
    );
  });

  test('summary counts what is stored', async () => {
    expect(ok(await call(app, 'GET', `${CONSOLE}/summary`))).toEqual({ endpointPolicies: 3, importJobs: 2, assets: 0 });
  });

  test('endpoint policies come with their version-3 IAM policy (conditions, etag), paged', async () => {
    const first = ok(await call(app, 'GET', `${CONSOLE}/endpointPolicies?pageSize=2`));
    expect(first.endpointPolicies.map((p: any) => p.policy.name)).toEqual([`${NS_PARENT}/endpointPolicies/alpha`, `${NS_PARENT}/endpointPolicies/beta`]);
    const alpha = first.endpointPolicies[0];
    expect(alpha.policy).toMatchObject({ type: 'SIDECAR_PROXY', description: 'first' });
    expect(alpha.iamPolicy.version).toBe(3);
    expect(alpha.iamPolicy.bindings).toEqual([
      { role: 'roles/networkservices.viewer', members: ['user:alice@example.com', 'group:devs@example.com'] },
      { role: 'roles/networkservices.admin', members: ['user:bob@example.com'], condition: CONDITION },
    ]);
    // The same etag as getIamPolicy gives.
    const iam = ok(await call(app, 'GET', `/v1/${NS_PARENT}/endpointPolicies/alpha:getIamPolicy?options.requestedPolicyVersion=3`));
    expect(alpha.iamPolicy.etag).toBe(iam.etag);
    expect(alpha.iamRevision).toBe(1);
    expect(alpha.iamUpdateTime).toEqual(expect.any(String));
    expect(first.endpointPolicies[1].iamPolicy).toEqual({ etag: 'ACAB' });
    expect(first.nextPageToken).toEqual(expect.any(String));

    const second = ok(await call(app, 'GET', `${CONSOLE}/endpointPolicies?pageSize=2&pageToken=${first.nextPageToken}`));
    expect(second.endpointPolicies.map((p: any) => p.policy.name)).toEqual(['projects/p2/locations/global/endpointPolicies/gamma']);
    expect(second.nextPageToken).toBeUndefined();
    // A token of another list is refused.
    googleError(await call(app, 'GET', `${CONSOLE}/importJobs?pageToken=${first.nextPageToken}`), 400, 'INVALID_ARGUMENT');
  });

  test('import jobs list: state, times, payload without its data, report counts; paged', async () => {
    const all = ok(await call(app, 'GET', `${CONSOLE}/importJobs`));
    expect(all.importJobs.map((j: any) => j.name)).toEqual([jobName('big'), jobName('pending')]);
    const [big, pending] = all.importJobs;
    expect(big).toMatchObject({
      state: 'IMPORT_JOB_STATE_FAILED_VALIDATION',
      displayName: 'Big import',
      createTime: '2024-05-01T10:00:00.000Z',
      updateTime: '2024-05-01T10:05:00.000Z',
      payload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', path: 'gs://imports/big/' },
      validation: { rowErrors: 12, files: 2, bySeverity: { ERROR: 4, WARNING: 4, INFO: 4 } },
    });
    expect(big.validationReport).toBeUndefined();
    expect(pending.state).toBe('IMPORT_JOB_STATE_PENDING');
    expect(pending.payload.files).toEqual([{ name: 'vmInfo.csv', bytes: Buffer.byteLength(MIXED_CSV) }]);
    expect(JSON.stringify(pending)).not.toContain(Buffer.from(MIXED_CSV).toString('base64').slice(0, 40));
    expect(pending.validation).toBeUndefined();

    const page1 = ok(await call(app, 'GET', `${CONSOLE}/importJobs?pageSize=1`));
    expect(page1.importJobs).toHaveLength(1);
    const page2 = ok(await call(app, 'GET', `${CONSOLE}/importJobs?pageSize=1&pageToken=${page1.nextPageToken}`));
    expect(page2.importJobs.map((j: any) => j.name)).toEqual([jobName('pending')]);
    expect(page2.nextPageToken).toBeUndefined();
  });

  test('job details: per-file counts; an unknown job is 404 NOT_FOUND', async () => {
    const detail = ok(await call(app, 'GET', jobUrl('big')));
    expect(detail.validationReport.files).toEqual([
      { fileName: 'vmInfo.csv', partialReport: false, rowErrors: 7, bySeverity: { ERROR: 3, WARNING: 2, INFO: 2 }, fileErrors: [], fileErrorCount: 0 },
      { fileName: 'perfInfo.csv', partialReport: false, rowErrors: 5, bySeverity: { ERROR: 1, WARNING: 2, INFO: 2 }, fileErrors: [], fileErrorCount: 0 },
    ]);
    expect(detail.validationReport.rowErrorsBySeverity).toEqual({ ERROR: 4, WARNING: 4, INFO: 4 });
    expect(detail.executionReport).toBeUndefined();
    expect(JSON.stringify(detail)).not.toContain('vm-0'); // no row errors in the details

    const missing = googleError(await call(app, 'GET', jobUrl('nope')), 404, 'NOT_FOUND');
    expect(missing.message).toContain(jobName('nope'));
    expect(missing.details[0]).toMatchObject({ resourceType: 'migrationcenter.googleapis.com/ImportJob', resourceName: jobName('nope') });
    googleError(await call(app, 'GET', `${jobUrl('nope')}/rowErrors`), 404, 'NOT_FOUND');
    googleError(await call(app, 'GET', `${CONSOLE}/assets?importJob=${jobName('nope')}`), 404, 'NOT_FOUND');
    googleError(await call(app, 'GET', `${jobUrl('big')}:run`), 404, 'NOT_FOUND');
  });

  test('row errors: one line per error, paged by offset, filtered by file and severity', async () => {
    const first = ok(await call(app, 'GET', `${jobUrl('big')}/rowErrors?pageSize=5`));
    expect(first).toMatchObject({ name: jobName('big'), report: 'validation', reportPresent: true, offset: 0, pageSize: 5, totalSize: 12, nextOffset: 5 });
    expect(first.jobUpdateTime).toBe('2024-05-01T10:05:00.000Z');
    expect(first.severityCounts).toEqual({ ERROR: 4, WARNING: 4, INFO: 4 });
    expect(first.rowErrors[0]).toEqual({
      fileName: 'vmInfo.csv',
      rowNumber: 2,
      vmName: 'vm-0',
      vmUuid: 'uuid-0',
      severity: 'ERROR',
      errorDetails: 'MemoryGiB is not a number (line 0)',
    });
    expect(first.rowErrors.map((r: any) => r.vmName)).toEqual(['vm-0', 'vm-1', 'vm-2', 'vm-3', 'vm-4']);

    const last = ok(await call(app, 'GET', `${jobUrl('big')}/rowErrors?pageSize=5&offset=10`));
    expect(last.rowErrors.map((r: any) => r.vmName)).toEqual(['vm-10', 'vm-11']);
    expect(last.rowErrors[0].fileName).toBe('perfInfo.csv');
    expect(last.nextOffset).toBeUndefined();
    const beyond = ok(await call(app, 'GET', `${jobUrl('big')}/rowErrors?offset=100`));
    expect(beyond).toMatchObject({ totalSize: 12, rowErrors: [] });

    const byFile = ok(await call(app, 'GET', `${jobUrl('big')}/rowErrors?file=perfInfo.csv`));
    expect(byFile.totalSize).toBe(5);
    expect(byFile.severityCounts).toEqual({ ERROR: 1, WARNING: 2, INFO: 2 });
    expect(byFile.rowErrors.every((r: any) => r.fileName === 'perfInfo.csv')).toBe(true);

    const bySeverity = ok(await call(app, 'GET', `${jobUrl('big')}/rowErrors?severity=WARNING`));
    expect(bySeverity.totalSize).toBe(4);
    expect(bySeverity.severityCounts).toEqual({ ERROR: 4, WARNING: 4, INFO: 4 }); // the choices ignore the severity filter
    expect(bySeverity.rowErrors.map((r: any) => r.vmName)).toEqual(['vm-1', 'vm-4', 'vm-7', 'vm-10']);

    const both = ok(await call(app, 'GET', `${jobUrl('big')}/rowErrors?file=vmInfo.csv&severity=error&pageSize=2`));
    expect(both).toMatchObject({ file: 'vmInfo.csv', severity: 'ERROR', totalSize: 3, nextOffset: 2 });
    expect(both.rowErrors.map((r: any) => r.vmName)).toEqual(['vm-0', 'vm-3']);

    const noFile = ok(await call(app, 'GET', `${jobUrl('big')}/rowErrors?file=other.csv`));
    expect(noFile).toMatchObject({ totalSize: 0, rowErrors: [], severityCounts: { ERROR: 0, WARNING: 0, INFO: 0 } });

    // No execution report yet; the pending job has no validation report.
    expect(ok(await call(app, 'GET', `${jobUrl('big')}/rowErrors?report=execution`))).toMatchObject({ reportPresent: false, totalSize: 0, rowErrors: [] });
    expect(ok(await call(app, 'GET', `${jobUrl('pending')}/rowErrors`))).toMatchObject({ reportPresent: false, totalSize: 0 });
  });

  test('bad row-error queries are INVALID_ARGUMENT naming the parameter', async () => {
    for (const [query, field] of [
      ['severity=FATAL', 'severity'],
      ['report=both', 'report'],
      ['offset=-1', 'offset'],
      ['offset=abc', 'offset'],
      ['offset=1e3', 'offset'],
      ['offset=1.5', 'offset'],
      ['pageSize=-5', 'pageSize'],
      ['file=a&file=b', 'file'],
    ]) {
      const err = googleError(await call(app, 'GET', `${jobUrl('big')}/rowErrors?${query}`), 400, 'INVALID_ARGUMENT');
      expect(err.details.find((d: any) => d.fieldViolations)?.fieldViolations[0].field).toBe(field);
    }
    // Larger than the largest page is served as the largest page.
    expect(ok(await call(app, 'GET', `${jobUrl('big')}/rowErrors?pageSize=100000`)).pageSize).toBe(500);
  });

  test("a job's details and row-error pages read its record once while nothing is written; the next page after a write reads the new report", async () => {
    // A report of 100,000 row errors is a 15 MB record: reading it for each page parsed it each time.
    const gets = jest.spyOn(app.emulator.store, 'get');
    const readsOfBig = () => gets.mock.calls.filter(([collection, key]) => collection === COLLECTIONS.importJobs && key === jobName('big')).length;
    try {
      expect(ok(await call(app, 'GET', jobUrl('big'))).validationReport.files).toHaveLength(2);
      // bigReport's lines: vmInfo.csv 0-6, perfInfo.csv 7-11, line i of severity ERROR, WARNING, INFO as i % 3.
      const pages: Array<[string, string[]]> = [
        ['pageSize=5', ['vm-0', 'vm-1', 'vm-2', 'vm-3', 'vm-4']],
        ['pageSize=5&offset=5', ['vm-5', 'vm-6', 'vm-7', 'vm-8', 'vm-9']],
        ['file=perfInfo.csv', ['vm-7', 'vm-8', 'vm-9', 'vm-10', 'vm-11']],
        ['file=perfInfo.csv&severity=INFO', ['vm-8', 'vm-11']],
        ['severity=ERROR&pageSize=2&offset=1', ['vm-3', 'vm-6']],
        ['file=perfInfo.csv&severity=INFO&offset=1', ['vm-11']],
      ];
      for (const [query, vmNames] of pages) {
        expect(ok(await call(app, 'GET', `${jobUrl('big')}/rowErrors?${query}`)).rowErrors.map((r: any) => r.vmName)).toEqual(vmNames);
      }
      expect(readsOfBig()).toBe(1);

      // The job seeded again with another report: the next page is of that one.
      ok(await call(app, 'POST', '/emulator/v1/seed', { importJobs: [bigJobSeed('big', { 'other.csv': 3 })] }));
      const after = ok(await call(app, 'GET', `${jobUrl('big')}/rowErrors`));
      expect(after.rowErrors.map((r: any) => [r.fileName, r.vmName])).toEqual([
        ['other.csv', 'vm-0'],
        ['other.csv', 'vm-1'],
        ['other.csv', 'vm-2'],
      ]);
      expect(after.severityCounts).toEqual({ ERROR: 1, WARNING: 1, INFO: 1 });
      expect(readsOfBig()).toBe(2);
    } finally {
      gets.mockRestore();
    }
  });
});

describe('a validated inline manual CSV and its execution', () => {
  beforeEach(() => {
    app = sharedAppOfFile();
  });

  test('the bad rows of a real validation; the execution report and the assets of a run', async () => {
    const failed = await createValidated('mixed', { 'vmInfo.csv': MIXED_CSV });
    expect(failed.state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
    const rows = ok(await call(app, 'GET', `${jobUrl('mixed')}/rowErrors`));
    expect(rows.rowErrors.map((r: any) => [r.rowNumber, r.vmName, r.severity])).toEqual([
      [4, 'bad-1', 'ERROR'],
      [5, 'warn-1', 'WARNING'],
    ]);
    expect(rows.rowErrors[0].errorDetails).toContain('AllocatedProcessorCoreCount');

    // A source of its own: a job's assets are reported by its source.
    const goodSource = `${MC_PARENT}/sources/good`;
    const done = await createValidated('good', { 'vmInfo.csv': GOOD_CSV }, true, goodSource);
    expect(done.state).toBe('IMPORT_JOB_STATE_COMPLETED');
    const detail = ok(await call(app, 'GET', jobUrl('good')));
    expect(detail).toMatchObject({ state: 'IMPORT_JOB_STATE_COMPLETED', completeTime: done.completeTime });
    expect(detail.executionReport).toMatchObject({ framesReported: 3, totalRowsCount: 3 });
    const exec = ok(await call(app, 'GET', `${jobUrl('good')}/rowErrors?report=execution`));
    expect(exec.reportPresent).toBe(true);

    const assets = ok(await call(app, 'GET', `${CONSOLE}/assets?importJob=${jobName('good')}`));
    expect(assets.reporter).toBe(goodSource);
    expect(assets.assets.map((a: any) => a.virtualMachineDetails.vmName).sort()).toEqual(['app-1', 'app-2', 'app-3']);
    expect(assets.assets.every((a: any) => a.performanceData === undefined)).toBe(true);
    // The failed job produced none.
    expect(ok(await call(app, 'GET', `${CONSOLE}/assets?importJob=${jobName('mixed')}`)).assets).toEqual([]);
    expect(ok(await call(app, 'GET', `${CONSOLE}/summary`))).toEqual({ endpointPolicies: 0, importJobs: 2, assets: 3 });
  });
});

describe("an opened row error's cells, read back from the job's files", () => {
  beforeEach(() => {
    app = sharedAppOfFile();
  });

  test('from an inline payload and from a data file; a row no report names is {}; bad queries name the parameter', async () => {
    await createValidated('mixed', { 'vmInfo.csv': MIXED_CSV });
    const bad = ok(await call(app, 'GET', `${jobUrl('mixed')}/rowCells?file=vmInfo.csv&row=4`));
    expect(bad.header[0]).toBe('MachineId');
    const cell = (row: any, column: string) => row.cells[row.header.indexOf(column)];
    expect([cell(bad, 'MachineName'), cell(bad, 'AllocatedProcessorCoreCount')]).toEqual(['bad-1', 'many']);
    expect(cell(ok(await call(app, 'GET', `${jobUrl('mixed')}/rowCells?file=vmInfo.csv&row=5`)), 'TotalDiskUsedGiB')).toBe('20');
    // Past the end, another file, another sheet, a row without an error: nothing to show.
    for (const q of ['file=vmInfo.csv&row=99', 'file=diskInfo.csv&row=2', 'file=vmInfo.csv&sheet=vInfo&row=4', 'file=vmInfo.csv&row=3']) {
      expect(ok(await call(app, 'GET', `${jobUrl('mixed')}/rowCells?${q}`))).toEqual({});
    }
    for (const [q, field] of [
      ['row=4', 'file'],
      ['file=vmInfo.csv', 'row'],
      ['file=vmInfo.csv&row=0', 'row'],
    ]) {
      const err = googleError(await call(app, 'GET', `${jobUrl('mixed')}/rowCells?${q}`), 400, 'INVALID_ARGUMENT');
      expect(err.details.find((d: any) => d.fieldViolations)?.fieldViolations[0].field).toBe(field);
    }
    googleError(await call(app, 'GET', `${jobUrl('nope')}/rowCells?file=vmInfo.csv&row=2`), 404, 'NOT_FOUND');

    // A data file: read from its uploaded bytes.
    ok(await mc.createJob(app, 'files', {}));
    const vm = ok(await mc.createDataFile(app, 'files', 'vm-info', { displayName: 'vmInfo.csv' })).response;
    ok(await mc.upload(app, vm.uploadFileInfo, MIXED_CSV));
    // Not validated yet: no report names a row, so none is read.
    expect(ok(await call(app, 'GET', `${CONSOLE}/${mc.jobName('files')}/rowCells?file=vmInfo.csv&row=4`))).toEqual({});
    await waitOperation(ok(await call(app, 'POST', `/v1alpha1/${mc.jobName('files')}:validate`, {})).name);
    expect(cell(ok(await call(app, 'GET', `${CONSOLE}/${mc.jobName('files')}/rowCells?file=vmInfo.csv&row=4`)), 'MachineName')).toBe('bad-1');
  });
});

describe("a job's import data files", () => {
  beforeEach(() => {
    app = sharedAppOfFile();
  });

  test('the job view lists them (display name, format, state, create time), never their signed URL', async () => {
    ok(await mc.createJob(app, 'files', {}));
    const vm = ok(await mc.createDataFile(app, 'files', 'vm-info', { displayName: 'vmInfo.csv' })).response;
    ok(await mc.upload(app, vm.uploadFileInfo, GOOD_CSV));
    ok(await mc.createDataFile(app, 'files', 'disk-info', { displayName: 'diskInfo.csv' }));
    const detail = ok(await call(app, 'GET', `${CONSOLE}/${mc.jobName('files')}`));
    expect(detail.dataFileCount).toBe(2);
    expect(detail.dataFiles.map((f: any) => [f.name, f.displayName, f.format, f.state])).toEqual([
      [`${mc.jobName('files')}/importDataFiles/disk-info`, 'diskInfo.csv', 'IMPORT_JOB_FORMAT_MANUAL_CSV', 'CREATING'],
      [`${mc.jobName('files')}/importDataFiles/vm-info`, 'vmInfo.csv', 'IMPORT_JOB_FORMAT_MANUAL_CSV', 'ACTIVE'],
    ]);
    expect(detail.dataFiles[0].createTime).toMatch(/Z$/);
    expect(JSON.stringify(detail)).not.toMatch(/signedUri|signature=/);
    // A job without data files says so with an empty list.
    ok(await mc.createJob(app, 'inline', { inlinePayload: inlinePayload({ 'vmInfo.csv': GOOD_CSV }) }));
    expect(ok(await call(app, 'GET', `${CONSOLE}/${mc.jobName('inline')}`))).toMatchObject({ dataFiles: [], dataFileCount: 0 });
    // The jobs list's payload of a job fed by data files: their format, names and count.
    const jobs = ok(await call(app, 'GET', `${CONSOLE}/importJobs`)).importJobs;
    expect(jobs.map((j: any) => [j.name, j.payload])).toEqual([
      [mc.jobName('files'), { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', dataFiles: ['diskInfo.csv', 'vmInfo.csv'], dataFileCount: 2 }],
      [mc.jobName('inline'), { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', files: [{ name: 'vmInfo.csv', bytes: Buffer.byteLength(GOOD_CSV) }] }],
    ]);
  });
});

describe('assets of one import', () => {
  /** What a run leaves on a job: its state and an execution report. */
  const RAN = { state: 'IMPORT_JOB_STATE_COMPLETED', executionReport: { framesReported: 1, totalRowsCount: 3 } };

  beforeEach(() => {
    app = sharedAppOfFile();
  });

  test('pages of the assets one reporter reported, scanning past the others', async () => {
    const source = `${MC_PARENT}/sources/uploads`;
    ok(
      await call(app, 'POST', '/emulator/v1/seed', {
        sources: [SOURCE_SEED, { name: source }],
        importJobs: [
          { name: jobName('with-source'), assetSource: source, inlinePayload: inlinePayload({ 'vmInfo.csv': GOOD_CSV }), ...RAN },
          { name: jobName('plain'), assetSource: MC_SOURCE, inlinePayload: inlinePayload({ 'vmInfo.csv': GOOD_CSV }), ...RAN },
          // The same source as `plain`, never run: it produced none of that source's assets.
          { name: jobName('never-ran'), assetSource: MC_SOURCE, inlinePayload: inlinePayload({ 'vmInfo.csv': GOOD_CSV }) },
        ],
      }),
    );
    const assets = new Assets(app.emulator.store);
    const machine = (id: string): Asset => ({ machineId: id, attributes: {}, labels: {}, virtualMachineDetails: { vmName: id } });
    // 1,200 assets of the plain job's source, and 7 of the other source spread among them (more than one scan chunk).
    app.emulator.store.transaction(() => {
      for (let i = 0; i < 1200; i++) assets.upsert(MC_PARENT, MC_SOURCE, [machine(`plain-${i}`)]);
      for (let i = 0; i < 7; i++) assets.upsert(MC_PARENT, source, [machine(`src-${i}`)]);
    });

    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = ok(await call(app, 'GET', `${CONSOLE}/assets?importJob=${jobName('with-source')}&pageSize=3${token ? `&pageToken=${token}` : ''}`));
      expect(page.reporter).toBe(source);
      expect(page.assets.length).toBeLessThanOrEqual(3);
      seen.push(...page.assets.map((a: any) => a.title));
      token = page.nextPageToken;
      pages++;
    } while (token);
    expect(seen.sort()).toEqual(['src-0', 'src-1', 'src-2', 'src-3', 'src-4', 'src-5', 'src-6']);
    expect(pages).toBe(3);

    expect(ok(await call(app, 'GET', `${CONSOLE}/assets?importJob=${jobName('never-ran')}&pageSize=500`))).toEqual({ assets: [], reporter: MC_SOURCE });
    const plain = ok(await call(app, 'GET', `${CONSOLE}/assets?importJob=${jobName('plain')}&pageSize=500`));
    expect(plain.assets).toHaveLength(500);
    expect(plain.nextPageToken).toEqual(expect.any(String));
    // Without importJob: every asset, paged; a token of one job's list does not fit another list.
    const everything = ok(await call(app, 'GET', `${CONSOLE}/assets?pageSize=10`));
    expect(everything.assets).toHaveLength(10);
    googleError(await call(app, 'GET', `${CONSOLE}/assets?pageToken=${plain.nextPageToken}`), 400, 'INVALID_ARGUMENT');
  });
});

describe('the seed helper', () => {
  test('bigReport builds what the seed stores', () => {
    const r = bigReport({ 'a.csv': 2 }) as any;
    expect(r.fileValidations[0].rowErrors.map((x: any) => x.errors[0].severity)).toEqual(['ERROR', 'WARNING']);
  });
});

describe('with --auth', () => {
  const AUTH = { tokens: { 'tok-alice': 'user:alice@example.com' }, adminTokens: ['tok-admin'] };
  const as = (token: string) => ({ authorization: `Bearer ${token}` });

  const sharedAppOfBlock = sharedApp(() => newApp({ auth: AUTH }), as('tok-admin'));
  beforeEach(() => {
    app = sharedAppOfBlock();
  });

  test('the JSON routes need an admin token', async () => {
    for (const url of [`${CONSOLE}/summary`, `${CONSOLE}/endpointPolicies`, `${CONSOLE}/importJobs`, `${jobUrl('x')}/rowErrors`, `${CONSOLE}/assets`]) {
      googleError(await call(app, 'GET', url), 401, 'UNAUTHENTICATED');
      googleError(await call(app, 'GET', url, undefined, as('tok-alice')), 403, 'PERMISSION_DENIED');
    }
    expect(ok(await call(app, 'GET', `${CONSOLE}/summary`, undefined, as('tok-admin')))).toEqual({ endpointPolicies: 0, importJobs: 0, assets: 0 });
    googleError(await call(app, 'GET', jobUrl('x'), undefined, as('tok-admin')), 404, 'NOT_FOUND');
  });

  test('the static page and every file it loads open without a token (they hold no data); its JSON routes still need an admin token', async () => {
    for (const file of STATIC_FILES) expect([file.url, (await call(app, 'GET', file.url)).status]).toEqual([file.url, 200]);
    googleError(await call(app, 'GET', `${CONSOLE}/summary`), 401, 'UNAUTHENTICATED');
  });
});

test('the console is a built-in service that can be left out (builtinServices)', async () => {
  const withoutConsole = newApp({ builtinServices: ['networkservices'] });
  try {
    googleError(await call(withoutConsole, 'GET', '/'), 404, 'NOT_FOUND');
    googleError(await call(withoutConsole, 'GET', `${CONSOLE}/summary`), 404, 'NOT_FOUND');
  } finally {
    await withoutConsole.close();
  }
});
