/** Template CSV text (header + example row) and column tables, generated from the definitions. */
import { TYPE_WORDS } from './columns';
import type { ColumnSpec, FileKind } from './types';

function csvCell(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The columns a file of this kind carries (the reader's derived columns are not in files). */
export function fileColumns(kind: FileKind): ColumnSpec[] {
  return kind.columns.filter((c) => !c.derived);
}

/** The template file of a kind: its header line and one example row, CRLF-terminated like the published copies. */
export function templateCsv(kind: FileKind): string {
  const columns = fileColumns(kind);
  const header = columns.map((c) => c.name).join(',');
  const example = columns.map((c) => csvCell(c.example ?? '')).join(',');
  return `${header}\r\n${example}\r\n`;
}

function presenceWords(c: ColumnSpec): string {
  if (c.presence === 'required') return c.allowEmpty ? 'required column (value may be empty)' : 'required';
  return c.presence;
}

function rangeWords(c: ColumnSpec): string {
  const parts: string[] = [];
  if (c.min !== undefined) parts.push(`>= ${c.min}`);
  if (c.max !== undefined) parts.push(`<= ${c.max}`);
  return parts.join(', ');
}

/** A Markdown table of a kind's columns. */
export function columnTable(kind: FileKind): string {
  const rows = kind.columns.map((c) => {
    const type = TYPE_WORDS[c.type] + (c.unit ? `, ${c.unit}` : '') + (rangeWords(c) ? `, ${rangeWords(c)}` : '');
    return `| \`${c.name}\` | ${presenceWords(c)} | ${type} | ${c.description} | \`${c.example ?? ''}\` |`;
  });
  return ['| Column | Presence | Type | Meaning | Example |', '|---|---|---|---|---|', ...rows].join('\n');
}
