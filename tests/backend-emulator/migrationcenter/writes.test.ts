/**
 * The one write helper (backend-emulator/operations/writes.ts) on the wire: every create, patch
 * and delete is one transaction of requestId guard, change and Operation. A repeat returns the
 * first Operation and changes nothing, another request with the id is INVALID_ARGUMENT, and a
 * refused write leaves neither an Operation nor a remembered requestId.
 */
import type { FastifyInstance } from 'fastify';
import { BASE, call, googleError, newApp, ok, violations } from '../../support/migrationcenter';
import { sharedApp } from '../../support/app';

let app: FastifyInstance;
const sharedAppOfBlock = sharedApp(() => newApp());
beforeEach(async () => {
  app = sharedAppOfBlock();
  await app.ready();
});

const RID = '6f1c1b7e-4a1d-4c5e-9c1e-3a8f2b7d9e01';
const OTHER_RID = '0a2b4c6d-8e0f-4a1b-9c3d-5e7f9a1b3c5d';

async function operationCount(): Promise<number> {
  return (ok(await call(app, 'GET', `${BASE}/operations`)).operations ?? []).length;
}

test('a repeated source patch returns the first Operation and changes nothing; another patch with that requestId is INVALID_ARGUMENT', async () => {
  ok(await call(app, 'POST', `${BASE}/sources?sourceId=s1`, { displayName: 'one' }));
  const path = `${BASE}/sources/s1?updateMask=displayName&requestId=${RID}`;
  const first = ok(await call(app, 'PATCH', path, { displayName: 'two' }));
  expect(first.response).toMatchObject({ displayName: 'two' });
  const updated = ok(await call(app, 'GET', `${BASE}/sources/s1`));

  const again = ok(await call(app, 'PATCH', path, { displayName: 'two' }));
  expect(again.name).toBe(first.name);
  expect(ok(await call(app, 'GET', `${BASE}/sources/s1`)).updateTime).toBe(updated.updateTime);

  const err = googleError(await call(app, 'PATCH', path, { displayName: 'three' }), 400, 'INVALID_ARGUMENT');
  expect(violations(err).map((v) => v.field)).toEqual(['requestId']);
  expect(ok(await call(app, 'GET', `${BASE}/sources/s1`)).displayName).toBe('two');
});

test('a repeated source delete returns the first Operation, not NOT_FOUND', async () => {
  ok(await call(app, 'POST', `${BASE}/sources?sourceId=s1`, {}));
  const first = ok(await call(app, 'DELETE', `${BASE}/sources/s1?requestId=${RID}`));
  expect(first.done).toBe(true);
  expect(ok(await call(app, 'DELETE', `${BASE}/sources/s1?requestId=${RID}`)).name).toBe(first.name);
  googleError(await call(app, 'DELETE', `${BASE}/sources/s1?requestId=${OTHER_RID}`), 404, 'NOT_FOUND');
});

test('a refused write records no Operation and does not use up its requestId', async () => {
  ok(await call(app, 'POST', `${BASE}/sources?sourceId=s1`, {}));
  const before = await operationCount();
  googleError(await call(app, 'POST', `${BASE}/sources?sourceId=s1&requestId=${RID}`, {}), 409, 'ALREADY_EXISTS');
  googleError(await call(app, 'PATCH', `${BASE}/sources/missing?updateMask=displayName&requestId=${RID}`, { displayName: 'x' }), 404, 'NOT_FOUND');
  expect(await operationCount()).toBe(before);
  // The id was never remembered: a new request may still use it.
  const op = ok(await call(app, 'POST', `${BASE}/sources?sourceId=s2&requestId=${RID}`, {}));
  expect(op.response).toMatchObject({ name: expect.stringMatching(/\/sources\/s2$/) });
  expect(await operationCount()).toBe(before + 1);
});
