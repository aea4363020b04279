/**
 * Storage payloads read from a local directory: `<storageDir>/<bucket>/<object>`.
 *
 * `gs://b/vm/vmInfo.csv` is the file `<storageDir>/b/vm/vmInfo.csv`; `gs://b/vm/` is every file
 * under `<storageDir>/b/vm/` (recursively, in name order). Every file is checked with realpath to
 * stay inside its bucket folder, and the bucket folder inside the storage folder, so a symbolic
 * link added after the job was created cannot read outside them either.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { PayloadFile, ResolvedPayload } from './types';
import { bucketDir, formatGsPath, isInside, localEscapeReason, type GsPath } from './storage-path';

/** Bounds a prefix walk: a payload of more files than this is refused as a job error. */
export const MAX_PREFIX_FILES = 10_000;

function localFile(name: string, file: string, size: number): PayloadFile {
  return { name, size, open: () => fs.createReadStream(file), origin: { kind: 'file', path: file } };
}

export async function resolveLocalPayload(storageDir: string, gs: GsPath): Promise<ResolvedPayload> {
  const escape = localEscapeReason(storageDir, gs);
  const where = formatGsPath(gs.bucket, gs.object);
  if (escape) return { files: [], errors: [`path ${where} ${escape}`] };
  const root = bucketDir(storageDir, gs.bucket);
  let realRoot: string;
  try {
    realRoot = await fs.promises.realpath(root);
  } catch {
    return { files: [], errors: [gs.isPrefix ? `no object found under ${where}: bucket ${gs.bucket} not found` : `object ${where} not found`] };
  }
  if (!gs.isPrefix) return resolveOne(realRoot, root, gs);
  return resolvePrefix(realRoot, root, gs);
}

async function resolveOne(realRoot: string, root: string, gs: GsPath): Promise<ResolvedPayload> {
  const where = formatGsPath(gs.bucket, gs.object);
  const file = path.join(root, gs.object);
  let real: string;
  let stat: fs.Stats;
  try {
    real = await fs.promises.realpath(file);
    stat = await fs.promises.stat(real);
  } catch {
    return { files: [], errors: [`object ${where} not found`] };
  }
  if (!isInside(realRoot, real)) return { files: [], errors: [`object ${where} points outside its bucket folder`] };
  if (stat.isDirectory()) {
    return { files: [], errors: [`object ${where} not found (it is a folder: end the path with "/" to import every object under it)`] };
  }
  if (!stat.isFile()) return { files: [], errors: [`object ${where} is not a regular file`] };
  return { files: [localFile(path.posix.basename(gs.object), real, stat.size)], errors: [] };
}

async function resolvePrefix(realRoot: string, root: string, gs: GsPath): Promise<ResolvedPayload> {
  const where = formatGsPath(gs.bucket, gs.object);
  const start = path.join(root, gs.object);
  const files: PayloadFile[] = [];
  const errors: string[] = [];
  let startReal: string;
  try {
    startReal = await fs.promises.realpath(start);
  } catch {
    return { files, errors: [`no object found under ${where}`] };
  }
  if (!isInside(realRoot, startReal)) return { files, errors: [`path ${where} points outside its bucket folder`] };

  // Depth-first walk in name order; `rel` is the name under the prefix, with '/' separators.
  const walk = async (dirReal: string, rel: string, seen: Set<string>): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dirReal, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (files.length > MAX_PREFIX_FILES) return;
      const name = rel ? `${rel}/${entry.name}` : entry.name;
      const full = path.join(dirReal, entry.name);
      let real: string;
      let stat: fs.Stats;
      try {
        real = await fs.promises.realpath(full);
        stat = await fs.promises.stat(real);
      } catch {
        continue; // a dangling link is not an object
      }
      if (!isInside(realRoot, real)) {
        errors.push(`object ${formatGsPath(gs.bucket, gs.object + name)} points outside its bucket folder`);
        continue;
      }
      if (stat.isDirectory()) {
        if (seen.has(real)) continue; // a link cycle
        seen.add(real);
        await walk(real, name, seen);
      } else if (stat.isFile()) {
        files.push(localFile(name, real, stat.size));
      }
    }
  };
  await walk(startReal, '', new Set([startReal]));
  if (files.length > MAX_PREFIX_FILES) {
    return { files: [], errors: [...errors, `more than ${MAX_PREFIX_FILES} objects under ${where}`] };
  }
  if (files.length === 0 && errors.length === 0) errors.push(`no object found under ${where}`);
  return { files, errors };
}
