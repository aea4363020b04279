/**
 * A body nested deeper than 100 levels of objects and lists is refused before it is parsed
 * (http/json-body.ts, by the scan of http/json-duplicates.ts), as Google's parser stops at 100
 * levels of messages; a fault earlier in the text (a duplicate key) is named first. Before, JSON.parse read
 * any depth and what came after recursed: a heartbeat whose error `details` (an Any, open to any
 * JSON) nested 200,000 lists was stored, and every get and list of discovery clients answered 500
 * from then on; an asset frame of disk partitions nested 15,000 deep (a shape Google's message
 * has: a partition's subPartitions) overflowed the front end's walk of the names (500).
 */
import type { FastifyInstance } from 'fastify';
import { scanJsonText } from '../../../backend-emulator/http/json-duplicates';
import { BASE, call, ensureSource, googleError, newApp, ok, SOURCE } from '../../support/migrationcenter';

const DEPTH_MESSAGE = 'Invalid JSON payload received. The body nests objects and lists deeper than 100 levels.';
const lists = (n: number) => '['.repeat(n) + ']'.repeat(n);

describe('scanJsonText', () => {
  test.each([
    ['{}', 1, undefined],
    ['{}', 0, 'tooDeep'],
    ['{"a":[{}]}', 3, undefined],
    ['{"a":[{}]}', 2, 'tooDeep'],
    // Brackets inside strings (and escaped quotes) are text.
    ['{"a":"[[[[{{{{\\"[[[["}', 1, undefined],
    ['[[],[],[[]]]', 3, undefined],
    ['[[],[],[[]]]', 2, 'tooDeep'],
    // The first fault in the text's order.
    ['{"a":1,"a":2,"b":[[[]]]}', 2, 'duplicate'],
    ['{"b":[[[]]],"a":1,"a":2}', 2, 'tooDeep'],
  ])('%s within %d levels: %s', (text, limit, fault) => {
    expect(scanJsonText(text, limit)?.kind).toBe(fault);
  });
});

describe('over the wire', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = newApp();
    await ensureSource(app);
  });
  afterAll(() => app.close());

  test('100 levels are read (and refused by the field’s own rule); 101 are refused for their depth', async () => {
    // The body is level 1, so 99 lists make 100 levels and 100 lists 101.
    const at100 = googleError(await call(app, 'POST', `${BASE}/sources?sourceId=s`, `{"displayName":${lists(99)}}`), 400, 'INVALID_ARGUMENT');
    expect(at100.message).toBe("Invalid value for field 'displayName': must be of type string, not a list");
    const at101 = googleError(await call(app, 'POST', `${BASE}/sources?sourceId=s`, `{"displayName":${lists(100)}}`), 400, 'INVALID_ARGUMENT');
    expect(at101.message).toBe(DEPTH_MESSAGE);
  });

  test("a heartbeat's error details nested 200,000 deep are refused; the discovery clients still list", async () => {
    ok(
      await call(app, 'POST', `${BASE}/discoveryClients?discoveryClientId=dc`, {
        source: SOURCE,
        serviceAccount: 'c@p1.iam.gserviceaccount.com',
        ttl: '3600s',
      }),
    );
    const body = `{"version":"1","errors":[{"code":1,"details":[{"@type":"x","v":${lists(200_000)}}]}]}`;
    expect(googleError(await call(app, 'POST', `${BASE}/discoveryClients/dc:sendHeartbeat`, body), 400, 'INVALID_ARGUMENT').message).toBe(DEPTH_MESSAGE);
    expect(ok(await call(app, 'GET', `${BASE}/discoveryClients`)).discoveryClients).toHaveLength(1);
  });

  test("a frame's disk partitions nested 15,000 deep (subPartitions) are refused, not a 500", async () => {
    const partitions = '{"entries":[{"subPartitions":'.repeat(15_000) + '{}' + '}]}'.repeat(15_000);
    const frame = `{"virtualMachineDetails":{"vmUuid":"u","vmDisks":{"disks":{"entries":[{"partitions":${partitions}}]}}}}`;
    const res = await call(app, 'POST', `${BASE}/assets:reportAssetFrames?source=${encodeURIComponent(SOURCE)}`, `{"framesData":[${frame}]}`);
    expect(googleError(res, 400, 'INVALID_ARGUMENT').message).toBe(DEPTH_MESSAGE);
  });
});
