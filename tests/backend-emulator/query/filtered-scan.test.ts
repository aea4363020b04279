/**
 * Filtered pages without orderBy read in key order (query/list-query.ts listStorePage): a page
 * reads the store a chunk at a time and keeps what matches, and ends short, with a token, after
 * at most 10,000 items read. Operations are never deleted, and a filtered `operations.list` read,
 * parsed and held every operation of its parent at each page (100,000 operations: 0.45 CPU-s a
 * page, 1 GB of RSS after eight).
 *
 * The tests count the items a page reads from a stand-in store (never time), and compare every
 * page walk with listPage's, which holds the whole collection.
 */
import type { FastifyInstance } from 'fastify';
import { listPage, listStorePage, type ListFields, type ListRequest } from '../../../backend-emulator/query/list-query';
import { inMemoryApp } from '../../support/app';
import { call } from '../../support/inject';

interface Item {
  name: string;
  state: string;
  n: number;
}

const FIELDS: ListFields<Item> = { name: (i) => i.name, scalars: { name: (i) => i.name, state: (i) => i.state, n: (i) => i.n } };

/** A store of `count` items under `parts/`, every `every`-th of state B (the rest A), counting the items it hands out. */
function store(count: number, every: number) {
  const items: Item[] = Array.from({ length: count }, (_, i) => ({
    name: `parts/p${String(i).padStart(6, '0')}`,
    state: i % every === every - 1 ? 'B' : 'A',
    n: i,
  }));
  const counter = { read: 0 };
  return {
    items,
    counter,
    list<V>(_collection: string, options: { prefix?: string; after?: string; limit?: number } = {}) {
      const rows = items
        .filter((i) => i.name.startsWith(options.prefix ?? '') && (options.after === undefined || i.name > options.after))
        .slice(0, options.limit ?? Infinity);
      counter.read += rows.length;
      return rows.map((i) => ({ key: i.name, value: i as V }));
    },
  };
}

/** Every page of a query, following its tokens: the items in order, and the items each page read. */
function walk(s: ReturnType<typeof store>, request: ListRequest): { names: string[]; pages: number[]; reads: number[] } {
  const names: string[] = [];
  const pages: number[] = [];
  const reads: number[] = [];
  let pageToken: string | undefined;
  do {
    s.counter.read = 0;
    const page = listStorePage(s, 'c', 'parts/', { ...request, pageToken }, FIELDS, 'scope');
    reads.push(s.counter.read);
    pages.push(page.items.length);
    names.push(...page.items.map((i) => i.name));
    pageToken = page.nextPageToken;
  } while (pageToken);
  return { names, pages, reads };
}

test('a sparse filter over 25,000 items: pages of at most 10,000 items read, short ones, the same matches in order', () => {
  const s = store(25_000, 5_000);
  const { names, pages, reads } = walk(s, { filter: 'state = "B"', pageSize: 100 });
  expect(names).toEqual(['parts/p004999', 'parts/p009999', 'parts/p014999', 'parts/p019999', 'parts/p024999']);
  // Each page ends after 10,000 items read, whatever it holds; the collection is read once in all.
  expect(pages).toEqual([2, 2, 1]);
  expect(reads).toEqual([10_000, 10_000, 5_000]);
});

test('a dense filter reads about a page, not the collection', () => {
  const s = store(25_000, 1);
  const { names, pages, reads } = walk(s, { filter: 'state = B AND name < "parts/p001200"', pageSize: 500 });
  expect(names).toEqual(s.items.slice(0, 1200).map((i) => i.name));
  // A chunk of 500 and the next (to find the one match past the page), page after page. Then no
  // match follows n = 1199: the pages read on to the end, 10,000 items at most each, the last
  // ones empty (AIP-158 allows it: a client follows the token).
  expect(pages).toEqual([500, 500, 200, 0, 0]);
  expect(reads).toEqual([1_000, 1_000, 10_000, 10_000, 4_000]);
});

test.each([
  ['state = B', 3],
  ['state = A AND name >= "parts/p000007"', 4],
  ['name < "parts/p000005" OR name > "parts/p000055"', 10],
  ['NOT state = A', 1],
  ['name > "parts/p001000"', 7],
])('the same pages as listPage over the whole collection: %s, pageSize %p', (filter, pageSize) => {
  const s = store(60, 4);
  const mine = walk(s, { filter, pageSize });
  const theirs: string[] = [];
  let pageToken: string | undefined;
  do {
    const page = listPage(s.items, { filter, pageSize, pageToken }, FIELDS, 'scope');
    theirs.push(...page.items.map((i) => i.name));
    pageToken = page.nextPageToken;
  } while (pageToken);
  expect(mine.names).toEqual(theirs);
  // A token listPage issued continues here (both name the last item of the page).
  const first = listPage(s.items, { filter: 'state = A', pageSize: 5 }, FIELDS, 'scope');
  const next = listStorePage(s, 'c', 'parts/', { filter: 'state = A', pageSize: 5, pageToken: first.nextPageToken }, FIELDS, 'scope');
  expect(next.items.map((i) => i.n)).toEqual([6, 8, 9, 10, 12]);
});

describe('operations.list over a wire', () => {
  let app: FastifyInstance;
  beforeAll(() => {
    app = inMemoryApp({ builtinServices: ['networkservices'] });
  });
  afterAll(() => app.close());

  test('a filter matching 3 of 12,000 operations: every match found by following the tokens, pages bounded', async () => {
    const parent = 'projects/p1/locations/global';
    const store = app.emulator.store;
    // 12,000 done operations, as writes leave them (put straight into the store: 12,000 writes
    // through the wire take a while); three of them name the target looked for.
    store.transaction(() => {
      for (let i = 0; i < 12_000; i++) {
        const name = `${parent}/operations/operation-${String(i).padStart(6, '0')}`;
        const target = i % 5_000 === 17 ? `${parent}/endpointPolicies/wanted` : `${parent}/endpointPolicies/ep${i}`;
        store.put('operations/networkservices', name, {
          name,
          metadata: {
            '@type': 'type.googleapis.com/google.cloud.networkservices.v1.OperationMetadata',
            createTime: '2026-11-27T00:00:00Z',
            target,
            verb: 'update',
          },
          done: true,
          response: { '@type': 'type.googleapis.com/google.cloud.networkservices.v1.EndpointPolicy', name: target },
        });
      }
    });
    const found: string[] = [];
    const sizes: number[] = [];
    let pageToken = '';
    do {
      const q = new URLSearchParams({ filter: `metadata.target = "${parent}/endpointPolicies/wanted"`, pageSize: '10', ...(pageToken ? { pageToken } : {}) });
      const res = await call(app, 'GET', `/v1/${parent}/operations?${q}`);
      expect(res.status).toBe(200);
      const ops: Array<{ name: string }> = res.body.operations ?? [];
      sizes.push(ops.length);
      found.push(...ops.map((o) => o.name));
      pageToken = res.body.nextPageToken ?? '';
    } while (pageToken);
    expect(found).toEqual([17, 5_017, 10_017].map((i) => `${parent}/operations/operation-${String(i).padStart(6, '0')}`));
    // The first page ends at the 10,000th operation read, short, with the two matches it met (its
    // token names that operation); the next reads to the end and finds the third. (Every
    // operation was read and held for one page of three.)
    expect(sizes).toEqual([2, 1]);
  }, 60_000);
});
