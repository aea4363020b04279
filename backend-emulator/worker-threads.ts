/**
 * Starting a worker thread from a module of this package, compiled or not.
 *
 * The emulator runs from `dist/` (compiled JavaScript), and its tests run the TypeScript sources
 * through ts-jest, whose transform does not reach a worker thread: a worker given a `.ts` file
 * would fail on its first type annotation. So the entry is named without its extension and
 * resolved beside the caller's own file: the compiled `.js` when there is one (dist/), else the
 * `.ts` source, loaded in the worker through a small require hook that transpiles each source
 * file with TypeScript's `transpileModule` (types erased, no type check: the same as ts-node's
 * transpile-only mode, which `npm run bench` and the scripts use) and keeps the output in
 * `node_modules/.cache/`, keyed by the source's hash. The cache is what makes it usable under
 * jest: transpiling the import engine from scratch (loading TypeScript itself) costs seconds of
 * CPU, and every test file would pay it again in its first worker. Every worker runs at a lower
 * CPU priority than the process's main thread (WORKER_NICE_STEPS).
 */
import * as fs from 'fs';
import * as path from 'path';
import { Worker, type WorkerOptions } from 'worker_threads';

/** How a worker entry is loaded: the compiled file, or the source through the transpiling hook. */
export type WorkerEntryKind = 'compiled' | 'source';

/** Where `entry` (a path without extension) is, and how it is loaded. */
export function resolveWorkerEntry(entry: string): { file: string; kind: WorkerEntryKind } {
  if (fs.existsSync(`${entry}.js`)) return { file: `${entry}.js`, kind: 'compiled' };
  if (fs.existsSync(`${entry}.ts`)) return { file: `${entry}.ts`, kind: 'source' };
  throw new Error(`worker entry ${entry} has neither a .js nor a .ts file`);
}

/**
 * How many nice steps below the process's main thread every worker thread this package starts
 * runs (Linux; at most nice 19). Workers do an import's
 * reading, checking and writing, CPU-bound for seconds; the thread that answers requests must not
 * wait behind them for a core: on the machine's two cores, a poll of the Operation during a
 * 100,000-row inline run waited up to 150 ms for one. Ten steps below the request thread's
 * priority, a worker gets about a tenth of a core's time against it when both want the same core,
 * and all of it when the request thread is idle, which it mostly is.
 */
export const WORKER_NICE_STEPS = 10;

/**
 * Lowers the calling thread's priority `steps` below the main thread's (not its own: a worker
 * started by a worker is placed against the main thread too, not below its starter), plain
 * JavaScript for the bootstraps. On Linux `setpriority` of a thread id changes that thread only
 * (`/proc/thread-self` names it, and the process id is the main thread's); elsewhere the id would
 * be the whole process's, so nothing is changed. A refusal (a sandbox) changes nothing either: it
 * is a preference, not a rule.
 */
function lowerPriority(steps: number): string {
  return `
try {
  const tid = Number(require('fs').readlinkSync('/proc/thread-self').split('/').pop());
  const os = require('os');
  if (tid > 0 && tid !== process.pid) os.setPriority(tid, Math.min(19, os.getPriority(process.pid) + ${steps}));
} catch {}
`;
}

/** What startWorker takes: Node's worker options, and how many nice steps below the main thread the worker runs. */
export interface StartWorkerOptions extends WorkerOptions {
  /** Nice steps below the main thread (Linux); WORKER_NICE_STEPS unless said. */
  niceSteps?: number;
}

let threadPoolMade = false;

/**
 * Makes libuv's thread pool (fs, zlib, dns, crypto: one per process, made at its first use) from
 * this thread, before a worker can: a thread takes the priority of the thread that makes it, and a
 * pool made by a worker's first file read would run every request's uploads and downloads at the
 * worker's lower priority for the life of the process (lowerPriority). One access of a file
 * makes it, on this thread's call.
 */
function makeThreadPoolHere(): void {
  if (threadPoolMade) return;
  threadPoolMade = true;
  fs.access(__filename, () => undefined);
}

/** The transpiled sources' cache: in the package's node_modules (sources run only in a checkout). */
const CACHE_DIR = path.resolve(__dirname, '..', 'node_modules', '.cache', 'worker-transpiled');

/**
 * The worker's bootstrap for a source entry: a `.ts` require hook, then the entry. Plain
 * JavaScript in a string (it runs before anything can be transpiled). The options are the ones of
 * tsconfig.json that change emitted code.
 */
function sourceBootstrap(file: string, niceSteps: number): string {
  // Resolved here, from this file: an eval'd worker resolves bare names from the process's working
  // directory, which a program (or a test) may have moved away from the checkout.
  const typescript = require.resolve('typescript');
  const typescriptPackage = require.resolve('typescript/package.json');
  return `${lowerPriority(niceSteps)}
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const cacheDir = ${JSON.stringify(CACHE_DIR)};
const tsVersion = require(${JSON.stringify(typescriptPackage)}).version;
let ts;
require.extensions['.ts'] = function (module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const key = crypto.createHash('sha256').update(tsVersion).update('\\0').update(filename).update('\\0').update(source).digest('hex');
  const cached = path.join(cacheDir, key + '.js');
  let js;
  try {
    js = fs.readFileSync(cached, 'utf8');
  } catch {
    ts = ts || require(${JSON.stringify(typescript)});
    js = ts.transpileModule(source, {
      fileName: filename,
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, inlineSourceMap: true },
    }).outputText;
    try {
      fs.mkdirSync(cacheDir, { recursive: true });
      const temp = cached + '.' + process.pid + '.' + crypto.randomBytes(4).toString('hex');
      fs.writeFileSync(temp, js);
      fs.renameSync(temp, cached);
    } catch {
      // A cache that cannot be written only costs the next worker the transpiling again.
    }
  }
  module._compile(js, filename);
};
require(${JSON.stringify(file)});
`;
}

/** A worker thread running the module `entry` (an absolute path without extension), `niceSteps` (WORKER_NICE_STEPS) below the main thread. */
export function startWorker(entry: string, options: StartWorkerOptions = {}): Worker {
  makeThreadPoolHere();
  const { niceSteps = WORKER_NICE_STEPS, ...workerOptions } = options;
  const steps = Math.max(0, Math.floor(niceSteps));
  const { file, kind } = resolveWorkerEntry(entry);
  const bootstrap = kind === 'compiled' ? `${lowerPriority(steps)}\nrequire(${JSON.stringify(file)});` : sourceBootstrap(file, steps);
  return new Worker(bootstrap, { ...workerOptions, eval: true });
}
