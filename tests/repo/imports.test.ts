/**
 * tests/, bench/, scripts/ and support/ must not import each other in a circle: a helper shared by
 * two of them lives in support/, which imports none of them. This reads the import statements
 * (static, dynamic, require, jest.mock) of every TypeScript/JavaScript file of the four folders and
 * fails on a cycle between folders, naming one file per edge so the import to move is easy to find.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { findCycle, relativeImports } from '../support/imports';

const ROOT = path.resolve(__dirname, '..', '..');
const FOLDERS = ['tests', 'bench', 'scripts', 'support'] as const;
type Folder = (typeof FOLDERS)[number];

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' || e.name === 'node_modules' || e.name.startsWith('.') ? [] : sourceFiles(p);
    return /\.(ts|js)$/.test(e.name) ? [p] : [];
  });
}

function folderOf(file: string): Folder | undefined {
  const top = path.relative(ROOT, file).split(path.sep)[0];
  return (FOLDERS as readonly string[]).includes(top) ? (top as Folder) : undefined;
}

/** Edges between folders, each with one example `file -> specifier`. */
function folderEdges(): Map<string, string> {
  const edges = new Map<string, string>();
  for (const folder of FOLDERS) {
    for (const file of sourceFiles(path.join(ROOT, folder))) {
      for (const spec of relativeImports(fs.readFileSync(file, 'utf8'))) {
        const target = folderOf(path.resolve(path.dirname(file), spec));
        if (target && target !== folder && !edges.has(`${folder}->${target}`))
          edges.set(`${folder}->${target}`, `${path.relative(ROOT, file)} imports '${spec}'`);
      }
    }
  }
  return edges;
}

test('the cycle finder finds a circle through three folders and none in a chain', () => {
  expect(findCycle(['tests->bench', 'bench->scripts', 'scripts->tests'])).toEqual(['tests', 'bench', 'scripts', 'tests']);
  expect(findCycle(['tests->bench', 'tests->support', 'bench->support'])).toBeUndefined();
  expect(relativeImports(`import { a } from '../bench/x';\nconst m = await import('./y');\nrequire("../z");\nimport 'side';`)).toEqual([
    '../bench/x',
    './y',
    '../z',
  ]);
});

test('tests/, bench/, scripts/ and support/ do not import each other in a circle', () => {
  const edges = folderEdges();
  const cycle = findCycle(edges.keys());
  const detail = cycle ? cycle.slice(1).map((to, i) => `${cycle[i]} -> ${to}: ${edges.get(`${cycle[i]}->${to}`)}`) : [];
  expect(detail).toEqual([]);
});

test('support/ imports nothing from tests/, bench/ or scripts/ (it is what they share)', () => {
  const out = [...folderEdges()].filter(([edge]) => edge.startsWith('support->')).map(([edge, example]) => `${edge}: ${example}`);
  expect(out).toEqual([]);
});
