/**
 * Duplicate keys, and nesting past a limit, in JSON text. `JSON.parse` keeps the last of two equal keys; Google's JSON parser
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

/**
 * An open object or array. One per depth, reused as the scan goes deeper and comes back: a body of
 * 1,000 requests has some 4,000 objects, and a frame and a Set of keys for each were a megabyte
 * of garbage per request (a tenth of batchUpdate's).
 */
interface Frame {
  isObject: boolean;
  /** Where this value is in its container: an index (arrays), or its key's text range (objects; -1: none). */
  atIndex: number;
  atStart: number;
  atEnd: number;
  /** The index of the next element (arrays). */
  index: number;
  /** The text range of the key whose value comes next (objects; -1: none yet). */
  pendingStart: number;
  pendingEnd: number;
  /** Where this object's keys start in the scan's list of keys. */
  keysFrom: number;
  /** The decoded keys, once the object has more than LINEAR_KEYS of them. */
  keySet: Set<string> | undefined;
}

/** Up to this many keys an object's keys are compared one by one, in place in the text; beyond, a Set holds them. */
const LINEAR_KEYS = 16;

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

/** Whether text[start, end) holds a backslash (an escape: the key must be decoded to be compared). */
function hasEscape(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (text.charCodeAt(i) === 92) return true;
  return false;
}

/** Whether the keys at text[aStart, aEnd) and text[bStart, bEnd) are the same key, decoded. */
function sameKey(text: string, aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  if (hasEscape(text, aStart, aEnd) || hasEscape(text, bStart, bEnd)) return decodeKey(text.slice(aStart, aEnd)) === decodeKey(text.slice(bStart, bEnd));
  if (aEnd - aStart !== bEnd - bStart) return false;
  for (let i = 0; i < aEnd - aStart; i++) if (text.charCodeAt(aStart + i) !== text.charCodeAt(bStart + i)) return false;
  return true;
}

/**
 * The path of the value `frames[depth - 1]` is: `policy.bindings[2].condition` (empty at the top).
 * Made only for the duplicate found.
 */
function pathOf(text: string, frames: Frame[], depth: number): string {
  let path = '';
  for (let d = 1; d < depth; d++) {
    const f = frames[d];
    if (f.atIndex >= 0) path = `${path}[${f.atIndex}]`;
    else {
      const at = f.atStart < 0 ? '' : decodeKey(text.slice(f.atStart, f.atEnd));
      path = path ? `${path}.${at}` : at;
    }
  }
  return path;
}

/** The first duplicate key of `text`, or undefined (`scanJsonText` without a depth limit). */
export function firstDuplicateKey(text: string): DuplicateKey | undefined {
  const found = scanJsonText(text, Infinity);
  return found?.kind === 'duplicate' ? { key: found.key, path: found.path } : undefined;
}

/** What `scanJsonText` finds first, in the text's order: a key given twice, or a container past the depth limit. */
export type JsonTextFault = ({ kind: 'duplicate' } & DuplicateKey) | { kind: 'tooDeep' };

/**
 * The first fault of `text`, in its order, or undefined: a key given twice in an object, or an
 * object or list opened deeper than `maxDepth` levels (the top value is level 1). Text that is not
 * valid JSON gives a best-effort answer: the parser reports its errors after this.
 *
 * The keys of the open objects are text ranges in one list (an object's own after those of the
 * objects around it, dropped when it closes), compared in place: no string is made for a key.
 */
export function scanJsonText(text: string, maxDepth: number): JsonTextFault | undefined {
  const frames: Frame[] = [];
  let depth = 0;
  const keyStarts: number[] = [];
  const keyEnds: number[] = [];
  // Inside an object: whether the next string is a key (after `{` or `,`) or a value (after `:`).
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const end = stringEnd(text, i);
      const top = depth > 0 ? frames[depth - 1] : undefined;
      if (expectKey && top?.isObject) {
        const start = i + 1;
        const keyEnd = end - 1;
        if (isSeen(text, top, start, keyEnd, keyStarts, keyEnds)) {
          return { kind: 'duplicate', key: decodeKey(text.slice(start, keyEnd)), path: pathOf(text, frames, depth) };
        }
        keyStarts.push(start);
        keyEnds.push(keyEnd);
        top.pendingStart = start;
        top.pendingEnd = keyEnd;
        expectKey = false;
      }
      i = end - 1;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (depth >= maxDepth) return { kind: 'tooDeep' };
      const frame = (frames[depth] ??= {
        isObject: false,
        atIndex: -1,
        atStart: -1,
        atEnd: -1,
        index: 0,
        pendingStart: -1,
        pendingEnd: -1,
        keysFrom: 0,
        keySet: undefined,
      });
      const parent = depth > 0 ? frames[depth - 1] : undefined;
      frame.atIndex = parent !== undefined && !parent.isObject ? parent.index : -1;
      frame.atStart = parent?.isObject ? parent.pendingStart : -1;
      frame.atEnd = parent?.isObject ? parent.pendingEnd : -1;
      frame.isObject = c === 123;
      frame.index = 0;
      frame.pendingStart = -1;
      frame.pendingEnd = -1;
      frame.keysFrom = keyStarts.length;
      frame.keySet = undefined;
      depth++;
      expectKey = c === 123;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      if (depth > 0) {
        depth--;
        keyStarts.length = keyEnds.length = frames[depth].keysFrom;
        frames[depth].keySet = undefined;
      }
      expectKey = false;
    } else if (c === 44 /* , */) {
      const top = depth > 0 ? frames[depth - 1] : undefined;
      if (top?.isObject) expectKey = true;
      else if (top) top.index++;
    }
  }
  return undefined;
}

/** Whether the object `top` already has the key at text[start, end) (the list holds its keys from `top.keysFrom`). */
function isSeen(text: string, top: Frame, start: number, end: number, keyStarts: number[], keyEnds: number[]): boolean {
  const count = keyStarts.length - top.keysFrom;
  if (top.keySet === undefined && count < LINEAR_KEYS) {
    for (let k = top.keysFrom; k < keyStarts.length; k++) if (sameKey(text, keyStarts[k], keyEnds[k], start, end)) return true;
    return false;
  }
  if (top.keySet === undefined) {
    top.keySet = new Set();
    for (let k = top.keysFrom; k < keyStarts.length; k++) top.keySet.add(decodeKey(text.slice(keyStarts[k], keyEnds[k])));
  }
  const key = decodeKey(text.slice(start, end));
  if (top.keySet.has(key)) return true;
  top.keySet.add(key);
  return false;
}
