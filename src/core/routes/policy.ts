/**
 * The HTTP vocabulary every route is described with: caching (spec section 8) and media types. Pure data, so
 * that the route table, the worker and the build share one copy.
 */

export const CACHE_POLICIES = {
  api: 'public, s-maxage=60, stale-while-revalidate=300',
  feed: 'public, s-maxage=300, stale-while-revalidate=600',
  markdown: 'public, s-maxage=60',
  /** The subscribable calendar changes as feeds do; calendar apps poll it hourly (REFRESH-INTERVAL). */
  calendar: 'public, s-maxage=300, stale-while-revalidate=600',
  /** Documents that change only with a deploy. */
  document: 'public, max-age=300, s-maxage=3600',
  /** The build's data files: short, so that a new build shows within a minute. */
  data: 'public, max-age=60, s-maxage=60',
  /** Badges sit in READMEs and pages that reload often: browsers keep one a minute, the edge as the API. */
  badge: 'public, max-age=60, s-maxage=60, stale-while-revalidate=300',
  noStore: 'no-store',
} as const;
export type CachePolicy = keyof typeof CACHE_POLICIES;

export const CONTENT_TYPES = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  markdown: 'text/markdown; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  calendar: 'text/calendar; charset=utf-8',
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  jsonFeed: 'application/feed+json; charset=utf-8',
  svg: 'image/svg+xml; charset=utf-8',
  eventStream: 'text/event-stream',
  html: 'text/html; charset=utf-8',
} as const;
export type ContentTypeName = keyof typeof CONTENT_TYPES;

/** The media type without parameters, as OpenAPI names a response's content. */
export const mediaTypeOf = (name: ContentTypeName): string => CONTENT_TYPES[name].split(';')[0]!;

/** The spec's preflight answer (section 4): any origin, a day's cache. */
export const PREFLIGHT_MAX_AGE_SECONDS = 86_400;
