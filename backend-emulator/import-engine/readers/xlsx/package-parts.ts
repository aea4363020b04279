/**
 * The Open Packaging Conventions layer of a workbook: the relationships of a part (`_rels/*.rels`)
 * and how a relationship's target resolves to a part name. The workbook finds its sheets, shared
 * strings and styles through these relationships, never by file naming conventions.
 */
import type { ZipSource } from '../zip-source';
import type { InflateBudget } from './zip';
import { scanXml } from './part-xml';
import { attr } from './xml-scanner';
import type { ZipEntry } from './zip';

export interface Relationship {
  id: string;
  type: string;
  target: string;
}

/** The part name `target` points at, relative to the part `base` (or absolute when it starts with `/`). */
export function resolvePart(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/');
  parts.pop();
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.' && seg !== '') parts.push(seg);
  }
  return parts.join('/');
}

/** The part holding the relationships of `part` (`''` for the package itself). */
export function relsPathOf(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

/** The internal relationships of `part`; none when it has no relationships part. External targets are ignored. */
export async function readRelationships(
  zip: ZipSource,
  entry: (part: string) => ZipEntry | undefined,
  budget: InflateBudget,
  part: string,
): Promise<Relationship[]> {
  const e = entry(relsPathOf(part));
  if (!e) return [];
  const out: Relationship[] = [];
  await scanXml(zip, e, budget, {
    open: (name, src, from, to) => {
      const attrs = src.slice(from, to);
      if (name === 'Relationship') {
        const mode = attr(attrs, 'TargetMode');
        if (mode === 'External') return;
        out.push({ id: attr(attrs, 'Id') ?? '', type: attr(attrs, 'Type') ?? '', target: attr(attrs, 'Target') ?? '' });
      }
    },
    close: () => undefined,
    wantText: () => false,
    text: () => undefined,
  });
  return out;
}
