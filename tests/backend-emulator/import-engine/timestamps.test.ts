/**
 * The timestamps each collection script version writes (../shared/reference/collection-scripts.md):
 * the AWS script's `str(datetime)` with and without a zone, its quoted `MM/DD/YYYY, HH:MM:SS`,
 * and PowerShell's en-US culture form of the Azure script 1.4.1.
 */
import { parseTimestamp } from '../../../backend-emulator/import-engine/timestamps';

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
