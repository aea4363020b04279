/**
 * A refusal answered before the request's body arrived closes the connection: kept open, Node
 * reads and drops the rest of the body for as long as the client sends it (fastify sets no request
 * time limit), so a client without a token held a socket for good by trickling a declared body.
 * Over a real socket: app.inject() has none.
 */
import * as net from 'net';
import { startEmulator, type RunningEmulator } from '../../../backend-emulator';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    inMemory: true,
    logLevel: 'silent',
    auth: { tokens: { 'tok-alice': 'user:alice@example.com' }, adminTokens: ['tok-admin'] },
  });
});
afterAll(async () => {
  await emulator.close();
});

interface Exchange {
  /** Everything the server sent. */
  answer: string;
  /** Whether the server closed the connection within the wait. */
  closed: boolean;
}

/**
 * Sends `head` (and `body`), waits for an answer, then up to `waitMs` for the server to close the
 * connection; the socket is destroyed at the end either way.
 */
function exchange(head: string, body = '', waitMs = 10_000): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(emulator.port, '127.0.0.1');
    let answer = '';
    let timer: NodeJS.Timeout | undefined;
    const finish = (closed: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ answer, closed });
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
      // The answer is in: from now on, only the server's close is awaited, for at most waitMs.
      if (timer === undefined && answer.includes('\r\n\r\n')) timer = setTimeout(() => finish(false), waitMs);
    });
    socket.on('close', () => finish(true));
    socket.on('error', reject);
    socket.write(head + body);
  });
}

const statusLine = (answer: string): string => answer.split('\r\n')[0];

test('a request without a token, whose declared body has not arrived, is answered 401 and its connection closed', async () => {
  // 100,000 bytes declared, 10 sent: the client could trickle the rest for ever.
  const head =
    'POST /v1/projects/p1/locations/global/endpointPolicies?endpointPolicyId=web HTTP/1.1\r\nHost: localhost\r\n' +
    'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n';
  const { answer, closed } = await exchange(head, '{"type": "');
  expect(statusLine(answer)).toBe('HTTP/1.1 401 Unauthorized');
  expect(answer.toLowerCase()).toContain('\r\nconnection: close\r\n');
  expect(closed).toBe(true);
});

test('a signed upload URL with a bad signature, its body not sent, is answered and closed likewise', async () => {
  const head = 'PUT /emulator/v1/uploads/x?expires=1&signature=x HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\n';
  const { answer, closed } = await exchange(head, 'MachineId\n');
  expect(statusLine(answer)).toMatch(/^HTTP\/1\.1 4\d\d /);
  expect(closed).toBe(true);
});

test('a refusal of a request received whole keeps the connection: a second request on it is answered', async () => {
  // Two GETs pipelined on one connection; the first is refused (no token), the second is the health check.
  const head = 'GET /v1/projects/p1/locations/global/endpointPolicies HTTP/1.1\r\nHost: localhost\r\n\r\nGET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n';
  const { answer } = await exchange(head, '', 1_000);
  const statuses = answer.match(/HTTP\/1\.1 \d{3} [^\r]*/g);
  expect(statuses).toEqual(['HTTP/1.1 401 Unauthorized', 'HTTP/1.1 200 OK']);
  expect(answer).not.toMatch(/connection: close/i);
});
