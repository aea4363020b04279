/**
 * A request's body as one Buffer, read from its stream the way fastify's own buffer parser reads
 * it (the route's bodyLimit, a Content-Length that must match, fastify's error codes), but into a
 * buffer of the declared length filled as the body arrives. Fastify's keeps every chunk until the
 * end, then copies them all into one buffer, and both stay alive while the body is parsed: two
 * copies of a 15.6 MB inline payload, on top of its text and parsed string (the emulator's peak
 * RSS is measured during that create).
 */
import type { FastifyRequest } from 'fastify';
import { errorCodes } from 'fastify';
import type { Readable } from 'stream';
import { GoogleApiError } from '../errors';

/**
 * The bytes of the bodies all connections may be sending at once (their declared lengths, or what
 * a chunked one sent so far). A body is held in memory until it is whole, and fastify sets no time
 * limit on a request: 20 clients that each sent an import job's create of 32 MiB but its last byte
 * held the emulator at 833 MB of RSS (107 at rest) for as long as they stayed connected. Past the
 * bound a body is refused `503 UNAVAILABLE` (a retry succeeds once the others are received); one
 * body is always taken, whatever its size (its route's limit bounds it).
 */
export const BODIES_IN_FLIGHT_BYTES = 256 * 1024 * 1024;

/**
 * How long a body may send nothing before it is refused (`408`, the connection closed). A client
 * that stops one byte short keeps neither its bytes nor its share of BODIES_IN_FLIGHT_BYTES past
 * it; a slow upload that moves at all is never cut.
 */
export const BODY_IDLE_MS = 60_000;

/** The share of BODIES_IN_FLIGHT_BYTES that the bodies being received hold: one per app. */
export class BodiesInFlight {
  private held = 0;

  constructor(
    readonly limit = BODIES_IN_FLIGHT_BYTES,
    readonly idleMs = BODY_IDLE_MS,
  ) {}

  /** The bytes held now. */
  get bytes(): number {
    return this.held;
  }

  /** Takes `bytes` if they fit (or if nothing is held): whether they were taken. */
  take(bytes: number): boolean {
    if (this.held > 0 && this.held + bytes > this.limit) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held -= bytes;
  }
}

function busy(limit: number): GoogleApiError {
  return new GoogleApiError(
    'UNAVAILABLE',
    `The emulator is receiving ${Math.round(limit / (1024 * 1024))} MiB of request bodies from other connections already; retry the request.`,
  );
}

function idle(ms: number): GoogleApiError {
  return new GoogleApiError('DEADLINE_EXCEEDED', `The request's body sent nothing for ${ms / 1000} s.`, [], 408);
}

export function readBodyBytes(
  request: FastifyRequest,
  payload: Readable,
  done: (err: Error | null, bytes?: Buffer) => void,
  inFlight: BodiesInFlight = new BodiesInFlight(),
): void {
  const limit = request.routeOptions.bodyLimit ?? Infinity;
  const declared = Number(request.headers['content-length']);
  if (declared > limit) {
    done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    return;
  }
  const sized = Number.isSafeInteger(declared) && declared >= 0;
  // The declared length is taken at once (its buffer is made at once); a chunked body's bytes as they come.
  let taken = 0;
  if (sized) {
    if (!inFlight.take(declared)) {
      done(busy(inFlight.limit));
      return;
    }
    taken = declared;
  }
  // Without a declared length (chunked), the chunks are kept and joined at the end, as fastify does.
  const bytes = sized ? Buffer.allocUnsafe(declared) : undefined;
  const chunks: Buffer[] = [];
  let received = 0;
  // Unreferenced: a body under way never keeps a closing process alive.
  const timer = setTimeout(onIdle, inFlight.idleMs).unref();

  const stop = (): void => {
    clearTimeout(timer);
    inFlight.give(taken);
    taken = 0;
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onEnd);
    payload.removeListener('close', onClose);
  };
  function onIdle(): void {
    stop();
    done(idle(inFlight.idleMs));
  }
  // A client that hangs up mid-body: its share is given back (after its end, stop has run already).
  function onClose(): void {
    stop();
  }
  function onData(chunk: Buffer | string): void {
    const piece = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    const at = received;
    received += piece.length;
    if (received > limit) {
      stop();
      done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    timer.refresh();
    if (!bytes) {
      if (!inFlight.take(piece.length)) {
        stop();
        done(busy(inFlight.limit));
        return;
      }
      taken += piece.length;
      chunks.push(piece);
    }
    // More than declared: the length check at the end refuses the body; nothing past the buffer is kept.
    else if (received <= bytes.length) piece.copy(bytes, at);
  }
  function onEnd(err?: Error & { statusCode?: number }): void {
    stop();
    if (err !== undefined && err !== null) {
      if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
      done(err);
      return;
    }
    if (bytes && received !== bytes.length) {
      done(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      return;
    }
    done(null, bytes ?? Buffer.concat(chunks, received));
  }
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onEnd);
  payload.on('close', onClose);
  payload.resume();
}
