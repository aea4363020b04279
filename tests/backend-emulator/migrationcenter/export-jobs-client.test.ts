/**
 * Export jobs through Google's newest client (`googleapis-latest`) against a listening emulator:
 * an import, an assets export job and a report export job created, read, listed and run through
 * the client, their CSV files downloaded with fetch through the signed URLs (rows checked against
 * literals), a tampered URL refused.
 */
import { migrationcenter } from 'googleapis-latest/build/src/apis/migrationcenter';
import Papa from 'papaparse';
import { startEmulator, type RunningEmulator } from '../../../backend-emulator';
import { GOOD_VM_INFO, b64 } from '../../support/migrationcenter';

jest.setTimeout(60_000);

const PARENT = 'projects/p1/locations/us-central1';
const REPORT = `${PARENT}/reportConfigs/rc/reports/r`;

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent' });
});
afterAll(() => emulator.close());

// gaxios 7 loads node-fetch with a dynamic import(), which jest's module system refuses: Node's own fetch instead.
const client = () => migrationcenter({ version: 'v1alpha1', rootUrl: `${emulator.url}/`, retry: false, fetchImplementation: fetch });

async function settled(mc: ReturnType<typeof client>, name: string): Promise<any> {
  for (let i = 0; i < 500; i++) {
    const op = (await mc.projects.locations.operations.get({ name })).data;
    if (op.done) return op;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`operation ${name} not done`);
}

test('assets and report export jobs: create, get, list, run, download through the signed URL', async () => {
  const mc = client();
  const loc = mc.projects.locations;
  await settled(mc, (await loc.sources.create({ parent: PARENT, sourceId: 'src', requestBody: { type: 'SOURCE_TYPE_UPLOAD' } })).data.name!);
  const importBody = {
    assetSource: `${PARENT}/sources/src`,
    inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: b64(GOOD_VM_INFO) }] },
  };
  await settled(mc, (await loc.importJobs.create({ parent: PARENT, importJobId: 'imp', requestBody: importBody })).data.name!);
  await settled(mc, (await loc.importJobs.validate({ name: `${PARENT}/importJobs/imp`, requestBody: {} })).data.name!);
  expect((await settled(mc, (await loc.importJobs.run({ name: `${PARENT}/importJobs/imp`, requestBody: {} })).data.name!)).error).toBeUndefined();

  const created = await settled(
    mc,
    (
      await loc.assetsExportJobs.create({
        parent: PARENT,
        assetsExportJobId: 'inv',
        requestBody: { inventory: {}, condition: { filter: 'virtualMachineDetails.vmName = "db-1"' }, signedUriDestination: { fileFormat: 'CSV' } },
      })
    ).data.name!,
  );
  expect(created.response.name).toBe(`${PARENT}/assetsExportJobs/inv`);
  expect((await loc.assetsExportJobs.get({ name: `${PARENT}/assetsExportJobs/inv` })).data.condition).toEqual({
    filter: 'virtualMachineDetails.vmName = "db-1"',
  });
  expect((await loc.assetsExportJobs.list({ parent: PARENT })).data.assetsExportJobs?.map((j) => j.name)).toEqual([`${PARENT}/assetsExportJobs/inv`]);

  const run = await settled(mc, (await loc.assetsExportJobs.run({ name: `${PARENT}/assetsExportJobs/inv`, requestBody: {} })).data.name!);
  const execution = run.response.assetsExportJobExecution;
  expect(execution.requestedAssetCount).toBe(1);
  const uri: string = execution.result.signedUris.signedUris[0].uri;
  expect(uri.startsWith(`${emulator.url}/downloads/`)).toBe(true);
  const res = await fetch(uri);
  expect(res.status).toBe(200);
  const rows = Papa.parse<Record<string, string>>(await res.text(), { header: true, skipEmptyLines: true }).data;
  expect(rows.map((r) => [r.name, r.title, r['virtualMachineDetails.coreCount'], r['virtualMachineDetails.memoryMb'], r.sources])).toEqual([
    [`${PARENT}/assets/vm-m-2`, 'db-1', '8', '32768', `${PARENT}/sources/src`],
  ]);
  const tampered = await fetch(uri.replace(/signature=([0-9a-f])/, (_m, c: string) => `signature=${c === '0' ? '1' : '0'}`));
  expect(tampered.status).toBe(403);
  expect(((await tampered.json()) as any).error).toMatchObject({
    status: 'PERMISSION_DENIED',
    details: [expect.objectContaining({ reason: 'SIGNATURE_MISMATCH' })],
  });

  // A report, written where the reports family keeps reports; its export job through the client.
  emulator.app.emulator.store.put('migrationcenter.reports', REPORT, {
    name: REPORT,
    state: 'SUCCEEDED',
    summary: { allAssetsStats: { totalAssets: '2', totalMemoryBytes: '42949672960' } },
  });
  const jobs = loc.reportConfigs.reports.reportExportJobs;
  await settled(mc, (await jobs.create({ parent: REPORT, reportExportJobId: 'x', requestBody: { signedUriDestination: { fileFormat: 'CSV' } } })).data.name!);
  expect((await jobs.get({ name: `${REPORT}/reportExportJobs/x` })).data).toEqual({
    name: `${REPORT}/reportExportJobs/x`,
    signedUriDestination: { fileFormat: 'CSV' },
  });
  expect((await jobs.list({ parent: REPORT })).data.reportExportJobs).toHaveLength(1);
  const reportRun = await settled(mc, (await jobs.run({ name: `${REPORT}/reportExportJobs/x`, requestBody: {} })).data.name!);
  const reportFile = await fetch(reportRun.response.reportExportExecution.result.signedUris.signedUris[0].uri);
  expect(await reportFile.text()).toBe('field,value\r\nallAssetsStats.totalAssets,2\r\nallAssetsStats.totalMemoryBytes,42949672960\r\n');
  await settled(mc, (await jobs.delete({ name: `${REPORT}/reportExportJobs/x` })).data.name!);
  await settled(mc, (await loc.assetsExportJobs.delete({ name: `${PARENT}/assetsExportJobs/inv` })).data.name!);
  expect((await fetch(uri)).status).toBe(404);
});
