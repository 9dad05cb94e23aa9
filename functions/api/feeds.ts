import { FeedQuerySchema, parseQuery } from '../../src/core/api/query.ts';
import { providerFeedPath } from '../../src/core/built-paths.ts';
import { FEED_FORMATS, type FeedFormat } from '../../src/core/render/feed-formats.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { invalidQuery, withHeaders } from '../../src/server/http/responses.ts';

/** GET /feed.xml (spec 4.4), /feed.atom and /feed.json: every selection is a built file; the edge picks it. */
export async function handleFeed(context: EdgeContext, format: FeedFormat): Promise<Response> {
  const query = parseQuery(FeedQuerySchema, context.url.searchParams);
  if (!query.ok) return invalidQuery(query.issues);
  const { path, contentType } = FEED_FORMATS[format];
  const file = query.value.provider === undefined ? path : providerFeedPath(format, query.value.provider);
  return withHeaders(await context.asset(file), { 'Content-Type': contentType });
}

/**
 * GET /api/feed: a permanent alias of /feed.xml that keeps the query's meaning: a bad query gets the 400 the
 * feed would give, a good one is redirected with its known parameters only (junk is not echoed back).
 */
export function redirectToFeed(context: EdgeContext): Response {
  const query = parseQuery(FeedQuerySchema, context.url.searchParams);
  if (!query.ok) return invalidQuery(query.issues);
  const kept = query.value.provider === undefined ? '' : `?${new URLSearchParams({ provider: query.value.provider })}`;
  return new Response(null, { status: 308, headers: { Location: `${FEED_FORMATS.rss.path}${kept}` } });
}
