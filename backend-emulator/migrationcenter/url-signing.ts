/**
 * The key and the HMAC of the emulator's signed URLs: data files' upload URLs
 * (import-data-files/upload-urls.ts) and export outputs' download URLs (exports/download-urls.ts).
 *
 * Google hands out signed object-storage URLs; the emulator hands out URLs that point at itself,
 * with `expires` (Unix seconds) and `signature` query parameters. The signature is an HMAC-SHA256
 * over the method, the signed name and the expiry, with a key the emulator keeps in its data dir
 * (`upload-signing.key`, created on first start, mode 0600, named for its first use) so that URLs
 * survive a restart; an in-memory emulator keeps a random key in memory. The method is part of
 * what is signed: an upload URL never works as a download URL, nor the reverse.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { signedUrlRefused } from '../errors';
import { OWNER_ONLY_FILE, ownerOnlyIfPresent } from '../private-files';

export const KEY_FILE = 'upload-signing.key';
const KEY_BYTES = 32;

/** The key in `<dataDir>/upload-signing.key` (created once), or a random one for an in-memory emulator. */
function loadKey(dataDir: string | undefined): Buffer {
  if (!dataDir) return randomBytes(KEY_BYTES);
  const file = path.join(dataDir, KEY_FILE);
  try {
    // Kept 0600 even if someone loosened it: whoever reads the key signs URLs that need no token.
    ownerOnlyIfPresent(file, OWNER_ONLY_FILE);
    const key = fs.readFileSync(file);
    if (key.length === KEY_BYTES) return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const key = randomBytes(KEY_BYTES);
  // Written whole under a temporary name, then renamed: a crash never leaves a short key behind.
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, key, { mode: OWNER_ONLY_FILE });
  fs.renameSync(temp, file);
  return key;
}

/** How refusals name a kind of signed URL. */
export interface RefusalWords {
  /** The URL: "upload URL". */
  what: string;
  /** What one URL is for: "data file". */
  file: string;
  /** Where the caller got it: "uploadFileInfo.signedUri". */
  as: string;
  /** How to get a fresh one: "Create a new data file to get a fresh signed URL." */
  renewal: string;
}

/** A signed URL's parts: the URL and when it stops working (Unix seconds). */
export interface SignedUrl {
  url: string;
  expires: number;
}

export class UrlSigner {
  private readonly key: Buffer;

  constructor(
    dataDir: string | undefined,
    readonly now: () => number = Date.now,
  ) {
    this.key = loadKey(dataDir);
  }

  private signature(method: string, name: string, expires: number, nonce: string | undefined): Buffer {
    const signed = `${method}\n${name}\n${expires}${nonce === undefined ? '' : `\n${nonce}`}`;
    return createHmac('sha256', this.key).update(signed).digest();
  }

  /**
   * `{origin}{pathPrefix}{name}?expires=&signature=`, valid for `method` until `expiresAt` (ms).
   * `nonce: true` adds a random `nonce` parameter, signed with the rest: the URL is then one of its
   * own even for a name signed before within the same second (a data file deleted and created
   * again), so that its holder can tell the two apart.
   */
  sign(origin: string, pathPrefix: string, name: string, expiresAt: number, method: string, nonce = false): SignedUrl {
    const expires = Math.floor(expiresAt / 1000);
    const nonceText = nonce ? randomBytes(8).toString('hex') : undefined;
    const signature = this.signature(method, name, expires, nonceText).toString('hex');
    const query = `expires=${expires}${nonceText === undefined ? '' : `&nonce=${nonceText}`}&signature=${signature}`;
    return { url: `${origin}${pathPrefix}${name}?${query}`, expires };
  }

  /**
   * Checks the `expires` and `signature` parameters of a request for `method` on `name`. Throws
   * 403 PERMISSION_DENIED saying why it is refused, in the words of `words`.
   */
  verify(method: string, name: string, query: Record<string, unknown>, words: RefusalWords): void {
    const { what, file, as, renewal } = words;
    const expiresText = query.expires;
    const signatureText = query.signature;
    if (typeof expiresText !== 'string' || typeof signatureText !== 'string' || !/^\d{1,12}$/.test(expiresText) || !/^[0-9a-f]{64}$/.test(signatureText)) {
      throw signedUrlRefused(
        'SIGNATURE_MISSING',
        `The ${what} is not a signed URL: it needs the expires and signature parameters of the ${as} the emulator returned.`,
      );
    }
    const expires = Number(expiresText);
    const nonce = typeof query.nonce === 'string' ? query.nonce : undefined;
    if (!timingSafeEqual(this.signature(method, name, expires, nonce), Buffer.from(signatureText, 'hex'))) {
      throw signedUrlRefused(
        'SIGNATURE_MISMATCH',
        `The signature does not match this URL: it was changed, or it was signed for another ${file} or method than ${method} ${name}. Use the ${as} as returned.`,
      );
    }
    if (expires * 1000 <= this.now()) {
      throw signedUrlRefused('URL_EXPIRED', `The ${what} expired at ${new Date(expires * 1000).toISOString()}. ${renewal}`);
    }
  }
}
