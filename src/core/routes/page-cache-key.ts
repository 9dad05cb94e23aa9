import { boardSuggestion, pageTemplateOf } from '../page-slots/templates.ts';
import { localizedPath } from '../site.ts';
import { PROVIDERS } from '../vocabulary.ts';

/**
 * Which rendered pages the edge keeps for a minute (src/server/page-cache.ts), and under which key. A page whose
 * words depend only on the events and the minute is the same for everyone within that minute: the board, the
 * provider pages and the window tracker, in each language. The key holds the build (a new build never answers with
 * the old one's page), the minute (status words and relative times stay right to the minute), the path (each
 * language and provider its own) and, for the tracker, the form's fields in a fixed order; any other query is
 * ignored, as the pages ignore it, so that a made-up parameter cannot push past the cache.
 */

const PAGE_NAMES = new Set<string>(['', 'tracker', ...PROVIDERS]);
/** The tracker form's fields (src/core/tracker/plan.ts): its answer depends on them. */
const TRACKER_FIELDS = ['provider', 'locale', 'tz', 'reset', 'weekly'] as const;
export const MINUTE_MS = 60_000;

/** The minute a page of `nowMs` belongs to: its key's, and the isolate's memo's (src/server/page-memo.ts). */
export const pageMinute = (nowMs: number): number => Math.floor(nowMs / MINUTE_MS);

/** The page's own path without the language prefix, or null when the path is not a page kept in the cache. */
function pageName(pathname: string): string | null {
  const english = localizedPath(pathname, 'en');
  const name = english.slice(1);
  return PAGE_NAMES.has(name) ? name : null;
}

/**
 * The key of `url`'s page at `nowMs` in build `buildId`, or null when the page is not kept. The English board (`/`)
 * suggests the reader's language from `acceptLanguage`, so it is kept once per language it suggests.
 */
export function pageCacheKey(
  url: URL,
  buildId: string,
  nowMs: number,
  acceptLanguage: string | null = null,
): string | null {
  const name = pageName(url.pathname);
  if (name === null) return null;
  const query = new URLSearchParams();
  if (name === 'tracker') {
    for (const field of TRACKER_FIELDS) {
      const values = url.searchParams.getAll(field);
      // A repeated field is the page's own business (it reads the first); such a request is not kept.
      if (values.length > 1) return null;
      if (values[0] !== undefined) query.set(field, values[0]);
    }
  }
  const board = pageTemplateOf(url);
  const suggestion = board?.name === 'board' ? boardSuggestion(board.locale, acceptLanguage) : null;
  if (suggestion !== null) query.set('suggest', suggestion);
  const minute = pageMinute(nowMs);
  const search = query.size === 0 ? '' : `?${query}`;
  return `${url.origin}/.page-cache/${encodeURIComponent(buildId)}/${minute}${url.pathname}${search}`;
}
