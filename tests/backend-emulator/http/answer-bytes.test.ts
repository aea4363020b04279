/**
 * The buffer kept for large answers' bytes (http/answer-bytes.ts): lent to one answer at a time,
 * given back by the front end once the answer is sent, and then written by the next large answer.
 */
import type { FastifyInstance } from 'fastify';
import * as answerBytesModule from '../../../backend-emulator/http/answer-bytes';
import { answerBytes } from '../../../backend-emulator/http/answer-bytes';
import { migrationCenterOf } from '../../../backend-emulator/migrationcenter/routes';
import { BASE, PARENT, call, newApp, ok } from '../../support/migrationcenter';
import { sharedApp } from '../../support/app';

describe('answerBytes', () => {
  it('lends the kept buffer again once it is given back, for an answer of any length it holds', () => {
    const first = answerBytes(200_000);
    expect(first.bytes.length).toBe(200_000);
    first.release!();
    const second = answerBytes(150_000);
    expect(second.bytes.length).toBe(150_000);
    expect(second.bytes.buffer).toBe(first.bytes.buffer);
    second.release!();
  });

  it('never lends one buffer to two answers: while it is lent, and after a second release', () => {
    const lent = answerBytes(100_000);
    const other = answerBytes(100_000);
    expect(other.bytes.buffer).not.toBe(lent.bytes.buffer);
    lent.release!();
    lent.release!();
    const a = answerBytes(100_000);
    const b = answerBytes(100_000);
    expect(b.bytes.buffer).not.toBe(a.bytes.buffer);
    for (const answer of [other, a, b]) answer.release!();
  });

  it('gives an answer longer than the kept buffer a larger one, kept from then on', () => {
    const small = answerBytes(70_000);
    small.release!();
    const large = answerBytes(300_000);
    expect(large.bytes.length).toBe(300_000);
    large.release!();
    expect(answerBytes(250_000).bytes.buffer).toBe(large.bytes.buffer);
  });

  it('gives small answers and answers over 1 MiB bytes of their own, with nothing to give back', () => {
    for (const length of [2, 1000, 64 * 1024 - 1, (1 << 20) + 1]) {
      const answer = answerBytes(length);
      expect([length, answer.bytes.length, answer.release]).toEqual([length, length, undefined]);
    }
  });
});

describe('the front end gives the kept buffer back once the answer is sent', () => {
  let app: FastifyInstance;
  const sharedAppOfBlock = sharedApp(() => newApp());
  beforeEach(async () => {
    app = sharedAppOfBlock();
    await app.ready();
    const assets = migrationCenterOf(app.emulator)!.assets;
    const machines = Array.from({ length: 400 }, (_, i) => ({
      machineId: `m-${i}`,
      attributes: {},
      labels: { env: 'prod' },
      virtualMachineDetails: { vmUuid: `m-${i}`, vmName: `vm-${i}` },
    }));
    app.emulator.store.transaction(() => assets.upsert(PARENT, `${PARENT}/sources/s1`, machines));
  });

  it('releases a large batchUpdate answer once, and the next answer is whole and its own', async () => {
    const releases: number[] = [];
    const lend = answerBytesModule.answerBytes;
    const spy = jest.spyOn(answerBytesModule, 'answerBytes').mockImplementation((length) => {
      const answer = lend(length);
      const release = answer.release;
      const at = releases.push(0) - 1;
      return { bytes: answer.bytes, release: release && (() => ((releases[at] += 1), release())) };
    });
    try {
      const update = (run: number) => ({
        requests: Array.from({ length: 400 }, (_, i) => ({ asset: { name: `${PARENT}/assets/vm-m-${i}`, labels: { run: `r${run}` } }, updateMask: 'labels' })),
      });
      const first = ok(await call(app, 'POST', `${BASE}/assets:batchUpdate`, update(1)));
      const second = ok(await call(app, 'POST', `${BASE}/assets:batchUpdate`, update(2)));
      // Two answers of 400 assets (over 64 KiB each), each given back once it was sent.
      expect(releases).toEqual([1, 1]);
      expect(first.assets.map((a: { labels: { run: string } }) => a.labels.run)).toEqual(Array(400).fill('r1'));
      expect(second.assets.map((a: { labels: { run: string } }) => a.labels.run)).toEqual(Array(400).fill('r2'));
      expect(second.assets[399].name).toBe(`${PARENT}/assets/vm-m-399`);
    } finally {
      spy.mockRestore();
    }
  });
});
