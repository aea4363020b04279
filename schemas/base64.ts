/**
 * The text of a proto `bytes` field in JSON: base64, in the standard or the URL-safe alphabet,
 * padded or not. One source for the rule, read by the schemas' `base64` keyword and by the body
 * worker that checks a large field's text before the request thread ever sees it (http/large-bytes.ts).
 */

const BASE64 = /^[A-Za-z0-9+/\-_]*={0,2}$/;

/** Whether `text` is base64 as Google's JSON parser reads a `bytes` field. */
export function isBase64Text(text: string): boolean {
  return (text.length % 4 === 0 || !text.endsWith('=')) && BASE64.test(text);
}

/** Size in bytes of the decoded base64 text, computed without decoding it. */
export function decodedBase64Size(text: string): number {
  const clean = text.replace(/=+$/, '');
  return Math.floor((clean.length * 3) / 4);
}
