/** The slashes taken off configured URLs and API versions (provider/slashes.ts). */
import { withoutEdgeSlashes, withoutTrailingSlashes } from '../../provider/slashes';

test('trailing slashes go, the others stay', () => {
  expect(withoutTrailingSlashes('http://127.0.0.1:8085///')).toBe('http://127.0.0.1:8085');
  expect(withoutTrailingSlashes('http://127.0.0.1:8085')).toBe('http://127.0.0.1:8085');
  expect(withoutTrailingSlashes('///')).toBe('');
  expect(withoutTrailingSlashes('')).toBe('');
});

test('edge slashes go at both ends', () => {
  expect(withoutEdgeSlashes('/v1alpha1/')).toBe('v1alpha1');
  expect(withoutEdgeSlashes('//v1//alpha//')).toBe('v1//alpha');
  expect(withoutEdgeSlashes('v1')).toBe('v1');
  expect(withoutEdgeSlashes('//')).toBe('');
});

test('a value of 200,000 inner slashes is answered in one pass (the regular expressions these replace took minutes)', () => {
  const inner = 'x' + '/'.repeat(200_000) + 'x';
  expect(withoutTrailingSlashes(inner)).toBe(inner);
  expect(withoutEdgeSlashes(inner)).toBe(inner);
  expect(withoutTrailingSlashes(`${inner}//`)).toBe(inner);
});
