import { decodeHTML } from 'entities';
import { parseFeed } from 'feedsmith';
import { SUMMARY_MAX_CHARACTERS } from '../schemas.ts';

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

const plainText = (html: string | undefined) =>
  decodeHTML((html ?? '').replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();

const isoOrNull = (value: unknown): string | null => {
  if (value === undefined || value === null) return null;
  const ms = value instanceof Date ? value.getTime() : Date.parse(String(value));
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
};

interface LooseItem {
  id?: string | { value?: string };
  guid?: { value?: string } | string;
  link?: string;
  url?: string;
  links?: { href?: string; rel?: string }[];
  title?: string | { value?: string };
  description?: string;
  summary?: string | { value?: string };
  content?: string | { value?: string };
  content_text?: string;
  content_html?: string;
  pubDate?: unknown;
  published?: unknown;
  updated?: unknown;
  date_published?: unknown;
}

const textOf = (value: string | { value?: string } | undefined) => (typeof value === 'string' ? value : value?.value);

function normalize(item: LooseItem): FeedItem | null {
  const link =
    item.link ??
    item.url ??
    item.links?.find((candidate) => !candidate.rel || candidate.rel === 'alternate')?.href ??
    null;
  const key = link ?? textOf(typeof item.guid === 'string' ? item.guid : item.guid) ?? textOf(item.id) ?? null;
  if (key === null) return null;
  const title = plainText(textOf(item.title));
  const body = plainText(
    item.content_text ?? item.content_html ?? textOf(item.content) ?? item.description ?? textOf(item.summary),
  );
  const text = body.startsWith(title) ? body : [title, body].filter(Boolean).join(' ');
  return {
    key,
    link,
    text,
    ownText: body || title,
    publishedAt: isoOrNull(item.pubDate ?? item.published ?? item.date_published ?? item.updated),
  };
}

/** The posts of an RSS, Atom, RDF or JSON Feed document (parsed by feedsmith); throws on a malformed one. */
export function feedItems(document: string): FeedItem[] {
  const { feed } = parseFeed(document) as { feed: { items?: LooseItem[]; entries?: LooseItem[] } };
  return (feed.items ?? feed.entries ?? []).map(normalize).filter((item): item is FeedItem => item !== null);
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
