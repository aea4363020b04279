/**
 * Puts one batch of rows and the issues of its rows back into sheet row order as reader events:
 * issues of delivered rows ride with them, issues of rows not delivered (skipped empty or too long
 * rows) go out as `rowIssue` events between the rows around them.
 */
import type { CellValue, ReaderEvent, ReaderRowIssue } from '../../types';

/**
 * A batch as events in sheet row order: the issues of rows not delivered (skipped empty or too
 * long rows) go out as `rowIssue` events between the rows around them.
 */
export function* inRowOrder(rows: CellValue[][], rowNumbers: number[], issues: ReaderRowIssue[]): Generator<ReaderEvent> {
  const delivered = new Set(rowNumbers);
  const own = new Map<number, ReaderRowIssue>();
  const loose: ReaderRowIssue[] = [];
  for (const is of issues) {
    if (delivered.has(is.rowNumber)) own.set(is.rowNumber, is);
    else loose.push(is);
  }
  loose.sort((a, b) => a.rowNumber - b.rowNumber);
  let from = 0;
  const slice = (to: number): ReaderEvent | undefined => {
    if (to <= from) return undefined;
    const nums = rowNumbers.slice(from, to);
    const mine = nums.flatMap((n) => (own.has(n) ? [own.get(n)!] : []));
    const ev: ReaderEvent = { type: 'rows', firstRow: nums[0], rows: rows.slice(from, to), rowNumbers: nums, issues: mine.length > 0 ? mine : undefined };
    from = to;
    return ev;
  };
  let i = 0;
  for (const is of loose) {
    while (i < rowNumbers.length && rowNumbers[i] < is.rowNumber) i++;
    const ev = slice(i);
    if (ev) yield ev;
    yield { type: 'rowIssue', rowNumber: is.rowNumber, issue: is.issue };
  }
  const last = slice(rowNumbers.length);
  if (last) yield last;
}
