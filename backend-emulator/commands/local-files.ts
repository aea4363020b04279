/** Payload files from local paths (files, or every file of a folder), with byte counting for progress. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Transform } from 'node:stream';
import type { PayloadFile } from '../import-engine';

export class UsageError extends Error {}

/** Every file named, and every regular file directly inside each folder named (sorted). */
export function collectFiles(paths: string[]): string[] {
  const files: string[] = [];
  for (const p of paths) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(p);
    } catch {
      throw new UsageError(`no such file or folder: ${p}`);
    }
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(p, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        if (entry.isFile() && !entry.name.startsWith('.')) files.push(path.join(p, entry.name));
      }
    } else {
      files.push(p);
    }
  }
  if (files.length === 0) throw new UsageError(`no files in ${paths.join(', ')}`);
  return files;
}

/** Payload files over local paths; `onBytes` hears every chunk read (execution reads files again). */
export function localPayloadFiles(files: string[], onBytes: (n: number) => void): PayloadFile[] {
  return files.map((file) => ({
    name: path.basename(file),
    size: fs.statSync(file).size,
    open: () =>
      fs.createReadStream(file).pipe(
        new Transform({
          transform(chunk: Buffer, _enc, done) {
            onBytes(chunk.length);
            done(null, chunk);
          },
        }),
      ),
  }));
}
