/**
 * Signed download URLs of export outputs: what an execution's `signedUris` and output files'
 * `signedUri.uri` hold.
 *
 * Google hands out signed object-storage URLs; the emulator hands out URLs that point at itself
 * (the origin the `:run` request was sent to), at `/downloads/{job}/executions/{execution}/{file}`,
 * signed for GET with the key of the upload URLs (url-signing.ts). A URL works until its
 * execution's `expireTime`; changing any part of it is refused with 403 and the reason.
 */
import { UrlSigner } from '../url-signing';

/** Outside `/v1alpha1/` (not a Google API path) and `/emulator/` (no admin token): the signature is the credential. */
export const DOWNLOAD_PATH_PREFIX = '/downloads/';
export const DOWNLOAD_METHOD = 'GET';

/** The signed name of an execution's file: `{job}/executions/{execution}/{file}`. */
export function downloadName(job: string, executionId: string, file: string): string {
  return `${job}/executions/${executionId}/${file}`;
}

/** `{job}/executions/{execution}/{file}` -> its parts; undefined for any other shape. */
export function parseDownloadName(name: string): { job: string; executionId: string; file: string } | undefined {
  const m = /^(.+)\/executions\/([^/]+)\/([^/]+)$/.exec(name);
  return m ? { job: m[1], executionId: m[2], file: m[3] } : undefined;
}

export class DownloadUrls {
  private readonly signer: UrlSigner;

  constructor(dataDir: string | undefined, now: () => number = Date.now) {
    this.signer = new UrlSigner(dataDir, now);
  }

  /** The URL of an execution's file, for a client that reached the emulator at `origin`, valid until `expiresAt` (ms). */
  sign(origin: string, job: string, executionId: string, file: string, expiresAt: number): string {
    return this.signer.sign(origin, DOWNLOAD_PATH_PREFIX, downloadName(job, executionId, file), expiresAt, DOWNLOAD_METHOD).url;
  }

  /** Checks a download request (`name` from its path); throws 403 PERMISSION_DENIED saying why it is refused. */
  verify(name: string, query: Record<string, unknown>): void {
    this.signer.verify(DOWNLOAD_METHOD, name, query, {
      what: 'download URL',
      file: 'export file',
      as: 'signedUri of the export execution',
      renewal: 'Run the export job again to get fresh files and URLs.',
    });
  }
}
