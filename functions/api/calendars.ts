import { FeedQuerySchema, IcsQuerySchema, parseQuery } from '../../src/core/api/query.ts';
import { renderWindowCalendar, windowCalendarFileName } from '../../src/core/render/window-calendar.ts';
import { providerCalendarPath } from '../../src/core/built-paths.ts';
import { CONTENT_TYPES } from '../../src/core/routes/policy.ts';
import { BASE_URL } from '../../src/server/base-url.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { invalidQuery, textResponse, withHeaders } from '../../src/server/http/responses.ts';

/** GET /api/ics (spec 4.5): a calendar of the caller's own windows, built from the query, stored nowhere. */
export function handleWindowCalendar(context: EdgeContext): Response {
  const query = parseQuery(IcsQuerySchema, context.url.searchParams);
  if (!query.ok) return invalidQuery(query.issues);
  return textResponse(
    renderWindowCalendar({ query: query.value, baseUrl: BASE_URL, now: context.now }),
    CONTENT_TYPES.calendar,
    {
      'Content-Disposition': `attachment; filename=${windowCalendarFileName(query.value.provider)}`,
    },
  );
}

/**
 * GET /calendar.ics: every announcement of the whole history, so both the full calendar and each provider's
 * (`?provider=`, also at /calendar/<provider>.ics) are prerendered; the edge picks the file.
 */
export async function handleAnnouncementCalendar(context: EdgeContext): Promise<Response> {
  const query = parseQuery(FeedQuerySchema, context.url.searchParams);
  if (!query.ok) return invalidQuery(query.issues);
  const file = query.value.provider === undefined ? '/calendar.ics' : providerCalendarPath(query.value.provider);
  return withHeaders(await context.asset(file), { 'Content-Type': CONTENT_TYPES.calendar });
}
