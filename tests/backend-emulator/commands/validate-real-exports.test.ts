/**
 * Real exports as the tools write them (issue 16), through `google-native-local validate`: the
 * files of each case (tests/support/real-exports.ts) are written to a folder as a user would have
 * them, and the command exits 0 (no ERROR) or 1, printing what the case says; `--json` gives the
 * engine's report.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateCommand } from '../../../backend-emulator/commands/validate';
import { tempDir } from '../../../support/temp-dir';
import { issueTexts, REAL_EXPORT_CASES } from '../../support/real-exports';
import { textSink } from '../../support/text-sink';

describe.each(REAL_EXPORT_CASES)('google-native-local validate: $name', (c) => {
  let dir: string;
  beforeAll(async () => {
    dir = tempDir('gnl-real-exports-');
    for (const f of await c.files()) fs.writeFileSync(path.join(dir, f.name), f.data);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it(`exits ${c.blocking ? 1 : 0} and says what the export needs`, async () => {
    const out = textSink();
    expect(await validateCommand([dir, '--format', c.format], out)).toBe(c.blocking ? 1 : 0);
    expect(out.text).toContain(c.blocking ? 'FAILED: the payload has blocking errors' : 'OK: no blocking errors');
    const json = textSink();
    expect(await validateCommand([dir, '--format', c.format, '--json'], json)).toBe(c.blocking ? 1 : 0);
    const texts = issueTexts(JSON.parse(json.text));
    for (const text of c.says) {
      expect(texts.filter((t) => t.includes(text))).not.toHaveLength(0);
      expect(out.text).toContain(text);
    }
    for (const text of c.never ?? []) expect(texts.filter((t) => t.includes(text))).toEqual([]);
  });
});
