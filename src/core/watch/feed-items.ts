import { parseXml, type XmlDocument, type XmlElement } from '@rgrove/parse-xml';
import { decodeHTML } from 'entities';
import { SUMMARY_MAX_CHARACTERS } from '../schemas.ts';

/**
 * The posts of a watched feed (RSS 2.0, RSS 1.0/RDF, Atom 1.0, JSON Feed), read the same way by `npm run watch`
 * and by the worker's minute cron. The XML is parsed by @rgrove/parse-xml, a strict XML 1.0 parser of 4.5 KiB
 * (gzip) that expands no external entity; which elements of each format make a post's link, text and date is
 * written here, because a general feed library (feedsmith's parsers, 64 KiB with every namespace) does not fit
 * the worker's 350 KiB budget. Only the fields below are read; everything else in a feed is ignored.
 */

/** One post of a watched feed, whatever the feed's format. */
export interface FeedItem {
  key: string;
  link: string | null;
  /** Title and body together: what the classifier reads (a keyword may be in either). */
  text: string;
  /** The post's own words: its body, or its title when it has no body (a social post bridged to RSS). */
  ownText: string;
  /** When the post was published, as the feed says; null when the feed does not say (never guessed). */
  publishedAt: string | null;
}

/** A title or body as the feed gives it: HTML (RSS, Atom `type="html"`, JSON Feed `content_html`) or text. */
interface Content {
  value: string;
  html: boolean;
}

/** What each format says of a post, before it is made a FeedItem. */
interface RawItem {
  link: string | null;
  id: string | null;
  title: Content | null;
  body: Content | null;
  published: string | null;
}

const plainText = (content: Content | null) =>
  (content === null ? '' : content.html ? decodeHTML(content.value.replace(/<[^>]*>/g, ' ')) : content.value)
    .replace(/\s+/g, ' ')
    .trim();
const html = (value: string | null): Content | null => (value === null ? null : { value, html: true });
const text = (value: string | null): Content | null => (value === null ? null : { value, html: false });

const isoOrNull = (value: string | null): string | null => {
  if (value === null) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
};

function toFeedItem(raw: RawItem): FeedItem | null {
  const key = raw.link ?? raw.id;
  if (key === null) return null;
  const title = plainText(raw.title);
  const body = plainText(raw.body);
  const text = body.startsWith(title) ? body : [title, body].filter(Boolean).join(' ');
  return { key, link: raw.link, text, ownText: body || title, publishedAt: isoOrNull(raw.published) };
}

/** An element's name without its prefix (`content:encoded`, `dc:date`): feeds use the prefixes their authors chose. */
const localName = (element: XmlElement) => element.name.slice(element.name.indexOf(':') + 1);
const childElements = (element: XmlElement): XmlElement[] =>
  element.children.filter((node): node is XmlElement => node.type === 'element');
const childrenNamed = (element: XmlElement, name: string) =>
  childElements(element).filter((child) => localName(child) === name);

/** The first child of each name that has some text, in the order given; undefined if none has. */
function firstFilled(element: XmlElement, ...names: string[]): XmlElement | undefined {
  for (const name of names) {
    const found = childrenNamed(element, name).find((child) => child.text.trim() !== '');
    if (found !== undefined) return found;
  }
  return undefined;
}
const firstText = (element: XmlElement, ...names: string[]): string | null =>
  firstFilled(element, ...names)?.text.trim() ?? null;

/** An Atom text construct (RFC 4287 §3.1): `type="html"` is escaped HTML; text and XHTML (markup) read as text. */
function atomText(element: XmlElement, ...names: string[]): Content | null {
  const found = firstFilled(element, ...names);
  return found === undefined ? null : { value: found.text.trim(), html: found.attributes['type'] === 'html' };
}

function rssItem(item: XmlElement): RawItem {
  // A bridge may give the link as an Atom link inside the item.
  const atomLink = childrenNamed(item, 'link').find((link) => link.attributes['href'] !== undefined);
  return {
    link: firstText(item, 'link') ?? atomLink?.attributes['href'] ?? null,
    id: firstText(item, 'guid'),
    // RSS says nothing of markup in a title; feeds put escaped HTML in both.
    title: html(firstText(item, 'title')),
    body: html(firstText(item, 'description', 'encoded')),
    published: firstText(item, 'pubDate', 'date', 'published', 'updated'),
  };
}

function atomEntry(entry: XmlElement): RawItem {
  const link = childrenNamed(entry, 'link').find((candidate) => {
    const rel = candidate.attributes['rel'];
    return rel === undefined || rel === 'alternate';
  });
  return {
    link: link?.attributes['href']?.trim() || null,
    id: firstText(entry, 'id'),
    title: atomText(entry, 'title'),
    body: atomText(entry, 'content', 'summary'),
    published: firstText(entry, 'published', 'updated'),
  };
}

function xmlItems(document: XmlDocument): RawItem[] {
  const root = document.root;
  if (root === null) throw new Error('the document has no root element');
  switch (localName(root)) {
    case 'rss':
      return childrenNamed(root, 'channel').flatMap((channel) => childrenNamed(channel, 'item').map(rssItem));
    case 'RDF':
      return childrenNamed(root, 'item').map(rssItem);
    case 'feed':
      return childrenNamed(root, 'entry').map(atomEntry);
    default:
      throw new Error(`the root element <${root.name}> is not an RSS, RDF or Atom feed`);
  }
}

const stringOrNull = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/** JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1). */
function jsonFeedItems(document: string): RawItem[] {
  const feed = JSON.parse(document) as { version?: unknown; items?: unknown };
  if (typeof feed !== 'object' || feed === null || !String(feed.version).startsWith('https://jsonfeed.org/version/'))
    throw new Error('a JSON document that is not a JSON Feed (no https://jsonfeed.org/version/ "version")');
  if (!Array.isArray(feed.items)) throw new Error('a JSON Feed without an "items" list');
  return feed.items.map((item: Record<string, unknown>) => ({
    link: stringOrNull(item['url']),
    id: stringOrNull(item['id']),
    title: text(stringOrNull(item['title'])),
    body:
      text(stringOrNull(item['content_text'])) ??
      html(stringOrNull(item['content_html'])) ??
      text(stringOrNull(item['summary'])),
    published: stringOrNull(item['date_published']),
  }));
}

/**
 * The posts of an RSS, Atom, RDF or JSON Feed document; throws on a malformed one. Named HTML entities that an
 * XML feed uses without declaring them (`&nbsp;`, `&rsquo;`, common in feeds written by hand) are read as HTML.
 */
export function feedItems(document: string): FeedItem[] {
  const trimmed = document.trimStart();
  const raw = trimmed.startsWith('{')
    ? jsonFeedItems(trimmed)
    : xmlItems(parseXml(trimmed, { resolveUndefinedEntity: (reference) => decodeHTML(reference) }));
  return raw.map(toFeedItem).filter((item): item is FeedItem => item !== null);
}

/** A summary that fits the Event rules: plain text, at most 280 characters, cut with an ellipsis. */
export function excerpt(text: string): string {
  const characters = [...text];
  return characters.length <= SUMMARY_MAX_CHARACTERS
    ? text
    : `${characters
        .slice(0, SUMMARY_MAX_CHARACTERS - 1)
        .join('')
        .trimEnd()}…`;
}
