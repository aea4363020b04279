/**
 * Number and whole-number cells: plain digit strings (most numeric cells) are read without a
 * regular expression; every text must still get the template rule's answer. The rule, written
 * here on its own: a number is `[+-]digits[.digits][e[+-]digits]` (or `.digits`), its value what
 * `Number` reads; a whole number is `[+-]digits`, a safe integer. A property test (seed printed).
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { PARSERS } from '../../../backend-emulator/import-engine/columns';
import type { ColumnSpec } from '../../../backend-emulator/import-engine/types';
import { propertyRuns } from '../../support/property-runs';

const column = (type: 'int' | 'number'): ColumnSpec => ({ name: 'Cell', type, presence: 'optional', description: '' });

function parse(type: 'int' | 'number', text: string): { value: unknown; errors: string[] } {
  const errors: string[] = [];
  const value = PARSERS[type](text, column(type), { error: (m) => errors.push(m), warning: (m) => errors.push(m), info: (m) => errors.push(m) });
  return { value, errors };
}

const IS_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const IS_INT = /^[+-]?\d+$/;

describe('number cells', () => {
  it.each([
    ['0', 0],
    ['007', 7],
    ['123456789012345', 123456789012345],
    ['1234567890123456', 1234567890123456],
    [' 42 ', 42],
  ])('reads %j as %d', (text, expected) => {
    expect(parse('number', text)).toEqual({ value: expected, errors: [] });
    expect(parse('int', text)).toEqual({ value: expected, errors: [] });
  });

  it('keeps the messages for texts that are not numbers', () => {
    expect(parse('number', '1,5').errors).toEqual(['Cell must be a number, got "1,5" (use a dot as decimal separator)']);
    expect(parse('int', '1.5').errors).toEqual(['Cell must be a whole number, got "1.5"']);
    expect(parse('int', '٣').errors).toEqual(['Cell must be a whole number, got "٣"']);
  });

  test('every text of digits, signs, dots and exponents gets the rule’s answer', () => {
    const text = fc.string({ unit: fc.constantFrom('0', '1', '5', '9', '+', '-', '.', 'e', ' ', '٣', 'x'), maxLength: 20 });
    fc.assert(
      fc.property(fc.oneof(text, fc.bigInt({ min: 0n, max: 10n ** 18n }).map(String)), (raw) => {
        const t = raw.trim();
        const n = IS_NUMBER.test(t) ? Number(t) : NaN;
        // Compared by hand and thrown (fast-check reports the text): an expect() a check was
        // 2,500 of jest's matcher set-ups in a quick run, about 50 us each.
        const number = parse('number', raw);
        const wantNumber = t !== '' && Number.isFinite(n) ? { value: n, errors: [] } : undefined;
        if (wantNumber ? !isDeepStrictEqual(number, wantNumber) : number.value !== undefined) throw new Error(`number: ${JSON.stringify(number)}`);
        const i = IS_INT.test(t) ? Number(t) : NaN;
        const int = parse('int', raw);
        const wantInt = Number.isSafeInteger(i) ? { value: i, errors: [] } : undefined;
        if (wantInt ? !isDeepStrictEqual(int, wantInt) : int.value !== undefined) throw new Error(`int: ${JSON.stringify(int)}`);
      }),
      { numRuns: propertyRuns(5_000) },
    );
  }, 120_000);
});
