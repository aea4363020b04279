/**
 * The emulator's programmatic entry points:
 *   startEmulator(options) -> { url, host, port, app, close() }   (listening on a socket)
 *   buildEmulatorApp(options) -> fastify instance                 (not listening: use inject())
 */
import type { AddressInfo } from 'net';
import type { FastifyInstance } from 'fastify';
import { buildEmulatorApp, type EmulatorAppOptions } from './app';
import { DEFAULT_HOST, DEFAULT_PORT, isLoopbackHost } from './config';

export { buildEmulatorApp, resolveConfig, SERVICE_MODULES, type EmulatorAppOptions } from './app';
export type { EmulatorContext, ServiceRoutes, SeedLoader, SeedRegistry } from './context';
export type { EmulatorConfig, AuthConfig, LogLevel } from './config';
export { GoogleApiError } from './errors';
export { DataDirError } from './store/lock';

export interface StartEmulatorOptions extends EmulatorAppOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 8085; 0 picks a free port. */
  port?: number;
}

export interface RunningEmulator {
  /** `http://HOST:PORT` (what clients use as rootUrl / `*_EMULATOR_HOST`). */
  url: string;
  host: string;
  port: number;
  app: FastifyInstance;
  /** Stops accepting connections, lets in-flight requests finish, closes the store. */
  close(): Promise<void>;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return host === '::' ? '[::1]' : '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

export async function startEmulator(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const host = options.host ?? DEFAULT_HOST;
  const app = buildEmulatorApp({ ...options, listenHost: host });
  try {
    await app.listen({ host, port: options.port ?? DEFAULT_PORT, listenTextResolver: () => '' });
  } catch (err) {
    await app.close().catch(() => undefined);
    throw err;
  }
  if (!app.emulator.config.auth && !isLoopbackHost(host)) {
    app.log.warn({ host }, 'listening on a non-loopback address without --auth: anyone who can reach this port can read and change every resource');
  }
  const port = (app.server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost(host)}:${port}`,
    host,
    port,
    app,
    close: () => (closing ??= app.close().then(() => undefined)),
  };
}
