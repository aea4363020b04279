/**
 * What keeps a large text alive after its users let go of it (garbage-collection.ts): V8 keeps the
 * subject of the last successful regex match on the thread, readable as the legacy `RegExp.input`.
 */
import { forgetLastRegExpMatch } from '../../backend-emulator/garbage-collection';

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
