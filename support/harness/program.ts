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
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { compiledPackage, ROOT } from '../compiled';

/** The repository root (the folder with package.json). */
export const REPO_ROOT = ROOT;

export interface TestProgramOptions {
  /** The package to install (default: this repository). */
  packageRoot?: string;
  /**
   * Where the compiled JavaScript comes from:
   * - `tsc` (default): this repository compiled once per source state (support/compiled.ts, the
   *   build the CLI tests and benchmarks share), then copied;
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

  let distSource: string;
  if ((options.build ?? 'tsc') === 'dist') {
    distSource = path.join(packageRoot, 'dist');
    if (!fs.existsSync(distSource)) {
      throw new Error(`${distSource} does not exist: run \`npm run build\` first, or use build: 'tsc'`);
    }
  } else {
    if (packageRoot !== ROOT) throw new Error(`build: 'tsc' compiles this repository only; for ${packageRoot} use build: 'dist'`);
    distSource = compiledPackage();
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
    requirePackage<T>(subpath?: string): T {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return require(subpath ? path.join(packageDir, subpath) : packageDir) as T;
    },
    cleanup() {
      if (!options.dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
