/**
 * A throw-away Pulumi program folder with `google-native-local` installed in its `node_modules`,
 * as a user's program has it. See README.md for why this is needed:
 *
 * - the SDK's closure serializer emits `require("google-native-local/dist/...")` for a captured
 *   module only when the module's file path (relative to the serialising process's cwd) goes
 *   through a `node_modules` folder; a module anywhere else (e.g. /work/main/dist) is copied in
 *   by value, with its module-level state;
 * - the host resolves those requires from its cwd (`require-from-string` gives the serialised
 *   module the `node_modules` paths of `path.resolve('.')`).
 *
 * So the package is installed here as a real folder (package.json + compiled `dist/`, not a
 * symlink: Node and jest resolve symlinks to real paths, which would lose the `node_modules`
 * segment), and its own dependencies through `node_modules/google-native-local/node_modules`, a
 * symlink to the repository's `node_modules`.
 */
import { spawnSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** The repository root (the folder with package.json). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');

export interface TestProgramOptions {
  /** The package to install (default: this repository). */
  packageRoot?: string;
  /**
   * Where the compiled JavaScript comes from:
   * - `tsc` (default): compile the package's sources with its tsconfig.json into a cache folder
   *   keyed by a hash of the sources (so jest workers and reruns share one build), then copy;
   * - `dist`: copy the package's own `dist/` (run `npm run build` first).
   */
  build?: 'tsc' | 'dist';
  /** Use this folder as the program folder instead of a new temp folder. */
  dir?: string;
}

export interface TestProgram {
  /** The program folder: give it to `startProviderHost({ cwd })`. */
  dir: string;
  /** `<dir>/node_modules/<package name>` */
  packageDir: string;
  /** The package name from package.json (`google-native-local`). */
  packageName: string;
  /** Compiler output of the `tsc` build (diagnostics are not fatal; missing output is). */
  buildLog: string;
  /**
   * Loads a module of the installed copy in THIS process, e.g.
   * `requirePackage('dist/provider/client')`, so that a provider built from it serialises with
   * `require("google-native-local/dist/provider/client.js")` and not by value.
   */
  requirePackage<T = unknown>(subpath?: string): T;
  /** Removes the program folder. */
  cleanup(): void;
}

/** Creates a program folder with the package installed in its node_modules. */
export async function createTestProgram(options: TestProgramOptions = {}): Promise<TestProgram> {
  const packageRoot = path.resolve(options.packageRoot ?? REPO_ROOT);
  const pkg = JSON.parse(fs.readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { name: string; main?: string };
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-program-'));
  fs.mkdirSync(dir, { recursive: true });
  const packageDir = path.join(dir, 'node_modules', pkg.name);
  fs.rmSync(packageDir, { recursive: true, force: true });
  fs.mkdirSync(packageDir, { recursive: true });

  let buildLog = '';
  let distSource: string;
  if ((options.build ?? 'tsc') === 'dist') {
    distSource = path.join(packageRoot, 'dist');
    if (!fs.existsSync(distSource)) {
      throw new Error(`${distSource} does not exist: run \`npm run build\` first, or use build: 'tsc'`);
    }
  } else {
    const built = buildWithTsc(packageRoot);
    distSource = built.dist;
    buildLog = built.log;
  }

  fs.copyFileSync(path.join(packageRoot, 'package.json'), path.join(packageDir, 'package.json'));
  fs.cpSync(distSource, path.join(packageDir, 'dist'), { recursive: true });
  // Files read at run time relative to the package root (schemas read with fs, if any).
  for (const extra of ['schemas']) {
    const src = path.join(packageRoot, extra);
    if (fs.existsSync(src)) fs.cpSync(src, path.join(packageDir, extra), { recursive: true });
  }
  // The package's own dependencies: the repository's node_modules.
  fs.symlinkSync(path.join(packageRoot, 'node_modules'), path.join(packageDir, 'node_modules'), 'dir');
  // A minimal Pulumi program folder, as the engine would give the host.
  fs.writeFileSync(path.join(dir, 'Pulumi.yaml'), 'name: test-program\nruntime: nodejs\n');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'test-program', private: true }, null, 2));

  return {
    dir,
    packageDir,
    packageName: pkg.name,
    buildLog,
    requirePackage<T>(subpath?: string): T {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return require(subpath ? path.join(packageDir, subpath) : packageDir) as T;
    },
    cleanup() {
      if (!options.dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Source folders and files compiled by tsconfig.json (its `include`). */
function sourceFiles(packageRoot: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(p);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(p).sort()) {
        if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
        walk(path.join(p, name));
      }
    } else if (/\.(ts|json)$/.test(p)) {
      out.push(p);
    }
  };
  for (const entry of ['index.ts', 'schemas', 'backend-emulator', 'provider', 'tsconfig.json', 'package.json']) {
    walk(path.join(packageRoot, entry));
  }
  return out;
}

/** Compiles the package into `<tmp>/gnl-build-<hash>/dist`, once per distinct source tree. */
function buildWithTsc(packageRoot: string): { dist: string; log: string } {
  const hash = crypto.createHash('sha256');
  for (const file of sourceFiles(packageRoot)) {
    hash.update(path.relative(packageRoot, file));
    hash.update('\0');
    hash.update(fs.readFileSync(file));
    hash.update('\0');
  }
  const key = hash.digest('hex').slice(0, 16);
  const cacheDir = path.join(os.tmpdir(), `gnl-build-${key}`);
  const dist = path.join(cacheDir, 'dist');
  const logFile = path.join(cacheDir, 'tsc.log');
  if (fs.existsSync(path.join(cacheDir, 'done'))) {
    const now = new Date();
    fs.utimesSync(cacheDir, now, now); // in use: keep it from pruning
    return { dist, log: fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '' };
  }
  // Build into a private folder, then rename: concurrent jest workers never see half a build.
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `gnl-build-${key}-tmp-`));
  const tsc = require.resolve('typescript/bin/tsc', { paths: [packageRoot] });
  const result = spawnSync(
    process.execPath,
    [tsc, '-p', path.join(packageRoot, 'tsconfig.json'), '--outDir', path.join(work, 'dist'), '--declaration', 'false', '--incremental', 'false'],
    { cwd: packageRoot, encoding: 'utf8' },
  );
  const log = `${result.stdout ?? ''}${result.stderr ?? ''}`;
  fs.writeFileSync(path.join(work, 'tsc.log'), log);
  if (!fs.existsSync(path.join(work, 'dist'))) {
    fs.rmSync(work, { recursive: true, force: true });
    throw new Error(`tsc produced no output for ${packageRoot}:\n${log}`);
  }
  fs.writeFileSync(path.join(work, 'done'), '');
  try {
    fs.renameSync(work, cacheDir);
  } catch {
    // Another worker finished the same build first: use theirs.
    fs.rmSync(work, { recursive: true, force: true });
  }
  pruneOldBuilds(cacheDir);
  return { dist, log };
}

/** Removes builds of older source trees (untouched for an hour), so /tmp does not fill up. */
function pruneOldBuilds(keep: string): void {
  const tmp = os.tmpdir();
  const cutoff = Date.now() - 60 * 60 * 1000;
  for (const name of fs.readdirSync(tmp)) {
    if (!name.startsWith('gnl-build-')) continue;
    const full = path.join(tmp, name);
    if (full === keep) continue;
    try {
      if (fs.statSync(full).mtimeMs < cutoff) fs.rmSync(full, { recursive: true, force: true });
    } catch {
      // gone already, or not ours to remove
    }
  }
}
