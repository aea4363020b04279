/** In-memory emulator apps for `inject()` tests. */
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
