import { parseXml, type XmlDocument, type XmlElement, XmlError } from '@rgrove/parse-xml';
import { decodeHTML } from 'entities';
import { SUMMARY_MAX_CHARACTERS } from '../schemas.ts';

/**
 * The posts of a watched feed (RSS 2.0, RSS 1.0/RDF, Atom 1.0, JSON Feed), read the same way by `npm run watch`
 * and by the worker's minute cron. The XML is parsed by @rgrove/parse-xml, a strict XML 1.0 parser of 4.5 KiB
 * (gzip) that expands no external entity; which elements of each format make a post's link, text and date is
 * written here, because a general feed library (feedsmith's parsers, 64 KiB with every namespace) does not fit
 * the worker's 350 KiB budget. Only the fields below are read; everything else in a feed is ignored.
 */

/**
 * Why a document is not a feed the watcher can read, in words of ours and numbers only: the source report
 * (`GET /api/sources`), the log and `npm run watch` show it, and a feed's bytes are not ours to show (a page that
 * answers in place of the feed may carry markup, a script or a token). So neither the parser's excerpt of the
 * line nor a name or value taken from the document ever reaches the message: "not well-formed XML at line 3,
 * column 7 (an element is not closed)", "not a feed: no <rss>, <rdf:RDF> or <feed> root element".
 */
export class FeedParseError extends Error {
  override name = 'FeedParseError';
}

/**
 * The parser's reasons that name nothing of the document, by the start of its message, in our words (the others,
 * and any a later version adds, leave only the place).
 */
const XML_REASONS: readonly [string, string][] = [
  ['Missing end tag', 'an element is not closed'],
  ['Unclosed start tag', 'a start tag is not closed'],
  ['Unclosed end tag', 'an end tag is not closed'],
  ['Duplicate attribute', 'an attribute is repeated'],
  ['Unescaped `<`', 'a "<" inside an attribute value'],
  ['Unclosed attribute', 'an attribute value is not closed'],
  ['Attribute value expected', 'an attribute has no value'],
  ['Unclosed comment', 'a comment is not closed'],
  ['Unclosed CDATA', 'a CDATA section is not closed'],
  ['Unterminated reference', 'an "&" that starts no entity'],
  ['Invalid character reference', 'an invalid character reference'],
  ['Character reference resolves', 'an invalid character reference'],
  ['Invalid character', 'a character XML does not allow'],
  ['Extra content at the end', 'more content after the root element'],
  ['Root element is missing', 'no root element'],
  ['Expected a name', 'a name is missing'],
];

/** Line and column (1-based) of `index` in `text`. */
function placeOf(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: index - lineStart + 1 };
}

const placed = ({ line, column }: { line: number; column: number }) => `at line ${line}, column ${column}`;

const looksLikeHtml = (document: string) => /^(<!doctype\s+html|<html[\s>])/i.test(document);

/** The document parsed as XML, or a FeedParseError that says where and (in our words) why it is not well-formed. */
function parseFeedXml(document: string, offset: number, whole: string): XmlDocument {
  try {
    return parseXml(document, { resolveUndefinedEntity: (reference) => decodeHTML(reference) });
  } catch (error) {
    if (looksLikeHtml(document)) throw new FeedParseError('not a feed: an HTML page');
    if (!(error instanceof XmlError)) throw new FeedParseError('not well-formed XML');
    const reason = XML_REASONS.find(([start]) => error.message.startsWith(start))?.[1];
    const place = placed(placeOf(whole, offset + error.pos));
    throw new FeedParseError(`not well-formed XML ${place}${reason === undefined ? '' : ` (${reason})`}`);
  }
}

/** The document parsed as JSON, or a FeedParseError that says where, when the engine's message says. */
function parseFeedJson(document: string, offset: number, whole: string): unknown {
  try {
    return JSON.parse(document);
  } catch (error) {
    // The engine's message quotes the document; only the position is taken from it, as a number.
    const position = /at position (\d+)/.exec((error as Error).message)?.[1];
    throw new FeedParseError(
      position === undefined ? 'not valid JSON' : `not valid JSON ${placed(placeOf(whole, offset + Number(position)))}`,
    );
  }
}

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
  if (root === null) throw new FeedParseError('not a feed: the document has no root element');
  switch (localName(root)) {
    case 'rss':
      return childrenNamed(root, 'channel').flatMap((channel) => childrenNamed(channel, 'item').map(rssItem));
    case 'RDF':
      return childrenNamed(root, 'item').map(rssItem);
    case 'feed':
      return childrenNamed(root, 'entry').map(atomEntry);
    default:
      throw new FeedParseError(
        localName(root).toLowerCase() === 'html'
          ? 'not a feed: an HTML page'
          : 'not a feed: no <rss>, <rdf:RDF> or <feed> root element',
      );
  }
}

const stringOrNull = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/** JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1). */
function jsonFeedItems(document: string, offset: number, whole: string): RawItem[] {
  const feed = parseFeedJson(document, offset, whole) as { version?: unknown; items?: unknown };
  if (typeof feed !== 'object' || feed === null || !String(feed.version).startsWith('https://jsonfeed.org/version/'))
    throw new FeedParseError(
      'not a feed: a JSON document that is not a JSON Feed (no https://jsonfeed.org/version/ "version")',
    );
  if (!Array.isArray(feed.items)) throw new FeedParseError('not a feed: a JSON Feed without an "items" list');
  if (!feed.items.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item)))
    throw new FeedParseError('not a feed: a JSON Feed whose "items" are not all objects');
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
 * The posts of an RSS, Atom, RDF or JSON Feed document; throws a FeedParseError on a malformed one. Named HTML
 * entities that an XML feed uses without declaring them (`&nbsp;`, `&rsquo;`, common in feeds written by hand) are
 * read as HTML.
 */
export function feedItems(document: string): FeedItem[] {
  const trimmed = document.trimStart();
  const offset = document.length - trimmed.length;
  const raw = trimmed.startsWith('{')
    ? jsonFeedItems(trimmed, offset, document)
    : xmlItems(parseFeedXml(trimmed, offset, document));
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
