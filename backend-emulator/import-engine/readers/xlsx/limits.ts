/**
 * The bounds of one workbook read (inflated sizes, entry count, token length, shared strings) and
 * their defaults. Kept apart so that every stage (zip, inflate, XML, shared strings) reads the same
 * numbers and a caller can tighten any of them without knowing which stage enforces it.
 */

export interface XlsxLimits {
  /** Largest inflated size of one zip entry (a sheet, the shared strings). Default 1 GiB. */
  maxEntryBytes: number;
  /** Largest inflated size of all entries read from one workbook, each sheet counted once (its merge scan is not counted). Default 2 GiB. */
  maxTotalBytes: number;
  /** Most entries in the archive. Default 10,000. */
  maxEntries: number;
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

/** A byte count for messages: `8 MiB` when it is a whole number of MiB, else `N bytes`. */
export function mib(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  return `${n} bytes`;
}
