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

  it('link only to pages and sections that exist: a message of another schema has its section on that page', () => {
    const pages = renderReferenceDocs();
    // GitHub's anchor of a heading: lower case, spaces to '-', other punctuation dropped.
    const anchors = (text: string) =>
      new Set(
        [...text.matchAll(/^#+ (.+)$/gm)].map((m) =>
          m[1]
            .toLowerCase()
            .replace(/[^\w\- ]/g, '')
            .replace(/ /g, '-'),
        ),
      );
    const broken: string[] = [];
    for (const [file, content] of pages) {
      for (const [, target, anchor] of content.matchAll(/\]\(([\w.-]*\.md|)(?:#([\w-]+))?\)/g)) {
        const page = target === '' ? content : pages.get(target);
        if (page === undefined || (anchor !== undefined && !anchors(page).has(anchor))) broken.push(`${file}: ${target}#${anchor ?? ''}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
