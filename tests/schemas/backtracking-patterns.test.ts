/**
 * Schema patterns that a long string cannot make backtrack. Validation reports every failure of a
 * value (Ajv's allErrors), so a string over its maxLength is still tested against its pattern,
 * and a body may hold 1 MiB of one string. The member pattern's `@X+\.X+` (and the service
 * account's) tried every dot as the one before the last part: `user:a@` + a million dots + `@`
 * took about n^2 steps, and one setIamPolicy held the emulator's request thread for good.
 *
 * The validations run inside `vm`'s execution time limit, so that a backtracking pattern fails
 * here with a timeout instead of hanging the test file; the wire checks follow in the same test.
 */
import * as vm from 'vm';
import { validate } from '../../schemas';
import { inMemoryApp as newApp } from '../support/app';
import { call } from '../support/inject';

/** Runs `fn`, throwing if it computes for longer than `ms` (vm's limit interrupts synchronous work). */
function within<T>(ms: number, fn: () => T): T {
  return vm.runInNewContext('run()', { run: fn }, { timeout: ms }) as T;
}

const DOTS = '.'.repeat(1_000_000);
const LIMIT_MS = 20_000;

test('a member of a million dots is refused at once, through the schema and the wire', async () => {
  const policy = (member: string) => ({ bindings: [{ role: 'roles/viewer', members: [member] }] });
  const properties = (failures: Array<{ property: string }>) => [...new Set(failures.map((f) => f.property))];
  for (const member of [`user:a@${DOTS}@`, `deleted:user:a@${DOTS}?uid=x`, `group:a@${DOTS}`]) {
    expect(properties(within(LIMIT_MS, () => validate('IamPolicy', policy(member))))).toEqual(['bindings[0].members[0]']);
  }
  expect(properties(within(LIMIT_MS, () => validate('DiscoveryClient', { serviceAccount: `a@${DOTS}@` })))).toContain('serviceAccount');

  const app = newApp();
  try {
    const resource = 'projects/p1/locations/global/endpointPolicies/ep1';
    const create = await call(app, 'POST', '/v1/projects/p1/locations/global/endpointPolicies?endpointPolicyId=ep1', {
      type: 'SIDECAR_PROXY',
      endpointMatcher: { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY' } },
    });
    expect(create.status).toBe(200);
    const answer = await call(app, 'POST', `/v1/${resource}:setIamPolicy`, { policy: policy(`user:a@${DOTS.slice(0, 900_000)}@`) });
    expect(answer.status).toBe(400);
    expect(answer.body.error.status).toBe('INVALID_ARGUMENT');
  } finally {
    await app.close();
  }
});

test.each([
  // member, valid: the rewritten patterns keep the old language (the dot may be anywhere but first and last)
  ['user:a@b.c', true],
  ['user:a@b..c', true],
  ['user:a@.b.c', true],
  ['user:a@b.', false],
  ['user:a@.b', false],
  ['user:a@.', false],
  ['user:a@bc', false],
  ['user:a@b.c@d', false],
  ['user:a@b.c?x', false],
  ['deleted:group:a@b.c?uid=12', true],
  ['deleted:group:a@b.?uid=12', false],
  ['deleted:group:a@.b?uid=12', false],
  ['serviceAccount:sa@p.iam.gserviceaccount.com', true],
])('%s valid: %s', (member, valid) => {
  expect(validate('IamPolicy', { bindings: [{ role: 'roles/viewer', members: [member] }] })).toEqual(
    valid ? [] : [expect.objectContaining({ property: 'bindings[0].members[0]' })],
  );
});

test.each([
  ['sa@p.iam.gserviceaccount.com', true],
  ['sa@p.', false],
  ['sa@.p', false],
  ['sa@p', false],
  ['sa@p.c d', false],
])('discovery client service account %s valid: %s', (serviceAccount, valid) => {
  const failures = validate('DiscoveryClient', { serviceAccount }).filter((f) => f.property === 'serviceAccount');
  expect(failures.length).toBe(valid ? 0 : 1);
});
