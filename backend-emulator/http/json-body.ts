/**
 * The rules of a JSON request body, as one function of its bytes: run on the request thread for
 * most bodies, and on the body worker for a large body of a route with large `bytes` fields
 * (body-worker.ts), so that both read a body the same way.
 *
 * - JSON only; an empty body is "no body", as Google's front end reads a bodiless POST (`:cancel`).
 * - The bytes must be UTF-8 (JSON text is UTF-8; decoding anyway would store U+FFFD for bad bytes).
 * - A body nested deeper than MAX_JSON_DEPTH levels of objects and lists is refused, before it is
 *   parsed. Google's parser reads a body into protocol buffer messages, whose parsers stop at 100
 *   levels of nested messages (the C++, Java and Python runtimes' default); no request message of
 *   these APIs nests over 16 levels of its own, but `Struct`, `Value` and `Any` fields (a
 *   heartbeat's error `details`, a frame's `structuredAttributes`) take any JSON. JSON.parse reads
 *   any depth, but what the emulator does with a value after it recurses: a heartbeat whose error
 *   `details` nested 200,000 lists was stored, and every get and list of discovery clients
 *   answered 500 from then on.
 * - A key given twice in an object is refused (Google's parser refuses it; JSON.parse keeps the last).
 * - `__proto__` and `constructor.prototype` keys are refused (fastify's own protections).
 * - A string holding an unpaired UTF-16 surrogate (`\uD800`) is refused: valid JSON, but no Unicode text.
 * - On a Google API route, ProtoJSON in: proto field names and enum numbers read as Google reads them.
 *
 * A refusal is thrown: a GoogleApiError, or the parser's SyntaxError (http/errors.ts words it).
 */
import { isUtf8 } from 'buffer';
import { parse as parseJsonText } from 'secure-json-parse';
import { invalidArgument } from '../errors';
import { hasLoneSurrogate } from '../unicode';
import { scanJsonText } from './json-duplicates';
import { fromProtoJsonBody } from './protojson';

/** The most levels of objects and lists a body may nest (the body itself is level 1). */
export const MAX_JSON_DEPTH = 100;

/** The body's value (undefined for an empty body); `googlePath`: the routed path of a Google API route. */
export function readJsonBody(bytes: Uint8Array, googlePath: string | undefined): unknown {
  return readJsonText(jsonBodyText(bytes), googlePath);
}

/** The body's text: its bytes decoded, refused unless they are UTF-8. */
export function jsonBodyText(bytes: Uint8Array): string {
  if (!isUtf8(bytes)) {
    throw invalidArgument([{ field: '', description: 'the body is not valid UTF-8' }], 'Invalid JSON payload received. The body is not valid UTF-8.');
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** The value of a body's text (`jsonBodyText`), by every other rule of a body. */
export function readJsonText(text: string, googlePath: string | undefined): unknown {
  if (text.trim() === '') return undefined;
  // One scan of the text, before it is parsed: the first key given twice or container too deep.
  const fault = scanJsonText(text, MAX_JSON_DEPTH);
  if (fault?.kind === 'tooDeep') {
    throw invalidArgument(
      [{ field: '', description: `the body nests objects and lists deeper than ${MAX_JSON_DEPTH} levels` }],
      `Invalid JSON payload received. The body nests objects and lists deeper than ${MAX_JSON_DEPTH} levels.`,
    );
  }
  if (fault?.kind === 'duplicate') {
    const field = fault.path ? `${fault.path}.${fault.key}` : fault.key;
    throw invalidArgument([{ field, description: 'is given twice' }], `Invalid JSON payload received. Duplicate field "${fault.key}".`);
  }
  const value: unknown = parseJsonText(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  if (SURROGATE_ESCAPE.test(text) && holdsLoneSurrogate(value)) {
    throw invalidArgument(
      [{ field: '', description: 'a string holds an unpaired UTF-16 surrogate' }],
      'Invalid JSON payload received. A string holds an unpaired UTF-16 surrogate (\\uD800-\\uDFFF).',
    );
  }
  return googlePath === undefined ? value : fromProtoJsonBody(value, googlePath, text);
}

/** A `\uD800`-`\uDFFF` escape in JSON text (the only way a parsed string can hold a surrogate). */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** Whether a string, or any key or string inside a parsed JSON value, holds an unpaired surrogate. */
function holdsLoneSurrogate(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (hasLoneSurrogate(v)) return true;
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
        if (hasLoneSurrogate(k)) return true;
        stack.push(item);
      }
    }
  }
  return false;
}
