/**
 * Payload sources: an import job's payload (inline or in object storage) as a list of
 * `PayloadFile`s for the import engine.
 */
import { inlinePayloadFiles, type InlineFile, type StoredInlineFile } from './inline';
import { resolveLocalPayload } from './local-storage';
import { resolveRemotePayload } from './remote-storage';
import { localEscapeReason, parseGsPath, syntacticEscapeReason } from './storage-path';
import { usesRemoteStorage, type ResolvedPayload, type StorageSettings } from './types';

export type { FileOrigin, PayloadFile, ResolvedPayload, StorageSettings } from './types';
export { fromPortable, portableFile, type PortableFile } from './origin';
export { usesRemoteStorage } from './types';
export { inlinePayloadFiles, decodedBase64Size, base64FileStream, type InlineFile, type StoredInlineFile } from './inline';
export { parseGsPath, formatGsPath, type GsPath } from './storage-path';
export { resetStorageClients } from './remote-storage';

/**
 * A job's payload in wire spelling (exactly one of the two is set); an inline file's text may be
 * in a file on disk instead (`StoredInlineFile`: how an import job keeps it).
 */
export interface JobPayload {
  inlinePayload?: { format: string; payload: Array<InlineFile | StoredInlineFile> };
  gcsPayload?: { format: string; path: string };
}

/**
 * Checks a storage path at create time. Returns the reason it is refused (for a field violation
 * on `gcsPayload.path`), or undefined. Local storage also resolves symbolic links.
 */
export function storagePathProblem(settings: StorageSettings, gsPath: string): string | undefined {
  const gs = parseGsPath(gsPath);
  if (!gs) return 'must be gs://{bucket}/{object or prefix}';
  return usesRemoteStorage(settings) ? syntacticEscapeReason(gs) : localEscapeReason(settings.storageDir, gs);
}

/** The files of a payload; problems (missing objects, escapes) come back as job-level errors. */
export async function resolvePayload(settings: StorageSettings, job: JobPayload): Promise<ResolvedPayload> {
  if (job.inlinePayload) return { files: inlinePayloadFiles(job.inlinePayload.payload ?? []), errors: [] };
  if (job.gcsPayload) {
    const gs = parseGsPath(job.gcsPayload.path);
    if (!gs) return { files: [], errors: [`path ${job.gcsPayload.path} is not gs://{bucket}/{object or prefix}`] };
    return usesRemoteStorage(settings) ? resolveRemotePayload(settings.storageEndpoint, gs) : resolveLocalPayload(settings.storageDir, gs);
  }
  return { files: [], errors: ['the job has no payload'] };
}
