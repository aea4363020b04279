/**
 * Signed upload URLs of import data files: what `uploadFileInfo.signedUri` holds.
 *
 * Google hands out a signed object-storage URL; the emulator hands out one that points at itself
 * (the origin the create request was sent to: its Host header), at `/uploads/{data file name}`,
 * with `expires` (Unix seconds) and `signature` query parameters. The signature is an HMAC-SHA256
 * over the method, the data file's name and the expiry, with a key the emulator keeps in its data
 * dir (`upload-signing.key`, created on first start, mode 0600) so that URLs survive a restart; an
 * in-memory emulator keeps a random key in memory. Changing any part of the URL, using it after
 * it expired, for another data file or with another method is refused with 403 and the reason.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { signedUrlRefused } from '../../errors';

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

export const KEY_FILE = 'upload-signing.key';
const KEY_BYTES = 32;

export interface UploadFileInfo {
  signedUri: string;
  headers: Record<string, string>;
  uriExpirationTime: string;
}

/** The key in `<dataDir>/upload-signing.key` (created once), or a random one for an in-memory emulator. */
function loadKey(dataDir: string | undefined): Buffer {
  if (!dataDir) return randomBytes(KEY_BYTES);
  const file = path.join(dataDir, KEY_FILE);
  try {
    const key = fs.readFileSync(file);
    if (key.length === KEY_BYTES) return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const key = randomBytes(KEY_BYTES);
  // Written whole under a temporary name, then renamed: a crash never leaves a short key behind.
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, key, { mode: 0o600 });
  fs.renameSync(temp, file);
  return key;
}

export class UploadUrls {
  private readonly key: Buffer;

  constructor(
    dataDir: string | undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.key = loadKey(dataDir);
  }

  private signature(method: string, name: string, expires: number): Buffer {
    return createHmac('sha256', this.key).update(`${method}\n${name}\n${expires}`).digest();
  }

  /** The upload info of a data file, for a client that reached the emulator at `origin` (`http://host:port`). */
  sign(origin: string, name: string, expiresAt: number = this.now() + UPLOAD_URL_LIFETIME_MS, method = UPLOAD_METHOD): UploadFileInfo {
    const expires = Math.floor(expiresAt / 1000);
    const signature = this.signature(method, name, expires).toString('hex');
    return {
      signedUri: `${origin}${UPLOAD_PATH_PREFIX}${name}?expires=${expires}&signature=${signature}`,
      headers: { ...UPLOAD_HEADERS },
      uriExpirationTime: new Date(expires * 1000).toISOString(),
    };
  }

  /**
   * Checks a request to the upload route: `name` from its path, `query` its parameters, `headers`
   * its headers. Throws 403 PERMISSION_DENIED saying why it is refused.
   */
  verify(method: string, name: string, query: Record<string, unknown>, headers: Record<string, string | string[] | undefined>): void {
    const expiresText = query.expires;
    const signatureText = query.signature;
    if (typeof expiresText !== 'string' || typeof signatureText !== 'string' || !/^\d{1,12}$/.test(expiresText) || !/^[0-9a-f]{64}$/.test(signatureText)) {
      throw signedUrlRefused(
        'SIGNATURE_MISSING',
        'The upload URL is not a signed URL: it needs the expires and signature parameters of the uploadFileInfo.signedUri the emulator returned.',
      );
    }
    const expires = Number(expiresText);
    const expected = this.signature(method, name, expires);
    if (!timingSafeEqual(expected, Buffer.from(signatureText, 'hex'))) {
      throw signedUrlRefused(
        'SIGNATURE_MISMATCH',
        `The signature does not match this URL: it was changed, or it was signed for another data file or method than ${method} ${name}. Use the signedUri of this data file as returned.`,
      );
    }
    if (expires * 1000 <= this.now()) {
      throw signedUrlRefused(
        'URL_EXPIRED',
        `The upload URL expired at ${new Date(expires * 1000).toISOString()}. Create a new data file to get a fresh signed URL.`,
      );
    }
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
