/**
 * What a few recent reads made of the store's documents, kept while the documents are unchanged
 * (Store.documentsVersion: any write of the store, or a commit of another connection to its
 * database, moves it). For a large document read again and again while nothing is written, the
 * console's pages of a job's 100,000 row errors (each read parsed the job's 15 MB record).
 *
 * The store stays the truth: a kept value is what a read made at a version, dropped once the
 * version moves. A kept value is shared by every caller until then: callers must not change it.
 */
export class KeptReads<T> {
  private readonly kept = new Map<string, { version: number; value: T; weight: number }>();
  /** The version whose first miss dropped every value of another one. */
  private sweptAt: number | undefined;
  /** The kept values' weights (`weigh`), in all. */
  private total = 0;

  /**
   * `limit`: how many values are kept at most; `weigh` and `maxWeight`: how much they may weigh in
   * all (a text's length, say), the value just read kept whatever it weighs. Past either, the
   * least recently asked go first.
   */
  constructor(
    private readonly limit: number,
    private readonly weigh: (value: T) => number = () => 0,
    private readonly maxWeight = Infinity,
  ) {}

  /**
   * The value of `key` at `version`: the kept one, or `read()`'s (which reads the store and may
   * throw: nothing is kept then), kept. `version` is taken before `read` reads, so that a change
   * made meanwhile only makes the kept value older than it is (read again next time), never newer.
   * An undefined version (inside a transaction) keeps nothing.
   */
  get(key: string, version: number | undefined, read: () => T): T {
    if (version === undefined) return read();
    const kept = this.kept.get(key);
    if (kept !== undefined && kept.version === version) {
      // Most recently asked last: the first key is the one to drop.
      this.kept.delete(key);
      this.kept.set(key, kept);
      return kept.value;
    }
    // Every value of another version is stale: dropped at the first miss of a version rather than
    // held (the misses after it at the same version find none: no walk over every value each time).
    if (version !== this.sweptAt) {
      for (const [k, v] of this.kept) if (v.version !== version) this.drop(k);
      this.sweptAt = version;
    }
    const value = read();
    this.drop(key);
    const weight = this.weigh(value);
    this.kept.set(key, { version, value, weight });
    this.total += weight;
    while (this.kept.size > 1 && (this.kept.size > this.limit || this.total > this.maxWeight)) this.drop(this.kept.keys().next().value as string);
    return value;
  }

  private drop(key: string): void {
    const kept = this.kept.get(key);
    if (kept === undefined) return;
    this.kept.delete(key);
    this.total -= kept.weight;
  }
}
