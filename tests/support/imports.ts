/** Reading the imports of source files, for the repository tests (tests/repo/). */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bjest\.(?:mock|requireActual)\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

/** The relative import specifiers of a source text. */
export function relativeImports(text: string): string[] {
  return [...text.matchAll(SPECIFIER)].map((m) => m[1]).filter((s) => s.startsWith('.'));
}

/** A cycle in a folder graph as the list of its folders, or undefined. */
export function findCycle(edges: Iterable<string>): string[] | undefined {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    const [from, to] = e.split('->');
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string): string[] | undefined => {
    if (state.get(n) === 'open') return [...stack.slice(stack.indexOf(n)), n];
    if (state.get(n) === 'done') return undefined;
    state.set(n, 'open');
    stack.push(n);
    for (const m of next.get(n) ?? []) {
      const cycle = visit(m);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(n, 'done');
    return undefined;
  };
  for (const n of next.keys()) {
    const cycle = visit(n);
    if (cycle) return cycle;
  }
  return undefined;
}
