/**
 * The edge of one API version (wire-version.ts has the data): requests in the version's shape are
 * read into the stored (v1alpha1) shape before any family sees them, and answers leave in the
 * version's shape, so that the families serve every version without knowing which one a request
 * came through.
 *
 * - In: a renamed field or enum value is read under its stored name; an enum value the version
 *   lacks (or spells otherwise) is `Invalid value at 'import_data_file.format'
 *   (type.googleapis.com/...v1.ImportJobFormat)`. A field the version's message lacks never gets
 *   here: the front end refused it as an unknown name, against the version's own message
 *   (http/request-bodies.ts, with request-bodies.ts's table for the version).
 * - Out: every `@type` of the service (an Operation's metadata and response) names the version's
 *   message; every resource (found by its name's collection, wherever it sits: a get, a list, an
 *   Operation's response) and every typed message loses the fields the version lacks and takes
 *   its spellings; error texts name the version's types.
 * - The version a request came through is known while its handler runs (`servedVersion`), so an
 *   Operation records in `metadata.apiVersion` the version that started it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { invalidEnumValue } from '../errors';
import { ProtoJsonText } from '../http/protojson';
import { FileString } from '../http/file-string';
import { StreamedProtoJson } from '../http/streamed-json';
import { TYPE_PREFIX } from './names';
import type { MessageDifference, WireVersion } from './wire-version';

const served = new AsyncLocalStorage<WireVersion>();

/** The version the request being handled came through (undefined outside a request). */
export function servedVersion(): WireVersion | undefined {
  return served.getStore();
}

/** Deeper than any message of the service; below it answers are passed as they are. */
const MAX_DEPTH = 24;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `import_job` + `inlinePayload` -> `import_job.inline_payload`: the proto path Google's errors give. */
function protoPath(at: string, field: string): string {
  const snake = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return at ? `${at}.${snake}` : snake;
}

/**
 * A request body in the version's shape -> the stored shape (throws Google's error for an enum value
 * the version has not). Its names were checked against the version's message by the front end.
 */
export function readRequestMessage(version: WireVersion, message: string, body: Record<string, unknown>, at: string): Record<string, unknown> {
  const diff: MessageDifference | undefined = version.messages[message];
  if (!diff) return body;
  const storedOf = new Map(Object.entries(diff.renames ?? {}).map(([stored, wire]) => [wire, stored]));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    const stored = storedOf.get(key) ?? key;
    const enumDiff = diff.enums?.[stored];
    const child = diff.children?.[stored];
    if (enumDiff && typeof value === 'string') {
      const storedValue = Object.entries(enumDiff.renames ?? {}).find(([, wire]) => wire === value)?.[0];
      const spelledOtherwise = Object.prototype.hasOwnProperty.call(enumDiff.renames ?? {}, value);
      if (spelledOtherwise || (enumDiff.lacks ?? []).includes(value)) {
        throw invalidEnumValue(protoPath(at, stored), `${version.typePrefix}${enumDiff.type}`, value);
      }
      out[stored] = storedValue ?? value;
    } else if (child && isObject(value)) out[stored] = readRequestMessage(version, child, value, protoPath(at, stored));
    else if (child && Array.isArray(value)) {
      out[stored] = value.map((item, i) => (isObject(item) ? readRequestMessage(version, child, item, `${protoPath(at, stored)}[${i}]`) : item));
    } else out[stored] = value;
  }
  return out;
}

/** A stored message -> the version's shape (in place on a copy). */
function writeMessage(version: WireVersion, message: string, value: Record<string, unknown>): Record<string, unknown> {
  const diff = version.messages[message];
  if (!diff) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (diff.lacks?.includes(key)) continue;
    const enumDiff = diff.enums?.[key];
    if (enumDiff && typeof field === 'string') {
      if (enumDiff.lacks?.includes(field)) continue; // the version's unspecified value: absent in ProtoJSON
      out[diff.renames?.[key] ?? key] = enumDiff.renames?.[field] ?? field;
      continue;
    }
    const child = diff.children?.[key];
    const write = (item: unknown): unknown => (child && isObject(item) ? writeMessage(version, child, item) : item);
    out[diff.renames?.[key] ?? key] = Array.isArray(field) ? field.map(write) : write(field);
  }
  return out;
}

/** `projects/p/locations/l/importJobs/j/importDataFiles/f` -> `importDataFiles`. */
function collectionOf(name: string): string | undefined {
  const m = /^projects\/[^/]+\/locations\/[^/]+\/(?:[^/]+\/[^/]+\/)*([^/]+)\/[^/]+$/.exec(name);
  return m?.[1];
}

/** An answer in the stored shape -> the version's shape. */
export function writeAnswer(version: WireVersion, payload: unknown): unknown {
  if (version.typePrefix === TYPE_PREFIX) return payload;
  const walk = (value: unknown, depth: number): unknown => {
    if (depth > MAX_DEPTH) return value;
    if (Array.isArray(value)) return value.map((item) => walk(item, depth + 1));
    // A string kept in a file (a streamed answer's inline payload text) is a string: as it is.
    if (!isObject(value) || value instanceof FileString) return value;
    let message: string | undefined;
    let object = value;
    const type = value['@type'];
    if (typeof type === 'string' && type.startsWith(TYPE_PREFIX)) {
      message = type.slice(TYPE_PREFIX.length);
      object = { ...value, '@type': `${version.typePrefix}${message}` };
    } else if (typeof value.name === 'string' && type === undefined) {
      const collection = collectionOf(value.name);
      message = collection === undefined ? undefined : version.collections[collection]?.message;
    }
    if (message !== undefined) object = writeMessage(version, message, object);
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(object)) out[key] = walk(field, depth + 1);
    return out;
  };
  // A streamed answer's value is rewritten, its file strings kept (those of a field the version lacks
  // are left out with it: v1's ImportJob has no inlinePayload, so its text is never read).
  if (payload instanceof StreamedProtoJson) return payload.withValue(walk(payload.value, 0));
  // An answer written as text (http/protojson.ts ProtoJsonText) is in the stored shape too: read back to be rewritten.
  const answer = walk(payload instanceof ProtoJsonText ? payload.value() : payload, 0);
  if (isObject(answer) && isObject(answer.error)) answer.error = renameTypesInTexts(version, answer.error);
  return answer;
}

/** Error texts name the service's types (`...v1alpha1.ImportJobFormat`): the version's instead. */
function renameTypesInTexts(version: WireVersion, error: Record<string, unknown>): Record<string, unknown> {
  const text = (s: unknown): unknown => (typeof s === 'string' ? s.split(TYPE_PREFIX).join(version.typePrefix) : s);
  const details = Array.isArray(error.details)
    ? error.details.map((d: unknown) =>
        isObject(d) && Array.isArray(d.fieldViolations)
          ? { ...d, fieldViolations: d.fieldViolations.map((v: unknown) => (isObject(v) ? { ...v, description: text(v.description) } : v)) }
          : d,
      )
    : error.details;
  return { ...error, message: text(error.message), ...(details !== undefined ? { details } : {}) };
}

/**
 * The message a request body is, from the route's pattern: the collection its path ends with
 * (`.../importJobs` or `.../importJobs/:importJob`), unless the request names a custom verb
 * (`importJobs/j:run` takes a request message of its own, not the resource; `assets:reportAssetFrames`
 * a `Frames`, `verbBodies`).
 */
function bodyMessage(version: WireVersion, request: FastifyRequest): { message: string; protoName: string } | undefined {
  const pattern = request.routeOptions.url;
  if (pattern === undefined) return undefined;
  const path = request.url.split('?')[0];
  const verb = /:([^/:]*)$/.exec(path.slice(path.lastIndexOf('/')))?.[1];
  if (verb !== undefined) return Object.hasOwn(version.verbBodies, verb) ? version.verbBodies[verb] : undefined;
  if (pattern.includes('::')) return undefined;
  const segments = pattern.split('/');
  const last = segments[segments.length - 1];
  const collection = last.startsWith(':') ? segments[segments.length - 2] : last;
  return version.collections[collection];
}

/**
 * Installs the version's edge on `app`, a fastify context of its own that holds only the version's
 * routes (the hooks and the handler wrapping apply to routes declared on it afterwards).
 */
export function installVersionEdge(app: FastifyInstance, version: WireVersion): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const handler = route.handler;
    route.handler = function servedIn(this: FastifyInstance, ...args: Parameters<typeof handler>) {
      return served.run(version, () => handler.apply(this, args));
    };
  });
  if (version.typePrefix !== TYPE_PREFIX) {
    app.addHook('preValidation', async (request) => {
      if (!isObject(request.body)) return;
      const message = bodyMessage(version, request);
      if (message) request.body = readRequestMessage(version, message.message, request.body, message.protoName);
    });
  }
  if (version.typePrefix === TYPE_PREFIX) return;
  app.addHook('preSerialization', async (_request, _reply, payload) => writeAnswer(version, payload));
}
