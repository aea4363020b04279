/**
 * Every method Google has or had answers its real behaviour or 501 UNIMPLEMENTED, never 404
 * `Method not found` (issue 24): walked over every method of Google's newest published Node client
 * (`googleapis-latest`, revision 188) and of the pinned one (`googleapis` 140), for Network Services
 * v1 and Migration Center v1alpha1 and v1. A 404 that names a resource (the method ran and found
 * nothing) is an answer; a 404 that names the path is not.
 *
 * Also: the committed method table is what the generator makes of the two clients (a new client
 * revision shows up here as a drift), and a few methods newer than the pinned client, called
 * through the newest client itself, answer 501 naming the method.
 */
// The client of this one API, not the googleapis index, which loads every API of Google (seconds per test file).
import { networkservices as latestNetworkServices } from 'googleapis-latest/build/src/apis/networkservices';
import type { FastifyInstance } from 'fastify';
import { GOOGLE_METHODS } from '../../backend-emulator/http/google-methods-table';
import { startEmulator, type RunningEmulator } from '../../backend-emulator';
import { collectMethods } from '../../scripts/google-methods';
import { inMemoryApp } from '../support/app';
import { concreteGooglePath } from '../support/google-paths';
import { call } from '../support/inject';

jest.setTimeout(120_000);

describe('every method of both client revisions', () => {
  let app: FastifyInstance;
  beforeAll(() => {
    app = inMemoryApp();
  });
  afterAll(() => app.close());

  test('the newest client has methods the pinned one lacks (relations, report export jobs, Migration Center v1), and the table holds them all', () => {
    const latest = collectMethods(['googleapis-latest']);
    const pinned = new Set(collectMethods(['googleapis']).map(([m, p]) => `${m} ${p}`));
    const newer = latest.filter(([m, p]) => !pinned.has(`${m} ${p}`)).map(([, , id]) => id);
    expect(newer).toEqual(
      expect.arrayContaining([
        'migrationcenter.projects.locations.relations.list',
        'migrationcenter.projects.locations.reportConfigs.reports.reportExportJobs.list',
      ]),
    );
    const table = new Set(GOOGLE_METHODS.map(([m, p]) => `${m} ${p}`));
    for (const [m, p, id] of latest) expect([id, table.has(`${m} ${p}`)]).toEqual([id, true]);
  });

  test('the committed table is what scripts/google-methods.ts makes of the two clients (regenerate it when a client changes)', () => {
    const generated = collectMethods().map(([m, p, id, q]) => [m, p, id, [...q]]);
    expect(GOOGLE_METHODS.map(([m, p, id, q]) => [m, p, id, [...q]])).toEqual(generated);
  });

  test('no method answers 404 Method not found; a method not emulated answers 501 naming itself', async () => {
    const methods = [...collectMethods(['googleapis-latest']), ...collectMethods(['googleapis'])];
    expect(methods.length).toBeGreaterThan(250);
    let unimplemented = 0;
    for (const [method, path, id] of methods) {
      const url = concreteGooglePath(path);
      const res = await call(app, method, url, method === 'GET' || method === 'DELETE' ? undefined : {});
      const message = String(res.body?.error?.message ?? '');
      if (res.status === 404 && message.startsWith('Method not found')) throw new Error(`${id}: ${method} ${url} answered 404 ${message}`);
      if (res.status === 501) {
        // Two APIs share `/v1/projects/*/locations/*/operations`: the table names the first one's.
        expect(message).toMatch(/^Method [a-z]+\.projects\.locations[.\w]* is not implemented by the emulator/);
        unimplemented++;
      }
    }
    expect(unimplemented).toBeGreaterThan(100);
  });

  test('every Migration Center method of either client, v1alpha1 and v1, is served: none answers 501 or 404 Method not found', async () => {
    const methods = [...collectMethods(['googleapis-latest']), ...collectMethods(['googleapis'])].filter(([, , id]) => id.startsWith('migrationcenter.'));
    // 72 methods of v1alpha1 and 67 of v1 in revision 188 (issues 28 and 29): 139, less the six v1
    // methods whose paths Network Services shares (operations get/list/delete/cancel, locations
    // get/list), which the table lists under Network Services' ids (the shared-paths tests cover them).
    expect(new Set(methods.map(([m, p]) => `${m} ${p}`)).size).toBe(133);
    const refused: string[] = [];
    for (const [method, path, id] of methods) {
      const url = concreteGooglePath(path);
      const res = await call(app, method, url, method === 'GET' || method === 'DELETE' ? undefined : {});
      const message = String(res.body?.error?.message ?? '');
      if (res.status === 501 || (res.status === 404 && message.startsWith('Method not found'))) refused.push(`${id}: ${res.status} ${message}`);
    }
    expect(refused).toEqual([]);
  });
});

describe("through Google's newest client", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent' });
  });
  afterAll(() => emulator.close());

  async function failure(p: Promise<unknown>): Promise<{ status: number; error: { status: string; message: string } }> {
    try {
      await p;
    } catch (err) {
      const e = err as { response?: { status: number; data: { error: { status: string; message: string } } } };
      if (!e.response) throw err;
      return { status: e.response.status, error: e.response.data.error };
    }
    throw new Error('the call succeeded');
  }

  test('methods newer than the pinned client answer 501 UNIMPLEMENTED naming the method', async () => {
    const rootUrl = `${emulator.url}/`;
    // gaxios 7 loads node-fetch with a dynamic import(), which jest's module system refuses: Node's own fetch instead.
    const ns = latestNetworkServices({ version: 'v1', rootUrl, retry: false, fetchImplementation: fetch });
    // Every Migration Center method is served now: Network Services' wasm plugins (not in the pinned client) are not.
    const calls: Array<[string, Promise<unknown>]> = [
      ['networkservices.projects.locations.wasmPlugins.list', ns.projects.locations.wasmPlugins.list({ parent: 'projects/p1/locations/global' })],
    ];
    for (const [id, promise] of calls) {
      const { status, error } = await failure(promise);
      expect([id, status, error.status]).toEqual([id, 501, 'UNIMPLEMENTED']);
      expect(error.message).toContain(`Method ${id} is not implemented by the emulator`);
    }
  });
});
