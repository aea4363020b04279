/** The messages between the request thread and the body worker (body-worker.ts). */
import type { ErrorDetail, StatusName } from '../errors';
import type { LargeBytesFacts } from './large-bytes';
import type { BodyNames } from './unknown-names';

export interface BodyReadRequest {
  id: number;
  /** The body's bytes, moved to the worker. */
  bytes: ArrayBuffer;
  /** The routed path of a Google API route (its ProtoJSON rules), or undefined. */
  googlePath: string | undefined;
  /** The route's large `bytes` fields. */
  fields: readonly string[];
  /** Where the worker writes their texts. */
  folder: string;
  /** The names the method's message has (request-bodies.ts): the worker refuses the others, as the front end would. */
  names: BodyNames | undefined;
}

/** A refusal thrown in the worker, to be thrown again on the request thread. */
export type BodyRefusal =
  | { kind: 'google'; status: StatusName; message: string; details: ErrorDetail[]; httpCode: number }
  | { kind: 'syntax'; message: string }
  | { kind: 'other'; message: string };

export type BodyReadResult = { id: number; value: unknown; texts: LargeBytesFacts[] } | { id: number; refusal: BodyRefusal };
