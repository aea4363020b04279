/**
 * The refusal of unknown body names (http/request-bodies.ts) in Google's words when a message holds
 * more than one: each name a line of the message and a BadRequest violation, each line the parser's
 * whole sentence (Google's errors repeat `Invalid JSON payload received.` on every line). And its
 * size: a body of many thousands of unknown keys names the first 100 of them, not every one (a 1 MiB
 * body of 70,000 keys was answered 12.5 MB; a 32 MiB import job body, 505 MB after 93 s).
 */
import type { FastifyInstance } from 'fastify';
import { BASE, call, googleError, newApp, violations } from '../../support/migrationcenter';

let app: FastifyInstance;
beforeAll(() => {
  app = newApp();
});
afterAll(() => app.close());

const line = (name: string) => `Invalid JSON payload received. Unknown name "${name}" at 'source': Cannot find field.`;

test("two unknown names of a source: two lines, each Google's whole sentence, and two violations", async () => {
  const error = googleError(await call(app, 'POST', `${BASE}/sources?sourceId=s1`, { colour: 'red', displayName: 'd', size: 1 }), 400, 'INVALID_ARGUMENT');
  expect(error.message).toBe(`${line('colour')}\n${line('size')}`);
  expect(violations(error)).toEqual([
    { field: 'source', description: line('colour') },
    { field: 'source', description: line('size') },
  ]);
});

test('5,000 unknown names: the first 100 of them, in the body’s order', async () => {
  const body: Record<string, number> = {};
  for (let i = 0; i < 5_000; i++) body[`k${i}`] = 0;
  const error = googleError(await call(app, 'POST', `${BASE}/sources?sourceId=s1`, body), 400, 'INVALID_ARGUMENT');
  // k0 ... k99: the first hundred keys as sent.
  const first = Array.from({ length: 100 }, (_, i) => line(`k${i}`));
  expect(error.message.split('\n')).toEqual(first);
  expect(violations(error).map((v) => v.description)).toEqual(first);
});
