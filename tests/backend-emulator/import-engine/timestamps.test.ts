/**
 * The timestamps each collection script version writes (../shared/reference/collection-scripts.md):
 * the AWS script's `str(datetime)` with and without a zone, its quoted `MM/DD/YYYY, HH:MM:SS`,
 * and PowerShell's en-US culture form of the Azure script 1.4.1; and the regex-free path for the
 * common ISO forms held to the general path's answers (a property test: its seed is printed).
 */
import fc from 'fast-check';
import { isoString, parseTimestamp, parseTimestampByPattern } from '../../../backend-emulator/import-engine/timestamps';
import { propertyRuns } from '../../support/property-runs';

const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) => Date.UTC(y, mo - 1, d, h, mi, s, ms);

describe('parseTimestamp', () => {
  it.each([
    ['2023-06-01 09:15:42+00:00', utc(2023, 6, 1, 9, 15, 42)], // AWS 1.5.x CreateDate and TimeStamp, Azure 1.5.2 CreateDate
    ['2022-03-02 11:22:33.123456', utc(2022, 3, 2, 11, 22, 33, 123)], // AWS 1.4.1 now() fallback: microseconds, no zone
    ['03/01/2022, 10:00:00', utc(2022, 3, 1, 10)], // AWS 1.4.1 TimeStamp (quoted in the file)
    ['1/15/2023 9:30:00 AM', utc(2023, 1, 15, 9, 30)], // Azure 1.4.1, en-US culture
    ['12/3/2022 11:05:09 PM', utc(2022, 12, 3, 23, 5, 9)],
    ['1/15/2023 12:00:00 AM', utc(2023, 1, 15, 0)], // 12 AM is midnight
    ['1/15/2023 12:30:00 PM', utc(2023, 1, 15, 12, 30)], // 12 PM is noon
    ['1/15/2023 9:30 pm', utc(2023, 1, 15, 21, 30)],
  ])('reads %s', (text, expected) => {
    expect(parseTimestamp(text)).toBe(expected);
  });

  it.each(['1/15/2023 13:30:00 PM', '1/15/2023 0:30:00 AM', '15/01/2023 9:30:00 AM', '1/15/2023 9:30:00 XM'])('refuses %s', (text) => {
    expect(parseTimestamp(text)).toBeNaN();
  });
});

describe('the regex-free path for common ISO forms', () => {
  it.each([
    ['2024-01-15 10:00:00', utc(2024, 1, 15, 10)], // what most hand-made inventories hold
    ['2024-01-15T10:00:00', utc(2024, 1, 15, 10)],
    ['2024-01-15 10:00:00Z', utc(2024, 1, 15, 10)],
    ['2024-01-15T10:00:00z', utc(2024, 1, 15, 10)],
    ['2024-02-29', utc(2024, 2, 29)],
  ])('reads %s', (text, expected) => {
    expect(parseTimestamp(text)).toBe(expected);
  });

  it.each(['2023-02-29', '2024-13-01', '2024-01-15 24:00:00', '2024-01-15 10:60:00', '2024-01-15 10:00:60', '0099-01-01', '2024-01-15t10:00:00'])(
    'refuses %s',
    (text) => {
      expect(parseTimestamp(text)).toBeNaN();
    },
  );

  // Texts shaped like the fast forms, with every part drawn near and past its limits and any
  // character sometimes replaced: the fast path must answer exactly what the general one does.
  /** Two digits, in the part's valid range about half the time. */
  const two = (max: number) => fc.oneof(fc.integer({ min: 0, max }), fc.integer({ min: 0, max: 99 })).map((n) => String(n).padStart(2, '0'));
  const year = fc.oneof(
    fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
    fc.constantFrom('1900', '2000', '2023', '2024', '2100'),
  );
  const sep = fc.constantFrom('T', ' ', 't', '_', '  ', '');
  const zone = fc.constantFrom('', 'Z', 'z', ' Z', '+01:00', '-0530', '+01', 'X', '.5', '.123', ' ');
  const shaped = fc
    .tuple(year, two(12), two(31), fc.boolean(), sep, two(23), two(59), two(59), zone)
    .map(([y, mo, d, dateOnly, s, h, mi, se, z]) => (dateOnly ? `${y}-${mo}-${d}${z}` : `${y}-${mo}-${d}${s}${h}:${mi}:${se}${z}`));
  const damaged = fc
    .tuple(shaped, fc.nat(), fc.constantFrom('-', ':', '/', 'a', ' ', '٣', '9', '0', 'T'))
    .map(([t, at, c]) => (t.length === 0 ? t : t.slice(0, at % t.length) + c + t.slice((at % t.length) + 1)));

  test('gives the general path’s answer on random texts of the common shapes', () => {
    fc.assert(
      // A property's false is its failure (fast-check names the text): no expect() a run, each
      // about 50 us of jest's matcher set-up.
      fc.property(fc.oneof(shaped, damaged), (text) => Object.is(parseTimestamp(text), parseTimestampByPattern(text))),
      { numRuns: propertyRuns(10_000) },
    );
  }, 120_000);

  test('gives the general path’s answer for every valid date of the calendar’s edge years, midnight and the last second', () => {
    // The texts whose answers differ, checked once: an expect() for each of the 8,928 texts cost
    // about half a CPU-second of jest's matcher set-up.
    const differing: string[] = [];
    for (const y of [100, 1582, 1900, 1970, 2000, 2024, 2100, 9999]) {
      for (let mo = 1; mo <= 12; mo++) {
        for (let d = 1; d <= 31; d++) {
          const date = `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
          for (const text of [date, `${date} 00:00:00`, `${date}T23:59:59Z`]) {
            if (!Object.is(parseTimestamp(text), parseTimestampByPattern(text))) differing.push(text);
          }
        }
      }
    }
    expect(differing).toEqual([]);
  }, 120_000);
});

describe('isoString', () => {
  /** Date's own text, its milliseconds left out when they are zero (isoString's form). */
  const expected = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

  test('writes what Date.prototype.toISOString writes, without zero milliseconds, over years 1 to 9999', () => {
    const first = new Date(0).setUTCFullYear(1, 0, 1);
    const last = new Date(0).setUTCFullYear(9999, 11, 31) + 86_399_999;
    fc.assert(
      fc.property(fc.integer({ min: first, max: last }), fc.boolean(), (ms, whole) => {
        const at = whole ? ms - (((ms % 1000) + 1000) % 1000) : ms;
        // Thrown, not expect()ed: fast-check reports it with the run's values, without jest's
        // matcher set-up on every run.
        if (isoString(at) !== expected(at)) throw new Error(`isoString(${at}) is ${isoString(at)}, not ${expected(at)}`);
      }),
      { numRuns: propertyRuns(20_000) },
    );
    for (const at of [first, last, 0, -1, 1, 951_782_400_000, 86_399_999]) expect(isoString(at)).toBe(expected(at));
  });
});
