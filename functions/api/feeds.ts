import { FeedQuerySchema, parseQuery } from '../../src/core/api/query.ts';
import { recentEvents } from '../../src/core/dataset.ts';
import { FEED_FORMATS, FEED_ITEM_LIMIT, FEED_RENDERERS, type FeedFormat } from '../../src/core/render/feeds.ts';
import type { EdgeContext } from '../context.ts';
import { CACHE, invalidQuery, textResponse, withHeaders } from '../http/responses.ts';
import { BASE_URL } from '../site.ts';

/** GET /feed.xml (spec 4.4), /feed.atom and /feed.json: all three providers prerendered, one at the edge. */
export async function handleFeed(context: EdgeContext, format: FeedFormat): Promise<Response> {
  const query = parseQuery(FeedQuerySchema, context.url.searchParams);
  if (!query.ok) return invalidQuery(query.issues);
  const { path, contentType } = FEED_FORMATS[format];
  if (query.value.provider === undefined) {
    return withHeaders(await context.asset(path), { 'Content-Type': contentType, 'Cache-Control': CACHE.feed });
  }
  const dataset = await context.dataset();
  const events = recentEvents(dataset, query.value.provider, FEED_ITEM_LIMIT);
  const body = FEED_RENDERERS[format]({
    events,
    provider: query.value.provider,
    baseUrl: BASE_URL,
    builtAt: dataset.builtAt,
  });
  return textResponse(body, contentType, CACHE.feed);
}

/**
 * GET /api/feed: a permanent alias of /feed.xml that keeps the query's meaning: a bad query gets the 400 the
 * feed would give, a good one is redirected with its known parameters only (junk is not echoed back).
 */
export function redirectToFeed(context: EdgeContext): Response {
  const query = parseQuery(FeedQuerySchema, context.url.searchParams);
  if (!query.ok) return invalidQuery(query.issues);
  const kept = query.value.provider === undefined ? '' : `?${new URLSearchParams({ provider: query.value.provider })}`;
  return new Response(null, { status: 308, headers: { Location: `/feed.xml${kept}`, 'Cache-Control': CACHE.feed } });
}
