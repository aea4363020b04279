/**
 * Key-ordered pages (query/list-query.ts: keysetPageRequest, keysetPage), the paging of the lists
 * that read straight from the store's key order: the networkservices list and the console's
 * lists. One page-size rule and one token scheme with the filtered lists (listPage).
 */
import { keysetPage, keysetPageRequest, listPage, parsePageSize, type KeysetPageRequest, type ListFields } from '../../../backend-emulator/query/list-query';
import { GoogleApiError } from '../../../backend-emulator/errors';

/** A sorted list of keys standing for a store collection: `read` as the store's list reads it. */
function collection(keys: string[]) {
  const sorted = [...keys].sort();
  return {
    keys: sorted,
    read: (after: string | undefined, limit: number) => sorted.filter((k) => after === undefined || k > after).slice(0, limit),
  };
}

function violation(fn: () => unknown): { field: string; description: string } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(GoogleApiError);
    const details = (err as GoogleApiError).details as Array<{ fieldViolations?: Array<{ field: string; description: string }> }>;
    return details.flatMap((d) => d.fieldViolations ?? [])[0];
  }
  throw new Error('no error');
}

const CONSOLE = { defaultSize: 50, maxSize: 500 };

describe('page size: one rule, each list its own limits', () => {
  test.each([
    [undefined, 50, 50],
    ['', 50, 50],
    ['0', 50, 50],
    ['7', 7, 7],
    ['500', 500, 500],
    ['501', 501, 500],
    ['1000', 1000, 500],
    ['5000', 1000, 500],
    ['+7', 7, 7],
    ['007', 7, 7],
    ['2147483647', 1000, 500],
  ])('pageSize %p: %p on a Google list, %p on a console list', (value, google, console) => {
    expect(parsePageSize(value)).toBe(google);
    expect(parsePageSize(value, CONSOLE)).toBe(console);
    expect(keysetPageRequest({ pageSize: value }, 'any', CONSOLE).pageSize).toBe(console);
  });

  test.each(['-1', 'ten', '1.5', '1e3', '1e308', '0x10', '5.0', ' 5', '2147483648'])(
    'pageSize %p is INVALID_ARGUMENT naming pageSize, on every list',
    (value) => {
      expect(violation(() => parsePageSize(value)).field).toBe('pageSize');
      expect(violation(() => keysetPageRequest({ pageSize: value }, 'console:importJobs', CONSOLE)).field).toBe('pageSize');
    },
  );
});

describe('pages in key order', () => {
  const scope = 'console:endpointPolicies';
  const pageOf = (c: ReturnType<typeof collection>, request: KeysetPageRequest) => keysetPage(request, c.read, (k) => k);

  test('the pages cover every key once, in order; the last page has no token', () => {
    const c = collection(Array.from({ length: 7 }, (_, i) => `k${i}`));
    const seen: string[][] = [];
    let token: string | undefined;
    do {
      const page = pageOf(c, keysetPageRequest({ pageSize: 3, pageToken: token }, scope));
      seen.push(page.items);
      token = page.nextPageToken;
    } while (token);
    expect(seen).toEqual([['k0', 'k1', 'k2'], ['k3', 'k4', 'k5'], ['k6']]);
  });

  test('a page exactly as long as what is left has no token (one more item is read to know)', () => {
    const c = collection(['a', 'b', 'c']);
    const limits: number[] = [];
    const page = keysetPage(
      keysetPageRequest({ pageSize: 3 }, scope),
      (after, limit) => (limits.push(limit), c.read(after, limit)),
      (k) => k,
    );
    expect(page).toEqual({ items: ['a', 'b', 'c'] });
    expect(limits).toEqual([4]);
  });

  test('a key created or deleted between two pages neither repeats nor skips a key that stayed', () => {
    const first = pageOf(collection(['a', 'c', 'e', 'g']), keysetPageRequest({ pageSize: 2 }, scope));
    expect(first.items).toEqual(['a', 'c']);
    // 'b' (before the token's key) and 'd' are created, 'e' deleted: the next page starts after 'c'.
    const second = pageOf(collection(['a', 'b', 'c', 'd', 'g']), keysetPageRequest({ pageSize: 2, pageToken: first.nextPageToken }, scope));
    expect(second.items).toEqual(['d', 'g']);
  });

  test('a token is refused by another list (another scope), and a broken one by every list, naming pageToken', () => {
    const token = pageOf(collection(['a', 'b']), keysetPageRequest({ pageSize: 1 }, scope)).nextPageToken;
    expect(token).toBeDefined();
    expect(violation(() => keysetPageRequest({ pageToken: token }, 'console:importJobs')).field).toBe('pageToken');
    expect(violation(() => keysetPageRequest({ pageToken: 'garbage' }, scope)).field).toBe('pageToken');
    // A token of the same scheme whose key is not one key string.
    const forged = Buffer.from(JSON.stringify({ q: 'x', k: [1] })).toString('base64url');
    expect(violation(() => keysetPageRequest({ pageToken: forged }, scope)).field).toBe('pageToken');
  });

  test('one token scheme: a filtered list without filter or orderBy continues a key-ordered page of the same scope', () => {
    const names = ['n1', 'n2', 'n3', 'n4'];
    const spec: ListFields<{ name: string }> = { scalars: { name: (x) => x.name }, name: (x) => x.name };
    const first = pageOf(collection(names), keysetPageRequest({ pageSize: 2 }, 'importJobs:p'));
    const rest = listPage(
      names.map((name) => ({ name })),
      { pageSize: 2, pageToken: first.nextPageToken },
      spec,
      'importJobs:p',
    );
    expect(rest.items.map((x) => x.name)).toEqual(['n3', 'n4']);
  });
});
