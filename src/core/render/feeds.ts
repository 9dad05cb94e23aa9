import { escapeUTF8 as escapeHtml } from 'entities';
import { generateAtomFeed, generateJsonFeed, generateRssFeed } from 'feedsmith';
import type { Provider } from '../enums.ts';
import { PROVIDER_LABELS } from '../i18n/labels.ts';
import type { Event } from '../schemas.ts';
import { eventPageUrl, SERVICE_NAME } from '../site.ts';
import { FEED_ITEM_LIMIT, type FeedFormat, feedHubUrl, feedSelfUrl } from './feed-formats.ts';
import { eventTitle } from './labels.ts';

/**
 * The announcement feeds: RSS 2.0 (spec 4.4), and the same items as Atom 1.0 and JSON Feed 1.1. The
 * formats' syntax and escaping are feedsmith's; which fields carry what is decided here, once, for all three.
 */

export { FEED_FORMATS, FEED_ITEM_LIMIT, type FeedFormat } from './feed-formats.ts';

/**
 * Characters outside XML 1.0's `Char` production (C0 controls but tab and line breaks, lone surrogates, U+FFFE and
 * U+FFFF): one of them makes the whole document unreadable to an XML parser, and WebSub would send it on. Validation
 * refuses them in every event field (src/core/content/unsafe-characters.ts); should one reach a feed all the same,
 * it is written as U+FFFD, the replacement character, and the feed stays a feed.
 */
const NOT_XML_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
export const onlyXmlCharacters = (xml: string): string => xml.replace(NOT_XML_CHARACTER, '\uFFFD');

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
  /** The WebSub hub (decisions.md, "WebSub"): each format names it beside its self link. */
  hubUrl: string;
  items: { event: Event; title: string; pageUrl: string; html: string }[];
}

function feedModel({ events, provider, baseUrl }: FeedInput): FeedModel {
  const selected = (provider === undefined ? events : events.filter((event) => event.provider === provider)).slice(
    0,
    FEED_ITEM_LIMIT,
  );
  return {
    title: provider === undefined ? SERVICE_NAME : `${SERVICE_NAME}: ${PROVIDER_LABELS.en[provider]}`,
    description: `Official usage-limit reset announcements${provider === undefined ? ' of three AI coding-tool providers' : ` of ${PROVIDER_LABELS.en[provider]}`}, each linked to its original post.`,
    homeUrl: provider === undefined ? `${baseUrl}/` : `${baseUrl}/${provider}`,
    feedUrl: (format) => feedSelfUrl(baseUrl, format, provider),
    hubUrl: feedHubUrl(baseUrl),
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
  const xml = generateRssFeed({
    title: feed.title,
    link: feed.homeUrl,
    description: feed.description,
    language: 'en',
    lastBuildDate: new Date(input.builtAt),
    atom: {
      links: [
        { href: feed.feedUrl('rss'), rel: 'self', type: 'application/rss+xml' },
        { href: feed.hubUrl, rel: 'hub' },
      ],
    },
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
  return onlyXmlCharacters(xml);
}

export function renderAtomFeed(input: FeedInput): string {
  const feed = feedModel(input);
  const xml = generateAtomFeed({
    id: feed.feedUrl('atom'),
    title: { value: feed.title },
    subtitle: { value: feed.description },
    updated: new Date(input.builtAt),
    links: [
      { href: feed.feedUrl('atom'), rel: 'self', type: 'application/atom+xml' },
      { href: feed.hubUrl, rel: 'hub' },
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
  return onlyXmlCharacters(xml);
}

export function renderJsonFeed(input: FeedInput): string {
  const feed = feedModel(input);
  const document = generateJsonFeed({
    title: feed.title,
    description: feed.description,
    home_page_url: feed.homeUrl,
    feed_url: feed.feedUrl('json'),
    language: 'en',
    hubs: [{ type: 'WebSub', url: feed.hubUrl }],
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
