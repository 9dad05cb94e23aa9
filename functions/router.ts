import { handleBadge } from './api/badges.ts';
import { handleAnnouncementCalendar, handleWindowCalendar } from './api/calendars.ts';
import { handleFeed, redirectToFeed } from './api/feeds.ts';
import { handleMarkdown } from './api/markdown.ts';
import { handleProviderStatus, handleStatus } from './api/status.ts';
import { handleTimeline, handleTimelineCsv } from './api/timeline.ts';
import type { EdgeContext } from '../src/server/context.ts';

/** The paths the edge answers itself, before Astro; every one is a GET (HEAD and OPTIONS follow from it). */
type Handler = (context: EdgeContext) => Promise<Response> | Response;

const EXACT_ROUTES: Readonly<Record<string, Handler>> = {
  '/api/status': handleStatus,
  '/api/timeline': handleTimeline,
  '/api/timeline.csv': handleTimelineCsv,
  '/feed.xml': (context) => handleFeed(context, 'rss'),
  '/feed.atom': (context) => handleFeed(context, 'atom'),
  '/feed.json': (context) => handleFeed(context, 'json'),
  '/api/feed': redirectToFeed,
  '/api/ics': handleWindowCalendar,
  '/calendar.ics': handleAnnouncementCalendar,
  '/index.md': (context) => handleMarkdown(context, 'en'),
  '/zh/index.md': (context) => handleMarkdown(context, 'zh'),
};

/** Paths with a last segment that names a provider. */
const PREFIX_ROUTES: readonly [string, (context: EdgeContext, segment: string) => Promise<Response>][] = [
  ['/api/status/', handleProviderStatus],
  ['/badge/', handleBadge],
];

export function findRoute(pathname: string): Handler | undefined {
  if (Object.hasOwn(EXACT_ROUTES, pathname)) return EXACT_ROUTES[pathname];
  for (const [prefix, handler] of PREFIX_ROUTES) {
    if (pathname.startsWith(prefix)) return (context) => handler(context, safeDecode(pathname.slice(prefix.length)));
  }
  return undefined;
}

/** A malformed percent-escape names no provider; it must not throw. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
