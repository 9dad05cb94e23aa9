import { FeedQuerySchema, IcsQuerySchema, parseQuery } from '../../src/core/api/query.ts';
import { deriveBoard } from '../../src/core/board.ts';
import { renderAnnouncementCalendar } from '../../src/core/render/announcement-calendar.ts';
import { renderWindowCalendar, windowCalendarFileName } from '../../src/core/render/window-calendar.ts';
import type { EdgeContext } from '../context.ts';
import { withHeaders } from '../http/conditional.ts';
import { CACHE, CONTENT_TYPE, invalidQuery, textResponse } from '../http/responses.ts';
import { BASE_URL } from '../site.ts';

/** GET /api/ics (spec 4.5): a calendar of the caller's own windows, built from the query, stored nowhere. */
export function handleWindowCalendar(context: EdgeContext): Response {
  const query = parseQuery(IcsQuerySchema, context.url.searchParams);
  if (!query.ok) return invalidQuery(query.issues);
  return textResponse(renderWindowCalendar({ query: query.value, baseUrl: BASE_URL, now: context.now }), CONTENT_TYPE.calendar, CACHE.noStore, {
    'Content-Disposition': `attachment; filename=${windowCalendarFileName(query.value.provider)}`,
  });
}

/** GET /calendar.ics: every provider prerendered; `?provider=` computed here. */
export async function handleAnnouncementCalendar(context: EdgeContext): Promise<Response> {
  const query = parseQuery(FeedQuerySchema, context.url.searchParams);
  if (!query.ok) return invalidQuery(query.issues);
  if (query.value.provider === undefined) {
    return withHeaders(await context.asset('/calendar.ics'), { 'Content-Type': CONTENT_TYPE.calendar, 'Cache-Control': CACHE.calendar });
  }
  const { events } = await context.dataset();
  const board = deriveBoard(events, context.now);
  return textResponse(renderAnnouncementCalendar({ events, board, provider: query.value.provider, baseUrl: BASE_URL }), CONTENT_TYPE.calendar, CACHE.calendar);
}
