/**
 * Assets export jobs over the REST wire: create/get/list/delete/:run, the CSV behind the signed
 * download URL (rows checked against literals, the assets' times against the assets API), the
 * body rules, the filter, performance data and network dependency tables, paging through more
 * assets than one page, and signed URLs that were changed, expired or outlived their job.
 */
import * as fs from 'fs';
import type { FastifyInstance } from 'fastify';
import Papa from 'papaparse';
import {
  BASE,
  GOOD_VM_INFO,
  PARENT,
  act,
  call,
  createJob,
  googleError,
  inlinePayload,
  newApp,
  ok,
  tempDir,
  violations,
  waitOperation,
} from '../../support/migrationcenter';
import { migrationCenterOf } from '../../../backend-emulator/migrationcenter/routes';
import type { Asset } from '../../../backend-emulator/import-engine/asset';
import { sharedApp } from '../../support/app';

const JOB_TYPE = 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.AssetsExportJob';
const RUN_RESPONSE_TYPE = 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.RunAssetsExportJobResponse';
const CSV = { signedUriDestination: { fileFormat: 'CSV' } };
const jobPath = (id: string) => `${BASE}/assetsExportJobs/${id}`;

const INVENTORY_COLUMNS = [
  'name',
  'title',
  'createTime',
  'updateTime',
  'virtualMachineDetails.vmUuid',
  'virtualMachineDetails.vmName',
  'virtualMachineDetails.coreCount',
  'virtualMachineDetails.memoryMb',
  'virtualMachineDetails.powerState',
  'virtualMachineDetails.osFamily',
  'virtualMachineDetails.osName',
  'virtualMachineDetails.osVersion',
  'virtualMachineDetails.vmDisks.hddTotalCapacityBytes',
  'virtualMachineDetails.vmDisks.hddTotalFreeBytes',
  'virtualMachineDetails.vmNetwork.primaryIpAddress',
  'virtualMachineDetails.vmNetwork.primaryMacAddress',
  'sources',
  'labels',
  'attributes',
];

let app: FastifyInstance;
const mc = () => migrationCenterOf(app.emulator)!;

const sharedAppOfBlock = sharedApp(() => newApp());
beforeEach(async () => {
  app = sharedAppOfBlock();
  await app.ready();
});

/** Imports GOOD_VM_INFO (machines m-1 web-1 and m-2 db-1) through an import job. */
async function importTwoMachines(): Promise<void> {
  ok(await createJob(app, 'imp', { inlinePayload: inlinePayload({ 'vmInfo.csv': GOOD_VM_INFO }) }));
  await act(app, 'imp', 'validate');
  const [run] = await act(app, 'imp', 'run');
  expect(run.error).toBeUndefined();
}

async function createExport(id: string, body: Record<string, unknown>): Promise<any> {
  return ok(await call(app, 'POST', `${BASE}/assetsExportJobs?assetsExportJobId=${id}`, body)).response;
}

/** Runs a job and waits; returns the finished Operation. */
async function runExport(id: string, body: Record<string, unknown> = {}): Promise<any> {
  const op = ok(await call(app, 'POST', `${jobPath(id)}:run`, body));
  expect(op.done).toBeUndefined(); // not done: ProtoJSON leaves `false` out
  return waitOperation(app, op.name);
}

/** GETs a signed URL through inject (its path and query). */
async function download(uri: string) {
  const url = new URL(uri);
  return call(app, 'GET', `${url.pathname}${url.search}`);
}

function parseCsv(text: string): { header: string[]; rows: Record<string, string>[] } {
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  expect(parsed.errors).toEqual([]);
  return { header: parsed.meta.fields ?? [], rows: parsed.data };
}

/** Assets written straight through the assets domain (what an import would write). */
function putAssets(assets: Asset[]): void {
  app.emulator.store.transaction(() => mc().assets.upsert(PARENT, `${PARENT}/sources/direct`, assets));
}

function machine(id: string, over: Partial<Asset> = {}): Asset {
  return { machineId: id, attributes: {}, labels: {}, virtualMachineDetails: { vmUuid: id, vmName: `vm-${id}`, coreCount: 2, memoryMb: 4096 }, ...over };
}

describe('assets export jobs', () => {
  test('inventory: create, get, list, run, then the CSV through the signed URL', async () => {
    await importTwoMachines();
    const created = await createExport('inv', { inventory: {}, labels: { team: 'infra' }, ...CSV });
    expect(created).toEqual({
      '@type': JOB_TYPE,
      name: `${PARENT}/assetsExportJobs/inv`,
      createTime: expect.stringMatching(/Z$/),
      updateTime: created.createTime,
      labels: { team: 'infra' },
      inventory: {},
      signedUriDestination: { fileFormat: 'CSV' },
    });
    const { '@type': _type, ...job } = created;
    expect(ok(await call(app, 'GET', jobPath('inv')))).toEqual(job);
    expect(ok(await call(app, 'GET', `${BASE}/assetsExportJobs`))).toEqual({ assetsExportJobs: [job] });

    const done = await runExport('inv');
    expect(done.error).toBeUndefined();
    expect(done.metadata).toMatchObject({ verb: 'run', target: `${PARENT}/assetsExportJobs/inv` });
    expect(done.response['@type']).toBe(RUN_RESPONSE_TYPE);
    const execution = done.response.assetsExportJobExecution;
    expect(execution).toEqual({
      executionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      startTime: expect.stringMatching(/Z$/),
      endTime: expect.stringMatching(/Z$/),
      expireTime: expect.stringMatching(/Z$/),
      requestedAssetCount: 2,
      result: {
        outputFiles: {
          entries: [
            {
              csvOutputFile: { columnsCount: 19, rowCount: 2, signedUri: { file: 'inventory.csv', uri: expect.any(String) } },
              fileSizeBytes: expect.stringMatching(/^\d+$/),
            },
          ],
        },
        signedUris: { signedUris: [{ file: 'inventory.csv', uri: expect.any(String) }] },
      },
    });
    // Files and URLs last 24 hours after the execution ends.
    expect(Date.parse(execution.expireTime) - Date.parse(execution.endTime)).toBe(24 * 60 * 60 * 1000);
    const uri: string = execution.result.signedUris.signedUris[0].uri;
    expect(execution.result.outputFiles.entries[0].csvOutputFile.signedUri.uri).toBe(uri);
    expect(new URL(uri).pathname).toBe(`/downloads/${PARENT}/assetsExportJobs/inv/executions/${execution.executionId}/inventory.csv`);
    // The job lists the execution.
    expect(ok(await call(app, 'GET', jobPath('inv'))).recentExecutions).toEqual([execution]);

    const file = await download(uri);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toBe('attachment; filename="inventory.csv"');
    expect(String(Buffer.byteLength(file.raw))).toBe(execution.result.outputFiles.entries[0].fileSizeBytes);
    expect(file.raw.split('\r\n')[0]).toBe(INVENTORY_COLUMNS.join(','));
    const { header, rows } = parseCsv(file.raw);
    expect(header).toEqual(INVENTORY_COLUMNS);
    // Times come from the assets API, every other cell is a literal of the imported vmInfo.csv.
    const asset1 = ok(await call(app, 'GET', `${BASE}/assets/vm-m-1`));
    const asset2 = ok(await call(app, 'GET', `${BASE}/assets/vm-m-2`));
    const expected = (name: string, title: string, cores: string, memory: string, times: any) => ({
      name: `${PARENT}/assets/${name}`,
      title,
      createTime: times.createTime,
      updateTime: times.updateTime,
      'virtualMachineDetails.vmUuid': name.slice(3),
      'virtualMachineDetails.vmName': title,
      'virtualMachineDetails.coreCount': cores,
      'virtualMachineDetails.memoryMb': memory,
      'virtualMachineDetails.powerState': 'poweredOn',
      'virtualMachineDetails.osFamily': 'OS_FAMILY_LINUX',
      'virtualMachineDetails.osName': 'Ubuntu',
      'virtualMachineDetails.osVersion': '22.04',
      'virtualMachineDetails.vmDisks.hddTotalCapacityBytes': '107374182400',
      'virtualMachineDetails.vmDisks.hddTotalFreeBytes': '64424509440',
      'virtualMachineDetails.vmNetwork.primaryIpAddress': '10.0.0.1',
      'virtualMachineDetails.vmNetwork.primaryMacAddress': '00:11:22:33:44:55',
      sources: `${PARENT}/sources/src`,
      labels: '{}',
      attributes: expect.any(String),
    });
    expect(rows).toEqual([expected('vm-m-1', 'web-1', '2', '8192', asset1), expected('vm-m-2', 'db-1', '8', '32768', asset2)]);
    expect(JSON.parse(rows[0].attributes)).toEqual({
      HostingLocation: 'us-east-1',
      MachineTypeLabel: 'n1-standard-2',
      OsType: 'Linux',
      MachineStatus: 'Running',
      IsPhysical: 'false',
      MachineId: 'm-1',
    });
  });

  test('condition.filter selects the assets (the assets list syntax); a bad filter is refused at create', async () => {
    await importTwoMachines();
    await createExport('big', { inventory: {}, condition: { filter: 'virtualMachineDetails.coreCount > 4' }, ...CSV });
    const execution = (await runExport('big')).response.assetsExportJobExecution;
    expect(execution.requestedAssetCount).toBe(1);
    const { rows } = parseCsv((await download(execution.result.signedUris.signedUris[0].uri)).raw);
    expect(rows.map((r) => [r.name, r.title])).toEqual([[`${PARENT}/assets/vm-m-2`, 'db-1']]);

    // No asset matches: the file has its header and no row; the count (0) is left out, as ProtoJSON does.
    await createExport('none', { inventory: {}, condition: { filter: 'virtualMachineDetails.coreCount > 100' }, ...CSV });
    const empty = (await runExport('none')).response.assetsExportJobExecution;
    expect(empty.requestedAssetCount).toBeUndefined();
    expect(empty.result.outputFiles.entries[0].csvOutputFile).toEqual({ columnsCount: 19, signedUri: expect.any(Object) });
    expect((await download(empty.result.signedUris.signedUris[0].uri)).raw).toBe(`${INVENTORY_COLUMNS.join(',')}\r\n`);

    const bad = googleError(
      await call(app, 'POST', `${BASE}/assetsExportJobs?assetsExportJobId=bad`, { inventory: {}, condition: { filter: 'coreCount >' }, ...CSV }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(violations(bad).map((v) => v.field)).toEqual(['condition.filter']);
    googleError(await call(app, 'GET', jobPath('bad')), 404, 'NOT_FOUND');
  });

  test("a job reads its filter, and names its inventory's columns, in the version it was created through, whichever version runs it", async () => {
    putAssets([
      machine('small', {
        virtualMachineDetails: { vmUuid: 'small', vmName: 'small', coreCount: 2, memoryMb: 4096, powerState: 'poweredOn', osFamily: 'OS_FAMILY_LINUX' },
      }),
      machine('big', {
        virtualMachineDetails: { vmUuid: 'big', vmName: 'big', coreCount: 8, memoryMb: 4096, powerState: 'poweredOn', osFamily: 'OS_FAMILY_LINUX' },
      }),
    ]);
    const V1_BASE = BASE.replace('/v1alpha1/', '/v1/');
    ok(
      await call(app, 'POST', `${V1_BASE}/assetsExportJobs?assetsExportJobId=v1job`, {
        inventory: {},
        condition: { filter: 'machineDetails.coreCount > 4' },
        ...CSV,
      }),
    );
    ok(
      await call(app, 'POST', `${BASE}/assetsExportJobs?assetsExportJobId=alphajob`, {
        inventory: {},
        condition: { filter: 'virtualMachineDetails.coreCount > 4' },
        ...CSV,
      }),
    );
    // Each run through the other version.
    const runThrough = async (base: string, id: string) => {
      const op = ok(await call(app, 'POST', `${base}/assetsExportJobs/${id}:run`, {}));
      const done = await waitOperation(app, op.name);
      expect(done.error).toBeUndefined();
      const execution = done.response.assetsExportJobExecution;
      return { count: execution.requestedAssetCount, csv: parseCsv((await download(execution.result.signedUris.signedUris[0].uri)).raw) };
    };
    const v1 = await runThrough(BASE, 'v1job');
    const alpha = await runThrough(V1_BASE, 'alphajob');
    expect([v1.count, alpha.count]).toEqual([1, 1]);
    expect(alpha.csv.header).toEqual(INVENTORY_COLUMNS);
    // v1's paths of the same fields (machine-details.ts: vmUuid is uuid, osFamily guestOs.family, vmDisks disks, ...).
    const machineColumns = [
      'uuid',
      'machineName',
      'coreCount',
      'memoryMb',
      'powerState',
      'guestOs.family',
      'guestOs.osName',
      'guestOs.version',
      'disks.totalCapacityBytes',
      'disks.totalFreeBytes',
      'network.primaryIpAddress',
      'network.primaryMacAddress',
    ].map((p) => `machineDetails.${p}`);
    expect(v1.csv.header).toEqual(['name', 'title', 'createTime', 'updateTime', ...machineColumns, 'sources', 'labels', 'attributes']);
    // And v1's values: poweredOn is ACTIVE there.
    const [row] = v1.csv.rows;
    expect([row['machineDetails.uuid'], row['machineDetails.coreCount'], row['machineDetails.powerState'], row['machineDetails.guestOs.family']]).toEqual([
      'big',
      '8',
      'ACTIVE',
      'OS_FAMILY_LINUX',
    ]);
    expect(alpha.csv.rows.map((r) => [r['virtualMachineDetails.vmUuid'], r['virtualMachineDetails.powerState']])).toEqual([['big', 'poweredOn']]);
    // The job's version is a side record: gone with the job.
    ok(await call(app, 'DELETE', `${V1_BASE}/assetsExportJobs/v1job`));
    expect(app.emulator.store.get('migrationcenter.assetsExportJobVersions', `${PARENT}/assetsExportJobs/v1job`)).toBeUndefined();
    expect(app.emulator.store.get('migrationcenter.assetsExportJobVersions', `${PARENT}/assetsExportJobs/alphajob`)).toBe('v1alpha1');
  });

  test.each([
    ['no export type', 'id=j', { ...CSV }, 'inventory'],
    ['two export types', 'id=j', { inventory: {}, performanceData: {}, ...CSV }, 'performanceData'],
    ['no destination', 'id=j', { inventory: {} }, 'signedUriDestination'],
    ['no file format', 'id=j', { inventory: {}, signedUriDestination: {} }, 'signedUriDestination.fileFormat'],
    ['an unknown file format', 'id=j', { inventory: {}, signedUriDestination: { fileFormat: 'PDF' } }, 'signedUriDestination.fileFormat'],
    ['XLSX (not emulated)', 'id=j', { inventory: {}, signedUriDestination: { fileFormat: 'XLSX' } }, 'signedUriDestination.fileFormat'],
    ['a negative maxDays', 'id=j', { performanceData: { maxDays: -1 }, ...CSV }, 'performanceData.maxDays'],
    ['a bad label key', 'id=j', { inventory: {}, labels: { Team: 'x' }, ...CSV }, 'labels.Team'],
    ['an unknown field', 'id=j', { inventory: {}, format: 'CSV', ...CSV }, 'assets_export_job'],
    ['no id', '', { inventory: {}, ...CSV }, 'assetsExportJobId'],
    ['a bad id', 'id=Bad_Id', { inventory: {}, ...CSV }, 'assetsExportJobId'],
  ])('create refuses %s, naming the field', async (_what, query, body, field) => {
    const url = `${BASE}/assetsExportJobs${query ? `?${query.replace('id=', 'assetsExportJobId=')}` : ''}`;
    const err = googleError(await call(app, 'POST', url, body), 400, 'INVALID_ARGUMENT');
    expect(violations(err).map((v) => v.field)).toContain(field);
    expect(ok(await call(app, 'GET', `${BASE}/assetsExportJobs`))).toEqual({});
  });

  test('performance data: one row per asset and day, the most recent maxDays (unset: all of 3 days, under the default 40)', async () => {
    const usage = (average: number) => ({ average, median: average, ninteyFifthPercentile: average + 1, peak: average + 2 });
    const day = (d: number, cpu: number) => ({
      date: { year: 2026, month: 3, day: d },
      cpu: { utilizationPercentage: usage(cpu) },
      memory: { utilizationPercentage: usage(50) },
    });
    putAssets([machine('p-1', { performanceData: { dailyResourceUsageAggregations: [day(1, 10), day(2, 20), day(3, 30)] } }), machine('p-2')]);

    await createExport('perf2', { performanceData: { maxDays: 2 }, ...CSV });
    const execution = (await runExport('perf2')).response.assetsExportJobExecution;
    expect(execution.requestedAssetCount).toBe(2);
    expect(execution.result.outputFiles.entries[0].csvOutputFile).toMatchObject({ columnsCount: 30, rowCount: 2, signedUri: { file: 'performance-data.csv' } });
    const { header, rows } = parseCsv((await download(execution.result.signedUris.signedUris[0].uri)).raw);
    expect(header.slice(0, 8)).toEqual([
      'name',
      'date',
      'cpu.utilizationPercentage.average',
      'cpu.utilizationPercentage.median',
      'cpu.utilizationPercentage.ninteyFifthPercentile',
      'cpu.utilizationPercentage.peak',
      'memory.utilizationPercentage.average',
      'memory.utilizationPercentage.median',
    ]);
    expect(header.slice(-4)).toEqual([
      'network.egressBps.average',
      'network.egressBps.median',
      'network.egressBps.ninteyFifthPercentile',
      'network.egressBps.peak',
    ]);
    const pick = (r: Record<string, string>) => [
      r.name,
      r.date,
      r['cpu.utilizationPercentage.average'],
      r['cpu.utilizationPercentage.peak'],
      r['memory.utilizationPercentage.ninteyFifthPercentile'],
      r['disk.iops.average'],
    ];
    expect(rows.map(pick)).toEqual([
      [`${PARENT}/assets/vm-p-1`, '2026-03-02', '20', '22', '51', ''],
      [`${PARENT}/assets/vm-p-1`, '2026-03-03', '30', '32', '51', ''],
    ]);

    await createExport('perf', { performanceData: {}, ...CSV });
    const all = (await runExport('perf')).response.assetsExportJobExecution;
    const allRows = parseCsv((await download(all.result.signedUris.signedUris[0].uri)).raw).rows;
    expect(allRows.map((r) => r.date)).toEqual(['2026-03-01', '2026-03-02', '2026-03-03']);
  });

  test('network dependencies: one row per connection a guest OS scan reported', async () => {
    const connections = {
      entries: [
        {
          localIpAddress: '10.0.0.5',
          localPort: 443,
          remoteIpAddress: '10.0.0.9',
          remotePort: 51000,
          protocol: 'tcp',
          state: 'ESTABLISHED',
          pid: '42',
          processName: 'nginx',
        },
        { localIpAddress: '10.0.0.5', localPort: 5432, remoteIpAddress: '10.0.1.2', protocol: 'tcp' },
      ],
    };
    const details = { vmUuid: 'n-1', vmName: 'web', guestOs: { runtime: { networkInfo: { connections } } } };
    putAssets([machine('n-1', { virtualMachineDetails: details as Asset['virtualMachineDetails'] }), machine('n-2')]);
    await createExport('net', { networkDependencies: {}, ...CSV });
    const execution = (await runExport('net')).response.assetsExportJobExecution;
    const text = (await download(execution.result.signedUris.signedUris[0].uri)).raw;
    expect(text.split('\r\n')).toEqual([
      'name,localIpAddress,localPort,remoteIpAddress,remotePort,protocol,state,pid,processName',
      `${PARENT}/assets/vm-n-1,10.0.0.5,443,10.0.0.9,51000,tcp,ESTABLISHED,42,nginx`,
      `${PARENT}/assets/vm-n-1,10.0.0.5,5432,10.0.1.2,,tcp,,,`,
      '',
    ]);
  });

  test('cells with commas, quotes and line breaks are quoted as RFC 4180 says', async () => {
    putAssets([machine('q-1', { labels: { env: 'prod' }, virtualMachineDetails: { vmUuid: 'q-1', vmName: 'say "hi", then\nleave', coreCount: 1 } })]);
    await createExport('quotes', { inventory: {}, ...CSV });
    const execution = (await runExport('quotes')).response.assetsExportJobExecution;
    const text = (await download(execution.result.signedUris.signedUris[0].uri)).raw;
    expect(text).toContain(`${PARENT}/assets/vm-q-1,"say ""hi"", then\nleave",`);
    const { rows } = parseCsv(text);
    expect([rows[0].title, rows[0]['virtualMachineDetails.vmName'], rows[0].labels]).toEqual([
      'say "hi", then\nleave',
      'say "hi", then\nleave',
      '{"env":"prod"}',
    ]);
  });

  test('more assets than a page: every one exported once, in name order', async () => {
    const ids = Array.from({ length: 2_345 }, (_, i) => `m-${String(i).padStart(5, '0')}`);
    putAssets(ids.map((id) => machine(id)));
    await createExport('many', { inventory: {}, ...CSV });
    const execution = (await runExport('many')).response.assetsExportJobExecution;
    expect(execution.requestedAssetCount).toBe(2_345);
    expect(execution.result.outputFiles.entries[0].csvOutputFile.rowCount).toBe(2_345);
    const { rows } = parseCsv((await download(execution.result.signedUris.signedUris[0].uri)).raw);
    expect(rows.map((r) => r.name)).toEqual(ids.map((id) => `${PARENT}/assets/vm-${id}`));
  }, 60_000);

  test('a second :run while one runs is FAILED_PRECONDITION; each run adds an execution', async () => {
    putAssets([machine('r-1')]);
    await createExport('twice', { inventory: {}, ...CSV });
    const jobs = mc().assetsExportJobs;
    const first = jobs.run(`${PARENT}/assetsExportJobs/twice`, PARENT, undefined, 'http://localhost:80');
    expect(() => jobs.run(`${PARENT}/assetsExportJobs/twice`, PARENT, undefined, 'http://localhost:80')).toThrow(/is running execution/);
    await waitOperation(app, first.name);
    const second = await runExport('twice');
    const executions = ok(await call(app, 'GET', jobPath('twice'))).recentExecutions;
    expect(executions.map((e: any) => e.executionId)).toEqual([expect.any(String), second.response.assetsExportJobExecution.executionId]);
    googleError(await call(app, 'POST', `${jobPath('missing')}:run`, {}), 404, 'NOT_FOUND');
    const unknown = googleError(await call(app, 'POST', `${jobPath('twice')}:run`, { force: true }), 400, 'INVALID_ARGUMENT');
    expect(unknown.message).toMatch(/Unknown name "force"/);
  });

  test('a :run with a requestId replays its Operation', async () => {
    putAssets([machine('i-1')]);
    await createExport('idem', { inventory: {}, ...CSV });
    const requestId = '0b7a4c36-6f1e-4c39-9a43-3f0f6a1e2d11';
    const first = ok(await call(app, 'POST', `${jobPath('idem')}:run`, { requestId }));
    const again = ok(await call(app, 'POST', `${jobPath('idem')}:run`, { requestId }));
    expect(again.name).toBe(first.name);
    await waitOperation(app, first.name);
    expect(ok(await call(app, 'GET', jobPath('idem'))).recentExecutions).toHaveLength(1);
  });

  test('signed URLs: a changed signature, path or method, a missing or an expired signature are refused with 403; a deleted job is 404', async () => {
    await importTwoMachines();
    await createExport('sig', { inventory: {}, ...CSV });
    const execution = (await runExport('sig')).response.assetsExportJobExecution;
    const uri = new URL(execution.result.signedUris.signedUris[0].uri);
    expect((await download(uri.href)).status).toBe(200);

    const signature = uri.searchParams.get('signature')!;
    const tampered = new URL(uri.href);
    tampered.searchParams.set('signature', `${signature[0] === 'a' ? 'b' : 'a'}${signature.slice(1)}`);
    const e1 = googleError(await download(tampered.href), 403, 'PERMISSION_DENIED');
    expect(e1.message).toMatch(/^The signature does not match this URL/);
    expect(e1.details).toEqual([expect.objectContaining({ reason: 'SIGNATURE_MISMATCH' })]);

    const otherFile = new URL(uri.href.replace('/inventory.csv?', '/performance-data.csv?'));
    googleError(await download(otherFile.href), 403, 'PERMISSION_DENIED');
    const later = new URL(uri.href);
    later.searchParams.set('expires', String(Number(uri.searchParams.get('expires')) + 3600));
    googleError(await download(later.href), 403, 'PERMISSION_DENIED');

    const unsigned = googleError(await call(app, 'GET', uri.pathname), 403, 'PERMISSION_DENIED');
    expect(unsigned.details).toEqual([expect.objectContaining({ reason: 'SIGNATURE_MISSING' })]);

    // A download URL is signed for GET: the same URL does not take a PUT.
    expect((await call(app, 'PUT', `${uri.pathname}${uri.search}`, 'x', { 'content-type': 'text/csv' })).status).toBe(404);

    const expired = new URL(
      mc().assetsExportJobs.urls.sign(uri.origin, `${PARENT}/assetsExportJobs/sig`, execution.executionId, 'inventory.csv', Date.now() - 1000),
    );
    const e3 = googleError(await download(expired.href), 403, 'PERMISSION_DENIED');
    expect(e3.message).toMatch(/^The download URL expired at /);
    expect(e3.details).toEqual([expect.objectContaining({ reason: 'URL_EXPIRED' })]);

    // Deleted: the job, its files and their URLs go (a done Operation with Empty).
    const deleted = ok(await call(app, 'DELETE', jobPath('sig')));
    expect(deleted).toMatchObject({ done: true, response: { '@type': 'type.googleapis.com/google.protobuf.Empty' } });
    googleError(await call(app, 'GET', jobPath('sig')), 404, 'NOT_FOUND');
    const gone = googleError(await download(uri.href), 404, 'NOT_FOUND');
    expect(gone.message).toMatch(/No export file/);
    expect(fs.readdirSync(mc().assetsExportJobs.files.root)).toEqual([]);
    googleError(await call(app, 'DELETE', jobPath('sig')), 404, 'NOT_FOUND');
  });
});

describe('assets export jobs across a restart', () => {
  test('the job, its execution, its file and its signed URL survive a restart with the same data dir', async () => {
    const dataDir = tempDir('mc-exports-');
    try {
      let disk = newApp({ dataDir, inMemory: false });
      await disk.ready();
      disk.emulator.store.transaction(() => migrationCenterOf(disk.emulator)!.assets.upsert(PARENT, `${PARENT}/sources/direct`, [machine('d-1')]));
      ok(await call(disk, 'POST', `${BASE}/assetsExportJobs?assetsExportJobId=kept`, { inventory: {}, ...CSV }));
      const op = ok(await call(disk, 'POST', `${jobPath('kept')}:run`, {}));
      const execution = (await waitOperation(disk, op.name)).response.assetsExportJobExecution;
      await disk.close();

      disk = newApp({ dataDir, inMemory: false });
      try {
        await disk.ready();
        expect(ok(await call(disk, 'GET', jobPath('kept'))).recentExecutions).toEqual([execution]);
        const url = new URL(execution.result.signedUris.signedUris[0].uri);
        const file = await call(disk, 'GET', `${url.pathname}${url.search}`);
        expect(file.status).toBe(200);
        expect(file.raw.split('\r\n')[1].startsWith(`${PARENT}/assets/vm-d-1,vm-d-1,`)).toBe(true);
      } finally {
        await disk.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
