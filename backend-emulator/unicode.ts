/** Text checks shared by the HTTP layer and the import engine. */

const SURROGATE = /[\uD800-\uDFFF]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `s` holds a UTF-16 surrogate without its pair: no Unicode text, and UTF-8 cannot carry it. */
export function hasLoneSurrogate(s: string): boolean {
  return SURROGATE.test(s) && LONE_SURROGATE.test(s);
}
