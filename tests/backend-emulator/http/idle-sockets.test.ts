/**
 * A connection that makes no progress for idleSocketTimeoutMs is closed: before, a client that asked
 * for a large answer and never read it held the answer in the emulator's memory for good (200 such
 * clients of a 9.6 MB IAM history: 2.1 GB), and a request whose headers stopped half-way held its
 * socket for 60 to 90 s. Over a real socket, with the limit shortened to half a second.
 */
import * as net from 'net';
import { startEmulator, type RunningEmulator } from '../../../backend-emulator';

const POLICY = 'projects/p1/locations/global/endpointPolicies/web';
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent', idleSocketTimeoutMs: 500 });
  // Written through inject(): no socket of the test's own stays open beside the ones under test.
  const created = await emulator.app.inject({
    method: 'POST',
    url: '/v1/projects/p1/locations/global/endpointPolicies?endpointPolicyId=web',
    payload: {
      type: 'SIDECAR_PROXY',
      endpointMatcher: { metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY', metadataLabels: [{ labelName: 'a', labelValue: 'b' }] } },
    },
  });
  expect(created.statusCode).toBe(200);
  // An IAM history of about 8 MB, more than the sockets' buffers hold: 40 writes of 1,500 members of about 130 characters.
  for (let i = 0; i < 40; i++) {
    const members = Array.from({ length: 1500 }, (_, j) => `user:m${i}-${j}-${'x'.repeat(110)}@example.com`);
    const set = await emulator.app.inject({
      method: 'POST',
      url: `/v1/${POLICY}:setIamPolicy`,
      payload: { policy: { bindings: [{ role: 'roles/viewer', members }] } },
    });
    expect(set.statusCode).toBe(200);
  }
}, 120_000);
afterAll(async () => {
  await emulator.close();
});

/** How many connections the emulator holds. */
function connections(): Promise<number> {
  return new Promise((resolve, reject) => emulator.app.server.getConnections((err, count) => (err ? reject(err) : resolve(count))));
}

/** Polls until the emulator holds no connection, for at most `waitMs`; whether it came to none. */
async function noConnectionWithin(waitMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    if ((await connections()) === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

test('a client that asks for a large answer and never reads it is disconnected', async () => {
  const socket = net.connect(emulator.port, '127.0.0.1');
  socket.on('error', () => undefined); // the reset the emulator's close may cause
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.pause();
  socket.write(`GET /emulator/v1/iamHistory?resource=${POLICY} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
  try {
    expect(await connections()).toBe(1);
    expect(await noConnectionWithin()).toBe(true);
  } finally {
    socket.destroy();
  }
});

test('a request whose headers stop half-way is closed', async () => {
  const socket = net.connect(emulator.port, '127.0.0.1', () => socket.write('GET /healthz HTTP/1.1\r\nHost: loc'));
  socket.on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  try {
    expect(await noConnectionWithin()).toBe(true);
  } finally {
    socket.destroy();
  }
});

test('a client that reads its large answer gets all of it', async () => {
  const res = await fetch(`${emulator.url}/emulator/v1/iamHistory?resource=${POLICY}`);
  expect(res.status).toBe(200);
  expect(((await res.json()) as { entries: unknown[] }).entries).toHaveLength(40);
});
