/**
 * AnswerTexts (http/answer-text.ts): an answer's ProtoJSON text made once per documents version.
 */
import { AnswerTexts } from '../../../backend-emulator/http/answer-text';

test('the text (ProtoJSON: default values left out) is made once while the version stands still, and again once it moves', () => {
  const answers = new AnswerTexts();
  let made = 0;
  const make = () => ({ etag: 'BwWKmjvelug=', version: ++made, bindings: [], auditConfigs: [] });
  expect(answers.text('policy', 7, make)).toBe('{"etag":"BwWKmjvelug=","version":1}');
  expect(answers.text('policy', 7, make)).toBe('{"etag":"BwWKmjvelug=","version":1}');
  expect(answers.text('policy', 8, make)).toBe('{"etag":"BwWKmjvelug=","version":2}');
  expect(answers.text('policy', undefined, make)).toBe('{"etag":"BwWKmjvelug=","version":3}');
  expect(answers.text('policy', 8, make)).toBe('{"etag":"BwWKmjvelug=","version":2}');
});

test('past its limit the least recently asked text is made again', () => {
  const answers = new AnswerTexts(2);
  const made: string[] = [];
  const make = (key: string) => () => (made.push(key), { key });
  answers.text('a', 1, make('a'));
  answers.text('b', 1, make('b'));
  answers.text('a', 1, make('a'));
  answers.text('c', 1, make('c'));
  answers.text('a', 1, make('a'));
  answers.text('b', 1, make('b'));
  expect(made).toEqual(['a', 'b', 'c', 'b']);
});

test('past its characters in all the least recently asked texts are made again; a text over them all is still kept alone', () => {
  const answers = new AnswerTexts(1024, 40);
  const made: string[] = [];
  const make = (key: string, chars: number) => () => (made.push(key), { key, text: 'x'.repeat(chars) });
  answers.text('a', 1, make('a', 1)); // {"key":"a","text":"x"}: 22 characters
  answers.text('b', 1, make('b', 1)); // 44 in all, over 40: a goes
  answers.text('c', 1, make('c', 1)); // b goes
  answers.text('c', 1, make('c', 1));
  answers.text('b', 1, make('b', 1)); // made again; c goes
  answers.text('d', 1, make('d', 100)); // over 40 alone: kept, every other one dropped
  answers.text('d', 1, make('d', 100));
  answers.text('c', 1, make('c', 1));
  expect(made).toEqual(['a', 'b', 'c', 'b', 'd', 'c']);
});
