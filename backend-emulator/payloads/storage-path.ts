/**
 * `gs://bucket/object` and `gs://bucket/prefix/` paths, and the rule that a path never leaves its
 * bucket folder.
 */
import * as fs from 'fs';
import * as path from 'path';

export interface GsPath {
  bucket: string;
  /** The object name, or the prefix ('' for the whole bucket). */
  object: string;
  /** `gs://bucket/prefix/` and `gs://bucket` name every object under a prefix. */
  isPrefix: boolean;
}

/** Splits `gs://bucket/a/b`; undefined when the text is not a gs:// URL with a bucket. */
export function parseGsPath(text: string): GsPath | undefined {
  const m = /^gs:\/\/([^/]+)(?:\/(.*))?$/s.exec(text);
  if (!m) return undefined;
  const object = m[2] ?? '';
  return { bucket: m[1], object, isPrefix: object === '' || object.endsWith('/') };
}

export function formatGsPath(bucket: string, object: string): string {
  return `gs://${bucket}/${object}`;
}

/**
 * The syntactic rule, for every storage backend: no absolute object path, no `.` or `..`
 * segment, no backslash. Returns the reason, or undefined when the path is acceptable.
 */
export function syntacticEscapeReason(gs: GsPath): string | undefined {
  if (gs.object.startsWith('/')) return 'must not be an absolute path: the object name cannot start with "/"';
  if (gs.object.includes('\\')) return 'must not contain "\\": object paths use "/"';
  const segments = gs.object.split('/');
  // A trailing '' (prefix form) is fine; an empty segment elsewhere ("a//b") is not.
  const inner = gs.isPrefix ? segments.slice(0, -1) : segments;
  if (inner.some((s) => s === '..')) return 'must stay inside its bucket: ".." segments are not allowed';
  if (inner.some((s) => s === '.')) return 'must not contain "." segments';
  if (gs.object !== '' && inner.some((s) => s === '')) return 'must not contain empty segments ("//")';
  return undefined;
}

/** Whether `child` is `root` or inside it (both already absolute and resolved). */
export function isInside(root: string, child: string): boolean {
  const rel = path.relative(root, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The bucket's folder under the storage directory. */
export function bucketDir(storageDir: string, bucket: string): string {
  return path.join(path.resolve(storageDir), bucket);
}

/** Why a bucket folder whose real path is `realRoot` is refused: undefined while it is inside the storage folder. */
export function bucketEscapeReason(storageDir: string, realRoot: string): string | undefined {
  let realStorage: string;
  try {
    realStorage = fs.realpathSync(path.resolve(storageDir));
  } catch {
    return undefined; // no storage folder: no bucket folder either (realRoot could not have been found)
  }
  // The bucket folder is a symbolic link (a folder tree unpacked into the storage folder can hold
  // one as easily as a link deeper down): it may name another bucket, never a folder outside.
  return isInside(realStorage, realRoot) ? undefined : 'must stay inside the storage folder: its bucket folder is a symbolic link that points outside it';
}

/**
 * The local rule: after resolving symbolic links, the bucket folder stays inside the storage
 * folder and the object (or its deepest existing ancestor) inside the bucket folder. Returns the
 * reason, or undefined when they do.
 */
export function localEscapeReason(storageDir: string, gs: GsPath): string | undefined {
  const syntactic = syntacticEscapeReason(gs);
  if (syntactic) return syntactic;
  if (gs.bucket === '.' || gs.bucket === '..') return 'must name a bucket';
  const root = bucketDir(storageDir, gs.bucket);
  const target = path.resolve(root, gs.object);
  if (!isInside(root, target)) return 'must stay inside its bucket folder';
  let realRoot: string;
  try {
    realRoot = fs.realpathSync(root);
  } catch {
    // No bucket folder yet: nothing can point outside; validation reports it missing. (A dangling
    // link as the bucket folder is refused: it could be made to point anywhere later.)
    const link = readLinkTarget(root);
    if (link === undefined) return undefined;
    try {
      return bucketEscapeReason(storageDir, path.resolve(fs.realpathSync(path.dirname(root)), link));
    } catch {
      return undefined;
    }
  }
  const bucketEscape = bucketEscapeReason(storageDir, realRoot);
  if (bucketEscape) return bucketEscape;
  // The deepest part of the path that exists decides where the rest would land.
  let probe = target;
  for (;;) {
    let real: string | undefined;
    try {
      real = fs.realpathSync(probe);
    } catch {
      real = undefined;
    }
    if (real !== undefined) {
      return isInside(realRoot, real) ? undefined : 'must stay inside its bucket folder: a symbolic link on the path points outside it';
    }
    // A dangling symbolic link cannot be resolved by realpath: read it to see where it points.
    const link = readLinkTarget(probe);
    if (link !== undefined && !isInside(realRoot, path.resolve(path.dirname(probe), link))) {
      return 'must stay inside its bucket folder: a symbolic link on the path points outside it';
    }
    const parent = path.dirname(probe);
    if (parent === probe || !isInside(root, parent)) return undefined;
    probe = parent;
  }
}

function readLinkTarget(p: string): string | undefined {
  try {
    return fs.readlinkSync(p);
  } catch {
    return undefined;
  }
}
