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

/**
 * One app for the tests of the enclosing block (a file, or a describe), reset before each test
 * through the wire (`POST /emulator/v1/reset`, as a user's own suite resets the emulator it
 * shares): each test starts from an empty emulator without building the app again (about 35 ms of
 * route registration a build; one file of 119 tests paid it 119 times). The work a test left
 * running is aborted by the reset and waited for, so that it cannot write into the next test.
 * Call it in the block (it registers jest hooks) with the block's way of building an app; the
 * function it returns gives the block's app. `resetHeaders` go with the reset (an app with `auth`
 * takes it from an admin token only).
 */
export function sharedApp(build: () => FastifyInstance = inMemoryApp, resetHeaders: Record<string, string> = {}): () => FastifyInstance {
  let app: FastifyInstance | undefined;
  beforeAll(() => {
    app = build();
  });
  beforeEach(async () => {
    const headers = { ...resetHeaders, 'content-type': 'application/json' };
    const res = await app!.inject({ method: 'POST', url: '/emulator/v1/reset', headers, payload: '{}' });
    if (res.statusCode !== 200) throw new Error(`reset answered ${res.statusCode}: ${res.body}`);
    await app!.emulator.operations.idle();
  });
  afterAll(() => app?.close());
  return () => app!;
}
