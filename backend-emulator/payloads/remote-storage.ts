/**
 * Storage payloads read from a GCS-compatible server through `@google-cloud/storage`
 * (fake-gcs-server, another emulator, or real GCS with ambient credentials).
 *
 * The library is required lazily, on the first remote read: an emulator that never reads a
 * remote payload never loads it. It needs a project id but no credentials; `STORAGE_EMULATOR_HOST`
 * (with `/storage/v1`) is honoured by the library itself, `storageEndpoint` is the server's origin.
 */
import type { Readable } from 'stream';
import type { Storage as StorageClient } from '@google-cloud/storage';
import type { PayloadFile, ResolvedPayload } from './types';
import { formatGsPath, type GsPath } from './storage-path';
import { MAX_PREFIX_FILES } from './local-storage';

const clients = new Map<string, StorageClient>();

function client(endpoint: string | undefined): StorageClient {
  const key = `${endpoint ?? ''}|${process.env.STORAGE_EMULATOR_HOST ?? ''}`;
  let c = clients.get(key);
  if (!c) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Storage } = require('@google-cloud/storage') as typeof import('@google-cloud/storage');
    c = new Storage({
      projectId: 'emulator',
      ...(endpoint ? { apiEndpoint: endpoint } : {}),
      retryOptions: { autoRetry: true, maxRetries: 2 },
    });
    clients.set(key, c);
  }
  return c;
}

function statusOf(err: unknown): number | undefined {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'number' ? code : undefined;
}

function describe(err: unknown): string {
  return (err as Error)?.message ?? String(err);
}

/** The environment's `STORAGE_EMULATOR_HOST`, carried with an origin (a worker thread's environment is a copy made at its start). */
function emulatorHost(): { emulatorHost?: string } {
  const host = process.env.STORAGE_EMULATOR_HOST;
  return host ? { emulatorHost: host } : {};
}

/** The bytes of one object. No hash validation: not every GCS-compatible server sends hashes. */
export function remoteStream(endpoint: string | undefined, bucket: string, object: string): Readable {
  return client(endpoint).bucket(bucket).file(object).createReadStream({ validation: false });
}

export async function resolveRemotePayload(endpoint: string | undefined, gs: GsPath): Promise<ResolvedPayload> {
  const where = formatGsPath(gs.bucket, gs.object);
  const bucket = client(endpoint).bucket(gs.bucket);
  const remoteFile = (objectName: string, name: string, size: number | undefined): PayloadFile => ({
    name,
    ...(size !== undefined ? { size } : {}),
    open: (): Readable => remoteStream(endpoint, gs.bucket, objectName),
    origin: { kind: 'storage', ...(endpoint ? { endpoint } : {}), ...emulatorHost(), bucket: gs.bucket, object: objectName },
  });

  if (!gs.isPrefix) {
    try {
      const [meta] = await bucket.file(gs.object).getMetadata();
      const size = meta.size === undefined ? undefined : Number(meta.size);
      const base = gs.object.slice(gs.object.lastIndexOf('/') + 1);
      return { files: [remoteFile(gs.object, base, Number.isFinite(size) ? size : undefined)], errors: [] };
    } catch (err) {
      if (statusOf(err) === 404) return { files: [], errors: [`object ${where} not found`] };
      return { files: [], errors: [`object ${where} could not be read: ${describe(err)}`] };
    }
  }

  try {
    const [objects] = await bucket.getFiles({ prefix: gs.object, autoPaginate: true, maxResults: MAX_PREFIX_FILES + 1 });
    const files = objects
      .filter((o) => !o.name.endsWith('/')) // folder placeholders
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((o) => {
        const size = o.metadata?.size === undefined ? undefined : Number(o.metadata.size);
        return remoteFile(o.name, o.name.slice(gs.object.length), Number.isFinite(size) ? size : undefined);
      });
    if (files.length > MAX_PREFIX_FILES) return { files: [], errors: [`more than ${MAX_PREFIX_FILES} objects under ${where}`] };
    if (files.length === 0) return { files, errors: [`no object found under ${where}`] };
    return { files, errors: [] };
  } catch (err) {
    if (statusOf(err) === 404) return { files: [], errors: [`no object found under ${where}: bucket ${gs.bucket} not found`] };
    return { files: [], errors: [`objects under ${where} could not be listed: ${describe(err)}`] };
  }
}

/** Drops the cached clients (tests that change STORAGE_EMULATOR_HOST). */
export function resetStorageClients(): void {
  clients.clear();
}
