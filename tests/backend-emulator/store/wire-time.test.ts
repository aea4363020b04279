/**
 * `wireTime` keeps the texts of the last instants it formatted: whatever it keeps, each instant
 * must come back as its own RFC 3339 text, in any order of calls (an asset's createTime and
 * updateTime alternate through a page or a batch).
 */
import { wireTime } from '../../../backend-emulator/store/asset-sql';

const CREATED = 1767225600000; // 2026-01-01T00:00:00.000Z
const UPDATED = 1767225600123 + 86_400_000; // 2026-01-02T00:00:00.123Z
const OTHER = 0;

test('alternating, repeated and new instants each give their own text', () => {
  const calls = [CREATED, UPDATED, CREATED, UPDATED, UPDATED, OTHER, CREATED, OTHER, UPDATED, CREATED];
  const texts: Record<number, string> = {
    [CREATED]: '2026-01-01T00:00:00.000Z',
    [UPDATED]: '2026-01-02T00:00:00.123Z',
    [OTHER]: '1970-01-01T00:00:00.000Z',
  };
  expect(calls.map(wireTime)).toEqual(calls.map((ms) => texts[ms]));
});
