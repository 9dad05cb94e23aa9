import { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import { CONTENT_TYPES } from '../routes/policy.ts';
import type { Provider } from '../vocabulary.ts';

/**
 * The feeds' addresses, media types and size, and the JSON Feed's schema: what the route table and the edge need
 * of the feeds, apart from their renderers (feeds.ts and its library stay out of the worker, which serves built
 * feed files).
 */

export const FEED_ITEM_LIMIT = 100;
export const FEED_FORMATS = {
  rss: { path: '/feed.xml', contentType: CONTENT_TYPES.rss },
  atom: { path: '/feed.atom', contentType: CONTENT_TYPES.atom },
  json: { path: '/feed.json', contentType: CONTENT_TYPES.jsonFeed },
} as const;
export type FeedFormat = keyof typeof FEED_FORMATS;

/**
 * A feed's canonical address: its format's path, with `?provider=` for one provider's feed. What the feed calls
 * itself (`rel="self"`) and the WebSub topic a subscriber names (decisions.md, "WebSub").
 */
export const feedSelfUrl = (baseUrl: string, format: FeedFormat, provider: Provider | undefined): string =>
  `${baseUrl}${FEED_FORMATS[format].path}${provider === undefined ? '' : `?provider=${provider}`}`;

/** The WebSub hub every feed advertises (`rel="hub"`): `POST` subscribes and unsubscribes. */
export const WEBSUB_HUB_PATH = '/websub';
export const feedHubUrl = (baseUrl: string): string => `${baseUrl}${WEBSUB_HUB_PATH}`;

/** The `Link` header (RFC 8288) of a feed's answer and of each content distribution: its hub and itself. */
export const feedLinkHeader = (baseUrl: string, format: FeedFormat, provider: Provider | undefined): string =>
  `<${feedHubUrl(baseUrl)}>; rel="hub", <${feedSelfUrl(baseUrl, format, provider)}>; rel="self"`;

/**
 * JSON Feed 1.1 (jsonfeed.org/version/1.1) as /feed.json writes it: the schema the OpenAPI document gives its
 * body. Open to the format's other fields, as JSON Feed readers are.
 */
export const JsonFeedSchema = lazySchema(() =>
  z
    .looseObject({
      version: z.literal('https://jsonfeed.org/version/1.1'),
      title: z.string(),
      home_page_url: z.url().optional(),
      feed_url: z.url().optional(),
      description: z.string().optional(),
      language: z.string().optional(),
      hubs: z.array(z.looseObject({ type: z.string(), url: z.url() })).optional(),
      items: z.array(
        z.looseObject({
          id: z.string(),
          url: z.url().optional(),
          external_url: z.url().optional(),
          title: z.string().optional(),
          summary: z.string().optional(),
          content_text: z.string().optional(),
          content_html: z.string().optional(),
          date_published: z.iso.datetime({ offset: true }).optional(),
          tags: z.array(z.string()).optional(),
          authors: z.array(z.looseObject({ name: z.string().optional(), url: z.url().optional() })).optional(),
        }),
      ),
    })
    .meta({ id: 'JsonFeed' }),
);
