/**
 * Answers sent as ready ProtoJSON text: a read keeps the text it made for as long as the store's
 * documents are unchanged (Store.documentsVersion: any write of this store, or a commit of any
 * other connection to its database, changes it), so that a client reading the same resource over
 * and over (a poll, a dashboard, a benchmark) costs one version check, not the store reads, the
 * view, ProtoJSON and serialisation of the same records every time.
 *
 * The store stays the truth: a text is only what the reads made of it at a version, and the
 * version is the store's own. Nothing survives the process (kill -9 leaves no text behind).
 */
import { toProtoJson } from './protojson';

/** The answer `value` as a route's object answer would go out (preSerialization's ProtoJSON, then JSON). */
export function protoJsonText(value: unknown): string {
  return JSON.stringify(toProtoJson(value));
}

/**
 * The texts of recent answers, by a key naming what was asked (`resource`, the requested view),
 * each with the version of what it was made from (the store's documentsVersion). Bounded (keys
 * are the callers'): emptied when full, as the Google method lookup's cache is.
 */
export class AnswerTexts {
  private readonly texts = new Map<string, { version: number; text: string }>();

  constructor(private readonly limit = 1024) {}

  /**
   * The answer to `key` at `version`: the kept text, or `make()`'s (which reads the store and may
   * throw: nothing is kept then), kept. `version` is taken before `make` reads, so that a change
   * made meanwhile only makes the kept text older than it is (read again next time), never newer.
   * An undefined version (inside a transaction) keeps nothing.
   */
  text(key: string, version: number | undefined, make: () => unknown): string {
    if (version === undefined) return protoJsonText(make());
    const kept = this.texts.get(key);
    if (kept !== undefined && kept.version === version) return kept.text;
    const text = protoJsonText(make());
    if (kept === undefined && this.texts.size >= this.limit) this.texts.clear();
    this.texts.set(key, { version, text });
    return text;
  }
}
