/**
 * What a payload source hands to the import engine: a list of files, each opened lazily.
 *
 * `PayloadFile` is the import engine's own `PayloadFile` (one definition, import-engine/types.ts),
 * narrowed: a payload source always opens a Node `Readable`. The dependency is on the engine's
 * types only (erased at compile time); the engine does not depend on the payload sources.
 */
import type { Readable } from 'stream';
import type { PayloadFile as EnginePayloadFile } from '../import-engine/types';

export interface PayloadFile extends EnginePayloadFile {
  /** Opens a fresh stream of the file's bytes; each call starts from the beginning. */
  open(): Readable;
  /**
   * Where the bytes are, in a form another thread can open them from (`openOrigin`): import work
   * runs in a worker thread, which cannot call this thread's `open`. Absent: only `open` reads it.
   */
  origin?: FileOrigin;
}

/**
 * Where a payload file's bytes are, as plain data (it crosses to a worker thread): a file on
 * disk, base64 text (an inline payload), a file on disk holding base64 text (an inline payload as
 * an import job stores it), or an object in storage (with the settings that reach it).
 */
export type FileOrigin =
  | { kind: 'file'; path: string }
  | { kind: 'base64'; data: string }
  | { kind: 'base64File'; path: string }
  | { kind: 'storage'; endpoint?: string; emulatorHost?: string; bucket: string; object: string };

/**
 * The files of a payload, plus the job-level problems found while listing them (a missing
 * object, an object outside its bucket folder). Problems are not thrown: they become job errors
 * of severity ERROR in the validation report, so that a bad path fails the validation, not the
 * emulator.
 */
export interface ResolvedPayload {
  files: PayloadFile[];
  errors: string[];
}

/** Where storage payloads are read from. */
export interface StorageSettings {
  /** Local directory with one folder per bucket (used when no endpoint is set). */
  storageDir: string;
  /**
   * Origin of a GCS-compatible server (`http://localhost:4443`); when set, or when the
   * `STORAGE_EMULATOR_HOST` environment variable is set, objects are read through
   * `@google-cloud/storage` instead of the local directory.
   */
  storageEndpoint?: string;
}

/** Whether objects come from a GCS-compatible server rather than the local directory. */
export function usesRemoteStorage(settings: StorageSettings, env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(settings.storageEndpoint) || Boolean(env.STORAGE_EMULATOR_HOST);
}
