import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderReferenceDocs, REFERENCE_DIR } from '../../scripts/docs';

describe('generated reference docs', () => {
  it('match what `npm run docs` generates from the schemas (run it after changing a schema)', () => {
    const expected = renderReferenceDocs();
    const committed = fs.readdirSync(REFERENCE_DIR).sort();
    expect(committed).toEqual([...expected.keys()].sort());
    for (const [file, content] of expected) {
      expect({ file, content: fs.readFileSync(path.join(REFERENCE_DIR, file), 'utf8') }).toEqual({ file, content });
    }
  });
});
