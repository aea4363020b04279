/**
 * No answer leaves the emulator before what it may show is on disk: the store's writes are made
 * durable by a group commit (store/wal-flush.ts), after they commit, and every answer made while
 * one of them is not yet flushed waits for that flush, a write's own answer and a read's alike
 * (the read could show a client a write that a power cut then takes back). One onSend hook for
 * every route, so that no route can forget it; an answer made while nothing is owed goes at once.
 *
 * If the flush fails (the disk refused an fsync), the waiting answers, and every answer after
 * them, become 500 INTERNAL through the app's error handler, which logs the cause: nothing the
 * store holds can be promised durable any more.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Store } from '../store/store';

export function installFlushedAnswers(app: FastifyInstance, store: Store): void {
  // In memory nothing is ever owed: no hook, and no cost for any answer.
  if (!store.flushesLater) return;
  // The answers a failed flush made errors: their error answer goes without waiting again.
  const failed = new WeakSet<FastifyReply>();
  // A callback hook: an async one would cost every answer a promise and a microtask turn.
  app.addHook('onSend', (_request, reply, payload, done) => {
    const flushed = store.whenFlushed();
    if (flushed === undefined || failed.has(reply)) return done(null, payload);
    flushed.then(
      () => done(null, payload),
      (err: Error) => {
        failed.add(reply);
        done(err);
      },
    );
  });
}
