/** A Writable that keeps what the command line wrote, for the tests of its commands. */
import { Writable } from 'stream';

export function textSink(): Writable & { text: string } {
  const chunks: string[] = [];
  const w = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  }) as Writable & { text: string };
  Object.defineProperty(w, 'text', { get: () => chunks.join('') });
  return w;
}
