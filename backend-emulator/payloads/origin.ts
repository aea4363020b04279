/**
 * Opening a payload file from its origin (types.ts `FileOrigin`): what a worker thread does with
 * the files the request thread resolved. Each origin opens as its own source opens it, so the
 * worker reads the same bytes the request thread would have.
 */
import * as fs from 'fs';
import type { Readable } from 'stream';
import { base64FileStream, base64Stream } from './inline';
import { remoteStream } from './remote-storage';
import type { FileOrigin, PayloadFile } from './types';

/** The plain-data form of a payload file, for a worker thread (undefined: it has no origin). */
export interface PortableFile {
  name: string;
  size?: number;
  origin: FileOrigin;
}

export function portableFile(file: PayloadFile): PortableFile | undefined {
  if (!file.origin) return undefined;
  return { name: file.name, ...(file.size !== undefined ? { size: file.size } : {}), origin: file.origin };
}

export function openOrigin(origin: FileOrigin): Readable {
  switch (origin.kind) {
    case 'file':
      return fs.createReadStream(origin.path);
    case 'base64':
      return base64Stream(origin.data);
    case 'base64File':
      return base64FileStream(origin.path);
    case 'storage':
      // The client is keyed by the environment's emulator host: set it as the request thread saw it.
      if (origin.emulatorHost !== undefined) process.env.STORAGE_EMULATOR_HOST = origin.emulatorHost;
      else delete process.env.STORAGE_EMULATOR_HOST;
      return remoteStream(origin.endpoint, origin.bucket, origin.object);
  }
}

/** A payload file opened from its origin (in the thread that reads it). */
export function fromPortable(file: PortableFile): PayloadFile {
  return { ...file, open: () => openOrigin(file.origin) };
}
