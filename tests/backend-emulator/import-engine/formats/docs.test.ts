/**
 * docs/formats/*.md carry the column tables of their format, generated from the definitions
 * between `<!-- columns: <kind> -->` and `<!-- /columns -->` markers. This test renders them again
 * and compares, so the docs cannot drift from the templates. `npm run docs` rewrites them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FORMAT_DOCS, FORMATS_DIR as DOCS, renderFormatDoc } from '../../../../scripts/docs';

describe('docs/formats', () => {
  for (const [file, def, tables] of FORMAT_DOCS) {
    it(`${file} documents every file kind of ${def.format} with its generated column table`, () => {
      const path = join(DOCS, file);
      const text = readFileSync(path, 'utf8');
      expect(text).toBe(renderFormatDoc(text, def));
      expect(text).toContain(def.format);
      const withTables = readFileSync(join(DOCS, tables), 'utf8');
      for (const kind of def.fileKinds.filter((k) => k.columns.length > 0)) expect(withTables).toContain(`<!-- columns: ${kind.kind} -->`);
      if (tables !== file) expect(text).toContain(`(${tables}`);
    });
  }
});
