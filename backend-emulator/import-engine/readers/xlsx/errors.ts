/**
 * The one error type of the workbook reader. Every stage (zip, inflate, XML, parts, rows) throws it
 * for a problem with the file itself, so that the reader can turn exactly those into a file error
 * and let anything else (a bug, an I/O failure) propagate.
 */

export type XlsxErrorCode = 'NOT_A_WORKBOOK' | 'LEGACY_OR_ENCRYPTED' | 'CORRUPT_ZIP' | 'UNSUPPORTED_ZIP' | 'TOO_LARGE' | 'BAD_XML' | 'DOCTYPE' | 'MISSING_PART';

/** A problem with the workbook as a whole; the reader turns it into a file error. */
export class XlsxError extends Error {
  constructor(
    message: string,
    readonly code: XlsxErrorCode,
  ) {
    super(message);
    this.name = 'XlsxError';
  }
}
