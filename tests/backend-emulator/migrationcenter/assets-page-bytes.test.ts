/**
 * An `assets.list` page is bounded by bytes as well as by `pageSize`: assets with large
 * `attributes` end a page early, with a `nextPageToken` (AIP-158), and following the tokens lists
 * every asset once. The budget is 8 MiB of stored JSON (docs/emulator.md, known differences).
 */
import type { FastifyInstance } from 'fastify';
import { BASE, call, ensureSource, newApp, ok, SOURCE } from '../../support/migrationcenter';

const REPORT = `${BASE}/assets:reportAssetFrames?source=${encodeURIComponent(SOURCE)}`;
/** About the most attributes a frame can carry (the call's body is at most 1 MiB): 12 such assets are 12 MB, past one page's budget. */
const ATTRIBUTE_CHARS = 1_000_000;
const ASSETS = 12;

function uuidOf(i: number): string {
  return `4a0c8e2b-1f3d-4c5e-9a7b-${String(i).padStart(12, '0')}`;
}

// One app for the file, its assets made once (sharedApp would reset them before each test).
let app: FastifyInstance;
afterAll(() => app?.close());

beforeAll(async () => {
  app = newApp();
  await ensureSource(app);
  for (let i = 0; i < ASSETS; i++) {
    const frame = {
      virtualMachineDetails: { vmUuid: uuidOf(i), vmName: `big-${i}`, coreCount: 2, memoryMb: 2048 },
      attributes: { blob: String.fromCharCode(97 + i).repeat(ATTRIBUTE_CHARS) },
    };
    expect(ok(await call(app, 'POST', REPORT, { framesData: [frame] }))).toEqual({});
  }
}, 120_000);

test('large assets end a page before pageSize, with a token; the pages list each asset once', async () => {
  const names: string[] = [];
  const sizes: number[] = [];
  let token: string | undefined;
  do {
    const query = `pageSize=1000${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`;
    const page = ok(await call(app, 'GET', `${BASE}/assets?${query}`));
    sizes.push(page.assets.length);
    for (const asset of page.assets) {
      expect((asset.attributes.blob as string).length).toBe(ATTRIBUTE_CHARS);
      names.push(asset.virtualMachineDetails.vmName as string);
    }
    token = page.nextPageToken;
  } while (token !== undefined);
  // 8 MiB (8,388,608) of 1,000,000-character assets: the page ends with the ninth, the one that passes the budget.
  expect(sizes).toEqual([9, 3]);
  expect(names.sort()).toEqual(Array.from({ length: ASSETS }, (_, i) => `big-${i}`).sort());
}, 120_000);

test('a page under the budget holds pageSize assets', async () => {
  const page = ok(await call(app, 'GET', `${BASE}/assets?pageSize=3`));
  expect(page.assets).toHaveLength(3);
  expect(typeof page.nextPageToken).toBe('string');
}, 60_000);
