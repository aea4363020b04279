/**
 * Google's current Network Services v1 no longer lists IAM methods on endpoint policies (issue 24):
 * its front end answers such a path with a 404 page that is not a google.rpc.Status. The binding's
 * provider says so, and what to do, instead of "the endpoint policy does not exist". A local HTTP
 * server plays Google's front end here (no Google project in this environment).
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import { ENDPOINT_ENV, resetBackendCache } from '../../provider/backends';
import { create, read } from '../../provider/iam-binding-impl';

const NAME = 'projects/p1/locations/global/endpointPolicies/ep';
let server: http.Server;
const requests: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    // What Google's front end sends for a URL it has no method for.
    res.writeHead(404, { 'content-type': 'text/html; charset=UTF-8' });
    res.end(
      '<!DOCTYPE html><html lang=en><title>Error 404 (Not Found)!!1</title><p><b>404.</b> That’s an error.<p>The requested URL was not found on this server.',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env[ENDPOINT_ENV] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  resetBackendCache();
});
afterAll(async () => {
  delete process.env[ENDPOINT_ENV];
  resetBackendCache();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

test('create and read fail saying Google no longer serves IAM on endpoint policies, not that the policy is missing', async () => {
  const inputs = { name: NAME, role: 'roles/viewer', members: ['user:alice@example.com'] };
  await expect(create(inputs)).rejects.toThrow(/no longer offers IAM policies on endpoint policies/);
  await expect(create(inputs)).rejects.not.toThrow(/does not exist/);
  await expect(read(`${NAME}/roles/viewer`, { ...inputs, etag: 'ACAB', project: 'p1' })).rejects.toThrow(/Grant the role on the project instead/);
  expect(requests.every((r) => r.startsWith(`GET /v1/${NAME}:getIamPolicy`))).toBe(true);
});
