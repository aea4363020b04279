/**
 * Signed upload URLs of import data files: what `uploadFileInfo.signedUri` holds.
 *
 * Google hands out a signed object-storage URL; the emulator hands out one that points at itself
 * (the origin the create request was sent to: its Host header), at `/uploads/{data file name}`,
 * signed for PUT (url-signing.ts: the key in the data dir, the HMAC) with a nonce of its own.
 * Changing any part of the URL, using it after it expired, for another data file (an earlier one of
 * the same name included) or with another method is refused with 403 and the reason.
 */
import { signedUrlRefused } from '../../errors';
import { UrlSigner } from '../url-signing';

export { KEY_FILE } from '../url-signing';

/**
 * Where the upload route listens: outside `/v1alpha1/` (not a Google API path) and `/emulator/`
 * (no admin token); the auth hook lets it through, the signature being its credential.
 */
export const UPLOAD_PATH_PREFIX = '/uploads/';
/** The method the URL is signed for (as an object-storage upload URL: PUT the bytes). */
export const UPLOAD_METHOD = 'PUT';
/** How long a signed URL is valid. Google's lifetime is not published: choose one hour. */
export const UPLOAD_URL_LIFETIME_MS = 60 * 60 * 1000;
/**
 * The headers the PUT must send (`uploadFileInfo.headers`), as object storage requires the headers
 * a URL was signed with; compared case-insensitively by name, exactly by value.
 */
export const UPLOAD_HEADERS: Readonly<Record<string, string>> = { 'Content-Type': 'application/octet-stream' };

export interface UploadFileInfo {
  signedUri: string;
  headers: Record<string, string>;
  uriExpirationTime: string;
}

export class UploadUrls {
  private readonly signer: UrlSigner;

  constructor(dataDir: string | undefined, now: () => number = Date.now) {
    this.signer = new UrlSigner(dataDir, now);
  }

  /** The upload info of a data file, for a client that reached the emulator at `origin` (`http://host:port`). */
  sign(origin: string, name: string, expiresAt: number = this.signer.now() + UPLOAD_URL_LIFETIME_MS, method = UPLOAD_METHOD): UploadFileInfo {
    // With a nonce: each data file's URL is its own, even for a name deleted and created again.
    const { url, expires } = this.signer.sign(origin, UPLOAD_PATH_PREFIX, name, expiresAt, method, true);
    return { signedUri: url, headers: { ...UPLOAD_HEADERS }, uriExpirationTime: new Date(expires * 1000).toISOString() };
  }

  /**
   * Checks a request to the upload route: `name` from its path, `query` its parameters, `headers`
   * its headers. Throws 403 PERMISSION_DENIED saying why it is refused.
   */
  verify(method: string, name: string, query: Record<string, unknown>, headers: Record<string, string | string[] | undefined>): void {
    this.signer.verify(method, name, query, {
      what: 'upload URL',
      file: 'data file',
      as: 'uploadFileInfo.signedUri',
      renewal: 'Create a new data file to get a fresh signed URL.',
    });
    for (const [header, value] of Object.entries(UPLOAD_HEADERS)) {
      const sent = headers[header.toLowerCase()];
      if (sent !== value) {
        throw signedUrlRefused(
          'HEADER_MISMATCH',
          `The upload must send the header ${header}: ${value} (uploadFileInfo.headers); it sent ${sent === undefined ? 'none' : JSON.stringify(sent)}.`,
        );
      }
    }
  }
}
