/**
 * The contract between background work that changes a resource and the operations module,
 * which owns the whole life of the Operation: the work's end (WorkEnd: the resource's final state,
 * written in the transaction that ends the Operation), its stop (WorkState and the one mapping
 * from an abort reason to an error, stopOutcome) and restart recovery (RecoveryHook).
 */
import { GoogleApiError, internal } from '../errors';

/** Why a running operation's signal fired ('deleted': its target was deleted, see `abortTarget`). */
export type AbortReason = 'cancelled' | 'reset' | 'shutdown' | 'deleted';

/**
 * What background work that changes a resource tells the operations module, so that the module,
 * not the domain, ends the Operation together with the resource's final state.
 */
export interface WorkState {
  /** What is in progress, for messages: "... while {during}", e.g. "this job was IMPORT_JOB_STATE_RUNNING". */
  during: string;
  /** What the work does, for messages: "{activity} stopped: ...", e.g. "validation". */
  activity: string;
  /** The resource in an internal error's message, e.g. "Import job projects/p/...". */
  resource: string;
  /** The error the Operation ends with when the resource was deleted while the work ran. */
  gone: () => unknown;
  /**
   * Writes the resource's failed state with `message` (run inside the Operation's end
   * transaction). Throwing a GoogleApiError (the resource is gone) ends the Operation with it.
   */
  failed: (message: string) => void;
}

/**
 * The end of background work with its resource's final state: `writeState` runs inside the same
 * transaction that ends the Operation (with `error`, or the response), so both commit or neither.
 * `response` is the response's fields beside its `@type` (none: an empty message).
 */
export class WorkEnd {
  constructor(
    readonly writeState: () => void,
    readonly error?: unknown,
    readonly response?: Record<string, unknown>,
  ) {}
}

/** How work stopped by `reason` (or by throwing `err`) ends: the message for the resource and the Operation's error. */
export type StopOutcome = { kind: 'dropped' } | { kind: 'gone'; error: unknown } | { kind: 'failed'; message: string; error: unknown; internal: boolean };

/** The message a resource records when a restart interrupted its work (and its Operation's ABORTED message). */
export function interruptedMessage(during: string): string {
  return `interrupted: the emulator stopped while ${during}`;
}

/** The one mapping from an abort reason (or a thrown error) to the error the Operation ends with. */
export function stopOutcome(err: unknown, reason: AbortReason | undefined, state: WorkState): StopOutcome {
  if (reason === 'reset') return { kind: 'dropped' };
  if (reason === 'deleted') return { kind: 'gone', error: state.gone() };
  if (reason === 'shutdown') {
    const message = interruptedMessage(state.during);
    return { kind: 'failed', message, error: new GoogleApiError('ABORTED', message), internal: false };
  }
  if (reason === 'cancelled') {
    const message = `cancelled: the operation was cancelled while ${state.during}`;
    return { kind: 'failed', message, error: new GoogleApiError('CANCELLED', message), internal: false };
  }
  if (err instanceof GoogleApiError) return { kind: 'failed', message: `${state.activity} stopped: ${err.message}`, error: err, internal: false };
  const message = `${state.activity} stopped by an internal error: ${(err as Error)?.message ?? String(err)}`;
  return { kind: 'failed', message, error: internal(`${state.resource}: ${message}`), internal: true };
}

/** A domain's part in restart recovery (see `ServiceOperations.recoverInterrupted`). */
export interface RecoveryHook {
  /** The domain's resources left in progress by a stopped process, with the Operation working on each. */
  inProgress(): Array<{ target: string; operation?: string }>;
  /** Marks the resource failed (inside the recovery transaction); returns the message its Operation ends with. */
  markInterrupted(target: string): string;
}
