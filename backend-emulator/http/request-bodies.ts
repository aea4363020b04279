/**
 * Google's JSON front end parses a request body into the method's request message before the
 * method runs: a name the message has not, at any depth, is refused there, in its words (`Invalid
 * JSON payload received. Unknown name "labelz" at 'asset': Cannot find field.`), whatever else the
 * body gets wrong and whether or not the resource exists. Here, for every Google method at once:
 *
 * - each service declares, per API version, what message each of its methods reads its body into
 *   (`RequestBodyTable`: networkservices/request-bodies.ts, migrationcenter/request-bodies.ts);
 *   a method that takes a body and is not declared fails the front end's test;
 * - the body parser (http/body.ts) hands every body it parsed here (`refuseUnknownBodyNames`),
 *   before any hook or route sees it, and the body worker's bodies are checked by the worker
 *   (`bodyNames` gives it the message): the names are walked against the method's message, keys
 *   only (unknown-names.ts: a string is never read, so an inline payload of megabytes costs
 *   nothing more than its few keys).
 *
 * No route, domain or version edge checks names of its own.
 */
import type { FastifyRequest } from 'fastify';
import type { MessageShape } from './message-shapes';
import { lazyShape, messageShape, VALUE } from './message-shapes';
import { closedByGoogle, googleMessages } from './google-messages';
import { refuseUnknownNames, type BodyNames } from './unknown-names';
import { requestGoogleMethod } from './request-method';
import type { GoogleMethod } from './google-methods';

export { refuseUnknownNames } from './unknown-names';

/** What one method reads its body into. */
export interface RequestBody {
  /**
   * Where the body sits in the request message, as Google's parser names it: the body field's
   * proto name (`body: "asset"` -> `asset`), or '' for a body that is the request itself (`body: "*"`).
   */
  readonly at: string;
  /** The message's names, in the version's shape (built at its first call, then kept: `lazyShape`). */
  readonly message: () => MessageShape;
}

/** The request bodies of one API version of one service, by Google method id. */
export interface RequestBodyTable {
  /** The API (`migrationcenter`): the methods' ids start with it. */
  readonly api: string;
  /** The version (`v1alpha1`): the methods' paths start with it. */
  readonly version: string;
  readonly bodies: Readonly<Record<string, RequestBody>>;
}

/** `google.longrunning.CancelOperationRequest`: only `name` (also the path's), in every service. */
export const CANCEL_OPERATION_BODY: RequestBody = { at: '', message: lazyShape(() => messageShape({ name: VALUE })) };

/** A request message whose only field is `requestId` (`:run`, `:validate`). */
export const REQUEST_ID_BODY: RequestBody = { at: '', message: lazyShape(() => messageShape({ requestId: VALUE })) };

/** `/v1alpha1/projects/...` + `migrationcenter.projects...` -> `v1alpha1 migrationcenter.projects...`. */
function bodyKey(version: string, id: string): string {
  return `${version} ${id}`;
}

/** The declared bodies of every service, by version and method id. */
const declared = new Map<string, RequestBody>();

/**
 * Declares a service's bodies (each service module, as the app registers it; idempotent). Each
 * message is checked as its table gives it, with what it leaves open closed to Google's names
 * (google-messages.ts): Google's parser refuses an unknown name in every message.
 */
export function declareRequestBodies(table: RequestBodyTable): void {
  for (const [id, body] of Object.entries(table.bodies)) {
    if (!id.startsWith(`${table.api}.`)) throw new Error(`${id} is not a method of ${table.api}`);
    declared.set(bodyKey(table.version, id), googleClosedBody(table, id, body));
  }
}

/** `body` with the messages it leaves open closed to Google's (as it is where Google's table has no body for the method). */
export function googleClosedBody(table: RequestBodyTable, id: string, body: RequestBody): RequestBody {
  const google = googleMessages(table.api, table.version);
  const message = google?.bodies[id];
  if (google === undefined || message === undefined) return body;
  const key = bodyKey(table.version, id);
  const known = closedBodies.get(key);
  if (known?.body === body) return known.closed;
  const closed = { at: body.at, message: lazyShape(() => closedByGoogle(body.message(), google, message)) };
  closedBodies.set(key, { body, closed });
  return closed;
}

/** Each method's body and its closed one (a table declared again by the next app keeps its shapes). */
const closedBodies = new Map<string, { body: RequestBody; closed: RequestBody }>();

/** What the Google method reads its body into, or undefined for a method declared with none. */
export function requestBodyOf(method: GoogleMethod): RequestBody | undefined {
  const version = method.path.split('/')[1];
  return declared.get(bodyKey(version, method.id));
}

/**
 * The front end's rule on a parsed body (http/body.ts calls it for every body, before any hook or
 * route): a name the method's request message has not is refused. A body that is no object is the
 * route's to refuse (`objectBody`); a method with no declared body is not checked.
 */
export function refuseUnknownBodyNames(request: FastifyRequest, body: unknown): void {
  const names = bodyNames(request);
  if (names) refuseUnknownNames(body, names.shape, names.at);
}

/** The names the request's Google method reads its body into, or undefined for a method declared with none (the body worker checks a large body by them). */
export function bodyNames(request: FastifyRequest): BodyNames | undefined {
  const method = requestGoogleMethod(request);
  const declaration = method === undefined ? undefined : requestBodyOf(method);
  return declaration && { shape: declaration.message(), at: declaration.at };
}
