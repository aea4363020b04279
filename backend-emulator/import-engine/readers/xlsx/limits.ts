/**
 * The bounds of one workbook read (inflated sizes, entry count, token length, shared strings) and
 * their defaults. Kept apart so that every stage (zip, inflate, XML, shared strings) reads the same
 * numbers and a caller can tighten any of them without knowing which stage enforces it.
 */
import type { ZipLimits } from '../zip/limits';

export { mib } from '../zip/limits';

/**
 * `maxEntryBytes`: largest inflated size of one zip entry (a sheet, the shared strings), default
 * 1 GiB. `maxTotalBytes`: of all entries read from one workbook, each sheet counted once (its
 * merge scan is not counted), default 2 GiB. `maxEntries`: default 10,000.
 */
export interface XlsxLimits extends ZipLimits {
  /** Longest unfinished markup or text value held while scanning, in characters. Default 1 MiB. */
  maxTokenChars: number;
  /** Most shared strings. Default 10,000,000. */
  maxSharedStrings: number;
  /** Largest inflated shared strings part: the strings are held while the sheets are read. Default 256 MiB. */
  maxSharedStringsBytes: number;
  /** A shared strings part inflating to more than this is held in a temp file, not memory. Default 8 MiB. */
  spoolSharedStringsAboveBytes: number;
}

export const DEFAULT_XLSX_LIMITS: XlsxLimits = {
  maxEntryBytes: 1024 * 1024 * 1024,
  maxTotalBytes: 2 * 1024 * 1024 * 1024,
  maxEntries: 10_000,
  maxTokenChars: 1024 * 1024,
  maxSharedStrings: 10_000_000,
  maxSharedStringsBytes: 256 * 1024 * 1024,
  spoolSharedStringsAboveBytes: 8 * 1024 * 1024,
};
