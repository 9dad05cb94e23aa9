import { FEED_RENDERERS, type FeedFormat } from '../core/render/feeds.ts';
import { BASE_URL } from '../server/base-url.ts';
import { buildTimeEvents } from './dataset.ts';

/** A prerendered feed of all three providers, rendered as the edge renders a filtered one. */
export async function renderFeed(format: FeedFormat): Promise<Response> {
  const { events, builtAt } = await buildTimeEvents();
  return new Response(FEED_RENDERERS[format]({ events, provider: undefined, baseUrl: BASE_URL, builtAt }));
}
