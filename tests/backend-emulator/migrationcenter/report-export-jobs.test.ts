/**
 * Report export jobs over the REST wire. Reports are written straight into the store collection
 * the reports family keeps them in (`migrationcenter.reports`, keyed by name, the wire Report as
 * value): the export jobs read a report's summary from there.
 */
import type { FastifyInstance } from 'fastify';
import { BASE, PARENT, call, googleError, newApp, ok, violations, waitOperation } from '../../support/migrationcenter';
import { sharedApp } from '../../support/app';

const REPORT = `${PARENT}/reportConfigs/rc-1/reports/r-1`;
const JOBS = `/v1alpha1/${REPORT}/reportExportJobs`;
const SUMMARY = {
  allAssetsStats: { totalAssets: '3', totalCores: '10', coreCountHistogram: { buckets: [{ lowerBound: '0', upperBound: '4', count: '2' }] } },
  groupFindings: [{ displayName: 'web, "front"', preferenceSetFindings: [{ displayName: 'ps-1' }] }],
};

let app: FastifyInstance;
const sharedAppOfBlock = sharedApp(() => newApp());
beforeEach(async () => {
  app = sharedAppOfBlock();
  await app.ready();
  app.emulator.store.put('migrationcenter.reports', REPORT, { name: REPORT, state: 'SUCCEEDED', summary: SUMMARY });
});

describe('report export jobs', () => {
  test('create, get, list, run, then the summary CSV through the signed URL; delete with a requestId', async () => {
    const created = ok(await call(app, 'POST', `${JOBS}?reportExportJobId=x1`, { signedUriDestination: { fileFormat: 'CSV' } }));
    expect(created).toMatchObject({ done: true, metadata: { verb: 'create', target: `${REPORT}/reportExportJobs/x1` } });
    expect(created.name.startsWith(`${PARENT}/operations/`)).toBe(true);
    const job = { name: `${REPORT}/reportExportJobs/x1`, signedUriDestination: { fileFormat: 'CSV' } };
    expect(created.response).toEqual({ '@type': 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.ReportExportJob', ...job });
    expect(ok(await call(app, 'GET', `${JOBS}/x1`))).toEqual(job);
    expect(ok(await call(app, 'GET', JOBS))).toEqual({ reportExportJobs: [job] });

    const op = ok(await call(app, 'POST', `${JOBS}/x1:run`, {}));
    const done = await waitOperation(app, op.name);
    expect(done.response['@type']).toBe('type.googleapis.com/google.cloud.migrationcenter.v1alpha1.RunReportExportJobResponse');
    const execution = done.response.reportExportExecution;
    expect(execution).toMatchObject({ progressPercentage: 100, result: { outputFiles: { entries: [{ csvOutputFile: { columnsCount: 2, rowCount: 7 } }] } } });
    const url = new URL(execution.result.signedUris.signedUris[0].uri);
    expect(url.pathname).toBe(`/downloads/${REPORT}/reportExportJobs/x1/executions/${execution.executionId}/report-summary.csv`);
    const file = await call(app, 'GET', `${url.pathname}${url.search}`);
    expect(file.status).toBe(200);
    expect(file.raw.split('\r\n')).toEqual([
      'field,value',
      'allAssetsStats.totalAssets,3',
      'allAssetsStats.totalCores,10',
      'allAssetsStats.coreCountHistogram.buckets[0].lowerBound,0',
      'allAssetsStats.coreCountHistogram.buckets[0].upperBound,4',
      'allAssetsStats.coreCountHistogram.buckets[0].count,2',
      'groupFindings[0].displayName,"web, ""front"""',
      'groupFindings[0].preferenceSetFindings[0].displayName,ps-1',
      '',
    ]);
    // Tampered: refused before anything is looked up.
    const tampered = new URL(url.href);
    tampered.searchParams.set('signature', 'f'.repeat(64));
    const refused = googleError(await call(app, 'GET', `${tampered.pathname}${tampered.search}`), 403, 'PERMISSION_DENIED');
    expect(refused.details).toEqual([expect.objectContaining({ reason: 'SIGNATURE_MISMATCH' })]);

    const requestId = '7d0c1f9e-2b7a-4e55-9d55-1f6f0d3c2a10';
    const deleted = ok(await call(app, 'DELETE', `${JOBS}/x1?requestId=${requestId}`));
    expect(ok(await call(app, 'DELETE', `${JOBS}/x1?requestId=${requestId}`)).name).toBe(deleted.name);
    googleError(await call(app, 'GET', `${JOBS}/x1`), 404, 'NOT_FOUND');
    googleError(await call(app, 'GET', `${url.pathname}${url.search}`), 404, 'NOT_FOUND');
  });

  test('a missing report is NOT_FOUND at create; a report without a summary cannot run; a body needs its destination', async () => {
    const missing = googleError(
      await call(app, 'POST', `/v1alpha1/${PARENT}/reportConfigs/rc-1/reports/nope/reportExportJobs?reportExportJobId=x`, {
        signedUriDestination: { fileFormat: 'CSV' },
      }),
      404,
      'NOT_FOUND',
    );
    expect(missing.details).toEqual([
      expect.objectContaining({ resourceType: 'migrationcenter.googleapis.com/Report', resourceName: `${PARENT}/reportConfigs/rc-1/reports/nope` }),
    ]);

    const bad = googleError(await call(app, 'POST', `${JOBS}?reportExportJobId=x`, {}), 400, 'INVALID_ARGUMENT');
    expect(violations(bad).map((v) => v.field)).toEqual(['signedUriDestination']);

    ok(await call(app, 'POST', `${JOBS}?reportExportJobId=x`, { signedUriDestination: { fileFormat: 'CSV' } }));
    app.emulator.store.put('migrationcenter.reports', REPORT, { name: REPORT, state: 'PENDING' });
    const pending = googleError(await call(app, 'POST', `${JOBS}/x:run`, {}), 400, 'FAILED_PRECONDITION');
    expect(pending.message).toMatch(/has no summary yet/);
    expect(ok(await call(app, 'GET', `${JOBS}/x`)).recentExecutions).toBeUndefined();
    expect(ok(await call(app, 'GET', `${BASE}/operations`)).operations.filter((o: any) => o.metadata.verb === 'run')).toEqual([]);
  });
});
