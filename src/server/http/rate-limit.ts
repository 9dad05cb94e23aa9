import { clientKey } from '../../core/http/client-key.ts';

/**
 * The Workers Rate Limiting bindings' period (`wrangler.jsonc`: both limiters count per 60 s). The binding
 * answers only `success`; it does not say when its window ends.
 */
export const RATE_LIMIT_PERIOD_SECONDS = 60;

/**
 * Whether this client may go on under `limiter`, a Workers Rate Limiting binding,
 * spending `cost` of its budget (an MCP batch spends one per message: decisions.md). The binding counts one
 * per `limit()` call, so it is called `cost` times, stopping at the first refusal (a refused call is not
 * counted, locally and by the binding's documented behaviour alike). A failing limiter lets the request through
 * (logged): a broken counter must not become a 500 or lock people out.
 *
 * The client is its `CF-Connecting-IP` as `clientKey` (src/core/http/client-key.ts) counts it: an IPv4 address
 * alone, an IPv6 address by its /64 (what one customer usually gets), anything else under `unknown`.
 */
export const withinRateLimit = (limiter: RateLimit, request: Request, what: string, cost = 1): Promise<boolean> =>
  withinRateLimitOf(limiter, clientKey(request.headers.get('CF-Connecting-IP')), what, cost);

/**
 * The same for a client known by another key than its address: a Telegram chat, whose updates all come from
 * Telegram's few servers (functions/api/telegram.ts), so that one busy chat, not the bot, spends the budget.
 */
export async function withinRateLimitOf(limiter: RateLimit, key: string, what: string, cost = 1): Promise<boolean> {
  try {
    for (let spent = 0; spent < cost; spent += 1) if (!(await limiter.limit({ key })).success) return false;
    return true;
  } catch (error) {
    console.error(`${what} rate limiter failed; letting the request through`, error);
    return true;
  }
}

/**
 * `Retry-After` for a refusal at `now`: the whole seconds left in the current window, at least 1. The binding
 * cannot tell when its window ends, so this assumes fixed windows aligned to the period since the Unix epoch,
 * which is what the local runtime does (miniflare's limiter: `epoch = floor(now / period)`). Cloudflare documents
 * the period (10 or 60 s) but not where its windows start; if they are offset, the answer is still never
 * longer than the period, and a client that retries early is refused again with a fresh count.
 */
export function secondsLeftInWindow(now: Date, periodSeconds = RATE_LIMIT_PERIOD_SECONDS): number {
  const periodMs = periodSeconds * 1000;
  const leftMs = periodMs - (now.getTime() % periodMs);
  return Math.max(1, Math.ceil(leftMs / 1000));
}
