/**
 * One zip part as XML: inflate (bounded), decode the bytes as text (UTF-8, or UTF-16 by byte order
 * mark) and feed the scanner. The glue between inflate.ts and xml-scanner.ts that every part reader
 * (relationships, workbook, styles, shared strings, sheets) goes through.
 */
import { TextDecoder } from 'node:util';
import type { ZipSource } from '../zip-source';
import { XlsxError } from './errors';
import { inflateEntry, type InflateBudget } from './zip';
import { XmlScanner, type XmlHandler } from './xml-scanner';
import type { ZipEntry } from './zip';

/** Decodes the inflated pieces as UTF-8 text (UTF-16 when a byte order mark says so). */
export async function* decodeText(pieces: AsyncIterable<Buffer>, label: string): AsyncGenerator<string> {
  let decoder: TextDecoder | undefined;
  for await (const piece of pieces) {
    if (!decoder) {
      const utf16 = piece.length >= 2 && ((piece[0] === 0xff && piece[1] === 0xfe) || (piece[0] === 0xfe && piece[1] === 0xff));
      decoder = new TextDecoder(utf16 ? (piece[0] === 0xff ? 'utf-16le' : 'utf-16be') : 'utf-8', { fatal: true });
    }
    let text: string;
    try {
      text = decoder.decode(piece, { stream: true });
    } catch {
      throw new XlsxError(`${label} is not valid UTF-8 text`, 'BAD_XML');
    }
    if (text.length > 0) yield text;
  }
  if (decoder) {
    let tail: string;
    try {
      tail = decoder.decode();
    } catch {
      throw new XlsxError(`${label} is not valid UTF-8 text`, 'BAD_XML');
    }
    if (tail.length > 0) yield tail;
  }
}

/** Scans the XML of `entry` with `handler`. */
export async function scanXml(zip: ZipSource, entry: ZipEntry, budget: InflateBudget, handler: XmlHandler): Promise<void> {
  const scanner = new XmlScanner(handler, entry.name, budget.limits.maxTokenChars);
  for await (const text of decodeText(inflateEntry(zip, entry, budget), entry.name)) scanner.feed(text);
  scanner.end();
}
