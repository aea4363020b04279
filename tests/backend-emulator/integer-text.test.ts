/** The one reading of an integer query parameter: decimal digits after an optional sign. */
import { integerText } from '../../backend-emulator/integer-text';

test.each([
  ['7', 7],
  ['+7', 7],
  ['-1', -1],
  ['007', 7],
  ['0', 0],
  ['2147483648', 2147483648],
])('%p is %p', (text, value) => {
  expect(integerText(text)).toBe(value);
});

test.each(['', 'ten', '1.5', '5.0', '1e3', '0x10', ' 5', '5 ', '+', '-', '+-1', '١٢'])('%p is no integer', (text) => {
  expect(integerText(text)).toBeUndefined();
});
