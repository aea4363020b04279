/**
 * What keeps memory resident after its users let go of it (garbage-collection.ts): V8 keeps the
 * subject of the last successful regex match on the thread, readable as the legacy `RegExp.input`;
 * a dead buffer's memory waits for a collection unless the buffer is detached.
 */
import { forgetLastRegExpMatch, freeNow } from '../../backend-emulator/garbage-collection';

/** The legacy static V8 keeps the last match's subject in (not in TypeScript's lib types). */
const lastSubject = (): string => (RegExp as unknown as { input: string }).input;

describe('forgetLastRegExpMatch', () => {
  it('replaces the last match subject, which otherwise holds the tested text', () => {
    const large = 'QUJD'.repeat(250_000);
    expect(/^[A-Za-z0-9+/]*={0,2}$/.test(large)).toBe(true);
    // Without it, the million-character text stays reachable from here after its users are gone.
    expect(lastSubject().length).toBe(1_000_000);
    forgetLastRegExpMatch();
    expect(lastSubject().length).toBe(1);
  });

  it('is not undone by a failed match, which leaves the subject as it is', () => {
    forgetLastRegExpMatch();
    expect(/x/.test('y'.repeat(1_000))).toBe(false);
    expect(lastSubject().length).toBe(1);
  });
});

describe('freeNow', () => {
  it('detaches a buffer a view owns whole: its memory is gone at once, and the view reads as empty', () => {
    const view = new Uint8Array(new ArrayBuffer(1 << 20));
    const buffer = view.buffer;
    freeNow(view);
    expect(buffer.byteLength).toBe(0);
    expect((buffer as ArrayBuffer & { detached: boolean }).detached).toBe(true);
    expect(view.length).toBe(0);
  });

  it('leaves a buffer shared with other views to the collector', () => {
    const buffer = new ArrayBuffer(4096);
    const part = new Uint8Array(buffer, 1024, 1024);
    const rest = new Uint8Array(buffer);
    rest[0] = 7;
    freeNow(part);
    expect(buffer.byteLength).toBe(4096);
    expect(part.length).toBe(1024);
    expect(rest[0]).toBe(7);
  });

  it('leaves a shared memory buffer alone (other threads may hold it)', () => {
    const view = new Uint8Array(new SharedArrayBuffer(64));
    freeNow(view);
    expect(view.buffer.byteLength).toBe(64);
  });
});
