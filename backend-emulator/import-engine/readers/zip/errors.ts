/**
 * The one error type of the zip modules, and the words they use. The same directory reader and
 * inflater serve workbooks (an .xlsx is a zip) and the collection scripts' archives; a dialect says
 * what the container is called in messages and builds the error its reader catches, so that a
 * workbook's messages speak of parts and an archive's of entries.
 */

export type ZipErrorCode = 'NOT_A_ZIP' | 'LEGACY_OR_ENCRYPTED' | 'CORRUPT_ZIP' | 'UNSUPPORTED_ZIP' | 'TOO_LARGE';

/** A problem with the zip container itself; readers turn it into a file error. */
export class ZipError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'ZipError';
  }
}

export interface ZipDialect {
  /** `the workbook`, `the archive`: the container, in messages. */
  whole: string;
  /** `part`, `entry`: one member, in messages. */
  member: string;
  /** `parts`, `entries`. */
  members: string;
  /** The message for bytes that are not a zip at all. */
  notZip: string;
  /** What to do about an encrypted member. */
  encryptedHint: string;
  /** Whether an OLE compound file (legacy .xls, password-protected workbook) gets its own message. */
  oleMessage?: string;
  /** Member names compare case-blind (OPC part names do; plain archives do not). */
  caseBlind: boolean;
  fail(message: string, code: ZipErrorCode): ZipError;
}

/** A plain archive (the collection scripts' zips). */
export const ARCHIVE_DIALECT: ZipDialect = {
  whole: 'the archive',
  member: 'entry',
  members: 'entries',
  notZip: 'the file is not a zip archive',
  encryptedHint: 'zip the files again without a password',
  caseBlind: false,
  fail: (message, code) => new ZipError(message, code),
};
