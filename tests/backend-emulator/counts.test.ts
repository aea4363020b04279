import { groupedCount } from '../../backend-emulator/counts';

describe('groupedCount', () => {
  it('groups the digits of an integer by three, as people read counts', () => {
    expect(groupedCount(0)).toBe('0');
    expect(groupedCount(7)).toBe('7');
    expect(groupedCount(999)).toBe('999');
    expect(groupedCount(1000)).toBe('1,000');
    expect(groupedCount(12345)).toBe('12,345');
    expect(groupedCount(600000)).toBe('600,000');
    expect(groupedCount(1234567)).toBe('1,234,567');
    expect(groupedCount(-1234)).toBe('-1,234');
    expect(groupedCount(Number.MAX_SAFE_INTEGER)).toBe('9,007,199,254,740,991');
  });

  it("writes what toLocaleString('en-US') writes for integers (ICU as the independent judge)", () => {
    const seed = Date.now();
    let x = seed % 2147483647 || 1;
    const samples = [10, 99, 100, 101, 9999, 10000, 99999, 100000, 999999, 1000000, -1, -999, -1000];
    for (let i = 0; i < 2000; i++) {
      x = (x * 48271) % 2147483647;
      samples.push(x % 10 ** ((i % 12) + 1));
    }
    // The samples whose text differs, asserted once (an expect() each was 2,013 of jest's matcher set-ups).
    const differing = samples.filter((n) => groupedCount(n) !== n.toLocaleString('en-US')).map((n) => [n, groupedCount(n)]);
    expect({ seed, differing }).toEqual({ seed, differing: [] });
  });

  it('writes a number that is not a safe integer as String does', () => {
    expect(groupedCount(1.5)).toBe('1.5');
    expect(groupedCount(Number.NaN)).toBe('NaN');
    expect(groupedCount(2 ** 60)).toBe(String(2 ** 60));
  });
});
