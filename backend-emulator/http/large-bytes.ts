/**
 * Large `bytes` fields of a request body, kept in files instead of the request thread's memory.
 *
 * A route declares the fields of its body that are proto `bytes` and may be megabytes long (an
 * import job's inline payload: `inlinePayload.payload[].data`) in its config (`largeBytesFields`).
 * A large body of such a route is read by the body worker (body-worker.ts): it applies every rule
 * of the body (json-body.ts), then writes each declared field's text of LARGE_BYTES_MIN_CHARS or
 * more to a file of its own, fsynced, with the facts a route needs about it (its SHA-256, whether
 * it is base64, its decoded size). The route gets a `LargeBytesText` in the field's place: it can
 * check the text, fingerprint it and move its file where it belongs without reading it. The file
 * of a text no route moved is removed once the request has been answered.
 */
import * as fs from 'fs';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { syncPath } from '../fs-sync';

/** A declared field's text this long or longer is kept in a file (smaller ones stay strings). */
export const LARGE_BYTES_MIN_CHARS = 64 * 1024;

/** What the body worker tells of one text it wrote to a file. */
export interface LargeBytesFacts {
  /** The file (in the emulator's folder of request texts). */
  path: string;
  /** The text's length in characters. */
  chars: number;
  /** SHA-256 of the text's UTF-8 bytes, hex. */
  sha256: string;
  /** Whether the text is base64 as a `bytes` field must be (schemas/base64.ts). */
  base64: boolean;
  /** The decoded size in bytes (meaningful when `base64`). */
  decodedSize: number;
}

/**
 * The text of a large `bytes` field, in a file. It is never made a string by accident: turning it
 * into JSON throws (an answer or a stored document that would carry it is a bug to find in tests,
 * not megabytes to write).
 */
export class LargeBytesText implements Readonly<LargeBytesFacts> {
  readonly path: string;
  readonly chars: number;
  readonly sha256: string;
  readonly base64: boolean;
  readonly decodedSize: number;

  constructor(facts: LargeBytesFacts) {
    this.path = facts.path;
    this.chars = facts.chars;
    this.sha256 = facts.sha256;
    this.base64 = facts.base64;
    this.decodedSize = facts.decodedSize;
  }

  /**
   * A short text that a schema's `base64` rule judges as it would judge the real one: the schema
   * then names the field and the rule exactly as for a small body, without the text in memory.
   */
  get validationStandIn(): string {
    return this.base64 ? '' : '=';
  }

  /** Moves the file to `target` (same file system: a rename; the text was fsynced when written). */
  async moveTo(target: string): Promise<void> {
    try {
      await fs.promises.rename(this.path, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await fs.promises.copyFile(this.path, target, fs.constants.COPYFILE_EXCL);
      await syncPath(target);
      await fs.promises.rm(this.path, { force: true });
    }
  }

  toJSON(): never {
    throw new Error(`a large bytes field's text (${this.chars} characters, in ${this.path}) was about to be written as JSON`);
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's large `bytes` fields: `inlinePayload.payload[].data` (`[]`: each item of a list). */
    largeBytesFields?: readonly string[];
  }
}

/** The route config that declares large `bytes` fields (fastify's route config, as declared above). */
export type LargeBytesRouteConfig = Pick<FastifyContextConfig, 'largeBytesFields'>;

/** The large `bytes` fields the request's route declares (none: undefined). */
export function declaredLargeBytesFields(request: FastifyRequest): readonly string[] | undefined {
  const fields = request.routeOptions.config?.largeBytesFields;
  return fields && fields.length > 0 ? fields : undefined;
}

/**
 * Calls `visit` with the object holding each value at `field` in `body` and the value's key.
 * `a.b[].c`: `body.a.b` is a list, and `c` of each of its items; anything not of that shape is skipped
 * (the route's validation names it).
 */
export function forEachFieldValue(body: unknown, field: string, visit: (holder: Record<string, unknown>, key: string) => void): void {
  const walk = (value: unknown, steps: readonly string[]): void => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    const [step, ...rest] = steps;
    const list = step.endsWith('[]');
    const key = list ? step.slice(0, -2) : step;
    const holder = value as Record<string, unknown>;
    if (!Object.prototype.hasOwnProperty.call(holder, key)) return;
    if (list) {
      const items = holder[key];
      if (Array.isArray(items)) for (const item of items) walk(item, rest);
    } else if (rest.length === 0) visit(holder, key);
    else walk(holder[key], rest);
  };
  walk(body, field.split('.'));
}

/** The key of the stand-in object a text's place holds between the worker and the request thread. */
export const LARGE_BYTES_MARKER = '\u0000largeBytes';

/** Puts each text the worker wrote (its place marked `{[LARGE_BYTES_MARKER]: index}`) back as a LargeBytesText. */
export function withLargeBytesTexts(body: unknown, fields: readonly string[], facts: readonly LargeBytesFacts[]): LargeBytesText[] {
  const texts: LargeBytesText[] = [];
  for (const field of fields) {
    forEachFieldValue(body, field, (holder, key) => {
      const value = holder[key];
      if (value === null || typeof value !== 'object' || !(LARGE_BYTES_MARKER in value)) return;
      const text = new LargeBytesText(facts[(value as Record<string, number>)[LARGE_BYTES_MARKER]]);
      holder[key] = text;
      texts.push(text);
    });
  }
  return texts;
}

/** The large texts of each request being answered (only requests that have some). */
const requestTexts = new WeakMap<FastifyRequest, LargeBytesText[]>();

/** Keeps `texts` for removal once `request` is answered (removeUnmovedTexts). */
export function keepTexts(request: FastifyRequest, texts: LargeBytesText[]): void {
  if (texts.length === 0) return;
  requestTexts.set(request, texts);
  // A client gone while the worker read the body: nobody answers, nothing removes them later.
  if (request.socket?.destroyed === true) releaseTexts(request, () => undefined);
}

/**
 * A route with large `bytes` fields removes the texts it did not move before its answer is sent
 * (a client that has the answer finds nothing left), or when the client goes away first. Hooks of
 * those routes only: no other request pays for them.
 */
export function removeUnmovedTexts(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.config?.largeBytesFields?.length) return;
    route.onSend = [...hookList(route.onSend), (request, _reply, payload, done) => releaseTexts(request, () => done(null, payload))];
    route.onRequestAbort = [...hookList(route.onRequestAbort), (request, done) => releaseTexts(request, done)];
  });
}

/** Removes the files of the request's texts that its route did not move; `done` once they are gone. */
function releaseTexts(request: FastifyRequest, done: () => void): void {
  const texts = requestTexts.get(request);
  requestTexts.delete(request);
  if (!texts) return done();
  let left = texts.length;
  for (const text of texts) fs.rm(text.path, { force: true }, () => --left === 0 && done());
}

function hookList<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}
