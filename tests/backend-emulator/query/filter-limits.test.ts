/**
 * How large a filter may be (query/list-query.ts MAX_FILTER_COMPARISONS, MAX_FILTER_NESTING),
 * through the wire, on the three paths a filter takes: a list filtered in memory (sources), the
 * assets' SQL (assets.list) and a filter in a body (assets:aggregateValues, whose 1 MiB body holds
 * far more than a query string). Before the limits, 5,000 parentheses, 15,000 dashes or 5,000
 * `OR`s ran out of stack or past SQLite's expression depth and were answered 500 INTERNAL.
 */
import type { FastifyInstance } from 'fastify';
import { BASE, call, googleError, newApp, ok, violations } from '../../support/migrationcenter';

let app: FastifyInstance;
beforeAll(async () => {
  app = newApp();
  await app.ready();
});
afterAll(async () => app.close());

const listSources = (filter: string) => call(app, 'GET', `${BASE}/sources?${new URLSearchParams({ filter }).toString()}`);
const listAssets = (filter: string) => call(app, 'GET', `${BASE}/assets?${new URLSearchParams({ filter }).toString()}`);
const aggregate = (filter: string) => call(app, 'POST', `${BASE}/assets:aggregateValues`, { filter, aggregations: [{ field: 'name', count: {} }] });

/** `n` comparisons joined by `joiner`. */
const chain = (n: number, joiner: string, term = 'name = "x"') => new Array<string>(n).fill(term).join(joiner);

/** The one violation of a 400 answer: on `filter`, its description. */
async function refusal(answer: Promise<Awaited<ReturnType<typeof call>>>): Promise<string> {
  const list = violations(googleError(await answer, 400, 'INVALID_ARGUMENT'));
  expect(list.map((v) => v.field)).toEqual(['filter']);
  return list[0].description;
}

describe('too large a filter is 400 naming filter, on every path', () => {
  // Sized to fit a query string (16 KiB with the rest of the request line).
  const tooDeep = `${'('.repeat(5000)}name = "x"${')'.repeat(5000)}`;
  const tooManyDashes = `${'-'.repeat(15_000)}name = "x"`;
  const tooManyNots = `${'NOT '.repeat(51)}name = "x"`;
  const tooLong = chain(501, ' OR ', 'name:x'); // the 501st comparison starts at character 5,001

  test.each([
    ['5,000 parentheses', tooDeep, 'nests more than 50 levels of parentheses and negations (at position 51)'],
    ['15,000 dashes', tooManyDashes, 'nests more than 50 levels of parentheses and negations (at position 51)'],
    ['51 NOTs', tooManyNots, 'nests more than 50 levels of parentheses and negations (at position 201)'],
    ['501 comparisons', tooLong, 'has more than 500 comparisons (at position 5001)'],
  ])('%s', async (_what, filter, description) => {
    expect(await refusal(listSources(filter))).toBe(description);
    expect(await refusal(listAssets(filter))).toBe(description);
    expect(await refusal(aggregate(filter))).toBe(description);
  });

  test('in a body, 100,000 implicit ANDs and 20,000 parentheses', async () => {
    expect(await refusal(aggregate(chain(100_000, ' ', 'name:x')))).toMatch(/^has more than 500 comparisons/);
    expect(await refusal(aggregate(`${'('.repeat(20_000)}name = "x"${')'.repeat(20_000)}`))).toMatch(/^nests more than 50 levels/);
  });
});

describe('a filter at the limits is answered', () => {
  // 500 comparisons of every kind the assets' SQL has, under 50 levels of negations and parentheses.
  const kinds = ['labels.env = "prod"', 'labels:team', 'sources:x', 'assignedGroups:g', 'name:*web*', 'createTime > "2020-01-01T00:00:00Z"'];
  const terms = Array.from({ length: 500 }, (_, i) => kinds[i % kinds.length]);
  const widest = `${'NOT ('.repeat(25)}${terms.join(' OR ')}${')'.repeat(25)}`;
  const sourceTerms = chain(500, ' OR ', 'displayName:*web*');
  const deepest = `${'-'.repeat(49)}(${sourceTerms})`;

  test('sources.list', async () => {
    expect(ok(await listSources(deepest))).toEqual({});
    expect(ok(await listSources(`${'NOT ('.repeat(25)}${sourceTerms}${')'.repeat(25)}`))).toEqual({});
  });

  test('assets.list and assets:aggregateValues', async () => {
    expect(ok(await listAssets(widest))).toEqual({});
    expect(ok(await aggregate(widest))).toEqual({ results: [{ field: 'name', count: {} }] });
  });
});

describe('orderBy naming a field again', () => {
  // Before: each entry was one more key of every comparison, one more SQL column and one more page
  // condition term per earlier key; 2,100 entries were SQLite's "too many terms", answered 500.
  const repeated = (field: string, n: number) => new Array<string>(n).fill(field).join(',');

  test('2,100 entries of one field are answered, on sources and assets', async () => {
    expect(ok(await call(app, 'GET', `${BASE}/sources?orderBy=${repeated('name', 2100)}`))).toEqual({});
    expect(ok(await call(app, 'GET', `${BASE}/assets?orderBy=${repeated('name', 2100)}`))).toEqual({});
    expect(ok(await call(app, 'GET', `${BASE}/assets?orderBy=${repeated('createTime desc', 2100)}`))).toEqual({});
  });

  test('a later entry of a field changes nothing: pages follow the first', async () => {
    const fresh = newApp();
    try {
      for (const [id, displayName] of [
        ['s1', 'b'],
        ['s2', 'c'],
        ['s3', 'a'],
      ]) {
        ok(await call(fresh, 'POST', `${BASE}/sources?sourceId=${id}`, { displayName }));
      }
      const pages = async (orderBy: string): Promise<string[]> => {
        const names: string[] = [];
        let token = '';
        do {
          const query = new URLSearchParams({ orderBy, pageSize: '1', ...(token ? { pageToken: token } : {}) });
          const page = ok(await call(fresh, 'GET', `${BASE}/sources?${query.toString()}`));
          names.push(...page.sources.map((s: { displayName: string }) => s.displayName));
          token = page.nextPageToken ?? '';
        } while (token);
        return names;
      };
      expect(await pages('displayName desc, displayName, name, displayName asc')).toEqual(['c', 'b', 'a']);
      expect(await pages('displayName, displayName desc')).toEqual(['a', 'b', 'c']);
    } finally {
      await fresh.close();
    }
  });
});
