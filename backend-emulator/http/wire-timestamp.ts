/**
 * A `google.protobuf.Timestamp` as ProtoJSON writes it: RFC 3339 with a `T`, seconds, 0 to 9
 * fraction digits and a zone (`Z` or `+hh:mm`), years 0001 to 9999. What the emulator takes as a
 * stored resource's time from a seed (`createTime`, `updateTime`, ...) must be one: it is answered
 * as it was given, and a client's parser refuses anything else (`"garbage"` was stored and served).
 */

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))$/;

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Whether `value` is a Timestamp in ProtoJSON's form. */
export function isWireTimestamp(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = TIMESTAMP.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const zoneOk = m[7] === undefined || (Number(m[7]) <= 23 && Number(m[8]) <= 59);
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) && hour <= 23 && minute <= 59 && second <= 59 && zoneOk;
}

/** The description of a seed's time that is not a Timestamp. */
export const NOT_A_TIMESTAMP = 'must be a timestamp in RFC 3339 form, as Google writes it (e.g. "2024-01-31T13:30:00Z")';
