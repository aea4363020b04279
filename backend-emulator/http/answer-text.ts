/**
 * Answers sent as ready ProtoJSON text: a read whose answer is made from one stored record keeps
 * the text it made, for as long as the record it read has the same version, so that a client
 * reading the same resource over and over (a poll, a dashboard, a benchmark) costs the store read
 * and a comparison, not the view, ProtoJSON and serialisation of the same record every time.
 *
 * The store stays the truth: the record is read on every request and its version compared; the
 * text is only a function of that record. Nothing survives the process (kill -9 leaves no stale
 * text behind), and a record whose version changed is made again.
 */
import type { FastifyReply } from 'fastify';
import { toProtoJson } from './protojson';

/** What fastify's serializer path sends a JSON answer with: the same header, byte for byte. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The answer `value` as a route's object answer would go out (preSerialization's ProtoJSON, then JSON). */
export function protoJsonText(value: unknown): string {
  return JSON.stringify(toProtoJson(value));
}

/**
 * Sends ready JSON text. fastify runs no preSerialization hook and no serializer for a string:
 * the text must already be ProtoJSON (made by `protoJsonText` or an AnswerTexts). A plain (not
 * async) handler that calls this returns nothing: fastify would send what it returns a second time.
 */
export function sendJsonText(reply: FastifyReply, text: string): void {
  reply.header('content-type', JSON_CONTENT_TYPE).send(text);
}

/**
 * The texts of recent answers, by a key naming what was asked (`resource`, the requested view),
 * each with the version of the record it was made from. Bounded (keys are the callers'): emptied
 * when full, as the Google method lookup's cache is.
 */
export class AnswerTexts {
  private readonly texts = new Map<string, { version: string; text: string }>();

  constructor(private readonly limit = 1024) {}

  /** The answer to `key` for the record at `version`: the kept text, or `make()`'s, kept. */
  text(key: string, version: string, make: () => unknown): string {
    const kept = this.texts.get(key);
    if (kept !== undefined && kept.version === version) return kept.text;
    const text = protoJsonText(make());
    if (kept === undefined && this.texts.size >= this.limit) this.texts.clear();
    this.texts.set(key, { version, text });
    return text;
  }
}
