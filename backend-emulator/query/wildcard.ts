/**
 * The `*` patterns of list filters (`name:*web*`, `displayName = "db-*"`): `*` stands for any run
 * of characters (none, and line breaks, included), every other character for itself.
 *
 * Matched by finding the pattern's literal pieces in order, never through a regular expression:
 * `*a*a*a*a*a*a*a*a*b` made into `^.*a.*a.*a.*a.*a.*a.*a.*a.*b$` backtracks through every way of
 * placing its pieces (about n^k steps for k stars over n characters), and one list request with it
 * over a 1,024-character description held the emulator's request thread for hours, every other
 * client waiting. Taking each piece at its first place after the previous one is enough (a later
 * place leaves less room for the pieces after it, never more), so a match costs one `indexOf` per
 * piece.
 */

/** Whether `value` matches `pattern`, where each `*` stands for any run of characters. */
export function wildcardMatch(pattern: string, value: string): boolean {
  const pieces = pattern.split('*');
  if (pieces.length === 1) return pattern === value;
  const head = pieces[0];
  const tail = pieces[pieces.length - 1];
  // The head and the tail are fixed at the ends and may not overlap.
  if (value.length < head.length + tail.length || !value.startsWith(head) || !value.endsWith(tail)) return false;
  const end = value.length - tail.length;
  let at = head.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i];
    if (piece === '') continue;
    const found = value.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}
