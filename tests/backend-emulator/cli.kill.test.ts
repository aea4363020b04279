/**
 * The compiled CLI killed while it works: graceful SIGTERM with a request under way, and every
 * acknowledged write surviving kill -9. Kill tests: run by `npm test`, left out of `test:quick`.
 */
import { http } from '../../support/cli-process';
import { tempDir } from '../../support/temp-dir';
import { cliStarterOfThisFile } from '../support/cli-processes';
import { MATCHER, PARENT, policyName } from '../support/networkservices';

jest.setTimeout(60_000);

const start = cliStarterOfThisFile();

describe('kill -9', () => {
  test('every acknowledged write survives kill -9 (writes still in flight when killed)', async () => {
    const dir = tempDir();
    const p = await start(['--port', '0', '--data-dir', dir]);
    const acked: Array<{ resource: string; etag: string; member: string }> = [];
    const createdIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await http(`${p.url}/v1/${PARENT}/endpointPolicies?endpointPolicyId=dur-${i}`, 'POST', { type: 'SIDECAR_PROXY', endpointMatcher: MATCHER });
      expect(res.status).toBe(200);
      createdIds.push(`dur-${i}`);
    }
    // Many concurrent IAM writes; kill -9 once some are acknowledged, while others are in flight.
    let killed = false;
    const writes = Array.from({ length: 200 }, async (_, i) => {
      const resource = policyName(`dur-${i % 5}`);
      const member = `user:w${i}@example.com`;
      try {
        const res = await http(`${p.url}/v1/${resource}:setIamPolicy`, 'POST', { policy: { bindings: [{ role: 'roles/viewer', members: [member] }] } });
        if (res.status === 200) acked.push({ resource, etag: res.body.etag, member });
        if (acked.length >= 60 && !killed) {
          killed = true;
          p.child.kill('SIGKILL');
        }
      } catch {
        /* connection reset by the kill: not acknowledged */
      }
    });
    await Promise.all(writes);
    const exit = await p.exited;
    expect(exit.signal).toBe('SIGKILL');
    expect(acked.length).toBeGreaterThanOrEqual(60);

    // A stale lock file from the dead process must not block the restart.
    const again = await start(['--port', '0', '--data-dir', dir]);
    for (const id of createdIds) expect((await http(`${again.url}/v1/${policyName(id)}`, 'GET')).status).toBe(200);
    const histories = new Map<string, Array<{ etag: string; policy: { bindings?: Array<{ members: string[] }> } }>>();
    for (let i = 0; i < 5; i++) {
      const resource = policyName(`dur-${i}`);
      histories.set(resource, (await http(`${again.url}/emulator/v1/iamHistory?resource=${encodeURIComponent(resource)}`, 'GET')).body.entries);
    }
    for (const w of acked) {
      const entry = histories.get(w.resource)!.find((e) => e.etag === w.etag);
      expect(entry).toBeDefined();
      expect(entry!.policy.bindings![0].members).toEqual([w.member]);
    }
    // The current policy of each resource is its last history entry.
    for (const [resource, entries] of histories) {
      if (entries.length === 0) continue;
      const current = (await http(`${again.url}/v1/${resource}:getIamPolicy`, 'GET')).body;
      expect(current.etag).toBe(entries[entries.length - 1].etag);
    }
  });
});

describe('shutdown', () => {
  test('SIGTERM lets a request already under way finish, then exits 0 with the write stored', async () => {
    const dir = tempDir();
    const p = await start(['--port', '0', '--data-dir', dir]);
    const { request } = await import('http');
    const body = JSON.stringify({ policy: { bindings: [{ role: 'roles/viewer', members: ['user:late@example.com'] }] } });
    const resource = policyName('inflight');
    expect(
      (await http(`${p.url}/v1/${PARENT}/endpointPolicies?endpointPolicyId=inflight`, 'POST', { type: 'SIDECAR_PROXY', endpointMatcher: MATCHER })).status,
    ).toBe(200);
    const url = new URL(`${p.url}/v1/${resource}:setIamPolicy`);
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10)); // headers and part of the body: the request is under way
      setTimeout(() => {
        p.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 200);
    });
    const res = await response;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text).bindings[0].members).toEqual(['user:late@example.com']);
    expect((await p.exited).code).toBe(0);

    const again = await start(['--port', '0', '--data-dir', dir]);
    const hist = await http(`${again.url}/emulator/v1/iamHistory?resource=${encodeURIComponent(resource)}`, 'GET');
    expect(hist.body.entries).toHaveLength(1);
  });
});
