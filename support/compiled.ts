/**
 * The package compiled from the current sources, once per source state, for everything that runs
 * it as JavaScript in another process: the CLI tests, the benchmarks, and the Pulumi program
 * harness (which installs it into a program's node_modules). One build serves all of them; a jest
 * run on an edited tree pays for one compile, not one per consumer.
 */
import { execFileSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/** The repository's root folder. */
export const ROOT = path.resolve(__dirname, '..');

/** What tsconfig.json compiles (its `include`), plus the files that change how. */
const SOURCES = ['index.ts', 'schemas', 'backend-emulator', 'provider', 'tsconfig.json', 'package.json'];

/** A hash of the sources' paths and contents (not mtimes: a checkout touches every file). */
function sourceFingerprint(): string {
  const hash = crypto.createHash('sha256');
  const walk = (p: string): void => {
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
      hash.update(path.relative(ROOT, p)).update('\0').update(fs.readFileSync(p)).update('\0');
    }
  };
  for (const entry of SOURCES) walk(path.join(ROOT, entry));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The folder holding the compiled package (`backend-emulator/cli.js`, `provider/...`, laid out as
 * the sources). A fast `--noCheck` emit: type checks are `npm run typecheck`'s job. It lives under
 * node_modules/.cache so that the compiled modules resolve the repository's node_modules. One
 * process compiles (it holds `{dir}.lock`) into a private folder and renames it; the others wait.
 */
export function compiledPackage(): string {
  const cacheRoot = path.join(ROOT, 'node_modules', '.cache', 'gnl-compiled');
  const dir = path.join(cacheRoot, sourceFingerprint());
  fs.mkdirSync(cacheRoot, { recursive: true });
  const built = (): boolean => fs.existsSync(path.join(dir, '.complete'));
  // One compile per source state, whoever asks first: the others wait for it instead of each
  // compiling the same tree (two jest workers doing so cost ~30 s of CPU each on an edit).
  const lock = `${dir}.lock`;
  while (!built() && !takeLock(lock)) sleepMs(250);
  if (built()) {
    const now = new Date();
    fs.utimesSync(dir, now, now); // in use: keep it from pruning
    return dir;
  }
  try {
    compileInto(dir, cacheRoot);
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
  return dir;
}

/** A lock older than this was left by a process that died while compiling: taken over. */
const STALE_LOCK_MS = 10 * 60_000;

/** Takes the compile lock (a folder: mkdir is atomic), or false when another process holds it. */
function takeLock(lock: string): boolean {
  try {
    fs.mkdirSync(lock);
    return true;
  } catch {
    try {
      if (Date.now() - fs.statSync(lock).mtimeMs > STALE_LOCK_MS) fs.rmSync(lock, { recursive: true, force: true });
    } catch {
      // released meanwhile: the next round takes it
    }
    return false;
  }
}

/** Blocks this thread (the callers are synchronous). */
function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function compileInto(dir: string, cacheRoot: string): void {
  const tmp = `${dir}.${process.pid}.${Date.now()}`;
  const tsc = require.resolve('typescript/bin/tsc');
  const args = [
    '-p',
    path.join(ROOT, 'tsconfig.json'),
    '--outDir',
    tmp,
    '--noCheck',
    '--declaration',
    'false',
    '--sourceMap',
    'false',
    '--incremental',
    'false',
  ];
  try {
    execFileSync(process.execPath, [tsc, ...args], { cwd: ROOT, stdio: 'pipe' });
  } catch (err) {
    // tsc exits non-zero on errors it still emits around; only a missing cli.js is fatal.
    if (!fs.existsSync(path.join(tmp, 'backend-emulator', 'cli.js'))) throw err;
  }
  // The schemas' standalone validators, as `npm run build` makes them (schemas/standalone.ts).
  execFileSync(process.execPath, [path.join(tmp, 'schemas', 'standalone.js'), path.join(tmp, 'schemas')], { cwd: ROOT, stdio: 'pipe' });
  fs.writeFileSync(path.join(tmp, '.complete'), '');
  try {
    fs.renameSync(tmp, dir);
  } catch {
    fs.rmSync(tmp, { recursive: true, force: true }); // another worker won the race
  }
  // Drop builds of older source states (an hour unused: no running test can still use them).
  for (const old of fs.readdirSync(cacheRoot)) {
    const p = path.join(cacheRoot, old);
    if (p !== dir && Date.now() - fs.statSync(p).mtimeMs > 3_600_000) fs.rmSync(p, { recursive: true, force: true });
  }
}
