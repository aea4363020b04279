/**
 * The one error type of the workbook reader. Every stage (zip, inflate, XML, parts, rows) throws it
 * for a problem with the file itself, so that the reader can turn exactly those into a file error
 * and let anything else (a bug, an I/O failure) propagate. The zip stages (../zip/) throw it
 * through the workbook's dialect below.
 */
import { ZipError, type ZipDialect } from '../zip/errors';

export type XlsxErrorCode = 'NOT_A_WORKBOOK' | 'LEGACY_OR_ENCRYPTED' | 'CORRUPT_ZIP' | 'UNSUPPORTED_ZIP' | 'TOO_LARGE' | 'BAD_XML' | 'DOCTYPE' | 'MISSING_PART';

/** A problem with the workbook as a whole; the reader turns it into a file error. */
export class XlsxError extends ZipError {
  declare readonly code: XlsxErrorCode;
  constructor(message: string, code: XlsxErrorCode) {
    super(message, code);
    this.name = 'XlsxError';
  }
}

/** How the zip modules speak of a workbook: parts, OPC's case-blind names, Excel's advice. */
export const WORKBOOK_DIALECT: ZipDialect = {
  whole: 'the workbook',
  member: 'part',
  members: 'parts',
  notZip: 'the file is not an .xlsx workbook (not a zip archive)',
  oleMessage: 'the file is a legacy .xls workbook or a password-protected workbook (an OLE compound file), not an .xlsx: save it as an unprotected .xlsx',
  encryptedHint: 'save the workbook without a password',
  caseBlind: true,
  fail: (message, code) => new XlsxError(message, code === 'NOT_A_ZIP' ? 'NOT_A_WORKBOOK' : code),
};
