/**
 * Slashes taken off the ends of configured URLs and API versions, by loops: the regular
 * expressions `/\/+$/` and `/^\/+|\/+$/g` try every run of slashes to the end of the text, and take
 * seconds on a value of a few thousand slashes.
 */

const SLASH = 0x2f;

/** `text` without the slashes it ends with. */
export function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === SLASH) end--;
  return text.slice(0, end);
}

/** `text` without the slashes it starts or ends with. */
export function withoutEdgeSlashes(text: string): string {
  let start = 0;
  while (start < text.length && text.charCodeAt(start) === SLASH) start++;
  return withoutTrailingSlashes(text.slice(start));
}
