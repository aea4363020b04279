/**
 * The console and the admin API read through the services' domains, never the store's
 * collections: a service the app does not run reads as empty, even when the store holds its
 * documents (another configuration wrote them).
 */
import type { FastifyInstance } from 'fastify';
import { CONSOLE, MC_PARENT, call, googleError, newApp, ok } from '../../support/console';

let app: FastifyInstance;
afterEach(() => app?.close());

test('with the console alone, the other services read as empty whatever the store holds', async () => {
  app = newApp({ builtinServices: ['console'] });
  await app.ready();
  const store = app.emulator.store;
  const name = `${MC_PARENT}/importJobs/j1`;
  const time = '2024-05-01T10:00:00.000Z';
  store.put('migrationcenter.importJobs', name, { job: { name, createTime: time, updateTime: time, state: 'IMPORT_JOB_STATE_PENDING' }, attempt: 0 });
  store.put('endpointPolicies', 'projects/p1/locations/global/endpointPolicies/e1', { name: 'projects/p1/locations/global/endpointPolicies/e1' });

  expect(ok(await call(app, 'GET', `${CONSOLE}/summary`))).toEqual({ endpointPolicies: 0, importJobs: 0, assets: 0 });
  expect(ok(await call(app, 'GET', `${CONSOLE}/endpointPolicies`)).endpointPolicies).toEqual([]);
  expect(ok(await call(app, 'GET', `${CONSOLE}/importJobs`)).importJobs).toEqual([]);
  googleError(await call(app, 'GET', `${CONSOLE}/${name}`), 404, 'NOT_FOUND');
  expect(ok(await call(app, 'GET', `/emulator/v1/iamHistory?resource=projects/p1`)).entries).toEqual([]);
});

test('with every service, the same documents are read through the domains', async () => {
  app = newApp();
  await app.ready();
  const store = app.emulator.store;
  const name = `${MC_PARENT}/importJobs/j1`;
  const time = '2024-05-01T10:00:00.000Z';
  // A bare wire job written by hand is read as a stored one.
  store.put('migrationcenter.importJobs', name, { name, createTime: time, updateTime: time, state: 'IMPORT_JOB_STATE_PENDING' });
  expect(ok(await call(app, 'GET', `${CONSOLE}/summary`))).toMatchObject({ importJobs: 1 });
  expect(ok(await call(app, 'GET', `${CONSOLE}/importJobs`)).importJobs.map((j: { name: string }) => j.name)).toEqual([name]);
  expect(ok(await call(app, 'GET', `${CONSOLE}/${name}`))).toMatchObject({ name, state: 'IMPORT_JOB_STATE_PENDING' });
});
