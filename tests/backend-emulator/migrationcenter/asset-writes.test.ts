/**
 * What a user changes of assets over the REST wire: `assets.patch` (labels, attributes), `delete`,
 * `batchUpdate` and `batchDelete`; Google's client answers these directly (an Asset, Empty, the
 * updated assets), never an Operation.
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

const RID = '6f1c1b7e-4a1d-4c5e-9c1e-3a8f2b7d9e01';
/** The ids the import gives machines `m-1`..`m-3` (assets.ts `assetId`: `vm-{machineId}`). */
const A1 = `${PARENT}/assets/vm-m-1`;
const A2 = `${PARENT}/assets/vm-m-2`;
const A3 = `${PARENT}/assets/vm-m-3`;

async function importThree(app: FastifyInstance): Promise<void> {
  const payload = inlinePayload({ 'vmInfo.csv': csv(VM_HEADER, vmRow('m-1', 'one'), vmRow('m-2', 'two'), vmRow('m-3', 'three')) });
  ok(await createJob(app, 'j1', { inlinePayload: payload }));
  await act(app, 'j1', 'validate');
  expect((await act(app, 'j1', 'run'))[1].state).toBe('IMPORT_JOB_STATE_COMPLETED');
}

async function getAsset(app: FastifyInstance, name: string): Promise<any> {
  return ok(await call(app, 'GET', `/v1alpha1/${name}`));
}

async function assetNames(app: FastifyInstance): Promise<string[]> {
  return (ok(await call(app, 'GET', `${BASE}/assets?pageSize=100`)).assets ?? []).map((a: any) => a.name);
}

let app: FastifyInstance;
const sharedAppOfBlock = sharedApp(() => newApp());
beforeEach(async () => {
  app = sharedAppOfBlock();
  await importThree(app);
});

describe('assets.patch', () => {
  test('replaces the labels the mask names and answers the Asset itself, as GET then reads it', async () => {
    const before = await getAsset(app, A1);
    expect(before.labels).toBeUndefined();
    const patched = ok(await call(app, 'PATCH', `/v1alpha1/${A1}?updateMask=labels`, { labels: { env: 'prod', team: 'web' } }));
    expect(patched.name).toBe(A1);
    expect(patched.done).toBeUndefined();
    expect(patched.labels).toEqual({ env: 'prod', team: 'web' });
    expect(patched.createTime).toBe(before.createTime);
    expect(patched.virtualMachineDetails).toEqual(before.virtualMachineDetails);
    expect(patched.sources).toEqual([SOURCE]);
    const after = await getAsset(app, A1);
    expect(after.labels).toEqual({ env: 'prod', team: 'web' });
    expect(after.updateTime).toBe(patched.updateTime);
    // The label index follows: a filter on the new label finds the asset.
    const found = ok(await call(app, 'GET', `${BASE}/assets?filter=${encodeURIComponent('labels.env = prod')}`)).assets;
    expect(found.map((a: any) => a.name)).toEqual([A1]);
  });

  test('a key path (labels.KEY) sets or removes that key only; the other keys stay', async () => {
    ok(await call(app, 'PATCH', `/v1alpha1/${A1}?updateMask=labels`, { labels: { env: 'prod', team: 'web' } }));
    const set = ok(await call(app, 'PATCH', `/v1alpha1/${A1}?updateMask=labels.env`, { labels: { env: 'dev', team: 'ignored' } }));
    expect(set.labels).toEqual({ env: 'dev', team: 'web' });
    const removed = ok(await call(app, 'PATCH', `/v1alpha1/${A1}?updateMask=labels.team`, {}));
    expect(removed.labels).toEqual({ env: 'dev' });
    const none = ok(await call(app, 'PATCH', `/v1alpha1/${A1}?updateMask=labels`, {}));
    expect(none.labels).toBeUndefined();
    expect(ok(await call(app, 'GET', `${BASE}/assets?filter=${encodeURIComponent('labels:env')}`)).assets).toBeUndefined();
  });

  test('attributes are replaced as given, MachineId included (taken out, it stays out)', async () => {
    const before = await getAsset(app, A2);
    expect(before.attributes.MachineId).toBe('m-2');
    const patched = ok(await call(app, 'PATCH', `/v1alpha1/${A2}?updateMask=attributes`, { attributes: { owner: 'ops' } }));
    expect(patched.attributes).toEqual({ owner: 'ops' });
    expect((await getAsset(app, A2)).attributes).toEqual({ owner: 'ops' });
    const back = ok(await call(app, 'PATCH', `/v1alpha1/${A2}?updateMask=attributes.MachineId`, { attributes: { MachineId: 'm-2' } }));
    expect(back.attributes).toEqual({ owner: 'ops', MachineId: 'm-2' });
  });

  test('updateMask=* overwrites both labels and attributes', async () => {
    const patched = ok(await call(app, 'PATCH', `/v1alpha1/${A3}?updateMask=*`, { labels: { a: 'b' }, attributes: { k: 'v' } }));
    expect([patched.labels, patched.attributes]).toEqual([{ a: 'b' }, { k: 'v' }]);
  });

  test('refusals name the field and the rule; nothing changes', async () => {
    const noMask = googleError(await call(app, 'PATCH', `/v1alpha1/${A1}`, { labels: { a: 'b' } }), 400, 'INVALID_ARGUMENT');
    expect(violations(noMask).map((v) => v.field)).toEqual(['updateMask']);
    const outputOnly = googleError(await call(app, 'PATCH', `/v1alpha1/${A1}?updateMask=virtualMachineDetails`, {}), 400, 'INVALID_ARGUMENT');
    expect(violations(outputOnly)).toEqual([
      {
        field: 'updateMask',
        description: "'virtualMachineDetails' cannot be updated: updatable fields are labels, attributes (or one key under them, as labels.KEY)",
      },
    ]);
    const unknown = googleError(await call(app, 'PATCH', `/v1alpha1/${A1}?updateMask=labels`, { labelz: {} }), 400, 'INVALID_ARGUMENT');
    expect(violations(unknown)).toEqual([
      { field: 'asset', description: 'Invalid JSON payload received. Unknown name "labelz" at \'asset\': Cannot find field.' },
    ]);
    const badLabel = googleError(await call(app, 'PATCH', `/v1alpha1/${A1}?updateMask=labels`, { labels: { Env: 'x' } }), 400, 'INVALID_ARGUMENT');
    expect(violations(badLabel).map((v) => v.field)).toEqual(['labels.Env']);
    const badAttribute = googleError(await call(app, 'PATCH', `/v1alpha1/${A1}?updateMask=attributes`, { attributes: { n: 1 } }), 400, 'INVALID_ARGUMENT');
    expect(violations(badAttribute)).toEqual([{ field: 'attributes.n', description: 'must be of type string, not a number' }]);
    googleError(await call(app, 'PATCH', `${BASE}/assets/vm-missing?updateMask=labels`, { labels: {} }), 404, 'NOT_FOUND');
    expect((await getAsset(app, A1)).labels).toBeUndefined();
  });

  test('output-only fields sent back are ignored', async () => {
    const asset = await getAsset(app, A1);
    const patched = ok(await call(app, 'PATCH', `/v1alpha1/${A1}?updateMask=labels`, { ...asset, title: 'other', labels: { x: 'y' } }));
    expect(patched.title).toBe('one');
    expect(patched.labels).toEqual({ x: 'y' });
  });

  test('a repeated patch with its requestId answers the first result and changes nothing; another patch with the id is INVALID_ARGUMENT', async () => {
    const path = `/v1alpha1/${A1}?updateMask=labels&requestId=${RID}`;
    const first = ok(await call(app, 'PATCH', path, { labels: { env: 'prod' } }));
    ok(await call(app, 'PATCH', `/v1alpha1/${A1}?updateMask=labels`, { labels: { env: 'dev' } }));
    const again = ok(await call(app, 'PATCH', path, { labels: { env: 'prod' } }));
    expect(again).toEqual(first);
    expect((await getAsset(app, A1)).labels).toEqual({ env: 'dev' });
    const reused = googleError(await call(app, 'PATCH', path, { labels: { env: 'qa' } }), 400, 'INVALID_ARGUMENT');
    expect(violations(reused).map((v) => v.field)).toEqual(['requestId']);
  });
});

describe('assets.delete', () => {
  test('deletes the asset and answers Empty; a second delete is NOT_FOUND, a repeat with its requestId Empty again', async () => {
    expect(ok(await call(app, 'DELETE', `/v1alpha1/${A1}?requestId=${RID}`))).toEqual({});
    googleError(await call(app, 'GET', `/v1alpha1/${A1}`), 404, 'NOT_FOUND');
    expect(await assetNames(app)).toEqual([A2, A3]);
    expect(ok(await call(app, 'DELETE', `/v1alpha1/${A1}?requestId=${RID}`))).toEqual({});
    const again = googleError(await call(app, 'DELETE', `/v1alpha1/${A1}`), 404, 'NOT_FOUND');
    expect(again.message).toContain(A1);
  });

  test('a deleted asset leaves no label or source behind: filters on them do not find it', async () => {
    ok(await call(app, 'PATCH', `/v1alpha1/${A1}?updateMask=labels`, { labels: { env: 'prod' } }));
    ok(await call(app, 'DELETE', `/v1alpha1/${A1}`));
    expect(ok(await call(app, 'GET', `${BASE}/assets?filter=${encodeURIComponent('labels.env = prod')}`)).assets).toBeUndefined();
    const bySource = ok(await call(app, 'GET', `${BASE}/assets?filter=${encodeURIComponent(`sources:"${SOURCE}"`)}`)).assets;
    expect(bySource.map((a: any) => a.name)).toEqual([A2, A3]);
  });
});

describe('assets.batchUpdate', () => {
  test('applies every update and answers the updated assets in request order', async () => {
    const body = {
      requests: [
        { asset: { name: A3, labels: { tier: 'db' } }, updateMask: 'labels' },
        { asset: { name: A1, attributes: { owner: 'web' } }, updateMask: 'attributes' },
      ],
    };
    const res = ok(await call(app, 'POST', `${BASE}/assets:batchUpdate`, body));
    expect(res.assets.map((a: any) => [a.name, a.labels, a.attributes])).toEqual([
      [
        A3,
        { tier: 'db' },
        { HostingLocation: 'us-east-1', IsPhysical: 'false', MachineId: 'm-3', MachineStatus: 'Running', MachineTypeLabel: 'n1-standard-2', OsType: 'Linux' },
      ],
      [A1, undefined, { owner: 'web' }],
    ]);
    expect((await getAsset(app, A3)).labels).toEqual({ tier: 'db' });
  });

  test('one missing asset fails the whole batch: NOT_FOUND naming it, and no asset changes', async () => {
    const body = {
      requests: [
        { asset: { name: A1, labels: { a: 'b' } }, updateMask: 'labels' },
        { asset: { name: `${PARENT}/assets/vm-nope`, labels: { a: 'b' } }, updateMask: 'labels' },
      ],
    };
    const err = googleError(await call(app, 'POST', `${BASE}/assets:batchUpdate`, body), 404, 'NOT_FOUND');
    expect(err.message).toContain(`${PARENT}/assets/vm-nope`);
    expect((await getAsset(app, A1)).labels).toBeUndefined();
  });

  test('refusals: no requests, more than 1000, an asset twice, a name of another location, a missing mask', async () => {
    const fields = async (body: unknown) => violations(googleError(await call(app, 'POST', `${BASE}/assets:batchUpdate`, body), 400, 'INVALID_ARGUMENT'));
    expect(await fields({})).toEqual([{ field: 'requests', description: 'is required' }]);
    expect(await fields({ requests: [] })).toEqual([{ field: 'requests', description: 'must have at least one entry' }]);
    const many = Array.from({ length: 1001 }, () => ({ asset: { name: A1 }, updateMask: 'labels' }));
    expect(await fields({ requests: many })).toEqual([{ field: 'requests', description: 'must have at most 1000 entries' }]);
    const twice = { requests: [0, 1].map(() => ({ asset: { name: A1, labels: {} }, updateMask: 'labels' })) };
    expect(await fields(twice)).toEqual([
      { field: 'requests[1].asset.name', description: 'names the asset that requests[0] updates: each asset may be updated once in a batch' },
    ]);
    const elsewhere = { requests: [{ asset: { name: 'projects/p1/locations/europe-west1/assets/vm-m-1' }, updateMask: 'labels' }] };
    expect(await fields(elsewhere)).toEqual([{ field: 'requests[0].asset.name', description: `must be an asset of ${PARENT}: ${PARENT}/assets/{asset}` }]);
    expect((await fields({ requests: [{ asset: { name: A1 } }] })).map((v) => v.field)).toEqual(['requests[0].updateMask']);
    expect((await fields({ requests: [{ asset: { name: A1, bogus: 1 }, updateMask: 'labels' }] })).map((v) => v.field)).toEqual(['requests[0].asset']);
  });

  test('the labels written are the ones label filters find: a key kept, a key changed, a key dropped, a key added', async () => {
    ok(
      await call(app, 'POST', `${BASE}/assets:batchUpdate`, {
        requests: [A1, A2].map((name) => ({ asset: { name, labels: { keep: 'k', change: 'old', drop: 'd' } }, updateMask: 'labels' })),
      }),
    );
    const res = ok(
      await call(app, 'POST', `${BASE}/assets:batchUpdate`, {
        requests: [
          { asset: { name: A1, labels: { keep: 'k', change: 'new', add: 'a' } }, updateMask: 'labels' },
          // Attributes only: A2's labels stay as they were.
          { asset: { name: A2, attributes: { owner: 'web' } }, updateMask: 'attributes' },
        ],
      }),
    );
    expect(res.assets.map((a: any) => a.labels)).toEqual([
      { keep: 'k', change: 'new', add: 'a' },
      { keep: 'k', change: 'old', drop: 'd' },
    ]);
    const found = async (filter: string) =>
      (ok(await call(app, 'GET', `${BASE}/assets?filter=${encodeURIComponent(filter)}`)).assets ?? []).map((a: any) => a.name);
    expect(await found('labels.keep = k')).toEqual([A1, A2]);
    expect(await found('labels.change = new')).toEqual([A1]);
    expect(await found('labels.change = old')).toEqual([A2]);
    expect(await found('labels:drop')).toEqual([A2]);
    expect(await found('labels:add')).toEqual([A1]);
  });

  test('each request is checked against its own mask: a bad mask after a good one is named by its index', async () => {
    const body = {
      requests: [
        { asset: { name: A1, labels: { a: 'b' } }, updateMask: 'labels' },
        { asset: { name: A2, labels: { a: 'b' } }, updateMask: 'labels' },
        { asset: { name: A3, labels: { a: 'b' } }, updateMask: 'title' },
      ],
    };
    const found = violations(googleError(await call(app, 'POST', `${BASE}/assets:batchUpdate`, body), 400, 'INVALID_ARGUMENT'));
    expect(found.map((v) => v.field)).toEqual(['requests[2].updateMask']);
    expect((await getAsset(app, A1)).labels).toBeUndefined();
  });

  test("an update's requestId replays that update's first result", async () => {
    const request = { asset: { name: A1, labels: { env: 'prod' } }, updateMask: 'labels', requestId: RID };
    const first = ok(await call(app, 'POST', `${BASE}/assets:batchUpdate`, { requests: [request] }));
    ok(await call(app, 'PATCH', `/v1alpha1/${A1}?updateMask=labels`, { labels: { env: 'dev' } }));
    const again = ok(
      await call(app, 'POST', `${BASE}/assets:batchUpdate`, { requests: [request, { asset: { name: A2, labels: { x: 'y' } }, updateMask: 'labels' }] }),
    );
    expect(again.assets[0]).toEqual(first.assets[0]);
    expect(again.assets[1].labels).toEqual({ x: 'y' });
    expect((await getAsset(app, A1)).labels).toEqual({ env: 'dev' });
  });
});

describe('assets.batchDelete', () => {
  test('deletes every named asset and answers Empty', async () => {
    expect(ok(await call(app, 'POST', `${BASE}/assets:batchDelete`, { names: [A1, A3] }))).toEqual({});
    expect(await assetNames(app)).toEqual([A2]);
  });

  test('a missing asset is NOT_FOUND and nothing is deleted; with allowMissing the others are deleted', async () => {
    const missing = `${PARENT}/assets/vm-nope`;
    const err = googleError(await call(app, 'POST', `${BASE}/assets:batchDelete`, { names: [A1, missing] }), 404, 'NOT_FOUND');
    expect(err.message).toContain(missing);
    expect(await assetNames(app)).toEqual([A1, A2, A3]);
    expect(ok(await call(app, 'POST', `${BASE}/assets:batchDelete`, { names: [A1, missing], allowMissing: true }))).toEqual({});
    expect(await assetNames(app)).toEqual([A2, A3]);
  });

  test('refusals: no names, a name twice, a name of another location, a cascading rule without its rule', async () => {
    const fields = async (body: unknown) => violations(googleError(await call(app, 'POST', `${BASE}/assets:batchDelete`, body), 400, 'INVALID_ARGUMENT'));
    expect(await fields({ names: [] })).toEqual([{ field: 'names', description: 'must have at least one entry' }]);
    expect(await fields({ names: [A1, A1] })).toEqual([{ field: 'names[1]', description: 'repeats names[0]: each asset may be named once' }]);
    expect(await fields({ names: ['projects/p1/locations/europe-west1/assets/vm-m-1'] })).toEqual([
      { field: 'names[0]', description: `must be an asset of ${PARENT}: ${PARENT}/assets/{asset}` },
    ]);
    expect(await fields({ names: [A1], cascadingRules: [{}] })).toEqual([
      { field: 'cascadingRules[0]', description: 'must set exactly one rule (cascadeLogicalDbs)' },
    ]);
    expect(await assetNames(app)).toEqual([A1, A2, A3]);
    // A cascadeLogicalDbs rule is accepted: machines have no logical databases to cascade to.
    expect(ok(await call(app, 'POST', `${BASE}/assets:batchDelete`, { names: [A1], cascadingRules: [{ cascadeLogicalDbs: {} }] }))).toEqual({});
  });
});

describe("through Google's newest client (googleapis-latest)", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent' });
    await importThree(emulator.app);
  });
  afterAll(() => emulator.close());

  test('patch, batchUpdate, delete and batchDelete answer what the client types say', async () => {
    // gaxios 7 loads node-fetch with a dynamic import(), which jest's module system refuses: Node's own fetch instead.
    const mc = migrationcenter({ version: 'v1alpha1', rootUrl: `${emulator.url}/`, retry: false, fetchImplementation: fetch });
    const assets = mc.projects.locations.assets;
    const patched = await assets.patch({ name: A1, updateMask: 'labels', requestBody: { labels: { env: 'prod' } } });
    expect([patched.status, patched.data.name, patched.data.labels]).toEqual([200, A1, { env: 'prod' }]);
    const batch = await assets.batchUpdate({
      parent: PARENT,
      requestBody: { requests: [{ asset: { name: A2, attributes: { k: 'v' } }, updateMask: 'attributes' }] },
    });
    expect(batch.data.assets?.map((a) => [a.name, a.attributes])).toEqual([[A2, { k: 'v' }]]);
    expect((await assets.delete({ name: A1 })).data).toEqual({});
    expect((await assets.batchDelete({ parent: PARENT, requestBody: { names: [A2, A3] } })).data).toEqual({});
    expect((await assets.list({ parent: PARENT })).data).toEqual({});
  });
});
