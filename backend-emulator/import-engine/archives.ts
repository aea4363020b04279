/**
 * Import archives: a `.zip` payload file (what the AWS and Azure collection scripts hand the user:
 * `aws-import-files.zip`, `vm-aws-import-files.zip`, `azure-import-files.zip`,
 * `vm-azure-import-files.zip`) becomes one payload file per entry the format reads, matched by the
 * entry's base name (`output/vm/vmInfo.csv` is a vmInfo.csv), plus one report for the archive itself.
 *
 * The archive's bytes are collected once (in memory while small, else an unlinked temp file:
 * ../readers/zip-source.ts) and read through its central directory; each entry is inflated as a
 * stream whenever the pipeline opens it (a validation opens a file more than once), never whole.
 * Before anything is inflated, the directory is held to the bomb guards (../readers/zip/limits.ts):
 * entry count, encrypted entries, declared size per entry and in total, declared ratio; while
 * inflating, an entry is stopped one byte past its declared size and CRC-checked. What is refused
 * becomes a file error of the archive's report, never an exception: the server stays up.
 *
 * Reports: the archive's own report (`fileName` = the payload file's name) lists the entries not
 * read (INFO), the refused ones (ERROR) and archive-wide problems; each entry read has its report
 * named `<archive>/<entry path>`, and its row errors carry `archiveError {filePath, csvError}` (see
 * TableState.location in pipeline.ts).
 */
import { Readable } from 'node:stream';
import { clip } from './columns';
import { collectZip, type ZipSource } from './readers/zip-source';
import { readZipDirectory, type ZipEntry } from './readers/zip/directory';
import { ARCHIVE_DIALECT, ZipError } from './readers/zip/errors';
import { InflateBudget, inflateEntry } from './readers/zip/inflate';
import { DEFAULT_ARCHIVE_LIMITS, mib, type ArchiveLimits } from './readers/zip/limits';
import { error, info, type FileValidationReport } from './report';
import { nameTells, startsWithZipSignature, WORKBOOK_PART, type ContentNamedFile } from './content-kind';
import { guardedBytes, SourceError } from './source';
import type { FormatDefinition, PayloadFile } from './types';
import { baseName } from './util';

/** Where an entry file comes from. */
export interface ArchiveMember {
  /** The archive's payload file name. */
  archive: string;
  /** The entry's path inside the archive, with `/` separators (`output/vm/vmInfo.csv`). */
  path: string;
}

/** A payload file that is one entry of an archive. */
export interface ArchiveEntryFile extends PayloadFile {
  archiveMember: ArchiveMember;
}

export function archiveMemberOf(file: PayloadFile | undefined): ArchiveMember | undefined {
  return (file as ArchiveEntryFile | undefined)?.archiveMember;
}

export interface ExpandedPayload {
  /** The payload with each archive replaced by the entry files the format reads. */
  files: PayloadFile[];
  /** Each archive's own report, with the index in `files` of its first entry file. */
  archiveReports: Array<{ at: number; report: FileValidationReport }>;
  /** Releases the archives' bytes (temp files); idempotent. */
  close(): void;
}

export function isArchiveName(name: string): boolean {
  return /\.zip$/i.test(baseName(name));
}

/**
 * Why an entry name must not be used as a path, or undefined when it is safe: a `..` segment,
 * an absolute path or a drive letter (with either separator: PowerShell 5.1 wrote `\`), a NUL or
 * another control character. Nothing is written to disk here, but the name reaches reports and
 * logs, and a name that escapes its folder is how a hostile archive targets the tools that do.
 */
export function unsafeEntryReason(name: string): string | undefined {
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) < 0x20) return 'its name holds a control character';
  if (/^[\\/]/.test(name)) return 'its path is absolute';
  if (/^[A-Za-z]:/.test(name)) return 'its path starts with a drive letter';
  if (name.split(/[\\/]/).includes('..')) return 'its path leaves the archive (a ".." segment)';
  return undefined;
}

export interface ExpandOptions {
  /** The engine's one-file limit: for the archive and for each entry. */
  maxFileBytes: number;
  archiveLimits?: Partial<ArchiveLimits>;
  signal?: AbortSignal;
}

/** Replaces the `.zip` files of a payload by their entries. Never throws for a bad archive; rethrows an abort. */
export async function expandArchives(definition: FormatDefinition, payload: readonly PayloadFile[], options: ExpandOptions): Promise<ExpandedPayload> {
  const files: PayloadFile[] = [];
  const archiveReports: ExpandedPayload['archiveReports'] = [];
  const sources: ZipSource[] = [];
  const close = (): void => sources.forEach((s) => s.close());
  const limits: ArchiveLimits = { ...DEFAULT_ARCHIVE_LIMITS, maxEntryBytes: options.maxFileBytes, ...(options.archiveLimits ?? {}) };
  try {
    for (const file of payload) {
      const name = typeof file?.name === 'string' ? file.name : '';
      const base = baseName(name);
      // A name that does not say what the file is (`export-1`): a zip signature makes it an archive.
      const byContent = !isArchiveName(name) && !nameTells(definition, base) && (await startsWithZipSignature(file, options.maxFileBytes));
      if (!isArchiveName(name) && !byContent) {
        files.push(file);
        continue;
      }
      const report: FileValidationReport = { fileName: name, rowErrors: [], partialReport: false, fileErrors: [] };
      const zip = await collect(file, options, report);
      if (!zip) {
        archiveReports.push({ at: files.length, report });
        continue;
      }
      let entries: Map<string, ZipEntry>;
      try {
        entries = readZipDirectory(zip, limits, ARCHIVE_DIALECT);
      } catch (e) {
        if (!(e instanceof ZipError)) throw e;
        zip.close();
        if (byContent) {
          files.push(file); // not a zip after all: the pipeline reports its name
          continue;
        }
        archiveReports.push({ at: files.length, report });
        report.fileErrors.push(error(`the archive cannot be read: ${e.message}`));
        continue;
      }
      if (byContent && entries.has(WORKBOOK_PART)) {
        // A workbook saved without its extension: the format's reader reads it as one.
        zip.close();
        const workbook: ContentNamedFile = { name: file.name, size: file.size, open: () => file.open(), readAs: `${base}.xlsx` };
        files.push(workbook);
        continue;
      }
      sources.push(zip);
      archiveReports.push({ at: files.length, report });
      if (byContent) {
        report.fileErrors.push(
          info(`"${clip(base)}" is read as a .zip archive: its name does not say what it is, and it starts with a zip signature (PK\\x03\\x04)`),
        );
      }
      files.push(...entryFiles(definition, name, zip, entries, limits, report));
    }
  } catch (e) {
    close();
    throw e;
  }
  return { files, archiveReports, close };
}

async function collect(file: PayloadFile, options: ExpandOptions, report: FileValidationReport): Promise<ZipSource | undefined> {
  try {
    const zip = await collectZip(guardedBytes(file, options.maxFileBytes, { bytes: 0 }));
    options.signal?.throwIfAborted();
    return zip;
  } catch (e) {
    if (options.signal?.aborted) throw options.signal.reason ?? e;
    if (!(e instanceof SourceError)) throw e;
    report.fileErrors.push(error(e.message));
    return undefined;
  }
}

/** The entries the format reads, as payload files; the others are named in the archive's report. */
function entryFiles(
  definition: FormatDefinition,
  archive: string,
  zip: ZipSource,
  entries: Map<string, ZipEntry>,
  limits: ArchiveLimits,
  report: FileValidationReport,
): PayloadFile[] {
  const out: PayloadFile[] = [];
  let declaredTotal = 0;
  for (const entry of entries.values()) {
    const shown = clip(entry.name, 256);
    const unsafe = unsafeEntryReason(entry.name);
    if (unsafe) {
      report.fileErrors.push(error(`the archive entry "${shown}" is refused: ${unsafe}; nothing of it is read`));
      continue;
    }
    const path = entry.name.replace(/\\/g, '/');
    if (!definition.fileKinds.some((k) => k.fileName.test(baseName(path)))) {
      report.fileErrors.push(info(`the archive entry "${shown}" is not read by format ${definition.label} (${definition.format}); it is ignored`));
      continue;
    }
    const bomb = bombReason(entry, declaredTotal, limits);
    if (bomb) {
      report.fileErrors.push(error(`the archive entry "${shown}" is refused: ${bomb} (zip bomb?); nothing of it is read`));
      continue;
    }
    declaredTotal += entry.uncompressedSize;
    const file: ArchiveEntryFile = {
      name: `${archive}/${path}`,
      size: entry.uncompressedSize,
      archiveMember: { archive, path },
      // A fresh budget per read: the pipeline reads an entry more than once, and the declared
      // total checked above already bounds one read of every entry.
      open: () => Readable.from(inflateEntry(zip, entry, new InflateBudget(limits, ARCHIVE_DIALECT))),
    };
    out.push(file);
  }
  return out;
}

/** Why an entry's declared sizes are refused before it is inflated, or undefined. */
function bombReason(entry: ZipEntry, declaredSoFar: number, limits: ArchiveLimits): string | undefined {
  const size = entry.uncompressedSize;
  if (size > limits.maxEntryBytes) return `it declares ${size} inflated bytes, more than the ${mib(limits.maxEntryBytes)} accepted for one file`;
  if (size > limits.ratioFloorBytes && size > limits.maxRatio * Math.max(1, entry.compressedSize)) {
    return `it declares ${size} inflated bytes from ${entry.compressedSize} compressed, a ratio above the ${limits.maxRatio}:1 accepted`;
  }
  if (declaredSoFar + size > limits.maxTotalBytes) {
    return `the entries read from the archive would inflate to more than the ${mib(limits.maxTotalBytes)} accepted in total`;
  }
  return undefined;
}

/** The validation's file reports with each archive's own report placed before its entries' reports. */
export function withArchiveReports(reports: readonly FileValidationReport[], expanded: ExpandedPayload): FileValidationReport[] {
  const out: FileValidationReport[] = [];
  let next = 0;
  reports.forEach((r, i) => {
    while (next < expanded.archiveReports.length && expanded.archiveReports[next].at <= i) out.push(expanded.archiveReports[next++].report);
    out.push(r);
  });
  while (next < expanded.archiveReports.length) out.push(expanded.archiveReports[next++].report);
  return out;
}
