/**
 * checkIamCondition keeps recent verdicts: a repeated expression must get the verdict a fresh check
 * gives, also after the cache has turned over.
 */
import { checkIamCondition, validate } from '../../schemas';

test('repeated and evicted expressions get the same verdict as the first check', () => {
  const bad = 'request.time < ';
  const wrongType = '"a string"';
  const good = 'request.time < timestamp("2030-01-01T00:00:00Z")';
  const first = [checkIamCondition(bad), checkIamCondition(wrongType), checkIamCondition(good)];
  expect(first[0]).toMatch(/is not a valid CEL expression/);
  expect(first[1]).toMatch(/must evaluate to a boolean, but its type is string/);
  expect(first[2]).toBeUndefined();
  // Cached.
  expect([checkIamCondition(bad), checkIamCondition(wrongType), checkIamCondition(good)]).toEqual(first);
  // More distinct expressions than the cache holds: the first ones are checked again, same verdicts.
  for (let i = 0; i < 600; i++) expect(checkIamCondition(`resource.name == "r-${i}"`)).toBeUndefined();
  expect([checkIamCondition(bad), checkIamCondition(wrongType), checkIamCondition(good)]).toEqual(first);
  expect(checkIamCondition('unknownVariable == 1')).toMatch(/is not a valid CEL expression/);
});

test('an expression over 12,800 characters is refused by length alone, once, without being parsed', () => {
  const long = `request.time < timestamp("2030-01-01T00:00:00Z")${' && true'.repeat(2000)}`;
  expect(long.length).toBeGreaterThan(12_800);
  expect(checkIamCondition(long)).toBe('must have at most 12800 characters');
  const failures = validate('Condition', { title: 't', expression: long });
  expect(failures).toEqual([{ property: 'expression', reason: expect.stringMatching(/12800/) }]);
});
