/**
 * Duplicate keys in JSON text. `JSON.parse` keeps the last of two equal keys; Google's JSON parser
 * refuses the message (`{"type": "BOGUS", "type": "SIDECAR_PROXY"}` is an error on Google, not a
 * SIDECAR_PROXY policy). This scans the text once, before it is parsed, and names the first key
 * given twice in one object, with its path.
 *
 * Strings are skipped with `indexOf` (a large inline payload is a few long base64 strings), so
 * the scan costs little next to the parse itself. Keys are compared decoded: `"\u0074ype"` is
 * `type`.
 */

export interface DuplicateKey {
  /** The key, decoded. */
  key: string;
  /** Where: `policy.bindings[2].condition` (empty at the top level). */
  path: string;
}

interface Frame {
  /** Keys seen in this object; undefined for an array. */
  keys?: Set<string>;
  /** The path of this value, and the index of the next element of an array. */
  path: string;
  index: number;
  /** The key whose value comes next (objects). */
  pendingKey?: string;
}

/** The end (exclusive) of the string literal that starts at `start` (a `"`). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const quote = text.indexOf('"', i);
    if (quote < 0) return text.length;
    let backslashes = 0;
    for (let j = quote - 1; j > start && text.charCodeAt(j) === 92; j--) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    i = quote + 1;
  }
}

function decodeKey(literal: string): string {
  if (!literal.includes('\\')) return literal.slice(1, -1);
  try {
    return JSON.parse(literal) as string;
  } catch {
    return literal.slice(1, -1);
  }
}

function childPath(frame: Frame): string {
  if (frame.keys) return frame.path ? `${frame.path}.${frame.pendingKey ?? ''}` : (frame.pendingKey ?? '');
  return `${frame.path}[${frame.index}]`;
}

/**
 * The first duplicate key of `text`, or undefined. Text that is not valid JSON gives a best-effort
 * answer: the parser reports its errors after this.
 */
export function firstDuplicateKey(text: string): DuplicateKey | undefined {
  if (!text.includes('{')) return undefined;
  const stack: Frame[] = [];
  // Inside an object: whether the next string is a key (after `{` or `,`) or a value (after `:`).
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const end = stringEnd(text, i);
      const top = stack[stack.length - 1];
      if (expectKey && top?.keys) {
        const key = decodeKey(text.slice(i, end));
        if (top.keys.has(key)) return { key, path: top.path };
        top.keys.add(key);
        top.pendingKey = key;
        expectKey = false;
      }
      i = end - 1;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      const parent = stack[stack.length - 1];
      const path = parent ? childPath(parent) : '';
      stack.push(c === 123 ? { keys: new Set(), path, index: 0 } : { path, index: 0 });
      expectKey = c === 123;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      stack.pop();
      expectKey = false;
    } else if (c === 44 /* , */) {
      const top = stack[stack.length - 1];
      if (top?.keys) expectKey = true;
      else if (top) top.index++;
    }
  }
  return undefined;
}
