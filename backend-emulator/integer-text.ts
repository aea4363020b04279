/**
 * An integer query parameter as Google's front end reads one: decimal digits after an optional
 * sign (`7`, `+7`, `-1`, `007`), and nothing else. `Number` alone would take `1e3`, `0x10`, `5.0`
 * and ` 5`; each parameter's range (an int32, a page size, a policy version) is its reader's.
 * The one reading of every integer query parameter (page sizes, `options.requestedPolicyVersion`,
 * the console's offsets and rows).
 */
const INTEGER_TEXT = /^[+-]?[0-9]+$/;

/** The integer `text` spells, or undefined when it spells none. */
export function integerText(text: string): number | undefined {
  return INTEGER_TEXT.test(text) ? Number(text) : undefined;
}
