import type { OneProviderQuery } from '../../src/core/api/query.ts';
import { providerFeedPath } from '../../src/core/built-paths.ts';
import { FEED_FORMATS, type FeedFormat, feedLinkHeader } from '../../src/core/render/feed-formats.ts';
import { BASE_URL } from '../../src/server/base-url.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { textResponse, withHeaders } from '../../src/server/http/responses.ts';
import { journalFeed } from '../../src/server/journal/feeds.ts';
import type { EdgeHandlers } from '../route-handler.ts';

/**
 * GET /feed.xml (spec 4.4), /feed.atom and /feed.json: every selection is a built file; the edge picks it, and
 * names the feed's WebSub hub and canonical address in `Link` (decisions.md, "WebSub"), as the document does. A
 * selection with a journal event is written here instead (`journalFeed`, src/server/journal/feeds.ts); its validator is then its bytes'.
 */
const feedIn =
  (format: FeedFormat) =>
  async (context: EdgeContext, { query }: { query: OneProviderQuery }): Promise<Response> => {
    const { path, contentType } = FEED_FORMATS[format];
    const headers = { 'Content-Type': contentType, Link: feedLinkHeader(BASE_URL, format, query.provider) };
    const written = await journalFeed(context, format, query.provider);
    if (written !== null) return textResponse(written, contentType, headers);
    const file = query.provider === undefined ? path : providerFeedPath(format, query.provider);
    return withHeaders(await context.asset(file), headers);
  };

export const FEED_HANDLERS = {
  getFeedRss: feedIn('rss'),
  getFeedAtom: feedIn('atom'),
  getFeedJson: feedIn('json'),
  /**
   * GET /api/feed: a permanent alias of /feed.xml that keeps the query's meaning: a bad query gets the 400 the
   * feed would give (the same schema refuses it), a good one is redirected with its known parameters only (junk
   * is not echoed back).
   */
  redirectFeed: (_context, { query }) => {
    const kept = query.provider === undefined ? '' : `?${new URLSearchParams({ provider: query.provider })}`;
    return new Response(null, { status: 308, headers: { Location: `${FEED_FORMATS.rss.path}${kept}` } });
  },
} satisfies Partial<EdgeHandlers>;
