import { escapeUTF8 as escapeHtml } from 'entities';
import { generateAtomFeed, generateJsonFeed, generateRssFeed } from 'feedsmith';
import { z } from 'zod';
import { PROVIDER_LABELS, type Provider } from '../enums.ts';
import type { Event } from '../schemas.ts';
import { CONTENT_TYPES } from '../routes/policy.ts';
import { eventPageUrl, SERVICE_NAME } from '../site.ts';
import { eventTitle } from './labels.ts';

/**
 * The announcement feeds: RSS 2.0 (spec 4.4), and the same items as Atom 1.0 and JSON Feed 1.1. The
 * formats' syntax and escaping are feedsmith's; which fields carry what is decided here, once, for all three.
 */

export const FEED_ITEM_LIMIT = 100;
export const FEED_FORMATS = {
  rss: { path: '/feed.xml', contentType: CONTENT_TYPES.rss },
  atom: { path: '/feed.atom', contentType: CONTENT_TYPES.atom },
  json: { path: '/feed.json', contentType: CONTENT_TYPES.jsonFeed },
} as const;
export type FeedFormat = keyof typeof FEED_FORMATS;

export interface FeedInput {
  /** Published events, newest first. */
  events: readonly Event[];
  provider: Provider | undefined;
  baseUrl: string;
  /** When the data behind the feed last changed: the build time. */
  builtAt: string;
}

interface FeedModel {
  title: string;
  description: string;
  homeUrl: string;
  feedUrl: (format: FeedFormat) => string;
  items: { event: Event; title: string; pageUrl: string; html: string }[];
}

function feedModel({ events, provider, baseUrl }: FeedInput): FeedModel {
  const selected = (provider === undefined ? events : events.filter((event) => event.provider === provider)).slice(
    0,
    FEED_ITEM_LIMIT,
  );
  const query = provider === undefined ? '' : `?provider=${provider}`;
  return {
    title: provider === undefined ? SERVICE_NAME : `${SERVICE_NAME}: ${PROVIDER_LABELS.en[provider]}`,
    description: `Official usage-limit reset announcements${provider === undefined ? ' of three AI coding-tool providers' : ` of ${PROVIDER_LABELS.en[provider]}`}, each linked to its original post.`,
    homeUrl: provider === undefined ? `${baseUrl}/` : `${baseUrl}/${provider}`,
    feedUrl: (format) => `${baseUrl}${FEED_FORMATS[format].path}${query}`,
    items: selected.map((event) => ({
      event,
      title: eventTitle(event),
      pageUrl: eventPageUrl(baseUrl, event),
      html: `<p>${escapeHtml(event.summary)}</p><p><a href="${escapeHtml(event.sourceUrl)}">Original post by ${escapeHtml(event.sourceAccount)}</a></p>`,
    })),
  };
}

export function renderRssFeed(input: FeedInput): string {
  const feed = feedModel(input);
  return generateRssFeed({
    title: feed.title,
    link: feed.homeUrl,
    description: feed.description,
    language: 'en',
    lastBuildDate: new Date(input.builtAt),
    atom: { links: [{ href: feed.feedUrl('rss'), rel: 'self', type: 'application/rss+xml' }] },
    items: feed.items.map(({ event, title, pageUrl, html }) => ({
      title,
      link: pageUrl,
      guid: { value: pageUrl, isPermaLink: true },
      pubDate: new Date(event.announcedAt),
      categories: [{ name: event.provider }, { name: event.kind }],
      source: { title: event.sourceAccount, url: event.sourceUrl },
      description: html,
    })),
  });
}

export function renderAtomFeed(input: FeedInput): string {
  const feed = feedModel(input);
  return generateAtomFeed({
    id: feed.feedUrl('atom'),
    title: { value: feed.title },
    subtitle: { value: feed.description },
    updated: new Date(input.builtAt),
    links: [
      { href: feed.feedUrl('atom'), rel: 'self', type: 'application/atom+xml' },
      { href: feed.homeUrl, rel: 'alternate', type: 'text/html' },
    ],
    authors: [{ name: SERVICE_NAME, uri: `${input.baseUrl}/` }],
    entries: feed.items.map(({ event, title, pageUrl, html }) => ({
      id: pageUrl,
      title: { value: title },
      updated: new Date(event.announcedAt),
      published: new Date(event.announcedAt),
      links: [
        { href: pageUrl, rel: 'alternate', type: 'text/html' },
        { href: event.sourceUrl, rel: 'via', title: event.sourceAccount },
      ],
      authors: [{ name: event.sourceAccount, uri: event.sourceUrl }],
      categories: [{ term: event.provider }, { term: event.kind }],
      // Markup, not plain text: feedsmith indents CDATA sections, and whitespace is insignificant only in HTML.
      summary: { value: escapeHtml(event.summary), type: 'html' },
      content: { value: html, type: 'html' },
    })),
  });
}

export function renderJsonFeed(input: FeedInput): string {
  const feed = feedModel(input);
  const document = generateJsonFeed({
    title: feed.title,
    description: feed.description,
    home_page_url: feed.homeUrl,
    feed_url: feed.feedUrl('json'),
    language: 'en',
    items: feed.items.map(({ event, title, pageUrl, html }) => ({
      id: pageUrl,
      url: pageUrl,
      external_url: event.sourceUrl,
      title,
      summary: event.summary,
      content_text: `${event.summary}\n\nOriginal post: ${event.sourceUrl}`,
      content_html: html,
      date_published: new Date(event.announcedAt),
      tags: [event.provider, event.kind],
      authors: [{ name: event.sourceAccount, url: event.sourceUrl }],
    })),
  });
  return JSON.stringify(document);
}

export const FEED_RENDERERS: Record<FeedFormat, (input: FeedInput) => string> = {
  rss: renderRssFeed,
  atom: renderAtomFeed,
  json: renderJsonFeed,
};

/**
 * JSON Feed 1.1 (jsonfeed.org/version/1.1) as /feed.json writes it: the schema the OpenAPI document gives its
 * body. Open to the format's other fields, as JSON Feed readers are.
 */
export const JsonFeedSchema = z
  .looseObject({
    version: z.literal('https://jsonfeed.org/version/1.1'),
    title: z.string(),
    home_page_url: z.url().optional(),
    feed_url: z.url().optional(),
    description: z.string().optional(),
    language: z.string().optional(),
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
  .meta({ id: 'JsonFeed' });
