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
import { KeptReads } from '../store/kept-reads';
import { toProtoJson } from './protojson';

/** The answer `value` as a route's object answer would go out (preSerialization's ProtoJSON, then JSON). */
export function protoJsonText(value: unknown): string {
  return JSON.stringify(toProtoJson(value));
}

/**
 * The texts of recent answers, by a key naming what was asked (`resource`, the requested view),
 * each with the version of what it was made from (the store's documentsVersion): KeptReads of
 * texts, bounded in number and in characters (keys and texts are the callers').
 */
export class AnswerTexts {
  private readonly kept: KeptReads<string>;

  /** `limit` texts at most, and `maxChars` characters of them in all (1,024 texts of 1 MiB would have pinned 1 GB). */
  constructor(limit = 1024, maxChars = 32 * 1024 * 1024) {
    this.kept = new KeptReads<string>(limit, (text) => text.length, maxChars);
  }

  /**
   * The answer to `key` at `version`: the kept text, or the text of `make()`'s value (`make` reads
   * the store and may throw: nothing is kept then), kept (KeptReads.get says how `version` is read).
   */
  text(key: string, version: number | undefined, make: () => unknown): string {
    return this.kept.get(key, version, () => protoJsonText(make()));
  }
}
