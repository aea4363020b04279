/**
 * Small text helpers of SpreadsheetML cells and messages: the `_xHHHH_` escapes of stored strings
 * and the clipping of values quoted in messages. Shared by the shared strings and the row reader.
 */

/** `_x000D_` escapes of SpreadsheetML strings. */
export function decodeOoxmlEscapes(s: string): string {
  if (s.indexOf('_x') === -1) return s;
  return s.replace(/_x([0-9A-Fa-f]{4})_/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** `s` cut to `max` characters (with an ellipsis), for quoting a value in a message. */
export function clipText(s: string, max = 48): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
