import { TIMELINE_LIMIT } from '../../src/core/api/query.ts';
import { buildTimelineResponse, type TimelineSelection } from '../../src/core/api/timeline.ts';
import { recentEvents } from '../../src/core/dataset.ts';
import { renderTimelineCsv, timelineCsvFileName } from '../../src/core/render/timeline-csv.ts';
import { CONTENT_TYPES } from '../../src/core/routes/policy.ts';
import { routeById } from '../../src/core/routes/table.ts';
import { BASE_URL } from '../../src/server/base-url.ts';
import type { EdgeContext } from '../../src/server/context.ts';
import { conditionalJson } from '../../src/server/http/conditional.ts';
import { textResponse, withHeaders } from '../../src/server/http/responses.ts';
import type { EdgeHandlers } from '../route-handler.ts';

/** The unfiltered default is a prerendered file; any other selection is computed here. */
const isDefault = ({ provider, limit }: TimelineSelection) => provider === 'all' && limit === TIMELINE_LIMIT.default;
const TIMELINE_FILE = routeById('getTimeline').prerendered!;
const TIMELINE_CSV_FILE = routeById('getTimelineCsv').prerendered!;

const csvHeaders = (selection: TimelineSelection) => ({
  'Content-Type': CONTENT_TYPES.csv,
  'Content-Disposition': `inline; filename=${timelineCsvFileName(selection.provider)}`,
});

async function answerCsv(context: EdgeContext, selection: TimelineSelection): Promise<Response> {
  if (isDefault(selection)) return withHeaders(await context.asset(TIMELINE_CSV_FILE), csvHeaders(selection));
  const events = recentEvents(await context.dataset(), selection.provider, selection.limit);
  return textResponse(renderTimelineCsv(events, BASE_URL), CONTENT_TYPES.csv, csvHeaders(selection));
}

export const TIMELINE_HANDLERS = {
  /** GET /api/timeline (spec 4.2). */
  getTimeline: async (context, { query: { format, ...selection } }) => {
    if (format === 'csv') return answerCsv(context, selection);
    if (isDefault(selection))
      return withHeaders(await context.asset(TIMELINE_FILE), { 'Content-Type': CONTENT_TYPES.json });
    return conditionalJson(context.request, buildTimelineResponse(await context.dataset(), selection, context.now));
  },
  /** GET /api/timeline.csv (spec 4.3). */
  getTimelineCsv: (context, { query }) => answerCsv(context, query),
} satisfies Partial<EdgeHandlers>;
