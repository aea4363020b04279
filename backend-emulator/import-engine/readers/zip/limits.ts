/**
 * The bounds every zip read enforces (workbooks and import archives alike), and the defaults of an
 * import archive. A workbook's limits (../xlsx/limits.ts) extend these with its XML bounds.
 */

export interface ZipLimits {
  /** Largest inflated size of one entry. */
  maxEntryBytes: number;
  /** Largest inflated size of all the entries read from one zip. */
  maxTotalBytes: number;
  /** Most entries in the archive (directories included): checked before the directory is parsed. */
  maxEntries: number;
}

export interface ArchiveLimits extends ZipLimits {
  /**
   * Largest declared inflated/compressed ratio of an entry larger than `ratioFloorBytes`. Deflate
   * tops out near 1032:1, which only a bomb (or a file of one repeated byte) reaches; the
   * collection scripts' CSV files compress about 5 to 20 times.
   */
  maxRatio: number;
  /** Entries declaring at most this many bytes are not held to `maxRatio` (they cannot hurt). */
  ratioFloorBytes: number;
}

/**
 * An import archive's defaults. `maxEntryBytes` is the engine's one-file limit (`maxFileBytes`,
 * 100 MiB) unless set; the total covers the four files of a script's export at that size.
 */
export const DEFAULT_ARCHIVE_LIMITS: Omit<ArchiveLimits, 'maxEntryBytes'> = {
  maxTotalBytes: 512 * 1024 * 1024,
  maxEntries: 1000,
  maxRatio: 200,
  ratioFloorBytes: 1024 * 1024,
};

/** A byte count for messages: `8 MiB` when it is a whole number of MiB, else `N bytes`. */
export function mib(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  return `${n} bytes`;
}
