/**
 * The IAM conditions of one request, together (auth/conditions.ts RequestConditions): each
 * expression evaluated once, all of them within one CPU budget.
 *
 * One condition is bounded by its time limit, but a policy holds 20 conditions for each role and
 * member that names a caller (the user, their domain, their groups), and an expression just under
 * the limit is never remembered as slow: 80 distinct backtracking expressions of about 60 ms each
 * held the request thread 6.6 CPU-s at every `get` of their endpoint policy, the emulator
 * answering no one meanwhile. And `testIamPermissions`, which needs no permission, decided each
 * permission of its list anew: one permission asked 1,000 times evaluated every condition 1,000
 * times (7.3 CPU-s for 80 conditions of 0.1 ms; a 1 MiB body holds 27,000 of them).
 *
 * The tests count evaluations (a spy on the evaluator), never time.
 */
import type { FastifyInstance } from 'fastify';
import { loggingApp } from '../../support/app';
import { ConditionEvaluator, REQUEST_CPU_MICROS } from '../../../backend-emulator/auth/conditions';
import type { AuthConfig } from '../../../backend-emulator/config';
import { call, createPolicy, expectGoogleError, policyName, setIam } from '../../support/networkservices';

const AUTH: AuthConfig = { tokens: { 'tok-alice': 'user:alice@example.com' }, adminTokens: ['tok-admin'] };
const as = (token: string) => ({ authorization: `Bearer ${token}` });
const R = policyName('ep1');
const GET = 'networkservices.endpointPolicies.get';
const LIST = 'networkservices.endpointPolicies.list';
const UPDATE = 'networkservices.endpointPolicies.update';
const RESOURCE = { name: R, type: 'networkservices.googleapis.com/EndpointPolicy', service: 'networkservices.googleapis.com' };

/**
 * 80 conditional bindings that name alice (as herself and by her domain) under the two roles that
 * grant `get`, 20 each (the most a role and member may have), each with its own expression made
 * from `expression(i)`; and, after them, a binding that grants her `viewer` unconditionally when
 * `grantAfter`.
 */
function eightyConditions(expression: (i: number) => string, grantAfter = false): unknown[] {
  const bindings: unknown[] = [];
  let i = 0;
  for (const role of ['roles/networkservices.viewer', 'roles/networkservices.admin']) {
    for (const member of ['user:alice@example.com', 'domain:example.com']) {
      for (let k = 0; k < 20; k++, i++) bindings.push({ role, members: [member], condition: { title: `c${i}`, expression: expression(i) } });
    }
  }
  if (grantAfter) bindings.push({ role: 'roles/networkservices.viewer', members: ['user:alice@example.com'] });
  return bindings;
}

let app: FastifyInstance;
let logs: string[];
let evaluations: jest.SpyInstance;

beforeEach(async () => {
  ({ app, lines: logs } = loggingApp({ builtinServices: ['networkservices'], auth: AUTH, logLevel: 'warn' }));
  expect((await createPolicy(app, 'ep1', undefined, undefined, as('tok-admin'))).status).toBe(200);
  evaluations = jest.spyOn(ConditionEvaluator.prototype, 'holds');
});
afterEach(async () => {
  evaluations.mockRestore();
  await app.close();
});

const budgetWarnings = () =>
  logs
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((l) => /spent their CPU budget/.test(l.msg));

test('testIamPermissions decides each distinct permission once, and evaluates each condition once', async () => {
  // One condition holds, the first (alice's as a viewer, who may get and list, not update).
  const bindings = eightyConditions((i) => (i === 0 ? 'resource.name.startsWith("projects/p1/")' : `resource.name.startsWith("projects/nope${i}/")`));
  expect((await setIam(app, R, { policy: { version: 3, bindings } }, as('tok-admin'))).status).toBe(200);
  evaluations.mockClear();

  const asked = [...Array<string>(1000).fill(GET), UPDATE, LIST, GET];
  const res = await call(app, 'POST', `/v1/${R}:testIamPermissions`, { permissions: asked }, as('tok-alice'));
  expect(res.status).toBe(200);
  // The answer lists what she holds in the order asked, repeats kept, as before.
  expect(res.body.permissions).toEqual([...Array<string>(1000).fill(GET), LIST, GET]);
  // Every expression that names update was evaluated once, those of get once, the first (which
  // granted get and list) once: 41 evaluations (there were 40,000 and more).
  expect(evaluations).toHaveBeenCalledTimes(41);
  expect(budgetWarnings()).toEqual([]);
}, 60_000);

test("a request's conditions stop at its CPU budget; the emulator answers, the next request is bounded alike", async () => {
  // 25 a's and a suffix matched against 8 groups of `.*a` then a `b` that is never there: about
  // 60 ms of backtracking each (on this project's 2-core machine), under the 200 ms limit of one
  // evaluation, so none is ever remembered as slow.
  const slow = (i: number) => `("${'a'.repeat(25)}" + "${i}").matches("(.*a){8}b")`;
  expect((await setIam(app, R, { policy: { version: 3, bindings: eightyConditions(slow, true) } }, as('tok-admin'))).status).toBe(200);

  for (let round = 0; round < 2; round++) {
    evaluations.mockClear();
    // Not all 80 run (they held the thread 6.6 CPU-s a request): the budget, about 100 ms of
    // CPU, is spent after a few, and the rest grant nothing unevaluated. A binding without a
    // condition still grants: it costs nothing.
    expect((await call(app, 'GET', `/v1/${R}`, undefined, as('tok-alice'))).status).toBe(200);
    expect(evaluations.mock.calls.length).toBeGreaterThan(0);
    expect(evaluations.mock.calls.length).toBeLessThan(80);
  }
  // Without the unconditional grant, she is refused, at the same cost.
  expect((await setIam(app, R, { policy: { version: 3, bindings: eightyConditions(slow) } }, as('tok-admin'))).status).toBe(200);
  evaluations.mockClear();
  expectGoogleError(await call(app, 'GET', `/v1/${R}`, undefined, as('tok-alice')), 403, 'PERMISSION_DENIED');
  expect(evaluations.mock.calls.length).toBeLessThan(80);
  expect(budgetWarnings().map((w) => w.resource)).toEqual([R, R, R]);
  expect((await call(app, 'GET', '/healthz')).status).toBe(200);
}, 60_000);

describe('RequestConditions, with a played thread clock', () => {
  test('an expression is evaluated once; past the budget the others grant nothing, unevaluated, told once', () => {
    // Every read of the clock moves it 10 ms: an evaluation reads it at least three times.
    let micros = 0;
    const spent: string[] = [];
    const evaluator = new ConditionEvaluator(undefined, { cpuClock: () => (micros += 10_000) }, (name) => spent.push(name));
    const conditions = evaluator.forRequest(RESOURCE);
    const holds = (i: number) => conditions.holds(`resource.name.startsWith("projects/p1/") && ${i} >= 0`);

    expect(holds(0)).toBe(true);
    expect(holds(0)).toBe(true);
    expect(evaluations).toHaveBeenCalledTimes(1);

    const answers = Array.from({ length: 20 }, (_, i) => holds(i + 1));
    const evaluated = evaluations.mock.calls.length;
    // Some ran and held, then the budget was spent: every other grants nothing and is not evaluated.
    expect(evaluated).toBeGreaterThan(1);
    expect(evaluated).toBeLessThanOrEqual(REQUEST_CPU_MICROS / 20_000 + 1);
    expect(answers).toEqual(Array.from({ length: 20 }, (_, i) => i + 1 < evaluated));
    expect(spent).toEqual([R]);
    // What was evaluated is still known; what was not still grants nothing.
    expect(holds(1)).toBe(true);
    expect(holds(20)).toBe(false);
    expect(evaluations).toHaveBeenCalledTimes(evaluated);
    expect(spent).toEqual([R]);

    // The next request has a budget of its own.
    expect(evaluator.forRequest(RESOURCE).holds('resource.name.startsWith("projects/p1/") && 20 >= 0')).toBe(true);
  });
});
