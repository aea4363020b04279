/**
 * IAM conditions that would run for good (auth/conditions.ts): a caller who may set an endpoint
 * policy's IAM policy writes a condition whose evaluation backtracks (`matches()` is a JavaScript
 * regular expression here) or loops through nested macros. Before the time limit, the first
 * request that reached the binding held the request thread for good: the emulator answered no one.
 *
 * The test asks the authorizer directly first, inside `vm`'s execution time limit, so that the old
 * code fails there with a timeout instead of hanging the test file; the wire checks follow.
 */
import * as vm from 'vm';
import type { FastifyInstance } from 'fastify';
import { loggingApp } from '../../support/app';
import { ConditionEvaluator } from '../../../backend-emulator/auth/conditions';
import type { AuthConfig } from '../../../backend-emulator/config';
import { call, createPolicy, expectGoogleError, policyName, setIam } from '../../support/networkservices';

const AUTH: AuthConfig = {
  tokens: { 'tok-alice': 'user:alice@example.com', 'tok-bob': 'user:bob@example.com', 'tok-carol': 'user:carol@example.com' },
  adminTokens: ['tok-admin'],
};
const as = (token: string) => ({ authorization: `Bearer ${token}` });

// 40 a's: the regular expression below tries every way of placing 12 a's among them.
const R = policyName('a'.repeat(40));
const BACKTRACKS = 'resource.name.matches("(.*a){12}b")';
const LIST = `[${Array.from({ length: 30 }, (_, i) => i).join(', ')}]`;
/** 30^6 (729 million) turns of nested `all` macros. */
const LOOPS = `${LIST}.all(a, ${LIST}.all(b, ${LIST}.all(c, ${LIST}.all(d, ${LIST}.all(e, ${LIST}.all(f, a + b + c + d + e + f >= 0))))))`;
const GET = 'networkservices.endpointPolicies.get';
const RESOURCE = { name: R, type: 'networkservices.googleapis.com/EndpointPolicy', service: 'networkservices.googleapis.com' };

/** Runs `fn`, throwing if it computes for longer than `ms` (vm's limit interrupts synchronous work). */
function within<T>(ms: number, fn: () => T): T {
  return vm.runInNewContext('run()', { run: fn }, { timeout: ms }) as T;
}

let app: FastifyInstance;
let logs: string[];

beforeEach(async () => {
  ({ app, lines: logs } = loggingApp({ builtinServices: ['networkservices'], auth: AUTH, logLevel: 'warn' }));
  expect((await createPolicy(app, 'a'.repeat(40), undefined, undefined, as('tok-admin'))).status).toBe(200);
  const bindings = [
    { role: 'roles/networkservices.viewer', members: ['user:alice@example.com'], condition: { title: 'backtracks', expression: BACKTRACKS } },
    { role: 'roles/networkservices.viewer', members: ['user:bob@example.com'], condition: { title: 'loops', expression: LOOPS } },
    {
      role: 'roles/networkservices.viewer',
      members: ['user:carol@example.com'],
      condition: { title: 'fine', expression: `resource.name.startsWith("projects/p1/")` },
    },
  ];
  // Setting the policy only checks the expressions; nothing evaluates them yet.
  expect((await setIam(app, R, { policy: { version: 3, bindings } }, as('tok-admin'))).status).toBe(200);
});
afterEach(() => app.close());

test('a condition that runs out of time grants nothing, at once, and is not evaluated again', async () => {
  const auth = app.emulator.auth;
  const holds = (member: string) => within(20_000, () => auth.holds({ member, admin: false }, RESOURCE, GET));
  expect(holds('user:alice@example.com')).toBe(false);
  expect(holds('user:bob@example.com')).toBe(false);
  expect(holds('user:carol@example.com')).toBe(true);
  // Remembered: asked again, neither runs (a second run past the limit would log a second warning).
  expect(holds('user:alice@example.com')).toBe(false);
  expect(holds('user:bob@example.com')).toBe(false);
  const warnings = logs
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .filter((l) => /IAM condition ran out of time/.test(l.msg));
  expect(warnings.map((w) => w.expression)).toEqual([BACKTRACKS, LOOPS.slice(0, 200)]);

  // Through the wire: the callers the slow conditions name are refused; the emulator answers.
  expectGoogleError(await call(app, 'GET', `/v1/${R}`, undefined, as('tok-alice')), 403, 'PERMISSION_DENIED');
  expectGoogleError(await call(app, 'GET', `/v1/${R}`, undefined, as('tok-bob')), 403, 'PERMISSION_DENIED');
  expect((await call(app, 'GET', `/v1/${R}`, undefined, as('tok-carol'))).status).toBe(200);
  expect((await call(app, 'GET', '/healthz')).status).toBe(200);

  // A new slow condition met first by a request (not asked here first): answered 403 as well.
  // (In this test, after the checks above: on the old code they fail, where this would hang.)
  const other = 'resource.name.matches("(.*a){13}b")';
  const bindings = [{ role: 'roles/networkservices.viewer', members: ['user:alice@example.com'], condition: { title: 'backtracks', expression: other } }];
  expect((await setIam(app, R, { policy: { version: 3, bindings } }, as('tok-admin'))).status).toBe(200);
  const denied = expectGoogleError(await call(app, 'GET', `/v1/${R}`, undefined, as('tok-alice')), 403, 'PERMISSION_DENIED');
  expect(denied.message).toBe(`Permission '${GET}' denied on resource '${R}' (or it may not exist).`);
  expect((await call(app, 'GET', `/v1/${R}`, undefined, as('tok-admin'))).status).toBe(200);
});

describe('a thread starved of CPU is not a slow condition', () => {
  // The limit is wall time: a condition whose thread the machine did not schedule runs out of it
  // too. The evaluator tells them apart by the thread's CPU time, played here by a clock.
  const limitMicros = 200_000;

  test('runs out of time with little CPU are tried again; the expression is slow once its runs reach half the limit', () => {
    const slow: string[] = [];
    const reads = [0, 10_000, 20_000, limitMicros / 2];
    let read = 0;
    const evaluator = new ConditionEvaluator((e) => slow.push(e), { cpuClock: () => reads[Math.min(read++, reads.length - 1)] });
    expect(evaluator.holds(BACKTRACKS, RESOURCE)).toBe(false);
    // The clock before the runs, then after each of three runs: the third brought it to half the limit.
    expect(read).toBe(4);
    expect(slow).toEqual([BACKTRACKS]);
    // Remembered: not run again.
    expect(evaluator.holds(BACKTRACKS, RESOURCE)).toBe(false);
    expect(read).toBe(4);
  });

  test('a thread starved through every run grants nothing this once and forgets it', () => {
    const slow: string[] = [];
    let reads = 0;
    const starvedClock = () => {
      reads++;
      return 0;
    };
    const evaluator = new ConditionEvaluator((e) => slow.push(e), { cpuClock: starvedClock, starvedAttempts: 2 });
    expect(evaluator.holds(BACKTRACKS, RESOURCE)).toBe(false);
    // The clock before the runs, then after each of the two.
    expect(reads).toBe(3);
    expect(slow).toEqual([]);
    // Not remembered: asked again, it runs again.
    expect(evaluator.holds(BACKTRACKS, RESOURCE)).toBe(false);
    expect(reads).toBe(6);
    expect(slow).toEqual([]);
    // A fast condition on the starved thread holds as it should.
    expect(evaluator.holds('resource.name.startsWith("projects/p1/")', RESOURCE)).toBe(true);
  });
});
