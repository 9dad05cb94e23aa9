import { FEED_FORMATS, type FeedFormat } from './render/feed-formats.ts';
import type { Provider } from './vocabulary.ts';

/**
 * Where the build puts the files the edge picks for a query (prerendered.ts writes them): kept apart from the
 * renderers so that the worker imports the addresses, not the code that makes the files.
 */

/**
 * One provider's feed, built with the others: rendering 100 items at the edge cost about 2 ms of CPU, so
 * `?provider=` picks this file instead. Not a public address of its own (the feed's is `/feed.xml?provider=`).
 */
export function providerFeedPath(format: FeedFormat, provider: Provider): string {
  return `/data/feeds/${provider}${FEED_FORMATS[format].path.slice('/feed'.length)}`;
}

/**
 * The announcements of `/calendar.ics` (no provider) or of one provider's calendar, as the build writes them:
 * iCalendar VEVENTs without the calendar around them, which the edge writes with the estimates at request time
 * (src/core/render/announcement-calendar.ts). Not a calendar, and not a public address of its own.
 */
export function calendarEventsPath(provider: Provider | undefined): string {
  return `/data/calendar-events/${provider ?? 'all'}.txt`;
}
