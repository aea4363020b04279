#!/usr/bin/env node
/**
 * `npm start` / `node dist/backend-emulator/cli.js [flags]`: runs the emulator until SIGTERM or
 * SIGINT. Prints exactly one line to stdout when ready: `listening on http://HOST:PORT`; log
 * lines (pino JSON) go to stderr.
 * Exit codes: 0 after a signal, 1 when start-up fails (data dir unusable or locked, port taken),
 * 2 for a usage error (unknown flag, bad value).
 */
import { parseArgs } from 'util';
import { normalizeOrigin } from './http/request-origin';
import { reexecWithFewerArenas } from './malloc-arenas';
import { unsupportedNode } from './node-version';
import { ConfigError, DEFAULT_DATA_DIR, DEFAULT_HOST, DEFAULT_LOG_LEVEL, DEFAULT_PORT, loadAuthFile, parseLogLevel, parsePort } from './config';

export const USAGE = `Usage: google-native-local serve [flags]    (in a checkout: npm start -- [flags])

Local emulator of networkservices.googleapis.com/v1 and migrationcenter.googleapis.com/v1alpha1 and v1.

Flags (each has an environment twin; a flag wins over its variable):
  --host HOST            address to listen on (EMULATOR_HOST; default ${DEFAULT_HOST})
  --port PORT            port; 0 picks a free one (EMULATOR_PORT; default ${DEFAULT_PORT})
  --data-dir DIR         durable state directory (EMULATOR_DATA_DIR; default ./${DEFAULT_DATA_DIR})
  --in-memory            keep state in memory only (EMULATOR_IN_MEMORY=1)
  --log-level LEVEL      fatal|error|warn|info|debug|trace|silent (EMULATOR_LOG_LEVEL; default ${DEFAULT_LOG_LEVEL})
  --auth FILE            bearer tokens and admin tokens, JSON (EMULATOR_AUTH_FILE); none: no auth
  --strict-references    check the form of an endpoint policy's reference fields (EMULATOR_STRICT_REFERENCES=1)
  --storage-dir DIR      folder standing for Cloud Storage, for import jobs (STORAGE_DIR)
  --storage-endpoint URL read storage payloads from a GCS-compatible server (STORAGE_ENDPOINT)
  --allow-host NAME      answer requests whose Host is NAME (.example.com: and its subdomains), beside
                         loopback names and --host; repeatable (EMULATOR_ALLOW_HOSTS, comma-separated)
  --allow-origin ORIGIN  answer web pages of ORIGIN (http://localhost:3000), with CORS; repeatable
                         (EMULATOR_ALLOW_ORIGINS, comma-separated)
  --help                 print this help

When ready, prints one line: listening on http://HOST:PORT
`;

export interface CliOptions {
  host: string;
  port: number;
  dataDir?: string;
  inMemory: boolean;
  logLevel: ReturnType<typeof parseLogLevel>;
  authFile?: string;
  strictReferences: boolean;
  storageDir?: string;
  storageEndpoint?: string;
  allowHosts: string[];
  allowOrigins: string[];
  help: boolean;
}

function envFlag(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value);
}

/** Flags and environment -> options; throws ConfigError on a usage error. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env): CliOptions {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        'in-memory': { type: 'boolean' },
        'log-level': { type: 'string' },
        auth: { type: 'string' },
        'strict-references': { type: 'boolean' },
        'storage-dir': { type: 'string' },
        'storage-endpoint': { type: 'string' },
        'allow-host': { type: 'string', multiple: true },
        'allow-origin': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const v = parsed.values as Record<string, string | boolean | string[] | undefined>;
  const str = (flag: string, envName: string): string | undefined => (v[flag] as string | undefined) ?? (env[envName] || undefined);
  const list = (flag: string, envName: string): string[] =>
    (v[flag] as string[] | undefined) ??
    (env[envName] ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  const allowOrigins = list('allow-origin', 'EMULATOR_ALLOW_ORIGINS');
  for (const origin of allowOrigins) {
    if (!normalizeOrigin(origin))
      throw new ConfigError(`--allow-origin: '${origin}' is not an origin like http://localhost:3000 (scheme, host, optional port; or *)`);
  }
  const portText = str('port', 'EMULATOR_PORT');
  const levelText = str('log-level', 'EMULATOR_LOG_LEVEL');
  const inMemory = v['in-memory'] === true || envFlag(env.EMULATOR_IN_MEMORY);
  return {
    host: str('host', 'EMULATOR_HOST') ?? DEFAULT_HOST,
    port: portText === undefined ? DEFAULT_PORT : parsePort(portText, v.port !== undefined ? '--port' : 'EMULATOR_PORT'),
    dataDir: inMemory ? undefined : (str('data-dir', 'EMULATOR_DATA_DIR') ?? DEFAULT_DATA_DIR),
    inMemory,
    logLevel: levelText === undefined ? DEFAULT_LOG_LEVEL : parseLogLevel(levelText, v['log-level'] !== undefined ? '--log-level' : 'EMULATOR_LOG_LEVEL'),
    authFile: str('auth', 'EMULATOR_AUTH_FILE'),
    strictReferences: v['strict-references'] === true || envFlag(env.EMULATOR_STRICT_REFERENCES),
    storageDir: str('storage-dir', 'STORAGE_DIR'),
    storageEndpoint: str('storage-endpoint', 'STORAGE_ENDPOINT'),
    allowHosts: list('allow-host', 'EMULATOR_ALLOW_HOSTS'),
    allowOrigins,
    help: v.help === true,
  };
}

export async function main(argv: string[]): Promise<void> {
  let options: CliOptions;
  let auth;
  try {
    options = parseCli(argv);
    if (options.help) {
      process.stdout.write(USAGE);
      return;
    }
    auth = options.authFile ? loadAuthFile(options.authFile) : undefined;
  } catch (err) {
    process.stderr.write(`error: ${(err as Error).message}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }

  // Required only now: --help and usage errors stay instant.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startEmulator } = require('./index') as typeof import('./index');
  // The import worker starts now, beside the emulator's own start: the first :validate or :run
  // finds it ready, as every later one does (import-thread.ts).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./migrationcenter/import-jobs/import-thread') as typeof import('./migrationcenter/import-jobs/import-thread')).keepImportWorkerReady();
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    emulator = await startEmulator({
      host: options.host,
      port: options.port,
      dataDir: options.dataDir,
      inMemory: options.inMemory,
      logLevel: options.logLevel,
      logFd: 2,
      auth,
      strictReferences: options.strictReferences,
      storageDir: options.storageDir,
      storageEndpoint: options.storageEndpoint,
      allowHosts: options.allowHosts,
      allowOrigins: options.allowOrigins,
    });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const message = e.code === 'EADDRINUSE' ? `port ${options.port} on ${options.host} is already in use (try --port 0)` : e.message;
    process.stderr.write(`error: ${message}\n`);
    process.exitCode = 1;
    return;
  }
  // The input schemas' validators load now (generated at build time: a few ms each), one a turn,
  // rather than in the first write of each kind.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  void (require('../schemas') as typeof import('../schemas')).warmInputSchemas();
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      process.stderr.write(`received ${signal} again: exiting now\n`);
      process.exit(1);
    }
    stopping = true;
    emulator
      .close()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        process.stderr.write(`error while stopping: ${(err as Error).message}\n`);
        process.exit(1);
      });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // Only now: a supervisor may signal the moment it reads this line, and a signal that came before
  // the handlers would end the process by its default action (no close, the data dir's lock left).
  process.stdout.write(`listening on ${emulator.url}\n`);
}

if (require.main === module) {
  const refused = unsupportedNode();
  if (refused) {
    process.stderr.write(`${refused}\n`);
    process.exitCode = 1;
  } else {
    // The emulator's malloc settings (two arenas, fixed thresholds): this process starts again once with them (malloc-arenas.ts).
    reexecWithFewerArenas();
    void main(process.argv.slice(2));
  }
}
