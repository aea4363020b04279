import type { FastifyInstance } from 'fastify';
import { CONCURRENT_POLICY_CHANGES } from '../../../backend-emulator/networkservices/iam-policy';
import { call, createPolicy, expectGoogleError, fieldViolations, getIam, newApp, policyName, setIam } from '../../support/networkservices';
import { sharedApp } from '../../support/app';

const R = policyName('ep1');
const COND = { title: 'until 2100', expression: 'request.time < timestamp("2100-01-01T00:00:00Z")' };
const COND2 = { title: 'prod only', expression: 'resource.name.startsWith("projects/p1/")' };

let app: FastifyInstance;
const sharedAppOfBlock = sharedApp(() => newApp());
beforeEach(async () => {
  app = sharedAppOfBlock();
  expect((await createPolicy(app, 'ep1')).status).toBe(200);
});

async function history(resource = R): Promise<any[]> {
  const res = await call(app, 'GET', `/emulator/v1/iamHistory?resource=${encodeURIComponent(resource)}`);
  expect(res.status).toBe(200);
  return res.body.entries;
}

describe('etags and read-modify-write', () => {
  test('an empty policy reads as {"etag":"ACAB"} at every version', async () => {
    for (const v of [undefined, 0, 1, 3]) {
      const res = await getIam(app, R, v);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ etag: 'ACAB' });
    }
  });

  test('a set without etag replaces; each write has a new base64 etag; get returns it', async () => {
    const etags = new Set<string>(['ACAB']);
    for (const member of ['user:a@example.com', 'user:b@example.com', 'user:c@example.com']) {
      const res = await setIam(app, R, { policy: { bindings: [{ role: 'roles/viewer', members: [member] }] } });
      expect(res.status).toBe(200);
      expect(res.body.bindings).toEqual([{ role: 'roles/viewer', members: [member] }]);
      expect(res.body.version).toBe(1);
      expect(res.body.etag).toMatch(/^[A-Za-z0-9+/]+=*$/);
      expect(etags.has(res.body.etag)).toBe(false);
      etags.add(res.body.etag);
      expect((await getIam(app, R)).body).toEqual(res.body);
    }
  });

  test('a set with the current etag succeeds (ACAB on an empty policy); a stale etag is 409 ABORTED and changes nothing', async () => {
    const first = await setIam(app, R, { policy: { etag: 'ACAB', bindings: [{ role: 'roles/viewer', members: ['user:a@example.com'] }] } });
    expect(first.status).toBe(200);
    const second = await setIam(app, R, { policy: { etag: first.body.etag, bindings: [{ role: 'roles/editor', members: ['user:a@example.com'] }] } });
    expect(second.status).toBe(200);

    const stale = await setIam(app, R, { policy: { etag: first.body.etag, bindings: [] } });
    const error = expectGoogleError(stale, 409, 'ABORTED');
    expect(error.message).toBe('There were concurrent policy changes. Please retry the whole read-modify-write with exponential backoff.');
    expect(error.message).toBe(CONCURRENT_POLICY_CHANGES);
    const staleAcab = await setIam(app, R, { policy: { etag: 'ACAB', bindings: [] } });
    expectGoogleError(staleAcab, 409, 'ABORTED');

    expect((await getIam(app, R)).body).toEqual(second.body);
    expect((await history()).map((e) => e.etag)).toEqual([first.body.etag, second.body.etag]);
  });

  test('an etag that is not base64 is INVALID_ARGUMENT on policy.etag', async () => {
    const res = await setIam(app, R, { policy: { etag: 'not base64!', bindings: [] } });
    expectGoogleError(res, 400, 'INVALID_ARGUMENT');
    expect(fieldViolations(res).map((v) => v.field)).toContain('policy.etag');
  });

  test('every accepted write is in the history, with its etag; rejected writes are not', async () => {
    const accepted: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await setIam(app, R, { policy: { bindings: [{ role: 'roles/viewer', members: [`user:u${i}@example.com`] }] } });
      accepted.push(res.body.etag);
      await setIam(app, R, { policy: { etag: 'BwAAAAAAAAA=', bindings: [] } }); // stale: rejected
      await setIam(app, R, { policy: { bindings: [{ role: 'roles/viewer', members: ['nobody'] }] } }); // invalid
    }
    const entries = await history();
    expect(entries.map((e) => e.etag)).toEqual(accepted);
    expect(entries.map((e) => e.revision)).toEqual([1, 2, 3, 4, 5]);
    expect(entries[4].policy.bindings[0].members).toEqual(['user:u4@example.com']);
    expect(entries.every((e) => e.kind === 'set')).toBe(true);
  });

  test('the history keeps the last 100 writes of a policy, on disk as in the answer: 105 writes leave revisions 6 to 105', async () => {
    for (let i = 1; i <= 105; i++) {
      expect((await setIam(app, R, { policy: { bindings: [{ role: 'roles/viewer', members: [`user:u${i}@example.com`] }] } })).status).toBe(200);
    }
    const entries = await history();
    expect(entries.map((e) => e.revision)).toEqual(Array.from({ length: 100 }, (_, i) => i + 6));
    expect(entries[99].policy.bindings[0].members).toEqual(['user:u105@example.com']);
    // The older entries are gone from the store, not only from the answer.
    expect(app.emulator.store.count('iamPolicyHistory', `${R}#`)).toBe(100);
    // An entry an earlier version kept beyond the last 100 (revision 1's key) is not read.
    app.emulator.store.put('iamPolicyHistory', `${R}#000000000001`, { ...entries[0], revision: 1 });
    expect((await history()).map((e) => e.revision)).toEqual(Array.from({ length: 100 }, (_, i) => i + 6));
  });

  test('concurrent read-modify-write cycles: exactly one wins per etag', async () => {
    const base = await setIam(app, R, { policy: { bindings: [{ role: 'roles/viewer', members: ['user:a@example.com'] }] } });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        setIam(app, R, { policy: { etag: base.body.etag, bindings: [{ role: 'roles/viewer', members: [`user:w${i}@example.com`] }] } }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
  });
});

describe('updateMask', () => {
  test('default bindings,etag: auditConfigs are kept; auditConfigs mask keeps bindings', async () => {
    const audit = [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ' }] }];
    await setIam(app, R, {
      policy: { bindings: [{ role: 'roles/viewer', members: ['user:a@example.com'] }], auditConfigs: audit },
      updateMask: 'bindings,auditConfigs',
    });
    let res = await setIam(app, R, { policy: { bindings: [{ role: 'roles/editor', members: ['user:b@example.com'] }], auditConfigs: [] } });
    expect(res.body.auditConfigs).toEqual(audit);
    expect(res.body.bindings).toEqual([{ role: 'roles/editor', members: ['user:b@example.com'] }]);
    res = await setIam(app, R, { policy: { auditConfigs: [] }, updateMask: 'auditConfigs' });
    expect(res.body.auditConfigs).toBeUndefined();
    expect(res.body.bindings).toEqual([{ role: 'roles/editor', members: ['user:b@example.com'] }]);
  });

  test('a mask path in its proto spelling (audit_configs, policy.audit_configs) is the same path, as in every FieldMask', async () => {
    const audit = [{ service: 'allServices', auditLogConfigs: [{ logType: 'ADMIN_READ' }] }];
    let res = await setIam(app, R, { policy: { audit_configs: audit }, update_mask: 'audit_configs' });
    expect(res.status).toBe(200);
    expect(res.body.auditConfigs).toEqual(audit);
    res = await setIam(app, R, { policy: { auditConfigs: [] }, updateMask: 'policy.audit_configs' });
    expect(res.status).toBe(200);
    expect(res.body.auditConfigs).toBeUndefined();
  });

  test('an unknown mask field is INVALID_ARGUMENT on updateMask', async () => {
    const res = await setIam(app, R, { policy: { bindings: [] }, updateMask: 'bindings,owner' });
    expectGoogleError(res, 400, 'INVALID_ARGUMENT');
    expect(fieldViolations(res)[0].field).toBe('updateMask');
  });
});

describe('policy versions and conditions', () => {
  test('requestedPolicyVersion must be 0, 1 or 3', async () => {
    for (const bad of ['2', '4', '-1', 'abc', '3.0', '3e0', '0x3', '%203']) {
      const res = await call(app, 'GET', `/v1/${R}:getIamPolicy?options.requestedPolicyVersion=${bad}`);
      expectGoogleError(res, 400, 'INVALID_ARGUMENT');
      expect(fieldViolations(res)[0].field).toBe('options.requestedPolicyVersion');
    }
    // Read as every integer query parameter is (integer-text.ts): digits after an optional sign.
    for (const good of ['03', '%2B3', '-0']) {
      expect([good, (await call(app, 'GET', `/v1/${R}:getIamPolicy?options.requestedPolicyVersion=${good}`)).status]).toEqual([good, 200]);
    }
  });

  test('conditions need version 3 on write', async () => {
    for (const version of [undefined, 0, 1]) {
      const res = await setIam(app, R, {
        policy: {
          version,
          bindings: [
            { role: 'roles/networkservices.admin', members: ['user:a@example.com'] },
            { role: 'roles/networkservices.viewer', members: ['user:a@example.com'], condition: COND },
          ],
        },
      });
      expectGoogleError(res, 400, 'INVALID_ARGUMENT');
      expect(fieldViolations(res)[0]).toEqual({ field: 'policy.version', description: expect.stringContaining('policy.bindings[1].condition') });
    }
    expect(await history()).toHaveLength(0);
  });

  test('a conditional policy read below version 3 renames the roles {role}_withcond_{hash} and hides conditions', async () => {
    const written = await setIam(app, R, {
      policy: {
        version: 3,
        bindings: [
          { role: 'roles/networkservices.viewer', members: ['user:a@example.com'] },
          { role: 'roles/networkservices.admin', members: ['user:b@example.com'], condition: COND },
          { role: 'roles/networkservices.admin', members: ['user:c@example.com'], condition: COND2 },
        ],
      },
    });
    expect(written.status).toBe(200);
    expect(written.body.version).toBe(3);
    expect(written.body.bindings[1].condition).toEqual(COND);

    const v3 = await getIam(app, R, 3);
    expect(v3.body).toEqual(written.body);

    for (const v of [undefined, 0, 1]) {
      const low = await getIam(app, R, v);
      expect(low.body.version).toBe(1);
      expect(low.body.etag).toBe(written.body.etag);
      expect(low.body.bindings[0]).toEqual({ role: 'roles/networkservices.viewer', members: ['user:a@example.com'] });
      const masked = low.body.bindings.slice(1);
      for (const b of masked) {
        expect(b.role).toMatch(/^roles\/networkservices\.admin_withcond_[0-9a-f]{20}$/);
        expect(b.condition).toBeUndefined();
      }
      expect(masked[0].role).not.toBe(masked[1].role);
      expect(JSON.stringify(low.body)).not.toContain('condition');
    }
  });

  test('writing back a masked _withcond_ role is rejected, naming the binding', async () => {
    await setIam(app, R, { policy: { version: 3, bindings: [{ role: 'roles/networkservices.admin', members: ['user:b@example.com'], condition: COND }] } });
    const low = await getIam(app, R, 1);
    const res = await setIam(app, R, { policy: low.body });
    expectGoogleError(res, 400, 'INVALID_ARGUMENT');
    expect(fieldViolations(res)[0].field).toBe('policy.bindings[0].role');
  });

  test('reading at version 3 a policy without conditions returns version 1', async () => {
    await setIam(app, R, { policy: { version: 3, bindings: [{ role: 'roles/viewer', members: ['user:a@example.com'] }] } });
    expect((await getIam(app, R, 3)).body.version).toBe(1);
  });

  test('no conditions on roles/owner, roles/editor, roles/viewer', async () => {
    for (const role of ['roles/owner', 'roles/editor', 'roles/viewer']) {
      const res = await setIam(app, R, {
        policy: {
          version: 3,
          bindings: [
            { role: 'roles/networkservices.viewer', members: ['user:a@example.com'] },
            { role, members: ['user:a@example.com'], condition: COND },
          ],
        },
      });
      expectGoogleError(res, 400, 'INVALID_ARGUMENT');
      expect(fieldViolations(res)[0].field).toBe('policy.bindings[1].condition');
    }
  });

  test('no conditions for allUsers / allAuthenticatedUsers, naming the member', async () => {
    for (const member of ['allUsers', 'allAuthenticatedUsers']) {
      const res = await setIam(app, R, {
        policy: { version: 3, bindings: [{ role: 'roles/networkservices.viewer', members: ['user:a@example.com', member], condition: COND }] },
      });
      expectGoogleError(res, 400, 'INVALID_ARGUMENT');
      expect(fieldViolations(res)[0].field).toBe('policy.bindings[0].members[1]');
    }
    // Without a condition they are fine.
    expect((await setIam(app, R, { policy: { bindings: [{ role: 'roles/networkservices.viewer', members: ['allUsers'] }] } })).status).toBe(200);
  });

  test('a condition expression that does not parse or is not boolean names the expression', async () => {
    for (const expression of ['request.time <', '"a string"', 'unknownVar == 1']) {
      const res = await setIam(app, R, {
        policy: { version: 3, bindings: [{ role: 'roles/networkservices.viewer', members: ['user:a@example.com'], condition: { title: 't', expression } }] },
      });
      expectGoogleError(res, 400, 'INVALID_ARGUMENT');
      expect(fieldViolations(res).map((v) => v.field)).toContain('policy.bindings[0].condition.expression');
    }
  });

  test('at most 20 conditions for one role and member', async () => {
    const bindings = Array.from({ length: 21 }, (_, i) => ({
      role: 'roles/networkservices.viewer',
      members: ['user:a@example.com'],
      condition: { title: `c${i}`, expression: `request.time < timestamp("${2030 + i}-01-01T00:00:00Z")` },
    }));
    const res = await setIam(app, R, { policy: { version: 3, bindings } });
    expectGoogleError(res, 400, 'INVALID_ARGUMENT');
    expect(fieldViolations(res)[0].field).toBe('policy.bindings[20].members[0]');
    expect((await setIam(app, R, { policy: { version: 3, bindings: bindings.slice(0, 20) } })).status).toBe(200);
  });
});

describe('members and limits', () => {
  test('a malformed member is INVALID_ARGUMENT naming the exact member', async () => {
    const res = await setIam(app, R, {
      policy: {
        bindings: [
          { role: 'roles/viewer', members: ['user:a@example.com'] },
          { role: 'roles/editor', members: ['user:b@example.com', 'alice'] },
        ],
      },
    });
    const error = expectGoogleError(res, 400, 'INVALID_ARGUMENT');
    expect(fieldViolations(res)[0].field).toBe('policy.bindings[1].members[1]');
    expect(error.message).toContain('policy.bindings[1].members[1]');
  });

  test('a malformed role names the role', async () => {
    const res = await setIam(app, R, { policy: { bindings: [{ role: 'viewer', members: ['user:a@example.com'] }] } });
    expectGoogleError(res, 400, 'INVALID_ARGUMENT');
    expect(fieldViolations(res)[0].field).toBe('policy.bindings[0].role');
  });

  test('a role that does not apply to endpoint policies is refused, naming the binding, and nothing is written', async () => {
    for (const role of ['roles/storage.admin', 'roles/foo', 'roles/networkservices.edgeCacheAdmin']) {
      const res = await setIam(app, R, {
        policy: {
          bindings: [
            { role: 'roles/viewer', members: ['user:a@example.com'] },
            { role, members: ['user:a@example.com'] },
          ],
        },
      });
      const error = expectGoogleError(res, 400, 'INVALID_ARGUMENT');
      expect(error.message).toBe(`Role ${role} is not supported for this resource.`);
      expect(fieldViolations(res)).toEqual([{ field: 'policy.bindings[1].role', description: `Role ${role} is not supported for this resource.` }]);
    }
    expect(await history()).toEqual([]);
  });

  test('basic roles, the networkservices roles and custom roles are accepted', async () => {
    const roles = [
      'roles/owner',
      'roles/editor',
      'roles/viewer',
      'roles/networkservices.admin',
      'roles/networkservices.viewer',
      'projects/my-project/roles/epReader',
      'organizations/123456/roles/epAdmin',
    ];
    const res = await setIam(app, R, { policy: { bindings: roles.map((role) => ({ role, members: ['user:a@example.com'] })) } });
    expect(res.status).toBe(200);
    expect(res.body.bindings.map((b: { role: string }) => b.role)).toEqual(roles);
  });

  test('duplicate members after case folding are rejected, naming the repeat', async () => {
    const res = await setIam(app, R, {
      policy: { bindings: [{ role: 'roles/viewer', members: ['user:Alice@Example.com', 'user:b@example.com', 'user:alice@example.COM'] }] },
    });
    expectGoogleError(res, 400, 'INVALID_ARGUMENT');
    expect(fieldViolations(res)[0].field).toBe('policy.bindings[0].members[2]');
  });

  test('bindings with the same role and condition are merged', async () => {
    const res = await setIam(app, R, {
      policy: {
        bindings: [
          { role: 'roles/viewer', members: ['user:a@example.com'] },
          { role: 'roles/editor', members: ['user:x@example.com'] },
          { role: 'roles/viewer', members: ['user:b@example.com', 'user:A@example.com'] },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.bindings).toEqual([
      { role: 'roles/viewer', members: ['user:a@example.com', 'user:b@example.com'] },
      { role: 'roles/editor', members: ['user:x@example.com'] },
    ]);
  });

  test('more than 1500 members: the 1501st is named', async () => {
    const members = (from: number, n: number) => Array.from({ length: n }, (_, i) => `user:u${from + i}@example.com`);
    const ok = await setIam(app, R, {
      policy: {
        bindings: [
          { role: 'roles/viewer', members: members(0, 1000) },
          { role: 'roles/editor', members: members(0, 500) },
        ],
      },
    });
    expect(ok.status).toBe(200);
    const res = await setIam(app, R, {
      policy: {
        bindings: [
          { role: 'roles/viewer', members: members(0, 1000) },
          { role: 'roles/editor', members: members(0, 501) },
        ],
      },
    });
    expectGoogleError(res, 400, 'INVALID_ARGUMENT');
    expect(fieldViolations(res)[0].field).toBe('policy.bindings[1].members[500]');
  });

  test('more than 250 groups: the 251st is named', async () => {
    const groups = (n: number) => Array.from({ length: n }, (_, i) => `group:g${i}@example.com`);
    expect((await setIam(app, R, { policy: { bindings: [{ role: 'roles/viewer', members: ['user:a@example.com', ...groups(250)] }] } })).status).toBe(200);
    const res = await setIam(app, R, { policy: { bindings: [{ role: 'roles/viewer', members: ['user:a@example.com', ...groups(251)] }] } });
    expectGoogleError(res, 400, 'INVALID_ARGUMENT');
    expect(fieldViolations(res)[0].field).toBe('policy.bindings[0].members[251]');
  });

  test('wrong types name the field', async () => {
    const cases: Array<[unknown, string]> = [
      [{ policy: { bindings: 'x' } }, 'policy.bindings'],
      [{ policy: { bindings: [{ role: 'roles/viewer', members: 'user:a@example.com' }] } }, 'policy.bindings[0].members'],
      [{ policy: { version: '3' } }, 'policy.version'],
      [{}, 'policy'],
    ];
    for (const [body, field] of cases) {
      const res = await setIam(app, R, body);
      expectGoogleError(res, 400, 'INVALID_ARGUMENT');
      expect(fieldViolations(res).map((v) => v.field)).toContain(field);
    }
    // A name the request has not: Google's JSON parser refuses it (the body is the request itself: no message path).
    const unknown = await setIam(app, R, { policy: {}, extra: 1 });
    expect(expectGoogleError(unknown, 400, 'INVALID_ARGUMENT').message).toBe('Invalid JSON payload received. Unknown name "extra": Cannot find field.');
    expect(await history()).toHaveLength(0);
  });
});

describe('testIamPermissions', () => {
  test('without --auth every endpoint policy permission is held', async () => {
    const res = await call(app, 'POST', `/v1/${R}:testIamPermissions`, {
      permissions: ['networkservices.endpointPolicies.get', 'networkservices.endpointPolicies.setIamPolicy'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ permissions: ['networkservices.endpointPolicies.get', 'networkservices.endpointPolicies.setIamPolicy'] });
    expect((await call(app, 'POST', `/v1/${R}:testIamPermissions`, { permissions: [] })).body).toEqual({});
  });

  test('wildcards and permissions of other resources are INVALID_ARGUMENT', async () => {
    for (const p of ['networkservices.*', 'storage.buckets.get']) {
      const res = await call(app, 'POST', `/v1/${R}:testIamPermissions`, { permissions: ['networkservices.endpointPolicies.get', p] });
      expectGoogleError(res, 400, 'INVALID_ARGUMENT');
      expect(fieldViolations(res)[0].field).toBe('permissions[1]');
    }
  });
});

describe('resource lifecycle', () => {
  test('deleting the endpoint policy deletes its IAM policy (history keeps it)', async () => {
    const set = await setIam(app, R, { policy: { bindings: [{ role: 'roles/viewer', members: ['user:a@example.com'] }] } });
    expect((await call(app, 'DELETE', `/v1/${R}`)).status).toBe(200);
    // Gone with its resource: reading it is NOT_FOUND, as for any deleted resource.
    expectGoogleError(await getIam(app, R), 404, 'NOT_FOUND');
    const entries = await history();
    expect(entries.map((e) => [e.kind, e.etag])).toEqual([
      ['set', set.body.etag],
      ['resourceDeleted', 'ACAB'],
    ]);
    // Re-created: starts empty.
    await createPolicy(app, 'ep1');
    expect((await getIam(app, R)).body).toEqual({ etag: 'ACAB' });
  });

  test('every read answers the stored policy of the moment, at each version: after a set, a reset, a delete and a re-create', async () => {
    const viewer = { role: 'roles/networkservices.viewer', members: ['user:a@example.com'] };
    const admin = { role: 'roles/networkservices.admin', members: ['user:b@example.com'], condition: COND };
    // Each state read twice at each version (the second read may be answered from a kept text).
    const readsAs = async (v3: unknown, v1: unknown): Promise<void> => {
      for (let i = 0; i < 2; i++) {
        expect((await getIam(app, R, 3)).body).toEqual(v3);
        expect((await getIam(app, R, 1)).body).toEqual(v1);
      }
    };
    await readsAs({ etag: 'ACAB' }, { etag: 'ACAB' });
    const first = await setIam(app, R, { policy: { version: 3, bindings: [viewer, admin] } });
    const masked = { role: expect.stringMatching(/^roles\/networkservices\.admin_withcond_[0-9a-f]{20}$/), members: ['user:b@example.com'] };
    await readsAs({ version: 3, bindings: [viewer, admin], etag: first.body.etag }, { version: 1, bindings: [viewer, masked], etag: first.body.etag });
    const second = await setIam(app, R, { policy: { bindings: [viewer] } });
    expect(second.body.etag).not.toBe(first.body.etag);
    await readsAs({ version: 1, bindings: [viewer], etag: second.body.etag }, { version: 1, bindings: [viewer], etag: second.body.etag });

    // A reset empties the store: the endpoint policy is gone, then re-created with a new policy.
    expect((await call(app, 'POST', '/emulator/v1/reset')).status).toBe(200);
    expectGoogleError(await getIam(app, R, 3), 404, 'NOT_FOUND');
    await createPolicy(app, 'ep1');
    await readsAs({ etag: 'ACAB' }, { etag: 'ACAB' });
    const third = await setIam(app, R, { policy: { bindings: [admin] } });
    expect(third.status).toBe(400); // a condition needs version 3
    const fourth = await setIam(app, R, { policy: { version: 3, bindings: [{ role: 'roles/networkservices.admin', members: ['user:c@example.com'] }] } });
    await readsAs(
      { version: 1, bindings: [{ role: 'roles/networkservices.admin', members: ['user:c@example.com'] }], etag: fourth.body.etag },
      { version: 1, bindings: [{ role: 'roles/networkservices.admin', members: ['user:c@example.com'] }], etag: fourth.body.etag },
    );

    expect((await call(app, 'DELETE', `/v1/${R}`)).status).toBe(200);
    expectGoogleError(await getIam(app, R, 3), 404, 'NOT_FOUND');
    await createPolicy(app, 'ep1');
    await readsAs({ etag: 'ACAB' }, { etag: 'ACAB' });
  });

  test("a read's answer is JSON as every other answer: its content type, request id and nosniff headers", async () => {
    await setIam(app, R, { policy: { bindings: [{ role: 'roles/viewer', members: ['user:a@example.com'] }] } });
    for (let i = 0; i < 2; i++) {
      const res = await getIam(app, R, 3, { 'x-request-id': `read-${i}` });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['x-request-id']).toBe(`read-${i}`);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.raw)));
    }
  });

  test('IAM on an endpoint policy that does not exist: get and set are 404 with ResourceInfo, nothing is stored; test grants nothing', async () => {
    const missing = policyName('nope');
    for (const res of [
      await getIam(app, missing, 3),
      await setIam(app, missing, { policy: { bindings: [{ role: 'roles/viewer', members: ['user:a@example.com'] }] } }),
      // The existence check comes before the request's validation: an invalid body is NOT_FOUND too.
      await setIam(app, missing, { policy: { bindings: [{ role: 'roles/viewer', members: ['nobody'] }] }, updateMask: 'nonsense' }),
    ]) {
      const error = expectGoogleError(res, 404, 'NOT_FOUND');
      expect(error.details).toEqual([
        expect.objectContaining({
          '@type': 'type.googleapis.com/google.rpc.ResourceInfo',
          resourceType: 'networkservices.googleapis.com/EndpointPolicy',
          resourceName: missing,
        }),
      ]);
    }
    expect(await history(missing)).toEqual([]);
    const tested = await call(app, 'POST', `/v1/${missing}:testIamPermissions`, { permissions: ['networkservices.endpointPolicies.get'] });
    expect(tested.status).toBe(200);
    expect(tested.body.permissions ?? []).toEqual([]);
    // Created afterwards, it starts with an empty policy: the refused set left nothing behind.
    await createPolicy(app, 'nope');
    expect((await getIam(app, missing)).body).toEqual({ etag: 'ACAB' });
  });

  test('--strict-references no longer changes IAM: 404 with or without it', async () => {
    const strict = newApp({ strictReferences: true });
    try {
      expectGoogleError(await getIam(strict, policyName('nope')), 404, 'NOT_FOUND');
      expect((await createPolicy(strict, 'ep1')).status).toBe(200);
      expect((await getIam(strict, R)).body).toEqual({ etag: 'ACAB' });
    } finally {
      await strict.close();
    }
  });

  test('endpoint policies exist in locations/global only: every method elsewhere is INVALID_ARGUMENT', async () => {
    const other = 'projects/p1/locations/us-central1';
    const name = `${other}/endpointPolicies/ep1`;
    const cases: Array<[Promise<any>, string]> = [
      [createPolicy(app, 'ep1', undefined, other), 'parent'],
      [call(app, 'GET', `/v1/${other}/endpointPolicies`), 'parent'],
      [call(app, 'GET', `/v1/${name}`), 'name'],
      [call(app, 'PATCH', `/v1/${name}?updateMask=description`, { description: 'x' }), 'name'],
      [call(app, 'DELETE', `/v1/${name}`), 'name'],
      [getIam(app, name), 'name'],
      [setIam(app, name, { policy: { bindings: [] } }), 'name'],
      [call(app, 'POST', `/v1/${name}:testIamPermissions`, { permissions: [] }), 'name'],
    ];
    for (const [pending, field] of cases) {
      const res = await pending;
      expectGoogleError(res, 400, 'INVALID_ARGUMENT');
      expect(fieldViolations(res)).toEqual([{ field, description: expect.stringContaining("only in location 'global'") }]);
    }
  });

  test('an unknown custom verb is 404', async () => {
    expectGoogleError(await call(app, 'GET', `/v1/${R}:getFoo`), 404, 'NOT_FOUND');
    expectGoogleError(await call(app, 'POST', `/v1/${R}:getIamPolicy`, {}), 404, 'NOT_FOUND');
    expectGoogleError(await call(app, 'DELETE', `/v1/${R}:setIamPolicy`), 404, 'NOT_FOUND');
  });

  test('an encoded colon (%3A) reaches the same verb', async () => {
    const res = await call(app, 'GET', `/v1/${R}%3AgetIamPolicy`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ etag: 'ACAB' });
  });
});
