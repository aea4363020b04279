/** In-memory emulator apps for `inject()` tests. */
import { PassThrough } from 'stream';
import type { FastifyInstance } from 'fastify';
import { buildEmulatorApp, type EmulatorAppOptions } from '../../backend-emulator/app';

/*
 * fastify's inject() loads light-my-request, which require()s `cookie` 2.x, an ESM-only package
 * that jest cannot load untransformed; these tests never send cookies, so a stand-in of the one
 * function used is enough.
 */
jest.mock('cookie', () => ({
  stringifySetCookie: (c: { name: string; value: string }) => `${c.name}=${encodeURIComponent(c.value)}`,
}));

/** An in-memory app with every built-in service, silent. */
export function inMemoryApp(options: EmulatorAppOptions = {}): FastifyInstance {
  return buildEmulatorApp({ inMemory: true, logLevel: 'silent', ...options });
}

/** An in-memory app whose log lines (JSON text, one a line) are collected in `lines` as they are written. */
export function loggingApp(options: EmulatorAppOptions & { logLevel: NonNullable<EmulatorAppOptions['logLevel']> }): { app: FastifyInstance; lines: string[] } {
  const lines: string[] = [];
  const stream = new PassThrough();
  stream.on('data', (d: Buffer) => lines.push(d.toString()));
  return { app: inMemoryApp({ ...options, logStream: stream }), lines };
}
