/**
 * The wire rule of Migration Center's `requestId` (a UUID, as in the ImportJobArgs schema). The
 * idempotency itself (lookup, replay, remember) is the write helper's: operations/writes.ts.
 */
import { invalidArgument } from '../errors';
import { importJobArgsViolations } from './schemas-bridge';

/** The request id rule, read from the ImportJobArgs schema (one copy of the rule). */
const STUB_ARGS = { importJobId: 'x', inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'x', data: '' }] } };
export function checkRequestId(requestId: unknown): string | undefined {
  if (requestId === undefined) return undefined;
  if (typeof requestId !== 'string') throw invalidArgument([{ field: 'requestId', description: 'must be a string' }]);
  if (requestId === '') return undefined;
  const failure = importJobArgsViolations({ ...STUB_ARGS, requestId }).find((f) => f.field === 'requestId');
  if (failure) throw invalidArgument([failure]);
  return requestId;
}

/**
 * The body of a verb whose request message holds only `requestId` (`:run`, `:validate`; any other
 * name was refused by the front end, request-bodies.ts): a `requestId` that is not a string is
 * INVALID_ARGUMENT naming it.
 */
export function verbBodyRequestId(body: Record<string, unknown>): string | undefined {
  if (body.requestId !== undefined && typeof body.requestId !== 'string') throw invalidArgument([{ field: 'requestId', description: 'must be a string' }]);
  return body.requestId;
}
