/**
 * The per-request logger is made lazily (`requestLoggerFactory`): a request that writes nothing
 * makes no pino child, and every line a request does write still carries its `reqId` and passes
 * the redaction rules.
 */
import { PassThrough } from 'stream';
import type { Logger } from 'pino';
import { buildEmulatorApp } from '../../backend-emulator/app';
import { createLogger, requestLoggerFactory } from '../../backend-emulator/logging';

function capture(level: 'warn' | 'debug' | 'info'): { logger: Logger; lines: () => Array<Record<string, unknown>> } {
  const stream = new PassThrough();
  const chunks: string[] = [];
  stream.on('data', (d: Buffer) => chunks.push(d.toString()));
  return {
    logger: createLogger({ level, stream }),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

test('a request logger that writes below the level makes no child and writes nothing', () => {
  const { logger, lines } = capture('warn');
  const child = jest.spyOn(logger, 'child');
  const log = requestLoggerFactory(logger, { reqId: 'r-1' }, {});
  log.info('not written');
  log.debug({ a: 1 }, 'not written either');
  expect(log.isLevelEnabled('info')).toBe(false);
  expect(log.level).toBe('warn');
  expect(child).not.toHaveBeenCalled();
  expect(lines()).toEqual([]);
});

test('a line at an enabled level carries reqId, once the child is made, and is redacted', () => {
  const { logger, lines } = capture('warn');
  const child = jest.spyOn(logger, 'child');
  const log = requestLoggerFactory(logger, { reqId: 'r-2' }, {});
  log.warn({ headers: { authorization: 'Bearer secret-token' } }, 'first');
  log.error('second');
  expect(child).toHaveBeenCalledTimes(1);
  const written = lines();
  expect(written.map((l) => [l.msg, l.reqId])).toEqual([
    ['first', 'r-2'],
    ['second', 'r-2'],
  ]);
  expect(written[0].headers).toEqual({ authorization: '[REDACTED]' });
  expect(JSON.stringify(written)).not.toContain('secret-token');
  expect(log.bindings()).toMatchObject({ reqId: 'r-2' });
});

test('a route level or serializers get a real child at once', () => {
  const { logger } = capture('warn');
  const child = jest.spyOn(logger, 'child');
  const log = requestLoggerFactory(logger, { reqId: 'r-3' }, { level: 'debug' });
  expect(child).toHaveBeenCalledTimes(1);
  expect(log.isLevelEnabled('debug')).toBe(true);
});

test('through the app: lines written by request.log at debug carry the request id', async () => {
  const { logger, lines } = capture('debug');
  const app = buildEmulatorApp({ inMemory: true, logger });
  try {
    const res = await app.inject({
      method: 'GET',
      url: '/v1/projects/p/locations/global/endpointPolicies/missing?access_token=tok-secret',
      headers: { 'x-request-id': 'lazy-1' },
    });
    expect(res.statusCode).toBe(404);
    const mine = lines().filter((l) => l.reqId === 'lazy-1');
    // The error handler's debug line and the onResponse line, both with the id.
    expect(mine.map((l) => l.msg)).toEqual(['request rejected', 'request']);
    expect(mine[1]).toMatchObject({ statusCode: 404, url: '/v1/projects/p/locations/global/endpointPolicies/missing?access_token=[REDACTED]' });
    expect(JSON.stringify(lines())).not.toContain('tok-secret');
  } finally {
    await app.close();
  }
});
