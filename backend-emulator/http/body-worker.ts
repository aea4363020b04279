/**
 * The body worker: a worker thread that reads the large body of a route with large `bytes`
 * fields (large-bytes.ts), so that the request thread never parses it nor holds its text. For
 * each body it gets the bytes (moved here, not copied), applies every rule of a body
 * (json-body.ts) and the front end's unknown names (unknown-names.ts), writes each large field's text to a file of its own (fsynced) with its facts,
 * and answers the value with each such text's place marked; or the refusal, to be thrown on the
 * request thread as it would have been thrown there.
 */
import { createHash, randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { parentPort } from 'worker_threads';
import { decodedBase64Size, isBase64Text } from '../../schemas/base64';
import { GoogleApiError } from '../errors';
import { forgetLastRegExpMatch, freeNow, fullCollection } from '../garbage-collection';
import { jsonBodyText, readJsonText } from './json-body';
import { LARGE_BYTES_MARKER, LARGE_BYTES_MIN_CHARS, forEachFieldValue, type LargeBytesFacts } from './large-bytes';
import type { BodyReadRequest, BodyReadResult, BodyRefusal } from './body-worker-protocol';
import { refuseUnknownNames } from './unknown-names';

function refusal(err: unknown): BodyRefusal {
  if (err instanceof GoogleApiError) return { kind: 'google', status: err.status, message: err.message, details: err.details, httpCode: err.httpCode };
  if (err instanceof SyntaxError) return { kind: 'syntax', message: err.message };
  return { kind: 'other', message: err instanceof Error ? err.message : String(err) };
}

/** Writes `text` to a new file in `folder`, fsynced, and tells its facts. */
function writeText(folder: string, text: string): LargeBytesFacts {
  const file = path.join(folder, randomBytes(12).toString('hex'));
  const fd = fs.openSync(file, 'wx', 0o600);
  try {
    fs.writeSync(fd, text, 0, 'utf8');
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  const base64 = isBase64Text(text);
  return {
    path: file,
    chars: text.length,
    sha256: createHash('sha256').update(text, 'utf8').digest('hex'),
    base64,
    decodedSize: base64 ? decodedBase64Size(text) : 0,
  };
}

/**
 * How deep a value goes back to the request thread. Posting a value copies it recursively, and a
 * body nested 1,000,000 deep (hostile, under the 32 MiB limit) overflows the stack. Such a body is
 * refused before it is parsed (past 100 levels: json-depth.ts); the cut stays as a second guard.
 */
const CLONE_DEPTH = 64;

/**
 * How wide: an object goes back with at most this many keys and one more, a list with this many
 * items and one more. The request thread pays for every key it is handed (the copy, then the
 * route's validation): an import job of 2.4 million labels (32 MiB) held it 11 s, every other
 * request waiting. The routes this worker reads for are the import job's create and patch, whose
 * message has a dozen fields and no map or list the route takes past 1,000 entries (`labels` at
 * most 64, `inlinePayload.payload` 1,000 files); the unknown names are refused here before the
 * cut. So a cut value is refused for the same field, by the same rule, as the whole one.
 */
const CLONE_WIDTH = 1_000;

/** `value` with every object or list `depth` levels down emptied (`{}` or `[]`: the same kind), and each cut to CLONE_WIDTH + 1 entries. */
function cutBelow(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth === 0) return Array.isArray(value) ? [] : {};
  if (Array.isArray(value)) {
    if (value.length > CLONE_WIDTH + 1) value.length = CLONE_WIDTH + 1;
    for (let i = 0; i < value.length; i++) value[i] = cutBelow(value[i], depth - 1);
    return value;
  }
  const object = value as Record<string, unknown>;
  const cut: Record<string, unknown> = {};
  let count = 0;
  for (const key in object) {
    if (count++ > CLONE_WIDTH) break;
    cut[key] = cutBelow(object[key], depth - 1);
  }
  return cut;
}

function read(request: BodyReadRequest): BodyReadResult {
  const written: LargeBytesFacts[] = [];
  try {
    const bytes = new Uint8Array(request.bytes);
    const text = jsonBodyText(bytes);
    // Freed before the text is parsed: the bytes, the text and the parsed value's large strings,
    // each as large as the body, were all resident at once (the peak of an inline create).
    freeNow(bytes);
    const parsed = readJsonText(text, request.googlePath);
    // Google's parser's names first, on the whole body (a cut body could lose the first unknown name).
    if (request.names) refuseUnknownNames(parsed, request.names.shape, request.names.at);
    const value = cutBelow(parsed, CLONE_DEPTH);
    for (const field of request.fields) {
      forEachFieldValue(value, field, (holder, key) => {
        const text = holder[key];
        if (typeof text !== 'string' || text.length < LARGE_BYTES_MIN_CHARS) return;
        written.push(writeText(request.folder, text));
        holder[key] = { [LARGE_BYTES_MARKER]: written.length - 1 };
      });
    }
    return { id: request.id, value, texts: written };
  } catch (err) {
    for (const text of written) fs.rmSync(text.path, { force: true });
    return { id: request.id, refusal: refusal(err) };
  }
}

/**
 * Lets go of the body's text once it is answered (its bytes were freed before the parse). Within
 * the handler the request was still reachable, and a collection there freed nothing; nor did one
 * that left the regex's last subject, the base64 text (`isBase64Text`), reachable. So the idle
 * worker kept its heap (24 MB after a 100,000-row inline create) through the `:validate` and `:run`
 * that usually follow it, until it ended 5 s later.
 */
function letGoOfTheBody(): void {
  forgetLastRegExpMatch();
  const collect = fullCollection();
  if (collect) setImmediate(collect);
}

parentPort!.on('message', (request: BodyReadRequest) => {
  parentPort!.postMessage(read(request));
  letGoOfTheBody();
});
