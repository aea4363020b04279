/**
 * `*` patterns in list filters (query/wildcard.ts through listPage, the filter every list but the
 * assets' runs): what they match, and that a pattern made to backtrack answers at once.
 *
 * The second part ran the old matcher (a regular expression `^.*a.*a...b$`) for hours: the filter
 * runs on the request thread, so one `GET .../sources?filter=description:"*a*a*a*a*a*a*a*a*b"`
 * over a source with a 1,024-character description stopped the emulator answering anyone. It runs
 * inside `vm`'s execution time limit, which interrupts even a regular expression, so that the old
 * code fails here with a timeout instead of hanging the test file.
 */
import * as vm from 'vm';
import { listPage, type ListFields } from '../../../backend-emulator/query/list-query';

interface Item {
  name: string;
  description?: string;
}

const FIELDS: ListFields<Item> = {
  scalars: { name: (i) => i.name, description: (i) => i.description },
  name: (i) => i.name,
};

/** The names of the items the filter keeps. */
function kept(items: Item[], filter: string): string[] {
  return listPage(items, { filter, pageSize: 1000 }, FIELDS, 'test').items.map((i) => i.name);
}

/** Runs `fn`, throwing if it computes for longer than `ms` (vm's limit interrupts synchronous work). */
function within<T>(ms: number, fn: () => T): T {
  return vm.runInNewContext('run()', { run: fn }, { timeout: ms }) as T;
}

describe('what a * pattern matches', () => {
  const one = (description: string): Item[] => [{ name: 'x', description }];
  test.each([
    // pattern, description, matches
    ['web-*', 'web-frontend', true],
    ['*-db', 'orders-db', true],
    ['*end*', 'frontend-1', true],
    ['a*b*c', 'a-b-c', true],
    ['a*b*c', 'a-c-b', false],
    ['ab*ba', 'aba', false], // the head and the tail may not share a character
    ['ab*ba', 'abba', true],
    ['a*a', 'a', false],
    ['a*a', 'aa', true],
    ['a**b', 'ab', true],
    ['a*b', 'a\nline\nb', true], // a star crosses line breaks
    ['a.c*', 'abc', false], // every character but * is itself: '.' is no regular expression
    ['(x)*', '(x)y', true],
    ['[ab]*', 'a', false],
    ['*$', 'cost$', true],
    ['x*y*x', 'xyyx', true],
    ['x*y*x', 'xyy', false],
  ])('description:"%s" on %j is %s', (pattern, description, matches) => {
    expect(kept(one(description), `description:"${pattern}"`)).toEqual(matches ? ['x'] : []);
    expect(kept(one(description), `description = "${pattern}"`)).toEqual(matches ? ['x'] : []);
    expect(kept(one(description), `description != "${pattern}"`)).toEqual(matches ? [] : ['x']);
  });

  test('a bare word with stars is a pattern too; a field that is not set matches none', () => {
    const items = [{ name: 'projects/p/locations/l/sources/web-1' }, { name: 'projects/p/locations/l/sources/db-1' }, { name: 'n', description: 'd' }];
    expect(kept(items, 'name:*/sources/web-*')).toEqual(['projects/p/locations/l/sources/web-1']);
    expect(kept(items, 'description:*d*')).toEqual(['n']);
  });
});

describe('a pattern built to backtrack answers at once', () => {
  // 1,024 characters: Source.description's limit. Eight stars made the old matcher's regular
  // expression take about 1024^8 / 8! steps to say no.
  const items: Item[] = [{ name: 'a-source', description: 'a'.repeat(1024) }];
  const stars = '*a'.repeat(8);

  // Generous: the answer takes well under a millisecond; the old code took hours.
  const LIMIT_MS = 20_000;

  test.each([
    [`description:"${stars}*b"`, []],
    [`description:"${stars}*"`, ['a-source']],
    [`description = "${stars}"`, ['a-source']],
    [`description = "${stars}b"`, []],
    [`NOT description:"${stars}*b"`, ['a-source']],
  ])('%s', (filter, expected) => {
    expect(within(LIMIT_MS, () => kept(items, filter))).toEqual(expected);
  });
});
