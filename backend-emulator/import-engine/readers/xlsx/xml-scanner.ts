/**
 * A small pull scanner for the XML of SpreadsheetML parts: elements, attributes, text, CDATA,
 * comments, the five predefined entities and character references, fed in chunks. A DOCTYPE (and so
 * any ENTITY declaration) is refused, so no entity is ever expanded; text held for one value and
 * unfinished markup are bounded. It knows nothing of zips or workbooks: handlers give the meaning.
 */
import { XlsxError } from './errors';

export interface XmlHandler {
  /**
   * `name` is the local name (prefix removed); the raw attribute text is `src.slice(from, to)`
   * (given as a range so that handlers which ignore attributes, or read them in place, allocate
   * nothing).
   */
  open(name: string, src: string, from: number, to: number, selfClosing: boolean): void;
  close(name: string): void;
  /** Text (entities decoded) is delivered only while `wantText()` is true. */
  wantText(): boolean;
  text(value: string): void;
}

const ENTITY = /&(?:#(\d{1,7})|#x([0-9a-fA-F]{1,6})|(lt|gt|amp|quot|apos));|&/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes the predefined entities and character references; any other `&` is a file error. */
export function decodeEntities(s: string, where: string): string {
  if (s.indexOf('&') === -1) return s;
  return s.replace(ENTITY, (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name) return NAMED[name];
    if (dec !== undefined || hex !== undefined) {
      const cp = dec !== undefined ? parseInt(dec, 10) : parseInt(hex!, 16);
      if (cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
        throw new XlsxError(`${where} holds an invalid character reference ${whole}`, 'BAD_XML');
      }
      return String.fromCodePoint(cp);
    }
    throw new XlsxError(`${where} uses an undeclared entity or a bare "&": entities are never expanded`, 'BAD_XML');
  });
}

/** `_x000D_` escapes of SpreadsheetML strings. */

/**
 * The local name of the tag name at `s[from, to)`. The names of a sheet's cells and rows come back
 * as constants, without slicing.
 */
function tagName(s: string, from: number, to: number): string {
  const len = to - from;
  if (len === 1) {
    switch (s.charCodeAt(from)) {
      case 99:
        return 'c';
      case 118:
        return 'v';
      case 116:
        return 't';
      case 102:
        return 'f';
      case 114:
        return 'r';
      default:
        break;
    }
  } else if (len === 3 && s.charCodeAt(from) === 114 && s.charCodeAt(from + 1) === 111 && s.charCodeAt(from + 2) === 119) return 'row';
  else if (len === 2 && s.charCodeAt(from) === 105 && s.charCodeAt(from + 1) === 115) return 'is';
  return localName(s.slice(from, to));
}

export function localName(qname: string): string {
  const c = qname.indexOf(':');
  return c === -1 ? qname : qname.slice(c + 1);
}

/** Reads one attribute from raw attribute text (`r="A1" t="s"`); undefined when absent. */
export function attr(attrs: string, name: string): string | undefined {
  let i = 0;
  const len = attrs.length;
  while (i < len) {
    const eq = attrs.indexOf('=', i);
    if (eq === -1) return undefined;
    const key = attrs.slice(i, eq).trim();
    let q = eq + 1;
    while (q < len && (attrs.charCodeAt(q) === 32 || attrs.charCodeAt(q) === 9 || attrs.charCodeAt(q) === 10 || attrs.charCodeAt(q) === 13)) q++;
    const quote = attrs[q];
    if (quote !== '"' && quote !== "'") return undefined;
    const end = attrs.indexOf(quote, q + 1);
    if (end === -1) return undefined;
    if (key === name || localName(key) === name) return decodeEntities(attrs.slice(q + 1, end), `attribute ${name}`);
    i = end + 1;
  }
  return undefined;
}

/** Finds the `>` closing a start tag, skipping quoted attribute values; -1 when not yet in `s`. */
function findTagEnd(s: string, from: number): number {
  const len = s.length;
  let i = from;
  while (i < len) {
    const c = s.charCodeAt(i);
    if (c === 62 /* > */) return i;
    if (c === 34 /* " */ || c === 39 /* ' */) {
      const close = s.indexOf(c === 34 ? '"' : "'", i + 1);
      if (close === -1) return -1;
      i = close + 1;
    } else i++;
  }
  return -1;
}

export class XmlScanner {
  private pending = '';
  private textParts: string[] = [];
  private textLen = 0;
  private started = false;

  constructor(
    private readonly handler: XmlHandler,
    private readonly where: string,
    private readonly maxTokenChars: number,
  ) {}

  private addText(raw: string, cdata: boolean): void {
    if (raw.length === 0 || !this.handler.wantText()) return;
    this.textLen += raw.length;
    if (this.textLen > this.maxTokenChars) {
      throw new XlsxError(`${this.where} holds a text value longer than ${this.maxTokenChars} characters`, 'TOO_LARGE');
    }
    this.textParts.push(cdata ? raw : decodeEntities(raw, this.where));
  }

  private flushText(): void {
    if (this.textParts.length === 0) return;
    const t = this.textParts.length === 1 ? this.textParts[0] : this.textParts.join('');
    this.textParts = [];
    this.textLen = 0;
    this.handler.text(t);
  }

  feed(chunk: string): void {
    let s = this.pending.length > 0 ? this.pending + chunk : chunk;
    this.pending = '';
    if (!this.started) {
      if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
      if (s.length > 0) this.started = true;
    }
    const h = this.handler;
    const len = s.length;
    let i = 0;
    while (i < len) {
      const lt = s.indexOf('<', i);
      if (lt === -1) {
        // Text up to the end of the chunk. Keep a possibly split entity (`&am`) for the next chunk.
        const amp = s.lastIndexOf('&');
        if (amp >= i && s.indexOf(';', amp) === -1 && len - amp < 12) {
          this.addText(s.slice(i, amp), false);
          this.pending = s.slice(amp);
        } else {
          this.addText(s.slice(i), false);
        }
        return;
      }
      if (lt > i) this.addText(s.slice(i, lt), false);
      if (lt + 1 >= len) {
        this.pending = s.slice(lt);
        return;
      }
      const c = s.charCodeAt(lt + 1);
      if (c === 47 /* / */) {
        const gt = s.indexOf('>', lt + 2);
        if (gt === -1) return this.keep(s, lt);
        this.flushText();
        const last = s.charCodeAt(gt - 1);
        const raw = s.slice(lt + 2, gt);
        h.close(localName(last <= 32 ? raw.trim() : raw));
        i = gt + 1;
      } else if (c === 63 /* ? */) {
        const end = s.indexOf('?>', lt + 2);
        if (end === -1) return this.keep(s, lt);
        i = end + 2;
      } else if (c === 33 /* ! */) {
        if (s.startsWith('<!--', lt)) {
          const end = s.indexOf('-->', lt + 4);
          if (end === -1) return this.keep(s, lt);
          i = end + 3;
        } else if (s.startsWith('<![CDATA[', lt)) {
          const end = s.indexOf(']]>', lt + 9);
          if (end === -1) return this.keep(s, lt);
          this.addText(s.slice(lt + 9, end), true);
          i = end + 3;
        } else if (len - lt < 9) {
          return this.keep(s, lt); // `<!-`, `<![CDA`, `<!DOC`: wait for the rest
        } else {
          throw new XlsxError(`${this.where} carries a DOCTYPE or other declaration (<!...>): document type and entity declarations are refused`, 'DOCTYPE');
        }
      } else {
        const gt = findTagEnd(s, lt + 1);
        if (gt === -1) return this.keep(s, lt);
        this.flushText();
        let end = gt;
        const selfClosing = s.charCodeAt(gt - 1) === 47;
        if (selfClosing) end = gt - 1;
        let n = lt + 1;
        while (n < end) {
          const ch = s.charCodeAt(n);
          if (ch === 32 || ch === 9 || ch === 10 || ch === 13) break;
          n++;
        }
        const name = tagName(s, lt + 1, n);
        h.open(name, s, n, n < end ? end : n, selfClosing);
        if (selfClosing) h.close(name);
        i = gt + 1;
      }
    }
  }

  private keep(s: string, from: number): void {
    if (s.length - from > this.maxTokenChars) {
      throw new XlsxError(`${this.where} holds markup longer than ${this.maxTokenChars} characters`, 'TOO_LARGE');
    }
    this.pending = s.slice(from);
  }

  end(): void {
    if (this.pending.trim().length > 0 && this.pending.indexOf('<') !== -1) {
      throw new XlsxError(`${this.where} ends in the middle of an element`, 'BAD_XML');
    }
    this.flushText();
  }
}
