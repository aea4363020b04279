/**
 * ListAssets filter, orderBy and paging, and assets:aggregateValues, through the wire: every
 * supported field compared as its type, keyset page tokens under concurrent imports, aggregations
 * against hand-computed answers.
 */
import type { FastifyInstance } from 'fastify';
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
  violations,
  VM_HEADER,
  vmRow,
} from '../../support/migrationcenter';
import { ASSET_FIELDS } from '../../../backend-emulator/store/asset-store';

const SRC_A = `${PARENT}/sources/a`;
const SRC_B = `${PARENT}/sources/b`;

/** Five machines: cores 2, 8, 16, 32, 4; memory 8, 32, 64, 128, 16 GiB; disks 50, 500, 2048, 100 GiB, none. */
const MACHINES = {
  a: vmRow('m-a', 'web-a', { AllocatedProcessorCoreCount: '2', MemoryGiB: '8', TotalDiskAllocatedGiB: '50', TotalDiskUsedGiB: '10' }),
  b: vmRow('m-b', 'db-b', { AllocatedProcessorCoreCount: '8', MemoryGiB: '32', TotalDiskAllocatedGiB: '500', TotalDiskUsedGiB: '10' }),
  c: vmRow('m-c', 'big-c', {
    AllocatedProcessorCoreCount: '16',
    MemoryGiB: '64',
    OsType: 'Windows',
    MachineStatus: 'Stopped',
    TotalDiskAllocatedGiB: '2048',
    TotalDiskUsedGiB: '10',
  }),
  d: vmRow('m-d', 'huge-d', { AllocatedProcessorCoreCount: '32', MemoryGiB: '128', OsType: 'Windows' }),
  e: vmRow('m-e', 'edge-e', { AllocatedProcessorCoreCount: '4', MemoryGiB: '16', TotalDiskAllocatedGiB: '', TotalDiskUsedGiB: '' }),
};
const GiB = 1024 ** 3;
const DISK = 'virtualMachineDetails.vmDisks.hddTotalCapacityBytes';
const TAGS = 'MachineId,Key,Value\nm-a,env,prod\nm-b,env,dev\nm-c,team,x\n';

/** Creates, validates and runs a job of `source` importing `rows` (and `tags`). */
async function importRows(app: FastifyInstance, id: string, source: string, rows: string[], tags?: string): Promise<void> {
  await ensureSource(app, source);
  const files: Record<string, string> = { 'vmInfo.csv': csv(VM_HEADER, ...rows) };
  if (tags) files['tagInfo.csv'] = tags;
  ok(await createJob(app, id, { assetSource: source, inlinePayload: inlinePayload(files) }));
  expect((await act(app, id, 'validate'))[1].state).toBe('IMPORT_JOB_STATE_READY');
  expect((await act(app, id, 'run'))[1].state).toBe('IMPORT_JOB_STATE_COMPLETED');
}

async function list(app: FastifyInstance, query: Record<string, string>): Promise<{ assets?: any[]; nextPageToken?: string }> {
  return ok(await call(app, 'GET', `${BASE}/assets?${new URLSearchParams(query).toString()}`));
}

/** The VM names a filter selects, sorted. */
async function vmNames(app: FastifyInstance, filter: string): Promise<string[]> {
  const page = await list(app, { filter, pageSize: '100' });
  return (page.assets ?? []).map((a) => a.virtualMachineDetails.vmName).sort();
}

let app: FastifyInstance;
let nameOf: Record<string, string>;

beforeAll(async () => {
  app = newApp();
  await importRows(app, 'j-a', SRC_A, [MACHINES.a, MACHINES.b, MACHINES.c, MACHINES.d], TAGS);
  await importRows(app, 'j-b', SRC_B, [MACHINES.b, MACHINES.e]);
  const all = await list(app, { pageSize: '100' });
  nameOf = Object.fromEntries((all.assets ?? []).map((a) => [a.virtualMachineDetails.vmName, a.name]));
});
afterAll(() => app.close());

describe('ListAssets filter', () => {
  test('numbers compare as numbers: coreCount > 8 selects the machines of 16 and 32 cores', async () => {
    expect(await vmNames(app, 'virtualMachineDetails.coreCount > 8')).toEqual(['big-c', 'huge-d']);
    expect(await vmNames(app, 'virtualMachineDetails.coreCount >= 8 AND virtualMachineDetails.memoryMb < 100000')).toEqual(['big-c', 'db-b']);
    expect(await vmNames(app, 'virtualMachineDetails.memoryMb <= 16384')).toEqual(['edge-e', 'web-a']);
  });

  test.each([
    ['virtualMachineDetails.coreCount = 16', ['big-c']],
    ['virtualMachineDetails.coreCount != 2', ['big-c', 'db-b', 'edge-e', 'huge-d']],
    ['virtualMachineDetails.coreCount < 4', ['web-a']],
    ['-virtualMachineDetails.coreCount > 8', ['db-b', 'edge-e', 'web-a']],
    ['NOT (virtualMachineDetails.coreCount > 8 OR virtualMachineDetails.coreCount = 2)', ['db-b', 'edge-e']],
    ['virtualMachineDetails.memoryMb = 65536', ['big-c']],
    ['virtualMachineDetails.vmName = "web-a"', ['web-a']],
    ['virtualMachineDetails.vmName = "*-d"', ['huge-d']],
    ['title:db*', ['db-b']],
    ['virtualMachineDetails.vmUuid = m-c', ['big-c']],
    ['virtualMachineDetails.osFamily = OS_FAMILY_WINDOWS', ['big-c', 'huge-d']],
    ['virtualMachineDetails.powerState = poweredOff', ['big-c']],
    [`${DISK} > ${100 * GiB}`, ['big-c', 'db-b']],
    [`${DISK} = ${100 * GiB}`, ['huge-d']],
    [`${DISK} <= ${100 * GiB}`, ['huge-d', 'web-a']],
    [`${DISK}:*`, ['big-c', 'db-b', 'huge-d', 'web-a']],
    [`NOT ${DISK}:*`, ['edge-e']],
    ['virtualMachineDetails.powerState != poweredOff', ['db-b', 'edge-e', 'huge-d', 'web-a']],
    ['labels.env = prod', ['web-a']],
    ['labels.env != prod', ['big-c', 'db-b', 'edge-e', 'huge-d']],
    ['labels:team', ['big-c']],
    // db-b was imported again by j-b, without tags: an import replaces the labels.
    ['labels:*', ['big-c', 'web-a']],
    ['NOT labels:*', ['db-b', 'edge-e', 'huge-d']],
    [`sources:"${SRC_B}"`, ['db-b', 'edge-e']],
    [`sources = "${SRC_A}" AND sources = "${SRC_B}"`, ['db-b']],
    ['createTime >= "2000-01-01T00:00:00Z"', ['big-c', 'db-b', 'edge-e', 'huge-d', 'web-a']],
    ['updateTime < "2000-01-01T00:00:00Z"', []],
  ])('%s', async (filter, expected) => {
    expect(await vmNames(app, filter)).toEqual(expected);
  });

  test('name: an exact lookup, and a name of another parent matches nothing', async () => {
    expect(await vmNames(app, `name = "${nameOf['db-b']}"`)).toEqual(['db-b']);
    expect(await vmNames(app, `name = "projects/other/locations/l/assets/x"`)).toEqual([]);
    expect(await vmNames(app, `name != "${nameOf['db-b']}"`)).toEqual(['big-c', 'edge-e', 'huge-d', 'web-a']);
  });

  test.each([
    ['virtualMachineDetails.coreCount > eight', 'virtualMachineDetails.coreCount is a number'],
    ['virtualMachineDetails.coreCount = 1*', "'*' patterns apply to text fields only"],
    ['attributes.MachineId = m-a', "unknown field 'attributes.MachineId'"],
    ['createTime > yesterday', 'is not a timestamp for createTime'],
    ['labels = x', "'labels' is a map"],
    ['sources > x', 'sources is a list of source names'],
  ])('%s is INVALID_ARGUMENT naming filter and the rule', async (filter, message) => {
    const error = googleError(await call(app, 'GET', `${BASE}/assets?filter=${encodeURIComponent(filter)}`), 400, 'INVALID_ARGUMENT');
    expect(violations(error)).toEqual([{ field: 'filter', description: expect.stringContaining(message) }]);
  });
});

describe('ListAssets orderBy and page tokens', () => {
  /** Every page of a query, by VM name. */
  async function allPages(query: Record<string, string>): Promise<string[]> {
    const out: string[] = [];
    let token: string | undefined;
    do {
      const page = await list(app, { ...query, ...(token ? { pageToken: token } : {}) });
      out.push(...(page.assets ?? []).map((a) => a.virtualMachineDetails.vmName));
      token = page.nextPageToken;
    } while (token);
    return out;
  }

  test.each([
    ['virtualMachineDetails.coreCount', ['web-a', 'edge-e', 'db-b', 'big-c', 'huge-d']],
    ['virtualMachineDetails.coreCount desc', ['huge-d', 'big-c', 'db-b', 'edge-e', 'web-a']],
    ['virtualMachineDetails.memoryMb desc', ['huge-d', 'big-c', 'db-b', 'edge-e', 'web-a']],
    ['virtualMachineDetails.vmName', ['big-c', 'db-b', 'edge-e', 'huge-d', 'web-a']],
    ['title desc', ['web-a', 'huge-d', 'edge-e', 'db-b', 'big-c']],
    ['virtualMachineDetails.vmUuid', ['web-a', 'db-b', 'big-c', 'huge-d', 'edge-e']],
    ['virtualMachineDetails.osFamily desc, virtualMachineDetails.coreCount', ['big-c', 'huge-d', 'web-a', 'edge-e', 'db-b']],
    // A machine without the field sorts first (NULL), last going down.
    [DISK, ['edge-e', 'web-a', 'huge-d', 'db-b', 'big-c']],
    [`${DISK} desc`, ['big-c', 'db-b', 'huge-d', 'web-a', 'edge-e']],
  ])('%s, in pages of 2', async (orderBy, expected) => {
    expect(await allPages({ orderBy, pageSize: '2' })).toEqual(expected);
  });

  test('ties (same powerState, same createTime) break on the name; every asset comes once', async () => {
    for (const orderBy of ['virtualMachineDetails.powerState', 'createTime desc', 'updateTime']) {
      const names = await allPages({ orderBy, pageSize: '2' });
      expect([...names].sort()).toEqual(['big-c', 'db-b', 'edge-e', 'huge-d', 'web-a']);
    }
  });

  test('an unknown orderBy field is INVALID_ARGUMENT naming orderBy', async () => {
    const error = googleError(await call(app, 'GET', `${BASE}/assets?orderBy=attributes`), 400, 'INVALID_ARGUMENT');
    expect(violations(error)[0]).toEqual({ field: 'orderBy', description: expect.stringContaining("unknown field 'attributes'") });
  });

  /** A token of the list `query` with its key replaced by `key` (the query hash kept, as a forger would). */
  async function forged(query: Record<string, string>, key: unknown[]): Promise<string> {
    const first = await list(app, { ...query, pageSize: '1' });
    const body = JSON.parse(Buffer.from(first.nextPageToken!, 'base64url').toString('utf8'));
    return Buffer.from(JSON.stringify({ ...body, k: key })).toString('base64url');
  }

  test.each([
    ['virtualMachineDetails.coreCount', [{}, 1]],
    ['virtualMachineDetails.coreCount', [true, 1]],
    ['virtualMachineDetails.coreCount', ['8', 1]],
    ['virtualMachineDetails.coreCount', [1.5, 1]],
    ['virtualMachineDetails.coreCount', [8, '1']],
    ['virtualMachineDetails.coreCount', [8, null]],
    ['virtualMachineDetails.coreCount', [8]],
    ['virtualMachineDetails.coreCount', [8, 1, 1]],
    ['virtualMachineDetails.vmName', [[], 1]],
    ['virtualMachineDetails.vmName', [7, 1]],
    ['createTime', [null, 1]],
    ['createTime', ['2024-01-01T00:00:00Z', 1]],
    ['name', [null, 1]],
    ['virtualMachineDetails.osFamily desc, virtualMachineDetails.coreCount', ['OS_FAMILY_LINUX', {}, 1]],
    ['virtualMachineDetails.osFamily desc, virtualMachineDetails.coreCount', [false, 8, 1]],
    ['', [{}]],
    ['', [1]],
    ['', [null]],
    ['', ['vm-m-a', 'x']],
  ])('orderBy "%s" with a forged key %j is INVALID_ARGUMENT naming pageToken', async (orderBy, key) => {
    const query = orderBy ? { orderBy } : ({} as Record<string, string>);
    const token = await forged(query, key);
    const error = googleError(await call(app, 'GET', `${BASE}/assets?${new URLSearchParams({ ...query, pageToken: token })}`), 400, 'INVALID_ARGUMENT');
    expect(violations(error)).toEqual([{ field: 'pageToken', description: expect.any(String) }]);
  });

  test('keys of the right types are served, NULL where the field may be missing', async () => {
    for (const [orderBy, key] of [
      ['virtualMachineDetails.coreCount', [null, 0]],
      ['virtualMachineDetails.coreCount desc', [1000, 1]],
      ['virtualMachineDetails.vmName', ['a', 0]],
      ['createTime', [0, 0]],
    ] as const) {
      const page = await list(app, { orderBy, pageToken: await forged({ orderBy }, [...key]) });
      expect(page.assets).toHaveLength(5);
    }
  });

  test('a page token stays valid while assets are imported between pages: nothing repeats, nothing after the cursor is missed', async () => {
    const own = newApp();
    try {
      await importRows(own, 'first', SRC_A, Object.values(MACHINES));
      const query = { orderBy: 'virtualMachineDetails.coreCount', filter: 'virtualMachineDetails.coreCount >= 2', pageSize: '2' };
      const first = await list(own, query);
      expect(first.assets!.map((a) => a.virtualMachineDetails.vmName)).toEqual(['web-a', 'edge-e']);
      // One machine sorts before the cursor (1 core), one after it (12 cores).
      await importRows(own, 'second', SRC_A, [
        vmRow('m-f', 'tiny-f', { AllocatedProcessorCoreCount: '1' }),
        vmRow('m-g', 'mid-g', { AllocatedProcessorCoreCount: '12' }),
      ]);
      const rest: string[] = [];
      let token = first.nextPageToken;
      while (token) {
        const page = await list(own, { ...query, pageToken: token });
        rest.push(...page.assets!.map((a) => a.virtualMachineDetails.vmName));
        token = page.nextPageToken;
      }
      expect(rest).toEqual(['db-b', 'mid-g', 'big-c', 'huge-d']);
      // The token is bound to its query.
      const other = googleError(await call(own, 'GET', `${BASE}/assets?pageToken=${first.nextPageToken}`), 400, 'INVALID_ARGUMENT');
      expect(violations(other)[0].field).toBe('pageToken');
    } finally {
      await own.close();
    }
  });
});

describe('assets:aggregateValues', () => {
  const aggregate = async (body: unknown) => call(app, 'POST', `${BASE}/assets:aggregateValues`, body);

  test('count, sum, histogram and frequency over every asset, as computed by hand', async () => {
    const res = ok(
      await aggregate({
        aggregations: [
          { field: 'virtualMachineDetails.vmName', count: {} },
          { field: 'virtualMachineDetails.coreCount', sum: {} },
          { field: 'virtualMachineDetails.memoryMb', histogram: { lowerBounds: [10000, 50000] } },
          { field: 'virtualMachineDetails.osFamily', frequency: {} },
        ],
      }),
    );
    expect(res).toEqual({
      results: [
        { field: 'virtualMachineDetails.vmName', count: { value: '5' } },
        { field: 'virtualMachineDetails.coreCount', sum: { value: 62 } },
        {
          field: 'virtualMachineDetails.memoryMb',
          histogram: {
            buckets: [
              { lowerBound: '-Infinity', upperBound: 10000, count: '1' },
              { lowerBound: 10000, upperBound: 50000, count: '2' },
              { lowerBound: 50000, upperBound: 'Infinity', count: '2' },
            ],
          },
        },
        { field: 'virtualMachineDetails.osFamily', frequency: { values: { OS_FAMILY_LINUX: '3', OS_FAMILY_WINDOWS: '2' } } },
      ],
    });
  });

  /** The wire value of a dotted field of an asset as listed (undefined when it is not set). */
  const valueAt = (asset: any, field: string): unknown => field.split('.').reduce((o, key) => (o === undefined ? undefined : o[key]), asset);

  test.each(Object.keys(ASSET_FIELDS))('frequency of %s counts each value as the asset writes it on the wire', async (field) => {
    const assets = (await list(app, { pageSize: '100' })).assets!;
    const expected: Record<string, string> = {};
    for (const asset of assets) {
      const value = valueAt(asset, field);
      if (value !== undefined) expected[String(value)] = String(Number(expected[String(value)] ?? 0) + 1);
    }
    expect(Object.keys(expected).length).toBeGreaterThan(0);
    const res = ok(await aggregate({ aggregations: [{ field, frequency: {} }] }));
    expect(res.results).toEqual([{ field, frequency: { values: expected } }]);
  });

  test('frequency keys of the times are RFC 3339 and of name full resource names: each is a filter value that selects its assets', async () => {
    for (const field of ['name', 'createTime', 'updateTime']) {
      const res = ok(await aggregate({ aggregations: [{ field, frequency: {} }] }));
      for (const [value, count] of Object.entries(res.results[0].frequency.values as Record<string, string>)) {
        expect(value).toMatch(field === 'name' ? new RegExp(`^${PARENT}/assets/`) : /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
        expect(await vmNames(app, `${field} = "${value}"`)).toHaveLength(Number(count));
      }
    }
  });

  test('the disk capacity (int64) counts, sums and buckets as a number', async () => {
    const res = ok(
      await aggregate({
        aggregations: [
          { field: DISK, count: {} },
          { field: DISK, sum: {} },
          { field: DISK, histogram: { lowerBounds: [100 * GiB, 1024 * GiB] } },
        ],
      }),
    );
    expect(res.results).toEqual([
      { field: DISK, count: { value: '4' } },
      { field: DISK, sum: { value: (50 + 500 + 2048 + 100) * GiB } },
      {
        field: DISK,
        histogram: {
          buckets: [
            { lowerBound: '-Infinity', upperBound: 100 * GiB, count: '1' },
            { lowerBound: 100 * GiB, upperBound: 1024 * GiB, count: '2' },
            { lowerBound: 1024 * GiB, upperBound: 'Infinity', count: '1' },
          ],
        },
      },
    ]);
  });

  test('the filter selects the aggregated assets; an empty selection leaves the defaults out', async () => {
    const res = ok(
      await aggregate({
        filter: 'virtualMachineDetails.coreCount > 8',
        aggregations: [
          { field: 'virtualMachineDetails.coreCount', count: {} },
          { field: 'virtualMachineDetails.coreCount', sum: {} },
        ],
      }),
    );
    expect(res.results).toEqual([
      { field: 'virtualMachineDetails.coreCount', count: { value: '2' } },
      { field: 'virtualMachineDetails.coreCount', sum: { value: 48 } },
    ]);
    const none = ok(
      await aggregate({ filter: 'virtualMachineDetails.coreCount > 1000', aggregations: [{ field: 'virtualMachineDetails.coreCount', count: {} }] }),
    );
    expect(none.results).toEqual([{ field: 'virtualMachineDetails.coreCount', count: {} }]);
  });

  test.each([
    [{ aggregations: [{ count: {} }] }, 'aggregations[0].field', 'is required'],
    [{ aggregations: [{ field: 'nope', count: {} }] }, 'aggregations[0].field', "unknown field 'nope'"],
    [{ aggregations: [{ field: 'virtualMachineDetails.osFamily', sum: {} }] }, 'aggregations[0].field', 'sum needs a numeric field'],
    [{ aggregations: [{ field: 'virtualMachineDetails.coreCount', sum: {}, count: {} }] }, 'aggregations[0]', 'exactly one of'],
    [
      { aggregations: [{ field: 'virtualMachineDetails.coreCount', histogram: { lowerBounds: [5, 2] } }] },
      'aggregations[0].histogram.lowerBounds',
      'strictly increasing',
    ],
    [{ aggregations: Array.from({ length: 26 }, () => ({ field: 'name', count: {} })) }, 'aggregations', 'at most 25'],
    [{ filter: 5, aggregations: [{ field: 'name', count: {} }] }, 'filter', 'must be a string'],
    [{ showHidden: 'yes', aggregations: [{ field: 'name', count: {} }] }, 'showHidden', 'must be true or false'],
    [{ aggregations: [], colour: 'blue' }, '', 'Unknown name "colour"'],
    [[1, 2], '', 'must be a JSON object, not a list'],
    [5, '', 'must be a JSON object, not a number'],
  ])('%j is INVALID_ARGUMENT naming %s', async (body, field, description) => {
    const error = googleError(await aggregate(body), 400, 'INVALID_ARGUMENT');
    // The request itself (field "") is a default ProtoJSON leaves out.
    expect(violations(error)).toEqual([{ ...(field ? { field } : {}), description: expect.stringContaining(description) }]);
  });
});
