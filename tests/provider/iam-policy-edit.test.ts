import { bindingId, parseBindingId, withBinding, withoutBinding, findBinding, normalizeMembers } from '../../provider/iam-policy-edit';
import { retryOnConflict } from '../../provider/retry';
import { withKeyLock } from '../../provider/keyed-mutex';
import { diff as bindingDiff, check as bindingCheck } from '../../provider/iam-binding-impl';
import { diff as jobDiff, check as jobCheck } from '../../provider/import-job-impl';

const NAME = 'projects/p1/locations/global/endpointPolicies/ep';
const cond = { title: 'until 2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' };

describe('iam_binding edits', () => {
  it('sets one key authoritatively and leaves the other bindings alone', () => {
    const policy = {
      etag: 'BwX',
      bindings: [
        { role: 'roles/viewer', members: ['user:a@x.com'] },
        { role: 'roles/viewer', members: ['user:c@x.com'], condition: cond },
        { role: 'roles/editor', members: ['user:b@x.com'] },
      ],
    };
    const next = withBinding(policy, { role: 'roles/viewer', members: ['user:Z@x.com', 'user:y@x.com'] });
    expect(next.version).toBe(3);
    expect(findBinding(next, 'roles/viewer')?.members).toEqual(['user:y@x.com', 'user:z@x.com']);
    expect(findBinding(next, 'roles/viewer', cond)?.members).toEqual(['user:c@x.com']);
    expect(findBinding(next, 'roles/editor')?.members).toEqual(['user:b@x.com']);
    const removed = withoutBinding(next, 'roles/viewer', cond);
    expect(removed.bindings?.map((b) => b.role).sort()).toEqual(['roles/editor', 'roles/viewer']);
    expect(findBinding(removed, 'roles/viewer', cond)).toBeUndefined();
  });

  it('folds member case and removes repeats', () => {
    expect(normalizeMembers(['user:B@X.com', 'user:b@x.com', 'group:A@x.com'])).toEqual(['group:a@x.com', 'user:b@x.com']);
  });

  it('builds and parses ids, with roles of every form and condition titles', () => {
    for (const role of ['roles/viewer', 'projects/p1/roles/custom', 'organizations/12/roles/x.y']) {
      expect(parseBindingId(bindingId(NAME, role))).toEqual({ name: NAME, role });
      expect(parseBindingId(bindingId(NAME, role, cond))).toEqual({ name: NAME, role, conditionTitle: 'until 2030' });
    }
    expect(() => parseBindingId('projects/p1/roles/viewer')).toThrow(/not an EndpointPolicyIamBinding id/);
  });
});

describe('retryOnConflict', () => {
  it('retries ABORTED cycles and gives other errors back at once', async () => {
    let calls = 0;
    const result = await retryOnConflict(
      async () => {
        calls++;
        if (calls < 3) throw Object.assign(new Error('conflict'), { status: 'ABORTED', httpCode: 409 });
        return 'ok';
      },
      { sleep: async () => undefined },
    );
    expect([result, calls]).toEqual(['ok', 3]);
    let other = 0;
    await expect(
      retryOnConflict(async () => {
        other++;
        throw Object.assign(new Error('nope'), { status: 'INVALID_ARGUMENT', httpCode: 400 });
      }),
    ).rejects.toThrow('nope');
    expect(other).toBe(1);
  });

  it('stops at the deadline', async () => {
    await expect(
      retryOnConflict(
        async () => {
          throw Object.assign(new Error('still conflicting'), { httpCode: 412 });
        },
        { deadlineMs: 0, sleep: async () => undefined },
      ),
    ).rejects.toThrow('still conflicting');
  });
});

describe('withKeyLock', () => {
  it('runs work on one key one at a time, in order, and other keys in parallel', async () => {
    const events: string[] = [];
    const step = (key: string, id: number, ms: number) =>
      withKeyLock(key, async () => {
        events.push(`start ${key}${id}`);
        await new Promise((r) => setTimeout(r, ms));
        events.push(`end ${key}${id}`);
      });
    await Promise.all([step('a', 1, 20), step('a', 2, 1), step('b', 1, 5)]);
    expect(events.indexOf('end a1')).toBeLessThan(events.indexOf('start a2'));
    expect(events.indexOf('start b1')).toBeLessThan(events.indexOf('end a1'));
  });
});

describe('binding check and diff', () => {
  it('normalises members and reports failures by property', () => {
    const ok = bindingCheck({}, { name: NAME, role: 'roles/viewer', members: ['user:B@x.com', 'user:a@x.com'] });
    expect(ok.failures).toEqual([]);
    expect(ok.inputs.members).toEqual(['user:a@x.com', 'user:b@x.com']);
    const bad = bindingCheck({}, { name: NAME, role: 'viewer', members: ['user:a@x.com', 'user:A@x.com'], condition: { title: 't', expression: '1 +' } });
    expect(bad.failures?.map((f) => f.property)).toEqual(['role', 'members[1]', 'condition.expression']);
  });

  it('does not fail values that are unknown during preview', () => {
    const unknown = '04da6b54-80e4-46f7-96ec-b56ff0331ba9';
    expect(bindingCheck({}, { name: unknown, role: 'roles/viewer', members: [unknown] }).failures).toEqual([]);
  });

  it('replaces on name, role or condition; updates members in place', () => {
    const olds = { name: NAME, role: 'roles/viewer', members: ['user:a@x.com'], etag: 'e', project: 'p1' };
    expect(bindingDiff('id', olds, { ...olds, members: ['user:A@x.com'] })).toMatchObject({ changes: false, replaces: [] });
    expect(bindingDiff('id', olds, { ...olds, members: ['user:b@x.com'] })).toMatchObject({ changes: true, replaces: [] });
    expect(bindingDiff('id', olds, { ...olds, role: 'roles/editor' })).toMatchObject({ changes: true, replaces: ['role'], deleteBeforeReplace: false });
    expect(bindingDiff('id', olds, { ...olds, condition: cond })).toMatchObject({ replaces: ['condition'], deleteBeforeReplace: false });
    // Same key after the change (condition.location is not part of it): the old one must go first.
    const withCond = { ...olds, condition: cond };
    expect(bindingDiff('id', withCond, { ...withCond, condition: { ...cond, location: 'main.ts:3' } })).toMatchObject({
      replaces: ['condition'],
      deleteBeforeReplace: true,
    });
  });
});

describe('import job check and diff', () => {
  const data = Buffer.from('MachineId\nm1\n').toString('base64');
  const inline = { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data }] };
  const SOURCE = 'projects/my-project/locations/global/sources/s1';

  it('fills project and location defaults and sends the wire spelling', async () => {
    process.env.GOOGLE_CLOUD_PROJECT = 'env-project';
    const r = await jobCheck(
      {},
      { importJobId: 'job-1', assetSource: SOURCE, storagePayload: { format: 'IMPORT_JOB_FORMAT_VMTOOL_XLSX', path: 'gs://bkt/x.xlsx' } },
    );
    expect(r.failures).toEqual([]);
    // The reference's names are arguments only: what the provider sends is Google's wire spelling.
    expect(r.inputs).toEqual({
      importJobId: 'job-1',
      project: 'env-project',
      location: 'global',
      assetSource: SOURCE,
      gcsPayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX', path: 'gs://bkt/x.xlsx' },
      // Known at preview time: the name follows from project, location and id.
      name: 'projects/env-project/locations/global/importJobs/job-1',
    });
    const inlineNeutral = await jobCheck(
      {},
      { importJobId: 'job-1', assetSource: SOURCE, inlinePayload: { ...inline, format: 'IMPORT_JOB_FORMAT_EXPORTED_CLOUDB_CSV' } },
    );
    expect(inlineNeutral.failures).toEqual([]);
    expect(inlineNeutral.inputs.inlinePayload.format).toBe('IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV');
    expect(JSON.stringify(inlineNeutral.inputs)).not.toMatch(/storagePayload|VMTOOL|CLOUDA|CLOUDB/);
  });

  it('preview (check) fails without assetSource, naming it; an assetSource not known yet (a Source created in the same update) passes', async () => {
    const r = await jobCheck({}, { importJobId: 'job-1', project: 'my-project', inlinePayload: inline });
    expect(r.failures).toEqual([{ property: 'assetSource', reason: 'is required' }]);
    const unknown = '04da6b54-80e4-46f7-96ec-b56ff0331ba9';
    expect((await jobCheck({}, { importJobId: 'job-1', project: 'my-project', assetSource: unknown, inlinePayload: inline })).failures).toEqual([]);
  });

  it('accepts a job without a payload (it is created, and takes data files later)', async () => {
    expect((await jobCheck({}, { importJobId: 'job-1', project: 'my-project', assetSource: SOURCE })).failures).toEqual([]);
  });

  it('names the failing property', async () => {
    const r = await jobCheck({}, { importJobId: 'Job', project: 'my-project', assetSource: SOURCE, displayName: 'x'.repeat(64), inlinePayload: inline });
    expect(r.failures?.map((f) => f.property)).toEqual(['importJobId', 'displayName']);
  });

  it('replaces on id, place, source or payload; updates displayName and labels in place', () => {
    const olds = { importJobId: 'j', project: 'p1', location: 'global', inlinePayload: inline, displayName: 'a' };
    expect(jobDiff('id', olds, { ...olds, displayName: 'b', labels: { env: 'x' } })).toMatchObject({ changes: true, replaces: [] });
    expect(jobDiff('id', olds, { ...olds })).toMatchObject({ changes: false, replaces: [] });
    expect(jobDiff('id', olds, { ...olds, importJobId: 'k' })).toMatchObject({ replaces: ['importJobId'], deleteBeforeReplace: false });
    expect(jobDiff('id', olds, { ...olds, inlinePayload: { ...inline, format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV' } })).toMatchObject({
      replaces: ['inlinePayload'],
      deleteBeforeReplace: true,
    });
  });
});
