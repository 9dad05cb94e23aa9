import { providerCalendarPath } from '../../src/core/built-paths.ts';
import { renderWindowCalendar, windowCalendarFileName } from '../../src/core/render/window-calendar.ts';
import { CONTENT_TYPES } from '../../src/core/routes/policy.ts';
import { BASE_URL } from '../../src/server/base-url.ts';
import { textResponse, withHeaders } from '../../src/server/http/responses.ts';
import type { EdgeHandlers } from '../route-handler.ts';

export const CALENDAR_HANDLERS = {
  /** GET /api/ics (spec 4.5): a calendar of the caller's own windows, built from the query, stored nowhere. */
  getWindowCalendar: (context, { query }) =>
    textResponse(renderWindowCalendar({ query, baseUrl: BASE_URL, now: context.now }), CONTENT_TYPES.calendar, {
      'Content-Disposition': `attachment; filename=${windowCalendarFileName(query.provider)}`,
    }),
  /**
   * GET /calendar.ics: every announcement of the whole history, so both the full calendar and each provider's
   * (`?provider=`, also at /calendar/<provider>.ics) are prerendered; the edge picks the file.
   */
  getAnnouncementCalendar: async (context, { query }) => {
    const file = query.provider === undefined ? '/calendar.ics' : providerCalendarPath(query.provider);
    return withHeaders(await context.asset(file), { 'Content-Type': CONTENT_TYPES.calendar });
  },
} satisfies Partial<EdgeHandlers>;
