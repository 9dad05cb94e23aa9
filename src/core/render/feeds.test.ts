import { parseJsonFeed } from 'feedsmith';
import { XMLParser } from 'fast-xml-parser';
import Parser from 'rss-parser';
import { describe, expect, it } from 'vitest';
import { makeEvent } from '../test-events.ts';
import { FEED_ITEM_LIMIT, renderAtomFeed, renderJsonFeed, renderRssFeed, type FeedInput } from './feeds.ts';
import { TRICKY_SUMMARIES, trickyEvents } from './tricky-events.ts';

const BASE = 'https://board.example';
const BUILT_AT = '2026-06-15T12:00:00.000Z';
const parser = new Parser({
  customFields: {
    item: [
      ['source', 'sourceElement', { keepArray: true }],
      ['guid', 'guidElement', { keepArray: true }],
    ],
  },
});

const input = (overrides: Partial<FeedInput> = {}): FeedInput => ({
  events: trickyEvents(),
  provider: undefined,
  baseUrl: BASE,
  builtAt: BUILT_AT,
  ...overrides,
});

describe('renderRssFeed', () => {
  it('is RSS 2.0 a feed parser reads, with every item element of spec 4.4', async () => {
    const xml = renderRssFeed(input());
    const feed = await parser.parseString(xml);
    expect(feed.title).toBe('Departures Board');
    expect(feed.items).toHaveLength(Object.keys(TRICKY_SUMMARIES).length);
    const [first] = feed.items;
    const event = trickyEvents()[0]!;
    const pageUrl = `${BASE}/${event.provider}#event-${event.id}`;
    expect(first).toMatchObject({
      title: 'Provider A · Reset · 10 Jun 2026',
      link: pageUrl,
      guid: pageUrl,
      pubDate: 'Wed, 10 Jun 2026 08:00:00 GMT',
      categories: ['provider_a', 'reset'],
    });
    expect(first!['guidElement']).toEqual([{ $: { isPermaLink: 'true' }, _: pageUrl }]);
    expect(first!['sourceElement']).toEqual([{ $: { url: event.sourceUrl }, _: event.sourceAccount }]);
    expect(first!.content).toContain(`href="${event.sourceUrl}"`);
    expect(xml).toContain(`<atom:link href="${BASE}/feed.xml" rel="self" type="application/rss+xml"/>`);
    expect(xml).toMatch(/<lastBuildDate>Mon, 15 Jun 2026 12:00:00 GMT<\/lastBuildDate>/);
    expect(xml).toContain('<language>en</language>');
  });

  it('keeps tricky summaries as text: markup escaped, CDATA ends and non-ASCII intact', async () => {
    const feed = await parser.parseString(renderRssFeed(input()));
    const descriptions = feed.items.map((item) => item.content ?? '');
    expect(descriptions.some((text) => text.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'))).toBe(true);
    expect(descriptions.some((text) => text.includes('Tricky ]]&gt; end of CDATA'))).toBe(true);
    expect(descriptions.some((text) => text.includes('额度已重置 — naïve café ✅ 🚀'))).toBe(true);
    expect(descriptions.every((text) => !text.includes('<script>'))).toBe(true);
  });

  it('filters by provider, names it, and points its self link at the filtered feed', async () => {
    const xml = renderRssFeed(input({ provider: 'provider_b' }));
    const feed = await parser.parseString(xml);
    expect(feed.title).toBe('Departures Board: Provider B');
    expect(feed.items.every((item) => item.categories?.[0] === 'provider_b')).toBe(true);
    expect(xml).toContain(`href="${BASE}/feed.xml?provider=provider_b"`);
  });

  it('holds the latest 100 announcements at most', async () => {
    const many = Array.from({ length: 130 }, (_, index) =>
      makeEvent({ id: `m${index}`, announcedAt: new Date(Date.UTC(2026, 0, 1) + index * 3_600_000).toISOString() }),
    );
    const feed = await parser.parseString(renderRssFeed(input({ events: many })));
    expect(feed.items).toHaveLength(FEED_ITEM_LIMIT);
  });

  it('is a valid empty channel for a provider with no events', async () => {
    const feed = await parser.parseString(renderRssFeed(input({ provider: 'provider_c', events: [] })));
    expect(feed.items).toEqual([]);
    expect(feed.title).toBe('Departures Board: Provider C');
  });
});

describe('renderAtomFeed', () => {
  it('carries the same items as Atom, parsed by a feed parser', async () => {
    const feed = await new Parser<Record<string, unknown>, { id: string }>().parseString(renderAtomFeed(input()));
    const events = trickyEvents();
    expect(feed.items.map((item) => item.id)).toEqual(
      events.map((event) => `${BASE}/${event.provider}#event-${event.id}`),
    );
    expect(feed.items.map((item) => item.title)).toContain('Provider B · Reset · 9 Jun 2026');
    const summaries = feed.items.map((item) => String(item.summary).trim());
    expect(summaries).toContain('Tricky ]]&gt; end of CDATA');
    expect(summaries).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
  });
});

describe('renderJsonFeed', () => {
  it('is JSON Feed 1.1 with the same items', () => {
    const text = renderJsonFeed(input({ provider: 'provider_a' }));
    const raw = JSON.parse(text) as { version: string; feed_url: string };
    expect(raw.version).toBe('https://jsonfeed.org/version/1.1');
    expect(raw.feed_url).toBe(`${BASE}/feed.json?provider=provider_a`);
    const feed = parseJsonFeed(text);
    const events = trickyEvents().filter((event) => event.provider === 'provider_a');
    expect(feed.items?.map((item) => item.external_url)).toEqual(events.map((event) => event.sourceUrl));
    expect(feed.items?.map((item) => item.summary)).toEqual(events.map((event) => event.summary));
  });
});

describe('every feed names its WebSub hub and itself (decisions.md, "WebSub")', () => {
  const parseAtom = (xml: string) => new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
  type Link = { href: string; rel: string };
  const asList = (links: Link | Link[]) => (Array.isArray(links) ? links : [links]);

  it.each([undefined, 'provider_b'] as const)('RSS: atom:link rel="hub" and rel="self" (provider %s)', (provider) => {
    const self = `${BASE}/feed.xml${provider ? `?provider=${provider}` : ''}`;
    const channel = parseAtom(renderRssFeed(input({ provider })))['rss']['channel'];
    const links = asList(channel['atom:link']).map(({ href, rel }) => ({ href, rel }));
    expect(links).toEqual([
      { href: self, rel: 'self' },
      { href: `${BASE}/websub`, rel: 'hub' },
    ]);
  });

  it.each([undefined, 'provider_c'] as const)('Atom: link rel="hub" and rel="self" (provider %s)', (provider) => {
    const self = `${BASE}/feed.atom${provider ? `?provider=${provider}` : ''}`;
    const links = asList(parseAtom(renderAtomFeed(input({ provider })))['feed']['link']);
    expect(links.filter(({ rel }) => rel === 'self').map(({ href }) => href)).toEqual([self]);
    expect(links.filter(({ rel }) => rel === 'hub').map(({ href }) => href)).toEqual([`${BASE}/websub`]);
  });

  it.each([undefined, 'provider_a'] as const)('JSON Feed: hubs and feed_url (provider %s)', (provider) => {
    const feed = parseJsonFeed(renderJsonFeed(input({ provider })));
    expect(feed.feed_url).toBe(`${BASE}/feed.json${provider ? `?provider=${provider}` : ''}`);
    expect(feed.hubs).toEqual([{ type: 'WebSub', url: `${BASE}/websub` }]);
  });
});
