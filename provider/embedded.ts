/**
 * The default backend: the emulator's fastify app inside the provider's own process, reached with
 * `inject()` (same routes and error handler as over HTTP, no socket), with its durable store under
 * `.google-native-local/` in the program's folder (the dynamic-provider host's cwd).
 *
 * Closure serialisation: the emulator is required and built lazily, on the first request; one app
 * per process, closed when the process exits.
 */
import * as path from 'path';
import type { InjectableApp } from './backends';

/** The folder, under the program's folder, that holds the embedded emulator's data. */
export const EMBEDDED_DATA_DIR = '.google-native-local';

/** What this module uses of backend-emulator: `buildEmulatorApp(options)` (a fastify app, not listening). */
type EmulatorModule = typeof import('../backend-emulator');

interface EmulatorApp extends InjectableApp {
  ready(): PromiseLike<unknown>;
  close(): PromiseLike<unknown>;
}

let appPromise: Promise<EmulatorApp> | undefined;
let currentApp: EmulatorApp | undefined;
let exitHookInstalled = false;

/** The data folder of the embedded emulator for the current process: `<cwd>/.google-native-local`. */
export function embeddedDataDir(): string {
  return path.join(process.cwd(), EMBEDDED_DATA_DIR);
}

/** The embedded emulator app, built on first call (one per process). */
export function getEmbeddedApp(): Promise<EmulatorApp> {
  if (!appPromise) {
    appPromise = buildApp();
    // A failed build is not cached: the next request tries again and reports its own error.
    appPromise.catch(() => {
      appPromise = undefined;
    });
  }
  return appPromise;
}

async function buildApp(): Promise<EmulatorApp> {
  // Loaded on first use, never at import time (closure serialisation, start-up cost).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const emulator = require('../backend-emulator') as EmulatorModule;
  if (typeof emulator.buildEmulatorApp !== 'function') {
    throw new Error('backend-emulator does not export buildEmulatorApp(options): the embedded backend cannot start');
  }
  // Logs on stderr: the host's stdout is the engine's (first line: the port).
  const app: EmulatorApp = await emulator.buildEmulatorApp({ dataDir: embeddedDataDir(), logFd: 2 });
  await app.ready();
  currentApp = app;
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // Best effort only: 'exit' handlers cannot wait, and the engine usually kills the host
    // outright. The store must be (and is) safe to abandon: SQLite commits are durable and the
    // OS releases its lock when the process dies.
    process.once('exit', () => {
      if (currentApp) void currentApp.close();
    });
  }
  return app;
}

/** Closes the embedded emulator of this process, if one was built (tests, orderly shutdown). */
export async function closeEmbeddedBackend(): Promise<void> {
  const pending = appPromise;
  appPromise = undefined;
  currentApp = undefined;
  if (!pending) return;
  const app = await pending.catch(() => undefined);
  if (app) await app.close();
}
