import { pageCacheKey, pageMinute } from '../core/routes/page-cache-key.ts';
import { BUILD_ID, IN_ASTRO_DEV } from './build-id.ts';
import { MinuteMemo } from './page-memo.ts';

/**
 * The board, provider pages and the tracker from a per-minute edge cache (docs/performance.md, "Pages: the
 * per-minute cache and what a render costs"): the Workers Cache API (`caches.default`, which `wrangler dev` runs locally too) keeps each rendered
 * page under its key (src/core/routes/page-cache-key.ts) for the rest of its minute, and a render happens only on a
 * miss. Within an isolate, the requests that miss the same key at once wait for one render instead of making their
 * own. `X-Page-Cache` says which it was: `hit`, `miss` (this request rendered it) or `shared` (it waited for one).
 */

export type PageCacheState = 'hit' | 'miss' | 'shared';
export const PAGE_CACHE_HEADER = 'X-Page-Cache';

interface RenderedPage {
  status: number;
  headers: Headers;
  body: ArrayBuffer;
}

/**
 * Renders in this isolate, by key, from the start of the render until the cache holds its page (or it is not
 * kept): what a concurrent miss of the same key takes instead of rendering again. A request whose cache lookup
 * began before the page was stored misses the cache, so the entry stays until the store is done, not only until
 * the render is.
 */
const rendering = new Map<string, Promise<RenderedPage>>();

/**
 * The pages this isolate answered this minute (src/server/page-memo.ts): about 40 pages make every language's
 * board, provider pages and tracker, so 64 hold them with room for a few tracker queries, a few megabytes at most.
 */
const answered = new MinuteMemo<RenderedPage>(64);

/** A response's parts, its body read: what several answers can be made from. */
const pageOf = async (response: Response): Promise<RenderedPage> => ({
  status: response.status,
  headers: new Headers(response.headers),
  body: await response.arrayBuffer(),
});

const answer = (page: RenderedPage, state: PageCacheState, head: boolean): Response => {
  const headers = new Headers(page.headers);
  headers.set(PAGE_CACHE_HEADER, state);
  return new Response(head ? null : page.body, { status: page.status, headers });
};

/**
 * Only a 200 that says how long it may be shared and sets no cookie is kept: an error page or a 503 is rendered
 * again at the next request. The Cache API keeps it as its `Cache-Control` says (the pages': `s-maxage=60`).
 */
const keepable = (page: RenderedPage) =>
  page.status === 200 && page.headers.has('Cache-Control') && !page.headers.has('Set-Cookie');

/**
 * `journalKey`: the confirmed-events journal's state (src/server/journal/read.ts, `journalStateKey`), read only for
 * a page the cache keeps: a confirm or a withdrawal changes the key, so the next request renders the page anew
 * (decisions.md, "Confirmed within a minute").
 */
export async function cachedPage(
  request: Request,
  render: (request: Request) => Promise<Response>,
  waitUntil: (promise: Promise<unknown>) => void,
  journalKey: () => Promise<string>,
  nowMs: number = Date.now(),
): Promise<Response> {
  const head = request.method === 'HEAD';
  // The Workers runtime's default cache (the DOM's CacheStorage type, which wins here, does not name it); where
  // there is none (the CPU benchmark imports the worker into Node), every request renders, and in `astro dev` too,
  // where an edited event file shows at the next request (as the data files are read again: data-source.ts).
  const cache = (globalThis as { caches?: { default?: Cache } }).caches?.default;
  const pageKey =
    (request.method === 'GET' || head) && BUILD_ID !== undefined && !IN_ASTRO_DEV && cache !== undefined
      ? pageCacheKey(new URL(request.url), BUILD_ID, nowMs, request.headers.get('accept-language'))
      : null;
  if (pageKey === null || cache === undefined) return render(request);
  const journal = await journalKey();
  const key =
    journal === '' ? pageKey : `${pageKey}${pageKey.includes('?') ? '&' : '?'}journal=${encodeURIComponent(journal)}`;

  const minute = pageMinute(nowMs);
  const remembered = answered.get(key, minute);
  if (remembered !== undefined) return answer(remembered, 'hit', head);
  const kept = await cache.match(key);
  if (kept !== undefined) {
    const page = await pageOf(kept);
    answered.set(key, minute, page);
    return answer(page, 'hit', head);
  }

  const inFlight = rendering.get(key);
  if (inFlight !== undefined) return answer(await inFlight, 'shared', head);

  // Rendered as a GET whatever the method, so that a HEAD's miss fills the cache for the GETs after it.
  const rendered = (async () => pageOf(await render(head ? new Request(request, { method: 'GET' }) : request)))();
  rendering.set(key, rendered);
  // The render is this request's `waitUntil` work from its start: the requests that share it await this promise, and
  // on Cloudflare a client that goes away ends its request's work, which would leave them waiting on a promise that
  // never settles (docs/performance.md, "Pages: the per-minute cache"). `waitUntil` gives it 30 s after that.
  waitUntil(rendered.catch(() => undefined));
  const page = await rendered.catch((error: unknown) => {
    rendering.delete(key);
    throw error;
  });
  const keep = keepable(page);
  if (keep) answered.set(key, minute, page);
  const stored = keep
    ? cache.put(key, new Response(page.body, { status: page.status, headers: page.headers }))
    : Promise.resolve();
  waitUntil(stored.finally(() => rendering.delete(key)));
  return answer(page, 'miss', head);
}
