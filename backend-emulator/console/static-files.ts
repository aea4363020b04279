/**
 * The console's static files (one HTML page, its scripts, one style sheet) live as plain files in
 * `backend-emulator/console/static/`. tsc does not copy non-TS files into `dist/`, so the folder
 * is found at run time relative to the package root rather than next to the compiled module:
 *
 *   1. `<this module's folder>/static`  - the TypeScript sources (ts-jest, ts-node), or a build
 *      that copied the folder next to the compiled module;
 *   2. `<package root>/backend-emulator/console/static` for every ancestor folder holding the
 *      package.json of `google-native-local` - the compiled `dist/backend-emulator/console/`
 *      inside a checkout or an installed package (both carry the sources' folder).
 *
 * The files are read once, when the routes are registered, and served from memory.
 */
import * as fs from 'fs';
import * as path from 'path';

export const PACKAGE_NAME = 'google-native-local';
export const STATIC_DIR_IN_PACKAGE = path.join('backend-emulator', 'console', 'static');

export interface StaticFile {
  /** The URL path it is served at. */
  url: string;
  file: string;
  contentType: string;
}

export const STATIC_FILES: readonly StaticFile[] = [
  { url: '/', file: 'index.html', contentType: 'text/html; charset=utf-8' },
  // Generated from the TypeScript (scripts/console-constants.ts): formats, severities, OS families, the data file id rule.
  { url: '/console/constants.js', file: 'constants.js', contentType: 'text/javascript; charset=utf-8' },
  { url: '/console/kit.js', file: 'kit.js', contentType: 'text/javascript; charset=utf-8' },
  { url: '/console/charts.js', file: 'charts.js', contentType: 'text/javascript; charset=utf-8' },
  { url: '/console/import.js', file: 'import.js', contentType: 'text/javascript; charset=utf-8' },
  { url: '/console/inventory.js', file: 'inventory.js', contentType: 'text/javascript; charset=utf-8' },
  // Groups, preference sets, reports: the computing (planning-model.js, unit-tested in Node), then the drawing.
  { url: '/console/planning-model.js', file: 'planning-model.js', contentType: 'text/javascript; charset=utf-8' },
  { url: '/console/planning.js', file: 'planning.js', contentType: 'text/javascript; charset=utf-8' },
  { url: '/console/app.js', file: 'app.js', contentType: 'text/javascript; charset=utf-8' },
  { url: '/console/console.css', file: 'console.css', contentType: 'text/css; charset=utf-8' },
];

function isPackageRoot(dir: string): boolean {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown };
    return pkg.name === PACKAGE_NAME;
  } catch {
    return false;
  }
}

/** The folders searched for the static files, in order, starting from `moduleDir`. */
export function staticDirCandidates(moduleDir: string = __dirname): string[] {
  const candidates = [path.join(moduleDir, 'static')];
  let dir = path.resolve(moduleDir);
  for (;;) {
    if (isPackageRoot(dir)) candidates.push(path.join(dir, STATIC_DIR_IN_PACKAGE));
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return candidates;
}

/** The first candidate folder that holds every static file; undefined when none does. */
export function findStaticDir(moduleDir: string = __dirname): string | undefined {
  return staticDirCandidates(moduleDir).find((dir) => STATIC_FILES.every((f) => fs.existsSync(path.join(dir, f.file))));
}

export interface LoadedStaticFile extends StaticFile {
  body: Buffer;
}

/** Reads every static file from the folder found; throws naming the folders searched. */
export function loadStaticFiles(moduleDir: string = __dirname): { dir: string; files: LoadedStaticFile[] } {
  const dir = findStaticDir(moduleDir);
  if (!dir) {
    throw new Error(
      `The console's static files (${STATIC_FILES.map((f) => f.file).join(', ')}) were not found in ${staticDirCandidates(moduleDir).join(', ')}`,
    );
  }
  return { dir, files: STATIC_FILES.map((f) => ({ ...f, body: fs.readFileSync(path.join(dir, f.file)) })) };
}
