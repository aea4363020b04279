/**
 * `assets:reportAssetFrames` over the REST wire: frames become the same assets as imports (one
 * identity rule), a bad frame becomes an error frame of its source (counted in
 * `errorFrameCount`) without failing the call, and `sources.errorFrames` get/list serve them;
 * `relations` list and get (no frame carries a relation: always empty).
 */
import type { FastifyInstance } from 'fastify';
import { migrationcenter } from 'googleapis-latest/build/src/apis/migrationcenter';
import { startEmulator, type RunningEmulator } from '../../../backend-emulator';
import {
  act,
  BASE,
  call,
  createJob,
  csv,
  ensureSource,
  googleError,
  inlinePayload,
  newApp,
  ok,
  PARENT,
  SOURCE,
  violations,
  VM_HEADER,
  vmRow,
} from '../../support/migrationcenter';
import { sharedApp } from '../../support/app';

const REPORT = `${BASE}/assets:reportAssetFrames?source=${encodeURIComponent(SOURCE)}`;
const UUID_1 = '4a0c8e2b-1f3d-4c5e-9a7b-2d4f6e8a0c1e';

function vmFrame(uuid: string, name: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { virtualMachineDetails: { vmUuid: uuid, vmName: name, coreCount: 4, memoryMb: 8192, powerState: 'poweredOn' }, ...over };
}

async function report(app: FastifyInstance, frames: unknown[]): Promise<any> {
  return ok(await call(app, 'POST', REPORT, { framesData: frames }));
}

let app: FastifyInstance;
const sharedAppOfBlock = sharedApp(() => newApp());
beforeEach(async () => {
  app = sharedAppOfBlock();
  await ensureSource(app);
});

describe('reportAssetFrames', () => {
  test('a good frame becomes an asset reported by the source; the answer is the empty response', async () => {
    expect(await report(app, [vmFrame(UUID_1, 'web-1', { labels: { env: 'prod' }, attributes: { rack: 'r1' } })])).toEqual({});
    const assets = ok(await call(app, 'GET', `${BASE}/assets`)).assets;
    expect(assets).toHaveLength(1);
    const asset = assets[0];
    expect(asset.name).toBe(`${PARENT}/assets/vm-${UUID_1}`);
    expect(asset.title).toBe('web-1');
    expect(asset.labels).toEqual({ env: 'prod' });
    expect(asset.attributes).toEqual({ rack: 'r1', MachineId: UUID_1 });
    expect(asset.sources).toEqual([SOURCE]);
    expect(asset.virtualMachineDetails).toEqual({ vmUuid: UUID_1, vmName: 'web-1', coreCount: 4, memoryMb: 8192, powerState: 'poweredOn' });
    // Nothing failed: no error frame, and the counters stay at their default (left out on the wire).
    const source = ok(await call(app, 'GET', `/v1alpha1/${SOURCE}`));
    expect([source.errorFrameCount, source.pendingFrameCount]).toEqual([undefined, undefined]);
  });

  test('a machine imported and then reported is one asset: the frame updates it and its source joins its sources', async () => {
    const other = `${PARENT}/sources/import-src`;
    await ensureSource(app, other);
    ok(await createJob(app, 'j1', { assetSource: other, inlinePayload: inlinePayload({ 'vmInfo.csv': csv(VM_HEADER, vmRow(UUID_1, 'web-1')) }) }));
    await act(app, 'j1', 'validate');
    expect((await act(app, 'j1', 'run'))[1].state).toBe('IMPORT_JOB_STATE_COMPLETED');
    const imported = ok(await call(app, 'GET', `${BASE}/assets`)).assets[0];
    await report(app, [vmFrame(UUID_1, 'web-1-renamed')]);
    const assets = ok(await call(app, 'GET', `${BASE}/assets`)).assets;
    expect(assets.map((a: any) => [a.name, a.title, a.createTime, a.sources])).toEqual([
      [imported.name, 'web-1-renamed', imported.createTime, [other, SOURCE]],
    ]);
  });

  test("performance samples become daily aggregations; a later frame's days replace those days only", async () => {
    const day = (offset: number) => new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - offset, 12));
    const at = (d: Date, hour: number) => new Date(d.getTime() + hour * 3_600_000).toISOString();
    const yesterday = day(1);
    const twoDaysAgo = day(2);
    await report(app, [
      vmFrame(UUID_1, 'web-1', {
        performanceSamples: [
          { sampleTime: at(twoDaysAgo, 0), cpu: { utilizedPercentage: 10 }, memory: { utilizedPercentage: 50 } },
          { sampleTime: at(twoDaysAgo, 1), cpu: { utilizedPercentage: 30 }, disk: { averageReadIops: 5, averageWriteIops: 7 } },
          { sampleTime: at(yesterday, 0), cpu: { utilizedPercentage: 40 }, network: { averageIngressBps: 100 } },
          // 41 days ago: outside Google's window of 40 days, ignored.
          { sampleTime: at(day(41), 0), cpu: { utilizedPercentage: 99 } },
        ],
      }),
    ]);
    const name = `/v1alpha1/${PARENT}/assets/vm-${UUID_1}?view=ASSET_VIEW_FULL`;
    const date = (d: Date) => ({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
    const first = ok(await call(app, 'GET', name)).performanceData.dailyResourceUsageAggregations;
    expect(first).toEqual([
      {
        date: date(twoDaysAgo),
        cpu: { utilizationPercentage: { average: 20, median: 20, ninteyFifthPercentile: 30, peak: 30 } },
        memory: { utilizationPercentage: { average: 50, median: 50, ninteyFifthPercentile: 50, peak: 50 } },
        disk: {
          iops: { average: 12, median: 12, ninteyFifthPercentile: 12, peak: 12 },
          readIops: { average: 5, median: 5, ninteyFifthPercentile: 5, peak: 5 },
          writeIops: { average: 7, median: 7, ninteyFifthPercentile: 7, peak: 7 },
        },
      },
      {
        date: date(yesterday),
        cpu: { utilizationPercentage: { average: 40, median: 40, ninteyFifthPercentile: 40, peak: 40 } },
        network: { ingressBps: { average: 100, median: 100, ninteyFifthPercentile: 100, peak: 100 } },
      },
    ]);
    await report(app, [vmFrame(UUID_1, 'web-1', { performanceSamples: [{ sampleTime: at(yesterday, 2), cpu: { utilizedPercentage: 60 } }] })]);
    const second = ok(await call(app, 'GET', name)).performanceData.dailyResourceUsageAggregations;
    expect(second).toEqual([
      first[0],
      { date: date(yesterday), cpu: { utilizationPercentage: { average: 60, median: 60, ninteyFifthPercentile: 60, peak: 60 } } },
    ]);
  });

  test('bad frames become error frames of the source, the good ones of the same call are written', async () => {
    await report(app, [
      vmFrame('uuid-bad', 'neg', { virtualMachineDetails: { vmUuid: 'uuid-bad', coreCount: -1 } }),
      vmFrame(UUID_1, 'good'),
      { virtualMachineDetails: { vmName: 'no-id' }, performanceSamples: [{ cpu: { utilizedPercentage: 140 } }] },
      { databaseDetails: { databaseName: 'orders' } },
    ]);
    expect(ok(await call(app, 'GET', `${BASE}/assets`)).assets.map((a: any) => a.title)).toEqual(['good']);
    const source = ok(await call(app, 'GET', `/v1alpha1/${SOURCE}`));
    expect(source.errorFrameCount).toBe(3);
    const list = ok(await call(app, 'GET', `/v1alpha1/${SOURCE}/errorFrames`));
    expect(list.errorFrames.map((f: any) => f.violations)).toEqual([
      [{ field: 'virtualMachineDetails.coreCount', violation: 'must be at least 0' }],
      [
        { field: 'performanceSamples[0].cpu.utilizedPercentage', violation: 'must be at most 100' },
        { field: 'virtualMachineDetails.vmUuid', violation: 'is required (or attributes.MachineId): it identifies the machine' },
      ],
      [
        {
          field: 'databaseDetails',
          violation: 'the emulator keeps virtual machine assets only: report the machine in virtualMachineDetails (machineDetails in v1)',
        },
      ],
    ]);
    for (const frame of list.errorFrames) {
      expect(frame.name).toMatch(new RegExp(`^${SOURCE}/errorFrames/ef-[0-9a-z]{9}-[0-9a-z]{4}-[0-9a-f]{8}$`));
      expect(frame.originalFrame).toBeUndefined();
      expect(Number.isNaN(Date.parse(frame.ingestionTime))).toBe(false);
    }
    // FULL carries the frame as it was sent; get agrees with list.
    const full = ok(await call(app, 'GET', `/v1alpha1/${list.errorFrames[2].name}?view=ERROR_FRAMES_VIEW_FULL`));
    expect(full.originalFrame).toEqual({ databaseDetails: { databaseName: 'orders' } });
    const basic = ok(await call(app, 'GET', `/v1alpha1/${list.errorFrames[2].name}`));
    expect(basic).toEqual(list.errorFrames[2]);
    const page = ok(await call(app, 'GET', `/v1alpha1/${SOURCE}/errorFrames?pageSize=2&view=ERROR_FRAMES_VIEW_FULL`));
    expect(page.errorFrames.map((f: any) => f.name)).toEqual(list.errorFrames.slice(0, 2).map((f: any) => f.name));
    const rest = ok(await call(app, 'GET', `/v1alpha1/${SOURCE}/errorFrames?pageSize=2&view=ERROR_FRAMES_VIEW_FULL&pageToken=${page.nextPageToken}`));
    expect(rest.errorFrames.map((f: any) => f.name)).toEqual([list.errorFrames[2].name]);
    expect(rest.nextPageToken).toBeUndefined();
  });

  test('a deleted source takes its error frames along; the same name created again starts clean', async () => {
    await report(app, [{ virtualMachineDetails: { vmName: 'no-id' } }]);
    const [frame] = ok(await call(app, 'GET', `/v1alpha1/${SOURCE}/errorFrames`)).errorFrames;
    ok(await call(app, 'DELETE', `/v1alpha1/${SOURCE}`));
    googleError(await call(app, 'GET', `/v1alpha1/${SOURCE}/errorFrames`), 404, 'NOT_FOUND');
    await ensureSource(app);
    expect(ok(await call(app, 'GET', `/v1alpha1/${SOURCE}/errorFrames`))).toEqual({});
    googleError(await call(app, 'GET', `/v1alpha1/${frame.name}`), 404, 'NOT_FOUND');
  });

  test('the whole call is refused for a missing or foreign source and for what the JSON front end cannot parse', async () => {
    const bad = async (url: string, body: unknown) => violations(googleError(await call(app, 'POST', url, body), 400, 'INVALID_ARGUMENT'));
    expect(await bad(`${BASE}/assets:reportAssetFrames`, { framesData: [] })).toEqual([
      { field: 'source', description: 'is required: the name of the source reporting the frames' },
    ]);
    expect(await bad(`${BASE}/assets:reportAssetFrames?source=src`, { framesData: [] })).toEqual([
      { field: 'source', description: 'must be projects/{project}/locations/{location}/sources/{source}' },
    ]);
    expect(await bad(`${BASE}/assets:reportAssetFrames?source=projects/p1/locations/europe-west1/sources/src`, {})).toEqual([
      { field: 'source', description: `must be a source of ${PARENT}, the call's project and location` },
    ]);
    expect(await bad(REPORT, { framesData: [{ virtualMachineDetails: { vmUuid: 'x', cores: 2 } }] })).toEqual([
      {
        field: 'frames.frames_data[0].virtual_machine_details',
        description: 'Invalid JSON payload received. Unknown name "cores" at \'frames.frames_data[0].virtual_machine_details\': Cannot find field.',
      },
    ]);
    expect(await bad(REPORT, { framesData: [{ virtualMachineDetails: { vmUuid: 'x', coreCount: '2x' } }] })).toEqual([
      { field: 'framesData[0].virtualMachineDetails.coreCount', description: 'must be of type integer, not a string' },
    ]);
    expect(await bad(REPORT, { frames: [] })).toEqual([
      { field: 'frames', description: 'Invalid JSON payload received. Unknown name "frames" at \'frames\': Cannot find field.' },
    ]);
    const missing = googleError(
      await call(app, 'POST', `${BASE}/assets:reportAssetFrames?source=${PARENT}/sources/nope`, { framesData: [] }),
      404,
      'NOT_FOUND',
    );
    expect(missing.message).toContain(`${PARENT}/sources/nope`);
    // Nothing was written by any refused call.
    expect(ok(await call(app, 'GET', `${BASE}/assets`))).toEqual({});
    expect(ok(await call(app, 'GET', `/v1alpha1/${SOURCE}/errorFrames`))).toEqual({});
  });

  test("through v1alpha1, a frame's machineDetails (revision 188 lists it) is the machine a v1 frame's would be; with virtualMachineDetails too, an error frame", async () => {
    const machine = { uuid: UUID_1, machineName: 'web-1', coreCount: 4, memoryMb: 8192, powerState: 'SUSPENDED', guestOs: { family: 'OS_FAMILY_LINUX' } };
    expect(
      await report(app, [
        { machineDetails: machine, labels: { tier: 'web' } },
        { virtualMachineDetails: { vmUuid: 'two' }, machineDetails: { uuid: 'two' } },
      ]),
    ).toEqual({});
    const [asset] = ok(await call(app, 'GET', `${BASE}/assets`)).assets;
    // Stored as v1alpha1 spells the machine (machine-details.ts: uuid is vmUuid, SUSPENDED the first of
    // poweredOff and suspended, guestOs.family the flat osFamily), and read back through v1 as it was sent.
    expect([asset.name, asset.virtualMachineDetails]).toEqual([
      `${PARENT}/assets/vm-${UUID_1}`,
      { vmUuid: UUID_1, vmName: 'web-1', coreCount: 4, memoryMb: 8192, powerState: 'poweredOff', osFamily: 'OS_FAMILY_LINUX' },
    ]);
    expect(ok(await call(app, 'GET', `/v1/${asset.name}`)).machineDetails).toEqual(machine);
    const { errorFrames } = ok(await call(app, 'GET', `/v1alpha1/${SOURCE}/errorFrames`));
    expect(errorFrames.map((f: any) => f.violations)).toEqual([
      [{ field: 'machineDetails', violation: 'report the machine once: in virtualMachineDetails or in machineDetails, not both' }],
    ]);
    // A value v1's PowerState has not is refused as the parser refuses it, at the field the request named.
    const refused = googleError(
      await call(app, 'POST', REPORT, { framesData: [{ machineDetails: { uuid: 'x', powerState: 'poweredOn' } }] }),
      400,
      'INVALID_ARGUMENT',
    );
    expect(violations(refused)).toEqual([{ field: 'frames.frames_data[0].machine_details.power_state', description: expect.stringContaining('poweredOn') }]);
  });

  test("through v1, a frame naming v1alpha1's details is refused as Google's parser refuses an unknown name; error frames read through v1 show v1's", async () => {
    // v1's AssetFrame has machineDetails, not virtualMachineDetails (googleapis 188).
    const v1Report = `/v1/${PARENT}/assets:reportAssetFrames?source=${encodeURIComponent(SOURCE)}`;
    const refused = googleError(await call(app, 'POST', v1Report, { framesData: [vmFrame(UUID_1, 'web-1')] }), 400, 'INVALID_ARGUMENT');
    const text = 'Invalid JSON payload received. Unknown name "virtualMachineDetails" at \'frames.frames_data[0]\': Cannot find field.';
    expect([refused.message, violations(refused)]).toEqual([text, [{ field: 'frames.frames_data[0]', description: text }]]);
    expect(ok(await call(app, 'GET', `/v1/${PARENT}/assets`))).toEqual({});

    // A frame reported through v1alpha1 with an error, read back through v1: its original frame and
    // its violation in v1's names (the empty uuid is a default, left out).
    await report(app, [vmFrame('', 'no-id', { labels: { tier: 'web' } })]);
    const { errorFrames } = ok(await call(app, 'GET', `/v1/${SOURCE}/errorFrames?view=ERROR_FRAMES_VIEW_FULL`));
    expect(errorFrames.map((f: any) => [f.originalFrame, f.violations])).toEqual([
      [
        { machineDetails: { machineName: 'no-id', coreCount: 4, memoryMb: 8192, powerState: 'ACTIVE' }, labels: { tier: 'web' } },
        [{ field: 'machineDetails.uuid', violation: 'is required (or attributes.MachineId): it identifies the machine' }],
      ],
    ]);
  });

  test('at most 1,000 frames a call: 1,001 are refused whole (nothing written), 1,000 become their error frames', async () => {
    // 340,000 empty frames (a 1 MiB body) were 340,000 stored error frames, 147 MB.
    const refused = googleError(await call(app, 'POST', REPORT, { framesData: Array.from({ length: 1_001 }, () => ({})) }), 400, 'INVALID_ARGUMENT');
    expect(violations(refused)).toEqual([{ field: 'framesData', description: 'must have at most 1000 entries' }]);
    expect(ok(await call(app, 'GET', `/v1alpha1/${SOURCE}`)).errorFrameCount).toBeUndefined();
    expect(
      await report(
        app,
        Array.from({ length: 1_000 }, () => ({})),
      ),
    ).toEqual({});
    expect(ok(await call(app, 'GET', `/v1alpha1/${SOURCE}`)).errorFrameCount).toBe(1_000);
  });

  test('errorFrames: an unknown view is INVALID_ARGUMENT; an unknown frame NOT_FOUND', async () => {
    const err = googleError(await call(app, 'GET', `/v1alpha1/${SOURCE}/errorFrames?view=FULLEST`), 400, 'INVALID_ARGUMENT');
    expect(violations(err)).toEqual([{ field: 'view', description: 'must be ERROR_FRAMES_VIEW_BASIC or ERROR_FRAMES_VIEW_FULL' }]);
    googleError(await call(app, 'GET', `/v1alpha1/${SOURCE}/errorFrames/ef-nope`), 404, 'NOT_FOUND');
  });
});

describe('relations', () => {
  test('the list is empty and a get is NOT_FOUND (no frame carries a relation); list rules still apply', async () => {
    await report(app, [vmFrame(UUID_1, 'web-1')]);
    expect(ok(await call(app, 'GET', `${BASE}/relations`))).toEqual({});
    expect(ok(await call(app, 'GET', `${BASE}/relations?filter=${encodeURIComponent('type = "x"')}&orderBy=createTime`))).toEqual({});
    const err = googleError(await call(app, 'GET', `${BASE}/relations/r1`), 404, 'NOT_FOUND');
    expect(err.message).toContain(`${PARENT}/relations/r1`);
    googleError(await call(app, 'GET', `${BASE}/relations?filter=${encodeURIComponent('nofield = 1')}`), 400, 'INVALID_ARGUMENT');
  });
});

describe("through Google's newest client (googleapis-latest)", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent' });
    await ensureSource(emulator.app);
  });
  afterAll(() => emulator.close());

  test('reportAssetFrames, errorFrames get/list and relations list answer what the client types say', async () => {
    // gaxios 7 loads node-fetch with a dynamic import(), which jest's module system refuses: Node's own fetch instead.
    const mc = migrationcenter({ version: 'v1alpha1', rootUrl: `${emulator.url}/`, retry: false, fetchImplementation: fetch });
    const locations = mc.projects.locations;
    const reported = await locations.assets.reportAssetFrames({
      parent: PARENT,
      source: SOURCE,
      requestBody: { framesData: [{ virtualMachineDetails: { vmUuid: UUID_1, vmName: 'web-1' } }, { virtualMachineDetails: { memoryMb: -5 } }] },
    });
    expect([reported.status, reported.data]).toEqual([200, {}]);
    const asset = await locations.assets.get({ name: `${PARENT}/assets/vm-${UUID_1}` });
    expect([asset.data.title, asset.data.sources]).toEqual(['web-1', [SOURCE]]);
    const frames = await locations.sources.errorFrames.list({ parent: SOURCE, view: 'ERROR_FRAMES_VIEW_FULL' });
    expect(frames.data.errorFrames?.map((f) => [f.originalFrame, f.violations])).toEqual([
      [
        { virtualMachineDetails: { memoryMb: -5 } },
        [
          { field: 'virtualMachineDetails.memoryMb', violation: 'must be at least 0' },
          { field: 'virtualMachineDetails.vmUuid', violation: 'is required (or attributes.MachineId): it identifies the machine' },
        ],
      ],
    ]);
    const one = await locations.sources.errorFrames.get({ name: frames.data.errorFrames![0].name! });
    expect(one.data.violations).toHaveLength(2);
    expect((await locations.sources.get({ name: SOURCE })).data.errorFrameCount).toBe(1);
    expect((await locations.relations.list({ parent: PARENT })).data).toEqual({});
  });
});
