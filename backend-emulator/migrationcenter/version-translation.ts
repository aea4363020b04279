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
import { ProtoJsonText, protoFieldPath } from '../http/protojson';
import { FileString } from '../http/file-string';
import { StreamedProtoJson } from '../http/streamed-json';
import { TYPE_PREFIX } from './names';
import { storedEnumValues, type EnumDifference, type MessageDifference, type WireVersion } from './wire-version';
import { versionField } from './field-paths';

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
  const snake = protoFieldPath(field);
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
    // Errors name the field as the request did (`machine_details`, not the stored `virtual_machine_details`).
    if (enumDiff && isEnumValue(enumDiff, value)) {
      const storedValue = readEnumValue(version, enumDiff, value, protoPath(at, key));
      if (storedValue !== undefined) out[stored] = storedValue;
    } else if (child && isObject(value)) out[stored] = readRequestMessage(version, child, value, protoPath(at, key));
    else if (child && Array.isArray(value)) {
      out[stored] = value.map((item, i) => (isObject(item) ? readRequestMessage(version, child, item, `${protoPath(at, key)}[${i}]`) : item));
    } else out[stored] = value;
  }
  for (const [stored, path] of Object.entries(diff.moves ?? {})) takeMoved(version, diff, out, stored, path, at);
  return out;
}

/** A name, or a number where the version's values are listed (a string field in the stored shape, whose enum numbers the front end does not know). */
function isEnumValue(enumDiff: EnumDifference, value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && enumDiff.values !== undefined);
}

/**
 * An enum value in the version's spelling -> the stored one (Google's error for a value the version
 * has not); undefined for the enum's zero (the first of `values`), which is the field unset. A
 * number is the value of that number in `values` (listed in proto order, from 0).
 */
function readEnumValue(version: WireVersion, enumDiff: EnumDifference, given: string | number, at: string): string | undefined {
  const value = typeof given === 'number' ? enumDiff.values?.[given] : given;
  const stored = value === undefined ? undefined : storedEnumValues(enumDiff, value);
  if (stored === undefined) throw invalidEnumValue(at, `${version.typePrefix}${enumDiff.type}`, value ?? given);
  return stored[0];
}

/** Reads a moved field's value (at `path` of the version's message) back into its stored field, in place on `out`. */
function takeMoved(version: WireVersion, diff: MessageDifference, out: Record<string, unknown>, stored: string, path: string, at: string): void {
  const [top, ...rest] = path.split('.');
  if (rest.length === 0) {
    if (out[top] === undefined || stored === top) return;
    if (out[stored] === undefined) out[stored] = out[top];
    delete out[top];
    return;
  }
  // Along the path, copies: the request's objects are not changed.
  const holders: Array<Record<string, unknown>> = [out];
  let holder = out;
  for (const key of [top, ...rest.slice(0, -1)]) {
    const next = holder[key];
    if (!isObject(next)) return;
    holder[key] = { ...next };
    holder = holder[key] as Record<string, unknown>;
    holders.push(holder);
  }
  const leaf = rest[rest.length - 1];
  if (holder[leaf] === undefined) return;
  const enumDiff = diff.enums?.[stored];
  const value = holder[leaf];
  const storedValue = enumDiff && isEnumValue(enumDiff, value) ? readEnumValue(version, enumDiff, value, protoPath(at, path)) : value;
  if (storedValue !== undefined) out[stored] = storedValue;
  delete holder[leaf];
  // A message the move emptied is left out, as the sender would have had nothing there.
  const keys = [top, ...rest.slice(0, -1)];
  for (let i = holders.length - 1; i > 0; i--) {
    if (Object.keys(holders[i]).length > 0) break;
    delete holders[i - 1][keys[i - 1]];
  }
}

/** What writing a message needs of its row, made once per row (each asset of an answer of 1,000 reads it). */
interface WritePlan {
  /** `lacks` as a set: v1's Asset lacks 31 fields. */
  lacks: ReadonlySet<string>;
  /**
   * The answer's fields `writeMessage` wrote whole (child messages, and the messages moved fields
   * went into): declared messages of the service, which hold no resource nor `@type` for the walk
   * to find, so it does not go through them again.
   */
  whole: ReadonlySet<string>;
  /** `moves` with each path split once. */
  moves: ReadonlyMap<string, readonly string[]>;
}

const plans = new WeakMap<MessageDifference, WritePlan>();

function planOf(diff: MessageDifference): WritePlan {
  let plan = plans.get(diff);
  if (plan === undefined) {
    const whole = [
      ...Object.keys(diff.children ?? {}).map((field) => diff.moves?.[field] ?? diff.renames?.[field] ?? field),
      ...Object.values(diff.moves ?? {}).map((path) => path.split('.')[0]),
    ];
    const moves = new Map(Object.entries(diff.moves ?? {}).map(([field, path]) => [field, path.split('.')]));
    plan = { lacks: new Set(diff.lacks ?? []), whole: new Set(whole), moves };
    plans.set(diff, plan);
  }
  return plan;
}

/** A stored message -> the version's shape (in place on a copy). */
function writeMessage(version: WireVersion, message: string, value: Record<string, unknown>): Record<string, unknown> {
  const diff = version.messages[message];
  if (!diff) return value;
  const out: Record<string, unknown> = {};
  let moved: Array<[readonly string[], unknown]> | undefined;
  const plan = planOf(diff);
  for (const key of Object.keys(value)) {
    if (plan.lacks.has(key)) continue;
    const written = writeField(version, diff, key, value[key]);
    if (written === undefined) continue;
    const path = plan.moves.get(key);
    if (path !== undefined) (moved ??= []).push([path, written]);
    else out[diff.renames?.[key] ?? key] = written;
  }
  if (moved !== undefined) {
    // The messages a move made or copied here, which later moves fill without copying them again.
    const made = new Set<object>();
    for (const [path, field] of moved) putMoved(out, path, field, made);
  }
  return out;
}

/**
 * A stored enum value as the version spells it; undefined where the version has no such value
 * (its unspecified value, absent in ProtoJSON).
 */
export function writeEnumValue(enumDiff: EnumDifference, value: string): string | undefined {
  if (enumDiff.lacks?.includes(value)) return undefined;
  const renamed = enumDiff.renames?.[value];
  if (renamed !== undefined) return renamed;
  return enumDiff.values !== undefined && !enumDiff.values.includes(value) ? undefined : value;
}

/** One stored field's value in the version's shape (undefined: the version leaves it out). */
function writeField(version: WireVersion, diff: MessageDifference, key: string, field: unknown): unknown {
  const enumDiff = diff.enums?.[key];
  if (enumDiff && typeof field === 'string') return writeEnumValue(enumDiff, field);
  const pathOf = diff.paths?.[key];
  if (pathOf !== undefined && typeof field === 'string') return versionField(version, pathOf, field)?.path ?? field;
  const child = diff.children?.[key];
  if (child === undefined) return field;
  if (Array.isArray(field)) return field.map((item) => (isObject(item) ? writeMessage(version, child, item) : item));
  return isObject(field) ? writeMessage(version, child, field) : field;
}

/**
 * Puts a moved value at its path of `out`, where nothing is yet, copying the stored messages on the
 * way (once: `made` holds the messages this answer's moves already made or copied).
 */
function putMoved(out: Record<string, unknown>, keys: readonly string[], value: unknown, made: Set<object>): void {
  let holder = out;
  for (let i = 0; i < keys.length - 1; i++) {
    const next = holder[keys[i]];
    if (next !== undefined && !isObject(next)) return;
    if (next === undefined || !made.has(next)) {
      const copy = { ...next };
      made.add(copy);
      holder[keys[i]] = copy;
      holder = copy;
    } else holder = next;
  }
  const leaf = keys[keys.length - 1];
  if (holder[leaf] === undefined) holder[leaf] = value;
}

/** `projects/p/locations/l/importJobs/j/importDataFiles/f` -> `importDataFiles`. */
function collectionOf(name: string): string | undefined {
  const m = /^projects\/[^/]+\/locations\/[^/]+\/(?:[^/]+\/[^/]+\/)*([^/]+)\/[^/]+$/.exec(name);
  return m?.[1];
}

/**
 * An answer in the stored shape -> the version's shape. `requestMessage`, the message the request's
 * body was read as (`Frames`), lets an error name a field of the body in the version's names.
 */
export function writeAnswer(version: WireVersion, payload: unknown, requestMessage?: string): unknown {
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
    const diff = message === undefined ? undefined : version.messages[message];
    if (message !== undefined) object = writeMessage(version, message, object);
    const whole = diff === undefined ? undefined : planOf(diff).whole;
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(object)) out[key] = whole?.has(key) ? field : walk(field, depth + 1);
    return out;
  };
  // A streamed answer's value is rewritten, its file strings kept (those of a field the version lacks
  // are left out with it: v1's ImportJob has no inlinePayload, so its text is never read).
  if (payload instanceof StreamedProtoJson) return payload.withValue(walk(payload.value, 0));
  // An answer written as text (http/protojson.ts ProtoJsonText) is in the stored shape too: read back to be rewritten.
  const answer = walk(payload instanceof ProtoJsonText ? payload.value() : payload, 0);
  if (isObject(answer) && isObject(answer.error)) answer.error = renameInErrorTexts(version, answer.error, requestMessage);
  return answer;
}

/**
 * Error texts name the service's types (`...v1alpha1.ImportJobFormat`): the version's instead. A
 * violation of a field of the request's body (the domain checked the stored shape:
 * `framesData[0].virtualMachineDetails.coreCount`) names it as the request did (`...machineDetails.coreCount`).
 */
function renameInErrorTexts(version: WireVersion, error: Record<string, unknown>, requestMessage: string | undefined): Record<string, unknown> {
  const renamedFields = new Map<string, string>();
  const fieldOf = (field: unknown): unknown => {
    if (typeof field !== 'string' || requestMessage === undefined) return field;
    const path = versionField(version, requestMessage, field)?.path ?? field;
    if (path !== field) renamedFields.set(field, path);
    return path;
  };
  const text = (s: unknown): unknown => {
    if (typeof s !== 'string') return s;
    let out = s.split(TYPE_PREFIX).join(version.typePrefix);
    for (const [field, path] of renamedFields) out = out.split(`'${field}'`).join(`'${path}'`);
    return out;
  };
  const details = Array.isArray(error.details)
    ? error.details.map((d: unknown) =>
        isObject(d) && Array.isArray(d.fieldViolations)
          ? {
              ...d,
              fieldViolations: d.fieldViolations.map((v: unknown) => (isObject(v) ? { ...v, field: fieldOf(v.field), description: text(v.description) } : v)),
            }
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
  app.addHook('preSerialization', async (request, _reply, payload) =>
    writeAnswer(version, payload, isObject(payload) && isObject(payload.error) ? bodyMessage(version, request)?.message : undefined),
  );
}
