/**
 * The pages an isolate answered in the current minute, by their cache key (src/core/routes/page-cache-key.ts): the
 * first level of the per-minute page cache (src/server/page-cache.ts). A page found here costs no call to the Cache
 * API (in production a subrequest; in `wrangler dev` a read of its store): that call was most of a kept page's cost
 * beside the journal's one row (docs/performance.md, "HTTP load"). A key holds its minute, so nothing here is older
 * than its minute; the whole memo is dropped when the minute turns, and it holds at most `limit` pages, the oldest
 * going first (the tracker's queries are the reader's to vary: a stream of new ones must not grow the isolate).
 */
export class MinuteMemo<Page> {
  readonly limit: number;
  #minute = Number.NaN;
  readonly #pages = new Map<string, Page>();

  constructor(limit: number) {
    this.limit = limit;
  }

  /** The page kept under `key` in `minute`; a new minute forgets every page of the one before. */
  get(key: string, minute: number): Page | undefined {
    if (minute !== this.#minute) {
      this.#pages.clear();
      this.#minute = minute;
    }
    return this.#pages.get(key);
  }

  /** Keeps `page` under `key` for the rest of `minute`. */
  set(key: string, minute: number, page: Page): void {
    if (minute !== this.#minute) return;
    if (!this.#pages.has(key) && this.#pages.size >= this.limit) {
      const oldest = this.#pages.keys().next();
      if (!oldest.done) this.#pages.delete(oldest.value);
    }
    this.#pages.set(key, page);
  }

  get size(): number {
    return this.#pages.size;
  }
}
