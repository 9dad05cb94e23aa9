import type { FeedAnswer } from '../../core/watch/run.ts';

/**
 * One request to a watched feed, with a deadline and a size cap (a slow or huge source is a reported failure),
 * and the conditional headers the run hands in. Web-standard only, so that `npm run watch` (Node) and the
 * worker's cron (workerd) fetch the same way.
 *
 * Redirects are followed by hand (`redirect: 'manual'`), at most `MAX_REDIRECTS` of them, so that each hop can be
 * judged before it is requested (decisions.md: "The watcher never follows a redirect to an address the outbound
 * policy refuses (each hop is checked, at most 3)"): the worker's cron hands in the outbound-address policy
 * (src/server/watch/cron.ts); `npm run watch`, which may read a local feed bridge, hands in none and only the
 * count holds.
 */

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
}

/** The deadline and size cap of both adapters unless told otherwise (`npm run watch --timeout-ms/--max-bytes`). */
export const DEFAULT_FETCH_LIMITS: FetchLimits = { timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024 };

const ACCEPT =
  'application/rss+xml, application/atom+xml, application/feed+json, application/xml, application/json;q=0.9, */*;q=0.5';

/** The most redirects one poll follows; the next one is a failure of the source. */
export const MAX_REDIRECTS = 3;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Whether a redirect's target may be requested: its standard form when it may, else why not, worded to follow "the
 * target" (the outbound policy's messages: "must be an https URL").
 */
export type RedirectCheck = (url: string) => { ok: true; url: string } | { ok: false; reason: string };

const validatorsOf = (response: Response) => ({
  etag: response.headers.get('etag'),
  lastModified: response.headers.get('last-modified'),
});

/**
 * The feed at `url` (already judged by the caller), following at most `MAX_REDIRECTS` redirects, each allowed by
 * `checkRedirect` when one is given. The deadline covers the whole chain.
 *
 * The conditional headers go to every hop, as `fetch`'s own redirect following sent them before: the validators the
 * run holds came from the end of the chain last time (the document it read), so a feed that moved for good still
 * gets its 304 from its new address; the first hop, which only redirects, ignores them. Only a hop the check
 * allowed ever sees them. A redirect's fragment is dropped before the check: it never leaves the client.
 */
export async function fetchFeed(
  url: string,
  headers: Readonly<Record<string, string>>,
  { timeoutMs, maxBytes }: FetchLimits,
  checkRedirect?: RedirectCheck,
): Promise<FeedAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    let target = url;
    let response = await fetch(target, { signal, headers: { ...headers, Accept: ACCEPT }, redirect: 'manual' });
    for (let redirects = 1; REDIRECT_STATUSES.has(response.status); redirects += 1) {
      await response.body?.cancel();
      const status = response.status;
      if (redirects > MAX_REDIRECTS)
        return {
          kind: 'failed',
          reason: `is redirected more than ${MAX_REDIRECTS} times (the watcher follows at most ${MAX_REDIRECTS})`,
        };
      const next = nextHop(response.headers.get('location'), target);
      if (next === undefined)
        return { kind: 'failed', reason: `answered HTTP ${status} without a Location that is a URL` };
      const allowed = checkRedirect?.(next) ?? { ok: true, url: next };
      if (!allowed.ok)
        return {
          kind: 'failed',
          reason: `is redirected to an address the outbound policy refuses (redirect ${redirects} of at most ${MAX_REDIRECTS}): the target ${allowed.reason}`,
        };
      target = allowed.url;
      response = await fetch(target, { signal, headers: { ...headers, Accept: ACCEPT }, redirect: 'manual' });
    }
    if (response.status === 304) {
      await response.body?.cancel();
      return { kind: 'unchanged', ...validatorsOf(response) };
    }
    if (!response.ok) {
      await response.body?.cancel();
      return { kind: 'failed', reason: `answered HTTP ${response.status}` };
    }
    const declared = Number(response.headers.get('content-length') ?? '0');
    if (declared > maxBytes) {
      await response.body?.cancel();
      return { kind: 'failed', reason: `is too large (${declared} bytes, the limit is ${maxBytes})` };
    }
    if (response.body === null) return { kind: 'failed', reason: 'sent no body' };
    const text = await readCapped(response.body, maxBytes);
    if (text === null) return { kind: 'failed', reason: `is too large (over ${maxBytes} bytes)` };
    return { kind: 'fetched', text, ...validatorsOf(response) };
  } catch (error) {
    if (signal.aborted) return { kind: 'failed', reason: `timed out after ${timeoutMs} ms` };
    return { kind: 'failed', reason: `could not be fetched (${(error as Error).message})` };
  }
}

/** A redirect's `Location` resolved against the URL that answered it, without its fragment; undefined if no URL. */
function nextHop(location: string | null, from: string): string | undefined {
  if (location === null) return undefined;
  try {
    const next = new URL(location, from);
    next.hash = '';
    return next.href;
  } catch {
    return undefined;
  }
}

/** The body as text, or null once it passes `maxBytes` (the rest is not read). */
async function readCapped(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<string | null> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel();
      return null;
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
