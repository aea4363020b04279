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
  /** The object or array this value is in (undefined at the top), and its key or index there. */
  parent?: Frame;
  at: string | number;
  /** The index of the next element (arrays). */
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

/** A key's text between its quotes, decoded (`\u0074ype` is `type`). */
function decodeKey(raw: string): string {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/**
 * The path of a value: `policy.bindings[2].condition` (empty at the top). Made only for the
 * duplicate found: a body of 1,000 requests has some 4,000 objects, and a path string for each
 * was most of the scan's garbage.
 */
function pathOf(frame: Frame): string {
  // Walked up without recursion: a hostile body nests a million deep.
  const chain: Frame[] = [];
  for (let f: Frame | undefined = frame; f?.parent; f = f.parent) chain.push(f);
  let path = '';
  for (let i = chain.length - 1; i >= 0; i--) {
    const at = chain[i].at;
    path = typeof at === 'number' ? `${path}[${at}]` : path ? `${path}.${at}` : at;
  }
  return path;
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
        const key = decodeKey(text.slice(i + 1, end - 1));
        if (top.keys.has(key)) return { key, path: pathOf(top) };
        top.keys.add(key);
        top.pendingKey = key;
        expectKey = false;
      }
      i = end - 1;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      const parent = stack[stack.length - 1];
      const at = parent === undefined ? '' : parent.keys ? (parent.pendingKey ?? '') : parent.index;
      stack.push(c === 123 ? { keys: new Set(), parent, at, index: 0 } : { parent, at, index: 0 });
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
