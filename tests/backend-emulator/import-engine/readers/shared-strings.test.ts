/**
 * The shared-string table: in memory, or spooled to a temp file and read back through a block
 * cache. Both must give back every string exactly, in any order of lookups.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { sharedStringBuilder } from '../../../../backend-emulator/import-engine/readers/shared-strings';

const strings = [
  '',
  'VM',
  'web-01',
  'poweredOn',
  'Microsoft Windows Server 2019 (64-bit)',
  '漢字 and é and 😀',
  'x'.repeat(70_000), // longer than a 64 KiB block
  'abc\ud800def', // a lone surrogate (from an _xD800_ escape)
  ...Array.from({ length: 50_000 }, (_, i) => `vm-${i}-${'0c1d4e5f'.repeat(i % 7)}`),
];

test.each([
  ['in memory', Number.MAX_SAFE_INTEGER],
  ['spooled to a temp file', 0],
])('%s: every string comes back exactly, in order and at random', (_name, spoolAbove) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-sst-'));
  const builder = sharedStringBuilder(1_000_000, spoolAbove, dir);
  for (const s of strings) builder.push(s);
  expect(builder.count).toBe(strings.length);
  const table = builder.finish();
  try {
    expect(fs.readdirSync(dir)).toEqual([]); // unlinked at once
    strings.forEach((s, i) => {
      if (table.get(i) !== s) throw new Error(`string ${i} came back as ${JSON.stringify(table.get(i)?.slice(0, 40))}`);
    });
    let seed = 7;
    for (let k = 0; k < 20_000; k++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const i = seed % strings.length;
      if (table.get(i) !== strings[i]) throw new Error(`random lookup ${i} differs`);
    }
    expect([table.get(-1), table.get(strings.length), table.get(1.5), table.get(Number.NaN)]).toEqual([undefined, undefined, undefined, undefined]);
  } finally {
    table.close();
    table.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('when no temp file can be made, the table is held in memory', () => {
  const builder = sharedStringBuilder(1_000_000, 0, path.join(os.tmpdir(), 'gnl-no-such-dir', 'x'));
  builder.push('still here');
  const table = builder.finish();
  expect(table.get(0)).toBe('still here');
  table.close();
});
