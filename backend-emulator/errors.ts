/**
 * Google API errors, in the REST form of `google.rpc.Status`.
 *
 * Every error the emulator returns is a `GoogleApiError`, built through one of the
 * factories below, so that the HTTP code and the canonical status name can never disagree.
 */
import { googleMethodAt } from './http/google-methods';

/** Canonical codes of `google.rpc.Code` and the HTTP status Google maps each to. */
export const STATUS_HTTP_CODES = {
  CANCELLED: 499,
  UNKNOWN: 500,
  INVALID_ARGUMENT: 400,
  DEADLINE_EXCEEDED: 504,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  PERMISSION_DENIED: 403,
  UNAUTHENTICATED: 401,
  RESOURCE_EXHAUSTED: 429,
  FAILED_PRECONDITION: 400,
  ABORTED: 409,
  OUT_OF_RANGE: 400,
  UNIMPLEMENTED: 501,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  DATA_LOSS: 500,
} as const;

export type StatusName = keyof typeof STATUS_HTTP_CODES;

/** Numeric `google.rpc.Code` values, used in `Operation.error.code`. */
export const RPC_CODES: Record<StatusName, number> = {
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  UNAUTHENTICATED: 16,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
};

export interface FieldViolation {
  field: string;
  description: string;
}

/** One entry of `google.rpc.Status.details`: any message with its `@type`. */
export type ErrorDetail = { '@type': string } & Record<string, unknown>;

export interface GoogleErrorBody {
  error: { code: number; message: string; status: StatusName; details?: ErrorDetail[] };
}

export class GoogleApiError extends Error {
  readonly status: StatusName;
  readonly httpCode: number;
  readonly details: ErrorDetail[];

  /**
   * `httpCode` overrides the status's usual HTTP code, for the few transport-level errors whose
   * HTTP code the front end sets itself: 413 (`payloadTooLarge` below), and 408 and 431 for
   * requests Node's HTTP parser refuses (http/errors.ts).
   */
  constructor(status: StatusName, message: string, details: ErrorDetail[] = [], httpCode?: number) {
    super(message);
    this.name = 'GoogleApiError';
    this.status = status;
    this.httpCode = httpCode ?? STATUS_HTTP_CODES[status];
    this.details = details;
  }

  /** The JSON body Google's REST front end sends for this error (ProtoJSON: no empty `details`). */
  toJSON(): GoogleErrorBody {
    const error: GoogleErrorBody['error'] = { code: this.httpCode, message: this.message, status: this.status };
    if (this.details.length > 0) error.details = this.details;
    return { error };
  }

  /** The `google.rpc.Status` form used inside a long-running `Operation.error`. */
  toRpcStatus(): { code: number; message: string; details: ErrorDetail[] } {
    return { code: RPC_CODES[this.status], message: this.message, details: this.details };
  }
}

const BAD_REQUEST = 'type.googleapis.com/google.rpc.BadRequest';
const RESOURCE_INFO = 'type.googleapis.com/google.rpc.ResourceInfo';
const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';

/** INVALID_ARGUMENT with `google.rpc.BadRequest` field violations; the message names the first field. */
export function invalidArgument(violations: FieldViolation[], message?: string): GoogleApiError {
  const first = violations[0];
  const text = message ?? (first ? `Invalid value for field '${first.field}': ${first.description}` : 'Invalid argument.');
  return new GoogleApiError('INVALID_ARGUMENT', text, [{ '@type': BAD_REQUEST, fieldViolations: violations }]);
}

/**
 * An enum value the API does not have, as Google's JSON front end answers it: `Invalid value at
 * 'import_job.inline_payload.format' (type.googleapis.com/google.cloud.migrationcenter.v1alpha1.ImportJobFormat),
 * "FOO"`, with a BadRequest violation on that path.
 */
export function invalidEnumValue(at: string, enumType: string, value: unknown): GoogleApiError {
  const text = `Invalid value at '${at}' (${enumType}), ${JSON.stringify(value)}`;
  return invalidArgument([{ field: at, description: text }], text);
}

export function notFound(resourceType: string, resourceName: string): GoogleApiError {
  return new GoogleApiError('NOT_FOUND', `Resource '${resourceName}' was not found`, [
    { '@type': RESOURCE_INFO, resourceType, resourceName, owner: '', description: 'not found' },
  ]);
}

export function alreadyExists(resourceType: string, resourceName: string): GoogleApiError {
  return new GoogleApiError('ALREADY_EXISTS', `Resource '${resourceName}' already exists`, [
    { '@type': RESOURCE_INFO, resourceType, resourceName, owner: '', description: 'already exists' },
  ]);
}

export function failedPrecondition(message: string): GoogleApiError {
  return new GoogleApiError('FAILED_PRECONDITION', message);
}

export function aborted(message: string, reason = 'ABORTED'): GoogleApiError {
  return new GoogleApiError('ABORTED', message, [{ '@type': ERROR_INFO, reason, domain: 'googleapis.com', metadata: {} }]);
}

export function permissionDenied(permission: string, resource: string): GoogleApiError {
  return new GoogleApiError('PERMISSION_DENIED', `Permission '${permission}' denied on resource '${resource}' (or it may not exist).`, [
    { '@type': ERROR_INFO, reason: 'IAM_PERMISSION_DENIED', domain: 'iam.googleapis.com', metadata: { permission, resource } },
  ]);
}

export function unauthenticated(message = 'Request is missing required authentication credential.'): GoogleApiError {
  return new GoogleApiError('UNAUTHENTICATED', message);
}

export function internal(message = 'Internal error encountered.'): GoogleApiError {
  return new GoogleApiError('INTERNAL', message);
}

export function unimplemented(message: string): GoogleApiError {
  return new GoogleApiError('UNIMPLEMENTED', message);
}

export function unavailable(message = 'The service is currently unavailable.'): GoogleApiError {
  return new GoogleApiError('UNAVAILABLE', message);
}

/**
 * A request no route serves. When it is a method of Google's API that the emulator does not
 * implement: UNIMPLEMENTED naming the method (a NOT_FOUND would tell the client the resource is
 * gone); otherwise NOT_FOUND (no ResourceInfo: there is no resource).
 */
export function unknownPath(method: string, path: string): GoogleApiError {
  const googleMethod = googleMethodAt(method, path);
  if (googleMethod) return unimplemented(`Method ${googleMethod} is not implemented by the emulator (${method} ${path}).`);
  return new GoogleApiError('NOT_FOUND', `Method not found: ${method} ${path}`);
}

/**
 * A request body over the size limit: HTTP 413 (as Google's front end answers), with the
 * canonical status INVALID_ARGUMENT, since `google.rpc.Code` has no "too large" code.
 */
export function payloadTooLarge(limitBytes: number): GoogleApiError {
  return new GoogleApiError(
    'INVALID_ARGUMENT',
    `Request payload size exceeds the limit: ${limitBytes} bytes.`,
    [{ '@type': BAD_REQUEST, fieldViolations: [{ field: '', description: `The request body is larger than ${limitBytes} bytes.` }] }],
    413,
  );
}

/**
 * A signed URL that does not grant the request (tampered, expired, signed for another resource or
 * method): 403 PERMISSION_DENIED, as object storage refuses a bad signed URL, with an ErrorInfo
 * whose `reason` says which (`SIGNATURE_MISMATCH`, `URL_EXPIRED`, ...) and a message that says why.
 */
export function signedUrlRefused(reason: string, message: string): GoogleApiError {
  return new GoogleApiError('PERMISSION_DENIED', message, [{ '@type': ERROR_INFO, reason, domain: 'migrationcenter.googleapis.com' }]);
}

/**
 * An upload larger than a per-file limit: HTTP 413 with INVALID_ARGUMENT (as `payloadTooLarge`),
 * naming the limit; checked while the bytes stream in, not only from Content-Length.
 */
export function uploadTooLarge(limitBytes: number, what: string): GoogleApiError {
  return new GoogleApiError(
    'INVALID_ARGUMENT',
    `${what} is larger than the limit of ${limitBytes} bytes per file.`,
    [{ '@type': BAD_REQUEST, fieldViolations: [{ field: '', description: `The upload is larger than ${limitBytes} bytes.` }] }],
    413,
  );
}
